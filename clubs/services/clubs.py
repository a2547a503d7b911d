"""Clubs: creating one, editing its details."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from core.text import name_clean

from .. import errors
from ..models import Club, Membership
from ..permissions import require_club_owner
from .common import club_audit_record, club_lock, membership_activate, require_authenticated

EDITABLE = ("name", "city", "description", "open_to_requests")
# Slugs the club pages' own routes use (/clubs/new/).
RESERVED_SLUGS = frozenset({"new"})


def _clean_name(name) -> str:
    name = name_clean(name, field="name", refuse=errors.bad_club) if isinstance(name, str) else ""
    if not name:
        raise errors.bad_club("name", _("a club needs a name"))
    if len(name) > 120:
        raise errors.bad_club("name", _("at most 120 characters"))
    return name


def _free_slug(name: str) -> str:
    """A slug from the name, unique among clubs: ``backgammon-lyon``, then ``backgammon-lyon-2``..."""
    base = slugify(name)[:100] or "club"
    slug, number = base, 1
    while slug in RESERVED_SLUGS or Club.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def _club_summary(club: Club) -> dict:
    return {field: getattr(club, field) for field in ("name", "slug", *EDITABLE[1:])}


@transaction.atomic
def club_create(*, user, name: str, city: str = "", description: str = "", open_to_requests: bool = True) -> Club:
    """Any logged-in user creates a club and becomes its first owner (an active membership; a
    player profile if he has none). The slug comes from the name, made unique. Audited as
    ``club.created`` and ``membership.created``.

    Raises NotAllowed ``not_authenticated``; DomainError ``bad_club`` (empty or long name, long
    city); Conflict ``name_taken`` (club names are unique, whatever their case).
    """
    require_authenticated(user)
    name = _clean_name(name)
    city = (city or "").strip()
    if len(city) > 120:
        raise errors.bad_club("city", _("at most 120 characters"))
    if Club.objects.filter(name__iexact=name).exists():
        raise errors.name_taken(name)
    try:
        # A savepoint: two clubs created at once with the same name or slug lose to the constraint.
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=_free_slug(name), city=city, description=description or "",
                                       open_to_requests=bool(open_to_requests))
    except IntegrityError:
        raise errors.name_taken(name) from None
    membership = Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER,
                                           status=Membership.Status.ACTIVE)
    membership_activate(membership)
    club_audit_record("club.created", actor=user, club=club, obj=club, after=_club_summary(club))
    club_audit_record("membership.created", actor=user, club=club, obj=membership,
                      after={"user": user.get_username(), "role": membership.role, "status": membership.status})
    return club


@transaction.atomic
def club_update(*, club_id: int, user, **changes) -> Club:
    """An owner edits the club's name, city, description or openness to requests (the slug, the
    club's address, stays). Audited as ``club.updated`` (only when something changed).

    Raises Club.DoesNotExist; NotAllowed ``not_club_owner``; DomainError ``bad_club`` (an unknown
    field, an empty name); Conflict ``name_taken``.
    """
    club = club_lock(club_id)
    require_club_owner(club, user)
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise errors.bad_club(unknown[0], _("cannot be changed"))
    before = _club_summary(club)
    if "name" in changes:
        changes["name"] = _clean_name(changes["name"])
        if Club.objects.filter(name__iexact=changes["name"]).exclude(pk=club.pk).exists():
            raise errors.name_taken(changes["name"])
    if "city" in changes:
        changes["city"] = (changes["city"] or "").strip()
        if len(changes["city"]) > 120:
            raise errors.bad_club("city", _("at most 120 characters"))
    for field, value in changes.items():
        setattr(club, field, value)
    if _club_summary(club) != before:
        club.save(update_fields=list(changes))
        club_audit_record("club.updated", actor=user, club=club, obj=club, before=before, after=_club_summary(club))
    return club
