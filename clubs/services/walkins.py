"""Walk-in members: a club's owner or organiser adds someone who has no account as a member. He
is a guest player (matches.services.guests) whose membership names the player instead of a user;
given his email, he is invited to claim the player, and when he does his membership becomes his
user's (:func:`membership_guest_claimed`, connected to ``matches.hooks.player_claimed``).

His name is read as the player pickers read it (matches.services.walkins): a name an existing
player has is that player, never a second one: a guest is made a member the same way, a player
with an account is invited to join (``members.membership_invite``: he accepts)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from matches.models import Player
from matches.services.guests import SentFor
from matches.services.walkins import player_walk_in

from .. import errors
from ..models import Membership
from ..permissions import require_club_manager
from .common import club_audit_record, club_lock, home_club_offer, membership_summary
from .members import membership_invite

ACTIVE = Membership.Status.ACTIVE


@transaction.atomic
def membership_add_walk_in(*, club_id: int, user, name: str, email: str = "", country: str = "",
                           confirm_namesake: bool = False) -> Membership:
    """An owner or organiser adds a walk-in member: the player
    ``matches.services.walkins.player_walk_in`` reads ``name``, ``email`` and ``country`` as. A
    new guest player (his country if given; with an ``email``, invited to claim the player; a
    namesake of existing players only with ``confirm_namesake`` and a country or email of his
    own), or an existing guest, is made an active member (the member role) with this club as his
    home club unless he has one; an existing player with an account is invited to join
    (``membership_invite``: the membership returned is ``invited``). The returned membership's
    ``walk_in`` says which player it is and whether he was created. One transaction: nothing is
    saved if any step is refused. Audited as ``player.guest_created`` (and ``player.invited``) and
    ``membership.walk_in`` (``membership.invited``).

    Raises Club.DoesNotExist; NotAllowed ``not_logged_in``, ``not_club_manager``; DomainError
    ``bad_name``, ``bad_email``, ``bad_country`` (each naming its field); what ``player_walk_in``
    raises (``namesake_exists``, ``namesakes_exist``, ``namesake_needs_detail``,
    ``namesake_not_distinct``); TooMany ``too_many_invitations``, ``address_invited_enough`` (the
    invitations' limits); Conflict ``already_member``, ``already_pending``.
    """
    club = club_lock(club_id)
    require_club_manager(club, user)
    walk_in = player_walk_in(actor=user, name=name, email=email, country=country, confirm_namesake=confirm_namesake,
                             sent_for=SentFor("club", club.name))
    player = walk_in.player
    mine = {"user_id": player.user_id} if player.user_id is not None else {"player": player}
    if Membership.objects.filter(club=club, status=ACTIVE, **mine).exists():
        raise errors.walk_in_already_member(player.display_name)
    if player.user_id is not None:
        membership = membership_invite(club_id=club.pk, user=user, username=player.user.get_username())
        membership.walk_in = walk_in
        return membership
    membership = Membership.objects.create(club=club, player=player, status=ACTIVE, invited_by=user,
                                           joined_at=timezone.now())
    home_club_offer(player, club.pk)
    club_audit_record("membership.walk_in", actor=user, club=club, obj=membership,
                      after=membership_summary(membership))
    membership.walk_in = walk_in
    return membership


def membership_guest_claimed(player: Player, user, actor) -> None:
    """``player``, a walk-in member of some clubs, is now ``user``'s: each of his memberships
    becomes the user's (an active member). Where the user already has a membership of that club,
    an active one is kept (the walk-in row is deleted); a request or an invitation gives way to
    the walk-in row, which is active. Runs in the claim's transaction, under each club's lock (by
    club id). Audited as ``membership.claimed``."""
    guest_rows = list(Membership.objects.filter(player=player).order_by("club_id").values_list("pk", "club_id"))
    for membership_id, club_id in guest_rows:
        club = club_lock(club_id)
        membership = Membership.objects.select_related("player").get(pk=membership_id)
        before = membership_summary(membership)
        own = Membership.objects.filter(club=club, user_id=user.pk).first()
        if own is not None and own.status == ACTIVE:
            membership.delete()
            membership.pk = membership_id
            kept = own
        else:
            if own is not None:
                own.delete()  # his request or invitation: the walk-in membership is active already
            membership.user, membership.player = user, None
            membership.save(update_fields=["user", "player"])
            kept = membership
        kept.user = user
        club_audit_record("membership.claimed", actor=actor, club=club, obj=kept, before=before,
                          after=membership_summary(kept))
