"""Money and percentages as people read them (the paid places on the pages)."""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _


def money(cents: int) -> str:
    """An amount in cents in the reader's number format (two decimals)."""
    return number_format(Decimal(cents) / 100, 2, force_grouping=True)


def percent(value: Decimal) -> str:
    """A percentage in the reader's number format, without needless decimals."""
    whole = value == value.to_integral_value()
    return _("%(value)s %%") % {"value": number_format(value.quantize(Decimal(1)) if whole else value, 0 if whole else 2)}
