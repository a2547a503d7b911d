"""Template filters of divisions and handicaps."""

from django import template

from tournaments.divisions_text import handicap_said

register = template.Library()


@register.filter
def handicap_start(pairing) -> str:
    """A shown match's handicap start as a sentence (``selectors.PairingView``), or ""."""
    return handicap_said(pairing)
