"""Lists on a page joined as the reader's language joins them (core.text): the Arabic comma "،"
and semicolon "؛" in Arabic, never a Latin one inside an Arabic sentence.

    {% load lists %}
    {% for e in entrants %}{{ e.name }}{% if not forloop.last %}{% comma %}{% endif %}{% endfor %}
    {{ names|join_list }}
"""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from core.text import clause_separator, list_separator
from core.text import join_list as join_text

register = template.Library()


@register.simple_tag
def comma() -> str:
    """The list separator of the active language (", ", Arabic "، ")."""
    return list_separator()


@register.simple_tag
def semicolon() -> str:
    """The clause separator of the active language ("; ", Arabic "؛ ")."""
    return clause_separator()


@register.filter(is_safe=True, needs_autoescape=True)
def join_list(items, autoescape=True) -> str:
    """``items`` joined with the list separator of the active language, each escaped."""
    escape = conditional_escape if autoescape else str
    return mark_safe(join_text(escape(item) for item in items if item not in (None, "")))
