"""Memberships: asking to join, invitations, approvals, roles, removal and leaving.

Who does what (see :mod:`clubs.permissions`): anyone logged in asks to join a club open to
requests; owners and organisers invite by username; the invited user accepts (or declines by
leaving); owners approve or decline requests, change roles and remove members; anyone leaves.
A club keeps at least one owner: every service runs under the club's row lock and re-reads the
actor's role under it, so no interleaving of demotions, removals and departures leaves none.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from .. import errors
from ..models import Club, Membership
from ..permissions import OWNER, require_club_manager, require_club_owner
from .common import (
    club_audit_record,
    club_lock,
    home_club_release,
    membership_activate,
    membership_summary,
    require_authenticated,
)

ACTIVE, REQUESTED, INVITED = Membership.Status.ACTIVE, Membership.Status.REQUESTED, Membership.Status.INVITED


def _membership_of(club: Club, membership_id) -> Membership:
    """The club's membership ``membership_id`` (its user joined); DomainError ``unknown_membership``."""
    try:
        return Membership.objects.select_related("user", "player").get(pk=int(membership_id), club=club)
    except (Membership.DoesNotExist, TypeError, ValueError):
        raise errors.unknown_membership(membership_id) from None


def _own_membership(club: Club, user) -> Membership | None:
    return Membership.objects.select_related("user").filter(club=club, user_id=user.pk).first()


def _owner_count(club: Club) -> int:
    return Membership.objects.filter(club=club, status=ACTIVE, role=OWNER).count()


def _keep_an_owner(club: Club, membership: Membership) -> None:
    """Conflict ``last_owner`` if ``membership`` is the club's only active owner (called under the
    club's lock, before it stops being one)."""
    if membership.status == ACTIVE and membership.role == OWNER and _owner_count(club) <= 1:
        raise errors.last_owner()


@transaction.atomic
def membership_request(*, club_id: int, user) -> Membership:
    """A logged-in user asks to join a club that takes requests: a membership ``requested``,
    waiting for an owner. Asking again changes nothing (the same request is returned). Audited
    as ``membership.requested``.

    Raises Club.DoesNotExist; NotAllowed ``not_authenticated``; Conflict ``closed_to_requests``,
    ``already_member``, ``already_pending`` (he is invited: he accepts instead).
    """
    require_authenticated(user)
    club = club_lock(club_id)
    existing = _own_membership(club, user)
    if existing is not None:
        if existing.status == REQUESTED:
            return existing
        if existing.status == ACTIVE:
            raise errors.already_member()
        raise errors.already_pending(existing.status)
    if not club.open_to_requests:
        raise errors.closed_to_requests()
    membership = Membership.objects.create(club=club, user=user, status=REQUESTED)
    club_audit_record("membership.requested", actor=user, club=club, obj=membership, after=membership_summary(membership))
    return membership


@transaction.atomic
def membership_invite(*, club_id: int, user, username: str) -> Membership:
    """An owner or organiser invites the user named ``username`` (clubs closed to requests too):
    a membership ``invited``, which that user accepts. Inviting him again changes nothing.
    Audited as ``membership.invited``.

    Raises Club.DoesNotExist; NotAllowed ``not_club_manager``; DomainError ``unknown_user``;
    Conflict ``already_member``, ``already_pending`` (he has asked to join: an owner approves).
    """
    club = club_lock(club_id)
    require_club_manager(club, user)
    name = username.strip() if isinstance(username, str) else ""
    invitee = get_user_model().objects.filter(username=name, is_active=True).first() if name else None
    if invitee is None:
        raise errors.unknown_user(username)
    existing = _own_membership(club, invitee)
    if existing is not None:
        if existing.status == INVITED:
            return existing
        if existing.status == ACTIVE:
            raise errors.already_member()
        raise errors.already_pending(existing.status)
    membership = Membership.objects.create(club=club, user=invitee, status=INVITED, invited_by=user)
    club_audit_record("membership.invited", actor=user, club=club, obj=membership, after=membership_summary(membership))
    return membership


@transaction.atomic
def membership_accept(*, club_id: int, user) -> Membership:
    """The invited user accepts his invitation: his membership becomes active (as a member).
    Accepting again changes nothing. Audited as ``membership.accepted``.

    Raises Club.DoesNotExist; NotAllowed ``not_authenticated``; Conflict ``not_pending`` (no
    invitation for him; a request waits for an owner instead).
    """
    require_authenticated(user)
    club = club_lock(club_id)
    membership = _own_membership(club, user)
    if membership is not None and membership.status == ACTIVE:
        return membership
    if membership is None or membership.status != INVITED:
        raise errors.not_pending(INVITED)
    before = membership_summary(membership)
    membership_activate(membership)
    club_audit_record("membership.accepted", actor=user, club=club, obj=membership, before=before,
                      after=membership_summary(membership))
    return membership


@transaction.atomic
def membership_approve(*, club_id: int, membership_id: int, user) -> Membership:
    """An owner approves a request to join: the membership becomes active (as a member).
    Approving it again changes nothing. Audited as ``membership.approved``.

    Raises Club.DoesNotExist; NotAllowed ``not_club_owner``; DomainError ``unknown_membership``;
    Conflict ``not_pending`` (an invitation: the invited user accepts it himself).
    """
    club = club_lock(club_id)
    require_club_owner(club, user)
    membership = _membership_of(club, membership_id)
    if membership.status == ACTIVE:
        return membership
    if membership.status != REQUESTED:
        raise errors.not_pending(REQUESTED)
    before = membership_summary(membership)
    membership_activate(membership)
    club_audit_record("membership.approved", actor=user, club=club, obj=membership, before=before,
                      after=membership_summary(membership))
    return membership


@transaction.atomic
def membership_decline(*, club_id: int, membership_id: int, user) -> None:
    """An owner declines a request to join, or withdraws an invitation: the membership row is
    deleted (the user may ask, or be invited, again). Audited as ``membership.declined``.

    Raises Club.DoesNotExist; NotAllowed ``not_club_owner``; DomainError ``unknown_membership``;
    Conflict ``not_pending`` (an active membership: remove it instead).
    """
    club = club_lock(club_id)
    require_club_owner(club, user)
    membership = _membership_of(club, membership_id)
    if membership.status == ACTIVE:
        raise errors.not_pending(REQUESTED)
    before, pk = membership_summary(membership), membership.pk
    membership.delete()
    membership.pk = pk
    club_audit_record("membership.declined", actor=user, club=club, obj=membership, before=before)


@transaction.atomic
def membership_role_change(*, club_id: int, membership_id: int, user, role: str) -> Membership:
    """An owner gives an active member another role (owner, organiser, member); an owner may
    demote himself while another owner remains. The same role again changes nothing. Audited as
    ``membership.role_changed``.

    Raises Club.DoesNotExist; NotAllowed ``not_club_owner``; DomainError ``bad_role``,
    ``unknown_membership``; Conflict ``not_active`` (a request or invitation has no role yet),
    ``last_owner``.
    """
    if role not in Membership.Role.values:
        raise errors.bad_role(role)
    club = club_lock(club_id)
    require_club_owner(club, user)
    membership = _membership_of(club, membership_id)
    if membership.status != ACTIVE:
        raise errors.not_active()
    if membership.user_id is None and role != Membership.Role.MEMBER:
        raise errors.walk_in_role(membership.member_name)
    if membership.role == role:
        return membership
    if role != OWNER:
        _keep_an_owner(club, membership)
    before = membership_summary(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    club_audit_record("membership.role_changed", actor=user, club=club, obj=membership, before=before,
                      after=membership_summary(membership))
    return membership


@transaction.atomic
def membership_remove(*, club_id: int, membership_id: int, user) -> None:
    """An owner removes an active member from the club (the row is deleted; his player's home
    club is cleared if it was this one; his check-ins and results stay). Audited as
    ``membership.removed``.

    Raises Club.DoesNotExist; NotAllowed ``not_club_owner``; DomainError ``unknown_membership``;
    Conflict ``not_active`` (a request or invitation: decline it), ``last_owner``.
    """
    club = club_lock(club_id)
    require_club_owner(club, user)
    membership = _membership_of(club, membership_id)
    if membership.status != ACTIVE:
        raise errors.not_active()
    _keep_an_owner(club, membership)
    before, pk = membership_summary(membership), membership.pk
    home_club_release(membership)
    membership.delete()
    membership.pk = pk
    club_audit_record("membership.removed", actor=user, club=club, obj=membership, before=before)


@transaction.atomic
def membership_leave(*, club_id: int, user) -> None:
    """The user leaves the club: an active member leaves (his player's home club is cleared if
    it was this one), a pending request is withdrawn, an invitation declined; the row is deleted.
    Audited as ``membership.left``.

    Raises Club.DoesNotExist; NotAllowed ``not_authenticated``; Conflict ``no_membership`` (he
    has none here), ``last_owner`` (he is the only owner: make another member owner first).
    """
    require_authenticated(user)
    club = club_lock(club_id)
    membership = _own_membership(club, user)
    if membership is None:
        raise errors.no_membership()
    _keep_an_owner(club, membership)
    before, pk = membership_summary(membership), membership.pk
    if membership.status == ACTIVE:
        home_club_release(membership)
    membership.delete()
    membership.pk = pk
    club_audit_record("membership.left", actor=user, club=club, obj=membership, before=before)
