"""What every page of a club shares, the club's own (clubs.views) and those of the apps standing on
clubs (the chouette tables): the club of the URL's slug, the context its navigation renders from,
and the checks of who may see or use a page.

Who is who is :mod:`clubs.permissions`; a check here answers 403 (PermissionDenied) to a logged-in
visitor without the role. Sending an anonymous visitor to sign in first is each view's
``login_required``.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.urls import reverse

from . import hooks, selectors
from .models import Club
from .permissions import MANAGERS, OWNER, club_role


def club_or_404(slug: str) -> Club:
    """The club of the URL, with ``member_count``; Http404 if there is none."""
    try:
        return selectors.club_get(slug=slug)
    except Club.DoesNotExist:
        raise Http404("no such club") from None


def club_page_context(request: HttpRequest, club: Club, **extra) -> dict:
    """The context of a club's page: the club, the visitor's role and what it lets him see (the
    club's navigation, clubs/_nav.html, reads ``is_member``, ``is_manager`` and ``club_links``: the
    links the apps on clubs add to it, :mod:`clubs.hooks`, as (label, url)), and ``extra``."""
    role = club_role(club, request.user)
    links = [(link.label, reverse(link.url_name, args=[club.slug])) for link in hooks.club_links.entries()
             if role is not None or not link.members_only]
    return {"club": club, "role": role, "is_member": role is not None, "is_manager": role in MANAGERS,
            "is_owner": role == OWNER, "club_links": links, **extra}


def require_member(request: HttpRequest, club: Club) -> None:
    """PermissionDenied unless the visitor is an active member of the club (any role)."""
    if club_role(club, request.user) is None:
        raise PermissionDenied("only the club's members may see this page")


def require_manager(request: HttpRequest, club: Club) -> None:
    """PermissionDenied unless the visitor is one of the club's owners or organisers."""
    if club_role(club, request.user) not in MANAGERS:
        raise PermissionDenied("only the club's owners and organisers may do this")


def require_owner(request: HttpRequest, club: Club) -> None:
    """PermissionDenied unless the visitor is one of the club's owners."""
    if club_role(club, request.user) != OWNER:
        raise PermissionDenied("only the club's owners may do this")
