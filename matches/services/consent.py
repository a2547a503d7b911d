"""Consent for the record: a match is on a player's record (his rating, his page) only once his
side has agreed to it.

Why: anyone may name anyone in a match. An import finds players by display name, and an
organiser may create a match between any two players and enter its result. Neither may put a
result on someone's record on his own.

A side's consent (``Match.consent0`` / ``consent1``) is pending, given or declined. It is given:

- at creation, for the creator's own side, and for every side the match's context vouches for
  (an event for the entrants who accepted it and whom it is really run for, and for players
  without an account; a club for its members' sides): ``match_create``;
- when a player of the side reports a result or confirms the other side's (``match_report``);
- by :func:`match_consent`: the player himself, a director of an event or club he plays in
  (``hooks.directs_player``, answered by tournaments and clubs), or staff.

Never by an organiser's override outside an event, and never by an import for anyone but the
importer's own side. A player may decline a match his side has not given consent to: it leaves
his record and stays its creator's. Consent once given is not taken back by the player; a result
set by a director who is neither staff nor an organiser takes back the consent of the sides no
context vouches for (:func:`consent_after_override`).

A match counts for ratings only when both sides have given consent (``ratings._ratable``,
``ratings_pending``); lists show it to others only then (``MatchQuerySet.visible_to``). The last
consent of a confirmed rated match dispatches its rating.
"""

from __future__ import annotations

from django.db import transaction

from audit.services import audit_record
from core.locking import locked_one
from core.outbox import outbox_enqueue

from .. import errors, hooks
from ..models import Match, Player
from ..tasks import match_rating_apply_task
from .matches import side_of_user

CONFIRM = "confirm"
DECLINE = "decline"
DECISIONS = (CONFIRM, DECLINE)


def rating_dispatch(match_id: int) -> None:
    """Write the rating of ``match_id`` in the task outbox, sent after the transaction commits (the
    one place ratings are dispatched from: the task is idempotent and does nothing for a match
    that is not ratable, such as one whose players have not both consented)."""
    outbox_enqueue(match_rating_apply_task, match_id)


def _consent_set(match: Match, side: int, value: str, actor, how: str) -> None:
    field = f"consent{side}"
    before = getattr(match, field)
    setattr(match, field, value)
    match.save(update_fields=[field, "updated_at"])
    action = {Match.Consent.GIVEN: "match.consent_given", Match.Consent.DECLINED: "match.consent_declined",
              Match.Consent.PENDING: "match.consent_reset"}[value]
    audit_record(actor=actor, action=action, object_type="matches.Match", object_id=match.pk, match_id=match.pk,
                 **hooks.audit_ids(match), before={"side": side, "consent": before},
                 after={"side": side, "consent": value}, note=how)


def consent_by_side(match: Match, side: int, actor, *, how: str) -> bool:
    """Side ``side`` of the locked ``match`` agrees to it (a player of it reported or confirmed
    its result): its consent is given, audited, unless it already was. Returns whether the match
    has just become consented by both sides (the caller then rates it if it is confirmed)."""
    if match.consents[side] == Match.Consent.GIVEN:
        return False
    _consent_set(match, side, Match.Consent.GIVEN, actor, how)
    return match.consented


def _side_players(match: Match, index: int) -> list[Player]:
    """The players of side ``index`` (``Player`` rows): those the match has loaded, else read."""
    side = match.sides[index]
    ids = [pk for pk in (side.player_a_id, side.player_b_id) if pk]
    seen = getattr(match, "seen_players", None) or {}
    if all(pk in seen for pk in ids):
        return [seen[pk] for pk in ids]
    return list(Player.objects.filter(pk__in=ids))


def consent_after_override(match: Match, user) -> list[int]:
    """A director set the locked ``match``'s result. Staff and holders of the organiser role
    (directors the service vouches for) keep the sides' consent. For anyone else the consent a
    side gave stands only where the match's context vouches for it (an event really run for
    players who accepted it, a club for its members: ``hooks.context_vouches``) or the side is his
    own; elsewhere it goes back to pending, audited ``match.consent_reset``: the players stood
    behind another result, and a self-made director's power over ratings ends there. Returns the
    sides reset (the caller takes their rating back)."""
    if getattr(user, "is_staff", False) or getattr(user, "is_organiser", False):
        return []
    own = side_of_user(match, user)
    reset = []
    for index in (0, 1):
        if index == own or match.consents[index] != Match.Consent.GIVEN:
            continue
        if not hooks.context_vouches(match, _side_players(match, index)):
            _consent_set(match, index, Match.Consent.PENDING, user, "a director set another result")
            reset.append(index)
    return reset


def consent_sides(match: Match, user) -> tuple[int, ...]:
    """The sides of ``match`` (sides' player ids loaded) ``user`` may confirm it for: a player his
    own side only; staff both; otherwise the sides all of whose players play in an event or club
    he directs (``hooks.directs_player``). Empty for anyone else."""
    mine = side_of_user(match, user)
    if mine is not None:
        return (mine,)
    if not getattr(user, "is_authenticated", False):
        return ()
    if user.is_staff:
        return (0, 1)
    return tuple(index for index, side in enumerate(match.sides)
                 if all(hooks.directs_player(user, pk) for pk in (side.player_a_id, side.player_b_id) if pk))


@transaction.atomic
def match_consent(*, match_id: int, user, decision: str, side: int | None = None) -> Match:
    """``user`` confirms (``decision`` "confirm") or declines ("decline") the match for a side:
    his own as a player (``side`` may be left out), or ``side`` as a director of an event or club
    its player plays in, or as staff (see :func:`consent_sides`). Returns the match.

    Confirm: the side's consent is given; when that makes both sides', and the match is confirmed
    and rated, its rating is dispatched after commit. Decline (the player himself only): the
    match leaves his record (still its creator's). Each change is audited
    (``match.consent_given`` / ``match.consent_declined``); a repeat changes nothing.

    Raises Match.DoesNotExist; DomainError ``bad_decision`` or ``side_required`` (naming the
    field); NotAllowed ``not_a_party`` for anyone who may answer for no side, ``not_your_side``
    for a side he may not answer for or a decline by anyone but the player; Conflict
    ``consent_given`` for declining a side that has already confirmed.
    """
    if decision not in DECISIONS:
        raise errors.bad_consent_decision(decision)
    match = locked_one(Match.objects.with_side_ids(), pk=match_id)
    allowed = consent_sides(match, user)
    if not allowed:
        raise errors.may_not_consent()
    own = side_of_user(match, user)
    if side is None:
        if own is None:
            raise errors.consent_side_required()
        side = own
    if side not in allowed:
        raise errors.not_your_side()
    current = match.consents[side]
    if decision == DECLINE:
        if side != own:
            raise errors.only_the_player_declines()
        if current == Match.Consent.GIVEN:
            raise errors.consent_already_given()
        if current != Match.Consent.DECLINED:
            _consent_set(match, side, Match.Consent.DECLINED, user, "declined")
        return match
    if current != Match.Consent.GIVEN:
        how = "by the player" if side == own else "by staff" if user.is_staff else "by a director"
        _consent_set(match, side, Match.Consent.GIVEN, user, how)
        if match.consented and match.status == Match.Status.CONFIRMED and match.rated:
            rating_dispatch(match.pk)
    return match
