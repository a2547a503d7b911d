"""Template tags of claims: what the "This is me" box of a player's page (matches/_claim.html)
needs besides the player, so that the player's page view need not know about claims."""

from __future__ import annotations

from django import template

from ..selectors.claims import open_claim_of

register = template.Library()


@register.simple_tag(takes_context=True)
def open_claim(context, profile):
    """The signed-in user's claim of ``profile`` waiting for a decision, or None: one query, and
    only for a player without a user seen by a signed-in user."""
    request = context.get("request")
    if profile.user_id is not None or request is None:
        return None
    return open_claim_of(request.user, profile.pk)
