"""A field named in a sentence as people see it: by its label, never by its name in the code.

A service refuses a value naming the field it concerns: the error's ``field`` detail keeps the
field's name (``ends_on``, ``payouts.main.percentages[1]``) for the API's machines and for the
page that puts the refusal on its field, while the message a person reads names it by the label
the form shows ("Ends on: the event cannot end before it starts"). Each app keeps the labels of
its own fields (``<app>/labels.py``), the same words as its forms.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

__all__ = ["field_label", "field_refusal"]

# A refusal that names a field: ``DomainError(field_refusal(label, sentence), sentence=sentence,
# field=name)``. The API's ``detail`` and a page that shows it above its form read the message; a
# page that shows it beside its field (under the field's label) reads the sentence.


def field_label(labels: Mapping[str, object], name: str) -> str:
    """``name``'s label from ``labels`` in the reader's language; a name that has none (a key an
    API client sent that is no field at all) is quoted as it was sent. Raises nothing."""
    label = labels.get(name)
    if label is not None:
        return str(label)
    return _("“%(name)s”") % {"name": name}


def field_refusal(label: str, message: str) -> str:
    """A refusal about one field, led by its label: "Last day: the season ends before it starts"."""
    return _("%(field)s: %(message)s") % {"field": label, "message": message}
