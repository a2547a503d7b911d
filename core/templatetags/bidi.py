"""Text that reads left to right inside a page of any direction: numbers, scores, ratings, dates
written with digits, Position IDs, match IDs and move notation (``13/7 8/7``). In an Arabic page
(``dir="rtl"``) such a run, left bare, is reordered by the bidirectional algorithm ("5-3" shows
as "3-5"); isolated in its own left-to-right span it stays as written.

    {% load bidi %}
    {{ match.score0 }}-{{ match.score1 }}       ->  {{ score|ltr }}
    <td>{{ play|ltr }}</td>
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter(is_safe=True)
def ltr(value) -> str:
    """``value`` (escaped) in a ``<bdi dir="ltr">``: isolated from the text around it and read
    left to right whatever the page's direction."""
    return format_html('<bdi dir="ltr">{}</bdi>', value)
