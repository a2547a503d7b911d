"""What every clubs service does first: lock the club, and what it writes to the audit log."""

from __future__ import annotations

from django.utils import timezone

from audit.services import audit_record
from core.locking import locked_one
from matches.services.matches import player_create, player_for_user

from .. import errors
from ..models import Club, HomeClub, Membership


def club_lock(club_id: int) -> Club:
    """The club row, locked until the transaction ends. Every change of a club's memberships,
    nights and seasons runs under it, so they are serialised: two owners demoting each other at
    the same moment are decided one after the other, and the second sees the first's change (the
    club never ends with no owner). Raises Club.DoesNotExist."""
    return locked_one(Club.objects.all(), pk=club_id)


def require_authenticated(user) -> None:
    if not getattr(user, "is_authenticated", False):
        raise errors.not_logged_in()


def club_audit_record(action: str, *, actor, club: Club, obj, before=None, after=None, note: str = "") -> None:
    """One audit entry for a change of ``obj`` (a row of the club, or the club itself)."""
    audit_record(actor=actor, action=action, object_type=f"clubs.{type(obj).__name__}", object_id=obj.pk,
                 club_id=club.pk, before=before, after=after, note=note)


def membership_summary(membership: Membership) -> dict:
    """What the audit log keeps of a membership: whose, role and status (never an email)."""
    return {"user": membership.member_name, "role": membership.role, "status": membership.status}


def membership_activate(membership: Membership) -> None:
    """Make the membership active from now on, giving its user a player profile if he has none
    (a club member checks in and plays as a player) and this club as his home club if he has
    none (``HomeClub``: what "same club" means to a draw)."""
    membership.status = Membership.Status.ACTIVE
    membership.joined_at = timezone.now()
    membership.save(update_fields=["status", "joined_at"])
    player = player_for_user(membership.user)
    if player is None:
        user = membership.user
        player = player_create(display_name=user.get_full_name() or user.get_username(), user=user)
    home_club_offer(player, membership.club_id)


def home_club_offer(player, club_id: int) -> None:
    """Make ``club_id`` the player's home club unless he has one (the first club stays home).
    One statement: an existing home club (two activations racing too) is left as it is."""
    HomeClub.objects.bulk_create([HomeClub(player=player, club_id=club_id)], ignore_conflicts=True)


def home_club_release(membership: Membership) -> None:
    """The member's player (his user's, or a walk-in's guest player) no longer has this club as
    home club once he is out of it."""
    mine = {"player__user_id": membership.user_id} if membership.user_id else {"player_id": membership.player_id}
    HomeClub.objects.filter(club_id=membership.club_id, **mine).delete()
