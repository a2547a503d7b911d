"""Appeals: who may appeal and until when, who may sit on the committee, how the majority decides
(upheld, overturned with the ruling's changes undone, replaced with the replacement applied), and
that every refusal changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from core.models import OutboxTask
from rulings.models import Appeal, CommitteeMember, Dispute, Ruling, Vote
from rulings.services.appeals import appeal_lodge, appeal_window_closes, committee_name, vote_cast
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make
from rulings.tasks import rulings_notify_task
from tests.concurrency import at_once
from tests.factories import UserFactory
from tests.matches.factories_ratings import run_tasks_inline
from tests.rulings.factories import confirm_score, make_cast, snapshot

pytestmark = pytest.mark.django_db

RULE = "RULES.md §9"
WHY = "The score sheet and both players agree."


@pytest.fixture
def cast():
    return make_cast()


@pytest.fixture
def judges():
    return [UserFactory(username=name) for name in ("judge1", "judge2", "judge3", "judge4", "judge5")]


def corrected(cast) -> Ruling:
    """The match confirmed 5-3 for alice, then corrected by the director to 3-5 for bob."""
    confirm_score(cast.match, (5, 3))
    dispute = dispute_open(match_id=cast.match.pk, user=cast.bob, category=Dispute.Category.SCORE_DISAGREEMENT,
                           statement="I won 5-3, not she.")
    return ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome=Ruling.Outcome.SCORE_CORRECTED,
                       params={"score": [3, 5]}, rule=RULE, reasoning=WHY)


def appealed(cast, judges, size: int = 3) -> Appeal:
    appeal = appeal_lodge(ruling_id=corrected(cast).pk, user=cast.alice, grounds="The sheet was mine and says 5-3.")
    committee_name(appeal_id=appeal.pk, user=cast.organiser, member_ids=[j.pk for j in judges[:size]])
    return appeal


def score(cast) -> tuple:
    cast.match.refresh_from_db()
    return cast.match.status, cast.match.score0, cast.match.score1


# --- lodging an appeal ---------------------------------------------------------------------------


def test_a_party_appeals_within_the_window_and_the_dispute_is_under_appeal(cast):
    ruling = corrected(cast)
    appeal = appeal_lodge(ruling_id=ruling.pk, user=cast.alice, grounds="  The sheet says 5-3.  ")
    assert (appeal.side, appeal.grounds, appeal.status) == (0, "The sheet says 5-3.", "open")
    assert Dispute.objects.get(pk=ruling.dispute_id).status == "appealed"
    assert AuditEntry.objects.filter(action="appeal.lodged", object_id=appeal.pk, actor_id=cast.alice.pk).exists()


@pytest.mark.parametrize("role", ["carol", "organiser", "other_organiser", "staff"])
def test_only_a_player_of_the_match_may_appeal(cast, role):
    ruling = corrected(cast)
    before = snapshot()
    with pytest.raises(NotAllowed) as refused:
        appeal_lodge(ruling_id=ruling.pk, user=getattr(cast, role), grounds="I object.")
    assert refused.value.code == "not_appellant" and snapshot() == before and not Appeal.objects.exists()


def test_an_appeal_after_the_window_is_refused_and_changes_nothing(cast):
    ruling = corrected(cast)
    closes = appeal_window_closes(ruling)
    assert closes == ruling.created_at + timedelta(minutes=60)  # a match outside an event: the default
    before = snapshot()
    with time_machine.travel(closes + timedelta(seconds=1)), pytest.raises(Conflict) as refused:
        appeal_lodge(ruling_id=ruling.pk, user=cast.alice, grounds="Too late?")
    assert refused.value.code == "appeal_window_closed" and snapshot() == before and not Appeal.objects.exists()
    with time_machine.travel(closes - timedelta(seconds=1)):
        appeal_lodge(ruling_id=ruling.pk, user=cast.alice, grounds="Just in time.")


def test_an_event_sets_its_own_appeal_window():
    from tests.tournaments.factories import drawn, pairing

    tournament, _players = drawn(4, appeal_minutes=10)
    match = pairing(tournament, "main-1-1").match
    dispute = dispute_open(match_id=match.pk, user=match.side0.player_a.user, category=Dispute.Category.CONDUCT,
                           statement="He was rude.")
    ruling = ruling_make(dispute_id=dispute.pk, user=tournament.organiser, outcome=Ruling.Outcome.WARNING,
                         params={"side": 1}, rule=RULE, reasoning=WHY)
    assert appeal_window_closes(ruling) == ruling.created_at + timedelta(minutes=10)


@pytest.mark.parametrize("grounds", ["", "   ", "x" * 5001])
def test_an_appeal_needs_grounds(cast, grounds):
    ruling = corrected(cast)
    with pytest.raises(DomainError) as refused:
        appeal_lodge(ruling_id=ruling.pk, user=cast.alice, grounds=grounds)
    assert refused.value.details["field"] == "grounds" and not Appeal.objects.exists()


def test_a_ruling_is_appealed_once(cast):
    ruling = corrected(cast)
    appeal_lodge(ruling_id=ruling.pk, user=cast.alice, grounds="Wrong.")
    with pytest.raises(Conflict) as refused:
        appeal_lodge(ruling_id=ruling.pk, user=cast.bob, grounds="Me too.")
    assert refused.value.code == "already_appealed" and Appeal.objects.count() == 1


# --- the committee -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 5])
def test_the_director_names_a_committee_of_three_or_five(cast, judges, size):
    appeal = appealed(cast, judges, size)
    assert sorted(appeal.committee.values_list("user__username", flat=True)) == [f"judge{i}" for i in range(1, size + 1)]
    assert AuditEntry.objects.filter(action="appeal.committee_named", object_id=appeal.pk).exists()


@pytest.mark.parametrize("members, message", [
    (lambda c, j: [j[0].pk, j[1].pk], "3 or 5"),
    (lambda c, j: [j[0].pk, j[1].pk, j[2].pk, j[3].pk], "3 or 5"),
    (lambda c, j: [j[0].pk, j[0].pk, j[1].pk], "twice"),
    (lambda c, j: [j[0].pk, j[1].pk, 999999], "no active user"),
    (lambda c, j: [j[0].pk, j[1].pk, c.organiser.pk], "excludes the ruling director"),
    (lambda c, j: [j[0].pk, j[1].pk, c.alice.pk], "the parties"),
    (lambda c, j: [j[0].pk, j[1].pk, c.bob.pk], "the parties"),
    (lambda c, j: [j[0].pk, j[1].pk, "x"], "user ids"),
])
def test_a_bad_committee_is_refused_and_nothing_is_saved(cast, judges, members, message):
    appeal = appeal_lodge(ruling_id=corrected(cast).pk, user=cast.alice, grounds="Wrong.")
    before = snapshot()
    with pytest.raises(DomainError) as refused:
        committee_name(appeal_id=appeal.pk, user=cast.organiser, member_ids=members(cast, judges))
    assert refused.value.code == "bad_committee" and refused.value.details["field"] == "members"
    assert message in refused.value.message
    assert snapshot() == before and not CommitteeMember.objects.exists()


@pytest.mark.parametrize("role", ["alice", "bob", "carol", "other_organiser"])
def test_only_the_director_or_staff_names_the_committee(cast, judges, role):
    appeal = appeal_lodge(ruling_id=corrected(cast).pk, user=cast.alice, grounds="Wrong.")
    with pytest.raises(NotAllowed):
        committee_name(appeal_id=appeal.pk, user=getattr(cast, role), member_ids=[j.pk for j in judges[:3]])
    committee_name(appeal_id=appeal.pk, user=cast.staff, member_ids=[j.pk for j in judges[:3]])


def test_a_committee_is_named_once(cast, judges):
    appeal = appealed(cast, judges)
    with pytest.raises(Conflict) as refused:
        committee_name(appeal_id=appeal.pk, user=cast.organiser, member_ids=[j.pk for j in judges[2:5]])
    assert refused.value.code == "committee_named" and appeal.committee.count() == 3


# --- votes and the decision ----------------------------------------------------------------------


def test_a_vote_by_a_non_member_is_refused_and_changes_nothing(cast, judges):
    appeal = appealed(cast, judges)
    before = snapshot()
    for outsider in (judges[3], cast.alice, cast.organiser, cast.staff):
        with pytest.raises(NotAllowed) as refused:
            vote_cast(appeal_id=appeal.pk, user=outsider, decision="uphold")
        assert refused.value.code == "not_committee"
    assert snapshot() == before and not Vote.objects.exists()


def test_no_vote_before_the_committee_is_named(cast, judges):
    appeal = appeal_lodge(ruling_id=corrected(cast).pk, user=cast.alice, grounds="Wrong.")
    with pytest.raises(Conflict) as refused:
        vote_cast(appeal_id=appeal.pk, user=judges[0], decision="uphold")
    assert refused.value.code == "no_committee"


@pytest.mark.parametrize("vote, field", [
    ({"decision": "maybe"}, "decision"),
    ({"decision": "replace"}, "outcome"),
    ({"decision": "replace", "outcome": "nonsense", "rule": RULE, "reasoning": WHY}, "outcome"),
    ({"decision": "replace", "outcome": "warning", "params": {"side": 1}, "reasoning": WHY}, "rule"),
    ({"decision": "replace", "outcome": "warning", "params": {"side": 1}, "rule": RULE}, "reasoning"),
    ({"decision": "replace", "outcome": "warning", "params": [1], "rule": RULE, "reasoning": WHY}, "params"),
])
def test_a_malformed_vote_is_refused_on_its_field(cast, judges, vote, field):
    appeal = appealed(cast, judges)
    with pytest.raises(DomainError) as refused:
        vote_cast(appeal_id=appeal.pk, user=judges[0], **vote)
    assert refused.value.details["field"] == field and not Vote.objects.exists()


def test_one_vote_decides_nothing_and_the_majority_upholds(cast, judges):
    appeal = appealed(cast, judges)
    vote_cast(appeal_id=appeal.pk, user=judges[0], decision="uphold")
    vote_cast(appeal_id=appeal.pk, user=judges[1], decision="overturn")
    appeal.refresh_from_db()
    assert appeal.status == "open"
    vote_cast(appeal_id=appeal.pk, user=judges[2], decision="uphold")
    appeal.refresh_from_db()
    assert (appeal.status, appeal.decision) == ("decided", "uphold")
    assert score(cast) == ("confirmed", 3, 5)  # the ruling stands
    assert Ruling.objects.get(pk=appeal.ruling_id).status == "in_force"
    assert Dispute.objects.get(pk=appeal.ruling.dispute_id).status == "decided"
    with pytest.raises(Conflict) as refused:
        vote_cast(appeal_id=appeal.pk, user=judges[1], decision="uphold")
    assert refused.value.code == "appeal_decided"


def test_a_member_may_change_his_vote_until_the_appeal_is_decided(cast, judges):
    appeal = appealed(cast, judges, 5)
    vote_cast(appeal_id=appeal.pk, user=judges[0], decision="uphold")
    vote_cast(appeal_id=appeal.pk, user=judges[0], decision="overturn")
    assert list(Vote.objects.values_list("member__username", "decision")) == [("judge1", "overturn")]
    vote_cast(appeal_id=appeal.pk, user=judges[1], decision="overturn")
    appeal.refresh_from_db()
    assert appeal.status == "open"  # 2 of 5 is no majority
    vote_cast(appeal_id=appeal.pk, user=judges[2], decision="overturn")
    appeal.refresh_from_db()
    assert (appeal.status, appeal.decision) == ("decided", "overturn")


def test_an_overturned_ruling_is_undone(cast, judges):
    appeal = appealed(cast, judges)
    for judge in judges[:2]:
        vote_cast(appeal_id=appeal.pk, user=judge, decision="overturn")
    assert score(cast) == ("confirmed", 5, 3)  # back to the result before the ruling
    assert Ruling.objects.get(pk=appeal.ruling_id).status == "overturned"
    assert AuditEntry.objects.filter(action="ruling.reverted").exists()
    assert AuditEntry.objects.filter(action="appeal.decided", object_id=appeal.pk).get().after["decision"] == "overturn"


def test_a_replacement_needs_a_majority_for_the_same_ruling(cast, judges):
    appeal = appealed(cast, judges)
    replace = {"decision": "replace", "outcome": "score_corrected", "rule": RULE, "reasoning": "4-5 it was."}
    vote_cast(appeal_id=appeal.pk, user=judges[0], params={"score": [4, 5]}, **replace)
    vote_cast(appeal_id=appeal.pk, user=judges[1], params={"score": [5, 4]}, **replace)
    appeal.refresh_from_db()
    assert appeal.status == "open"  # two replacements, but not the same one
    vote_cast(appeal_id=appeal.pk, user=judges[2], params={"score": [4, 5]}, **replace)
    appeal.refresh_from_db()
    assert (appeal.status, appeal.decision) == ("decided", "replace")
    assert score(cast) == ("confirmed", 4, 5)
    old, new = Ruling.objects.order_by("pk")
    assert (old.status, new.status, new.appeal_id, new.outcome, new.params["score"]) == (
        "replaced", "in_force", appeal.pk, "score_corrected", [4, 5])
    assert Dispute.objects.get(pk=old.dispute_id).status == "decided"


def test_a_committees_ruling_is_final(cast, judges):
    appeal = appealed(cast, judges)
    replace = {"decision": "replace", "outcome": "score_corrected", "params": {"score": [4, 5]}, "rule": RULE,
               "reasoning": "4-5 it was."}
    for judge in judges[:2]:
        vote_cast(appeal_id=appeal.pk, user=judge, **replace)
    replacement = Ruling.objects.get(appeal=appeal)
    before = snapshot()
    with pytest.raises(Conflict) as refused:
        appeal_lodge(ruling_id=replacement.pk, user=cast.bob, grounds="Still wrong.")
    assert refused.value.code == "committee_ruling_final" and snapshot() == before
    assert Dispute.objects.get(pk=replacement.dispute_id).status == "decided"
    page = Client()
    page.force_login(cast.bob)
    html = page.get(reverse("rulings:dispute", args=[replacement.dispute_id])).content.decode()
    assert reverse("rulings:appeal_lodge", args=[replacement.pk]) not in html  # no appeal form


def test_a_replacement_the_match_refuses_rolls_back_the_deciding_vote(cast, judges):
    appeal = appealed(cast, judges)
    bad = {"decision": "replace", "outcome": "score_corrected", "params": {"score": [2, 2]}, "rule": RULE,
           "reasoning": "Nobody won."}
    vote_cast(appeal_id=appeal.pk, user=judges[0], **bad)
    before = snapshot()
    votes = list(Vote.objects.values())
    with pytest.raises(DomainError):
        vote_cast(appeal_id=appeal.pk, user=judges[1], **bad)
    assert snapshot() == before and list(Vote.objects.values()) == votes
    appeal.refresh_from_db()
    assert appeal.status == "open"


# --- emails --------------------------------------------------------------------------------------


@pytest.fixture
def inline_notifications(monkeypatch):
    """The outbox's publish after commit runs the task here, at once, with its outbox row (nothing
    reaches the broker); returns the (task, args) published."""
    return run_tasks_inline(monkeypatch)


def test_the_parties_hear_of_the_appeal_and_of_the_decision_once(cast, judges, inline_notifications,
                                                                  django_capture_on_commit_callbacks):
    for user in (cast.alice, cast.bob, cast.organiser, *judges[:3]):
        user.email = f"{user.username}@example.com"
        user.save(update_fields=["email"])
    with django_capture_on_commit_callbacks() as callbacks:
        appeal = appealed(cast, judges)
    assert mail.outbox == []  # nothing before the commit
    mail.outbox.clear()
    kinds = []
    for kind in ("appeal_lodged", "committee_named"):
        kinds.append((kind, rulings_notify_task(kind, appeal.pk)))
    assert kinds == [("appeal_lodged", 3), ("committee_named", 3)]
    assert {m.to[0] for m in mail.outbox if m.subject == "You are on an appeals committee"} == {
        "judge1@example.com", "judge2@example.com", "judge3@example.com"}
    assert len(callbacks) >= 2
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        vote_cast(appeal_id=appeal.pk, user=judges[0], decision="uphold")
        vote_cast(appeal_id=appeal.pk, user=judges[1], decision="uphold")
    decided = [m for m in mail.outbox if m.subject.startswith("Appeal decided")]
    assert sorted(m.to[0] for m in decided) == ["alice@example.com", "bob@example.com", "otto@example.com"]
    row = OutboxTask.objects.get(task="rulings.tasks.rulings_notify_task", args=["appeal_decided", appeal.pk])
    assert row.done_at is not None
    assert rulings_notify_task("appeal_decided", appeal.pk, outbox_id=row.pk) is None  # a second delivery
    assert len([m for m in mail.outbox if m.subject.startswith("Appeal decided")]) == 3


# --- two members voting at once ------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_deciding_votes_at_once_decide_the_appeal_once():
    cast = make_cast()
    judges = [UserFactory(username=f"judge{i}") for i in range(1, 4)]
    appeal = appealed(cast, judges)
    vote_cast(appeal_id=appeal.pk, user=judges[0], decision="overturn")
    outcomes = at_once([lambda judge=judge: vote_cast(appeal_id=appeal.pk, user=judge, decision="overturn")
                        for judge in judges[1:]])
    # The second vote found the appeal decided, or was counted before the decision was taken.
    assert set(outcomes) <= {"done", "appeal_decided"} and "done" in outcomes
    assert AuditEntry.objects.filter(action="appeal.decided").count() == 1
    assert AuditEntry.objects.filter(action="ruling.reverted").count() == 1
    assert score(cast) == ("confirmed", 5, 3)
    assert timezone.now() >= Appeal.objects.get().decided_at


def test_the_parties_hear_of_a_ruling_after_it_commits_and_not_of_a_refused_one(cast, inline_notifications,
                                                                               django_capture_on_commit_callbacks):
    for user in (cast.alice, cast.bob):
        user.email = f"{user.username}@example.com"
        user.save(update_fields=["email"])
    confirm_score(cast.match, (5, 3))
    dispute = dispute_open(match_id=cast.match.pk, user=cast.bob, category=Dispute.Category.SCORE_DISAGREEMENT,
                           statement="I won.")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(DomainError):
        ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome=Ruling.Outcome.SCORE_CORRECTED,
                    params={"score": [1, 1]}, rule=RULE, reasoning=WHY)
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        ruling = ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome=Ruling.Outcome.SCORE_CORRECTED,
                             params={"score": [3, 5]}, rule=RULE, reasoning=WHY)
    # The corrected result is announced too (matches' own email): only the ruling's are looked at.
    rulings = [m for m in mail.outbox if m.subject.startswith("Ruling")]
    assert sorted(m.to[0] for m in rulings) == ["alice@example.com", "bob@example.com"]
    assert all(m.subject == "Ruling: Score corrected" and RULE in m.body and "otto" not in m.body for m in rulings)
    assert rulings_notify_task("ruling", ruling.pk) == 2
    assert len([m for m in mail.outbox if m.subject.startswith("Ruling")]) == 2


def test_each_recipient_reads_the_ruling_email_in_his_preferred_language(cast, inline_notifications, monkeypatch,
                                                                        django_capture_on_commit_callbacks):
    from django.utils import translation

    from rulings.services import notifications

    # The words as the active language would give them: which language each message was made in.
    monkeypatch.setattr(notifications, "gettext", lambda text: f"[{translation.get_language()}] {text}")
    for user, language in ((cast.alice, "ko"), (cast.bob, "ro")):
        user.email = f"{user.username}@example.com"
        user.preferred_language = language
        user.save(update_fields=["email", "preferred_language"])
    confirm_score(cast.match, (5, 3))
    dispute = dispute_open(match_id=cast.match.pk, user=cast.bob, category=Dispute.Category.SCORE_DISAGREEMENT,
                           statement="I won.")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome=Ruling.Outcome.SCORE_CORRECTED,
                    params={"score": [3, 5]}, rule=RULE, reasoning=WHY)
    subjects = {m.to[0]: m.subject for m in mail.outbox if "Ruling" in m.subject}

    def outcome_in(language: str) -> str:
        with translation.override(language):
            return str(Ruling.Outcome.SCORE_CORRECTED.label)

    assert subjects == {"alice@example.com": f"[ko] Ruling: {outcome_in('ko')}",
                        "bob@example.com": f"[ro] Ruling: {outcome_in('ro')}"}
