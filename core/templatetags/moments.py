"""A moment to the second, in the reader's language (the audit log, the webhooks' deliveries):

    {% load moments %}
    <time datetime="{{ r.at|date:'c' }}">{{ r.at|datetime_seconds }}</time>

Django's date filter knows only its own named formats (DATE_FORMAT, DATETIME_FORMAT ...); the
seconds' one, ``DATETIME_SECONDS_FORMAT``, is the project's, in each language's format module
(settings.FORMAT_MODULE_PATH: config/formats/<language>/formats.py). A language without one writes
its DATETIME_FORMAT."""

from __future__ import annotations

from django import template
from django.utils import dateformat, formats, translation

register = template.Library()


def seconds_format(language: str | None = None) -> str | None:
    """The DATETIME_SECONDS_FORMAT of ``language`` (the active one by default), None when its format
    modules give none."""
    for module in formats.get_format_modules(language or translation.get_language()):
        found = getattr(module, "DATETIME_SECONDS_FORMAT", None)
        if found:
            return found
    return None


@register.filter(expects_localtime=True)
def datetime_seconds(value) -> str:
    """``value`` (a datetime, in the current time zone) to the second in the active language; ""
    for none."""
    if value in (None, ""):
        return ""
    found = seconds_format()
    return dateformat.format(value, found) if found else formats.date_format(value, "DATETIME_FORMAT")
