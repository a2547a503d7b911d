"""Appeals (RULES.md §9): a party appeals a ruling within the event's window; a committee of 3 or
5, excluding the ruling director and the parties, votes; the majority upholds, overturns or
replaces the ruling, and a replacement is applied like a ruling.

Lock order, everywhere: the match row first (the lock result reporting and rulings take), then
the appeal row. Two votes racing are serialised by the appeal's lock, so the decision is taken
exactly once, by the vote that makes the majority.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from audit.services import audit_record
from core.locking import locked_one
from core.outbox import outbox_enqueue
from matches.models import Match
from matches.services.reporting import match_locked, side_of_user, user_runs_match
from rulings import errors
from rulings.models import Appeal, CommitteeMember, Dispute, Ruling, Vote
from rulings.tasks import rulings_notify_task
from tournaments.models import event_id_of, event_of

from .rulings import ruling_apply, ruling_revert

COMMITTEE_SIZES = (3, 5)
GROUNDS_MAX = 5000


def appeal_window_closes(ruling: Ruling) -> datetime:
    """When a ruling stops being open to appeal: the event's ``appeal_minutes`` after it was made
    (``CRAWFORD_APPEAL_MINUTES`` for a match outside an event)."""
    match = ruling.dispute.match
    event = event_of(match)
    minutes = event.appeal_minutes if event is not None else settings.APPEAL_MINUTES
    return ruling.created_at + timedelta(minutes=minutes)



def _locked_appeal(appeal_id: int) -> tuple[Appeal, Match]:
    appeal = Appeal.objects.select_related("ruling__dispute").get(pk=appeal_id)
    match = match_locked(appeal.ruling.dispute.match_id)
    appeal = locked_one(Appeal.objects.select_related("ruling__dispute__match__event_link__tournament"), pk=appeal_id)
    return appeal, match


def _notify(kind: str, object_id: int) -> None:
    outbox_enqueue(rulings_notify_task, kind, object_id)


@transaction.atomic
def appeal_lodge(*, ruling_id: int, user, grounds: str) -> Appeal:
    """A player of the match appeals a ruling in force, before the window closes: the dispute is
    "appealed" until the committee decides. Audited; the director is told after commit.

    Raises NotAllowed (``not_appellant``) for anyone but the match's players, Conflict when the
    ruling is no longer in force, is a committee's (final), the window has closed, or the ruling is
    already appealed, and
    DomainError (field ``grounds``) for missing or overlong grounds.
    """
    ruling = Ruling.objects.select_related("dispute").get(pk=ruling_id)
    match = match_locked(ruling.dispute.match_id)
    ruling = locked_one(Ruling.objects.select_related("dispute__match__event_link__tournament"), pk=ruling_id)
    side = side_of_user(match, user)
    if side is None:
        raise errors.not_appellant()
    grounds = (grounds or "").strip()
    if not grounds:
        raise errors.bad_dispute("grounds", gettext("say why the ruling is wrong"))
    if len(grounds) > GROUNDS_MAX:
        raise errors.bad_dispute("grounds", gettext("the grounds are %(length)s characters; the limit is %(limit)s") % {
            "length": len(grounds), "limit": GROUNDS_MAX})
    if ruling.status != Ruling.Status.IN_FORCE:
        raise errors.ruling_not_in_force(ruling.get_status_display().lower())
    if ruling.appeal_id is not None:
        raise errors.committee_ruling_final()
    closes = appeal_window_closes(ruling)
    if timezone.now() > closes:
        raise errors.appeal_window_closed(closes)
    if Appeal.objects.filter(ruling=ruling).exists():
        raise errors.already_appealed()
    try:
        with transaction.atomic():
            appeal = Appeal.objects.create(ruling=ruling, appellant=user, side=side, grounds=grounds)
    except IntegrityError:
        raise errors.already_appealed() from None
    Dispute.objects.filter(pk=ruling.dispute_id).update(status=Dispute.Status.APPEALED)
    audit_record(actor=user, action="appeal.lodged", object_type="rulings.Appeal", object_id=appeal.pk,
                 tournament_id=event_id_of(match), match_id=match.pk,
                 after={"ruling": ruling.pk, "side": side, "grounds": grounds})
    _notify("appeal_lodged", appeal.pk)
    return appeal


def _excluded(ruling: Ruling, match: Match) -> set[int]:
    """Users who may not sit on the committee: the ruling director and the players of both sides."""
    excluded = {ruling.director_id}
    for side in match.sides:
        for player in (side.player_a, side.player_b):
            if player is not None and player.user_id:
                excluded.add(player.user_id)
    return excluded


@transaction.atomic
def committee_name(*, appeal_id: int, user, member_ids) -> list[CommitteeMember]:
    """The match's director (or staff) names the appeal's committee: 3 or 5 distinct active users,
    none of them the ruling director or a player of the match. Audited; each member is told.

    Raises NotAllowed (``not_director``) for anyone else, Conflict when the committee is already
    named or the appeal decided, DomainError (``bad_committee``, field ``members``) otherwise.
    """
    appeal, match = _locked_appeal(appeal_id)
    if not user_runs_match(match, user):
        raise errors.not_director()
    if appeal.status != Appeal.Status.OPEN:
        raise errors.appeal_decided()
    if appeal.committee.exists():
        raise errors.committee_named()
    try:
        ids = [int(pk) for pk in member_ids]
    except (TypeError, ValueError):
        raise errors.bad_committee(gettext("members are user ids")) from None
    if len(ids) not in COMMITTEE_SIZES:
        raise errors.bad_committee(gettext("a committee has 3 or 5 members, not %(count)s") % {"count": len(ids)})
    if len(set(ids)) != len(ids):
        raise errors.bad_committee(gettext("a member is named twice"))
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=ids, is_active=True)}
    unknown = [pk for pk in ids if pk not in users]
    if unknown:
        raise errors.bad_committee(gettext("no active user %(id)s") % {"id": unknown[0]}, member=unknown[0])
    excluded = sorted(set(ids) & _excluded(appeal.ruling, match))
    if excluded:
        raise errors.bad_committee(
            gettext("%(name)s may not sit: the committee excludes the ruling director and the parties") % {
                "name": users[excluded[0]].get_username()},
            member=excluded[0],
        )
    members = CommitteeMember.objects.bulk_create(CommitteeMember(appeal=appeal, user=users[pk]) for pk in ids)
    audit_record(actor=user, action="appeal.committee_named", object_type="rulings.Appeal", object_id=appeal.pk,
                 tournament_id=event_id_of(match), match_id=match.pk,
                 after={"members": [users[pk].get_username() for pk in ids]})
    _notify("committee_named", appeal.pk)
    return members


def _vote_key(vote: Vote) -> tuple:
    """Votes count together only when they say the same: the decision, and for a replacement the
    same outcome with the same details."""
    if vote.decision != Appeal.Decision.REPLACE:
        return (vote.decision,)
    return (vote.decision, vote.outcome, json.dumps(vote.params, sort_keys=True))


@transaction.atomic
def vote_cast(*, appeal_id: int, user, decision: str, outcome: str = "", params: dict | None = None, rule: str = "",
              reasoning: str = "") -> Vote:
    """A committee member votes (a member may change the vote until the appeal is decided). When
    one decision holds a majority of the committee it is applied at once: upheld (the ruling
    stays), overturned (its changes reverted) or replaced (reverted, then the replacement applied
    like a ruling, made by the committee). Audited; the parties are told the decision.

    Raises NotAllowed (``not_committee``) for a non-member, Conflict when the appeal is decided
    or has no committee yet, DomainError (``bad_vote``) for a malformed vote, and whatever
    reverting or applying raises (a decision the event can no longer take: nothing is saved,
    the vote included).
    """
    appeal, match = _locked_appeal(appeal_id)
    if appeal.status != Appeal.Status.OPEN:
        raise errors.appeal_decided()
    members = list(appeal.committee.values_list("user_id", flat=True))
    if not members:
        raise errors.no_committee()
    if not getattr(user, "is_authenticated", False) or user.pk not in members:
        raise errors.not_committee()
    if decision not in Appeal.Decision.values:
        raise errors.bad_vote("decision", gettext("decision is one of %(choices)s, not %(given)r") % {
            "choices": ", ".join(Appeal.Decision.values), "given": decision})
    params = params or {}
    if not isinstance(params, dict):
        raise errors.bad_vote("params", gettext("params is an object"))
    if decision == Appeal.Decision.REPLACE:
        if outcome not in Ruling.Outcome.values:
            raise errors.bad_vote("outcome", gettext("a replacement needs an outcome, one of %(choices)s") % {
                "choices": ", ".join(Ruling.Outcome.values)})
        if not (rule or "").strip() or not (reasoning or "").strip():
            raise errors.bad_vote("reasoning" if (rule or "").strip() else "rule",
                                  gettext("a replacement ruling states the rule applied and the reasoning"))
    else:
        outcome, params = "", {}
    vote, _ = Vote.objects.update_or_create(
        appeal=appeal, member=user,
        defaults={"decision": decision, "outcome": outcome, "params": params, "rule": rule.strip(),
                  "reasoning": reasoning.strip()},
    )
    audit_record(actor=user, action="appeal.vote_cast", object_type="rulings.Vote", object_id=vote.pk,
                 tournament_id=event_id_of(match), match_id=match.pk,
                 after={"appeal": appeal.pk, "decision": decision, "outcome": outcome, "params": params})
    votes = list(appeal.votes.all())
    key, count = Counter(_vote_key(v) for v in votes).most_common(1)[0]
    if count * 2 > len(members):
        _decide(appeal, match, user, next(v for v in votes if _vote_key(v) == key))
    return vote


def _decide(appeal: Appeal, match: Match, user, vote: Vote) -> None:
    ruling = appeal.ruling
    dispute = ruling.dispute
    if vote.decision == Appeal.Decision.UPHOLD:
        dispute_status = Dispute.Status.DECIDED
    else:
        ruling_revert(ruling=ruling, actor=user)
        ruling.status = Ruling.Status.OVERTURNED if vote.decision == Appeal.Decision.OVERTURN else Ruling.Status.REPLACED
        ruling.save(update_fields=["status"])
        if vote.decision == Appeal.Decision.REPLACE:
            ruling_apply(dispute=dispute, director=user, outcome=vote.outcome, params=vote.params, rule=vote.rule,
                         reasoning=vote.reasoning, appeal=appeal)
        dispute_status = Dispute.Status.DECIDED
    Dispute.objects.filter(pk=dispute.pk).update(status=dispute_status)
    appeal.status, appeal.decision, appeal.decided_at = Appeal.Status.DECIDED, vote.decision, timezone.now()
    appeal.save(update_fields=["status", "decision", "decided_at"])
    audit_record(actor=user, action="appeal.decided", object_type="rulings.Appeal", object_id=appeal.pk,
                 tournament_id=event_id_of(match), match_id=match.pk, before={"ruling": ruling.pk, "status": "open"},
                 after={"decision": vote.decision, "outcome": vote.outcome, "params": vote.params})
    _notify("appeal_decided", appeal.pk)
