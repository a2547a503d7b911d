"""Text that reads left to right inside a page of any direction: numbers, scores, ratings, dates
written with digits, Position IDs, match IDs and move notation (``13/7 8/7``). In an Arabic page
(``dir="rtl"``) such a run, left bare, is reordered by the bidirectional algorithm ("5-3" shows
as "3-5"); isolated in its own left-to-right span it stays as written.

    {% load bidi %}
    {{ match.score0 }}-{{ match.score1 }}       ->  {{ score|ltr }}
    <td>{{ play|ltr }}</td>

A name placed inside a sentence (``{% blocktranslate with who=entry.name|isolate %}``) is kept
apart from the names and numbers beside it by :func:`core.text.isolate`: in an Arabic page two
Latin names side by side ("سجّل Olga Ana") otherwise read as one run.
"""

from __future__ import annotations

from django import template
from django.template.defaultfilters import floatformat
from django.utils.html import format_html

from core.text import isolate as isolate_name

register = template.Library()


@register.filter(is_safe=True)
def ltr(value) -> str:
    """``value`` (escaped) in a ``<bdi dir="ltr">``: isolated from the text around it and read
    left to right whatever the page's direction."""
    return format_html('<bdi dir="ltr">{}</bdi>', value)


@register.filter(is_safe=True)
def isolate(value) -> str:
    """``value``, a name, as it stands inside a sentence (:func:`core.text.isolate`): between the
    Unicode isolates in a right-to-left page, or when it holds a right-to-left letter. Characters,
    not markup: the page escapes the name as before (a name already safe stays so), and the isolates
    work in a ``<title>`` and an attribute too."""
    return isolate_name(value)


#: The minus sign (U+2212), not the hyphen-minus: the width of the plus, and read as a sign.
MINUS = "\u2212"


@register.filter(is_safe=True)
def signed(value, places=None) -> str:
    """A difference with its sign, read left to right in a page of any direction: "+3", "0",
    "\u22122" (the minus sign U+2212), so that an Arabic table does not show the minus after the 2. ``places``: the
    decimals to show, as ``floatformat`` writes them in the page's language (``{{ change|signed:2 }}``);
    a whole number without. None shows nothing; another value that is not a number is shown as it
    is, isolated."""
    if value is None or value == "":
        return ""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return ltr(value)
    size = floatformat(abs(number), places) if places is not None else str(abs(int(number)))
    if size.strip("0.,\u066b\u0660") == "":  # nothing but zeros, in any digits: no sign
        return ltr(size)
    return ltr(f"{MINUS if number < 0 else '+'}{size}")


@register.filter(is_safe=True)
def rank(place, shared=False) -> str:
    """A place in standings, "=4" when it is shared with another (a tie), read left to right in a
    page of any direction, so that an Arabic table does not show "4=": ``{{ r.place|rank:r.shared }}``."""
    return ltr(f"={place}" if shared else place)
