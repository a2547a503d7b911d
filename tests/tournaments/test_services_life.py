"""An event's life: tournament_update (what may change when: edit_refusal, length_refusal),
tournament_cancel (entrants told in their language), tournament_delete (drafts only), and the
create token that makes a double submit one event."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.core import mail

from audit.describe import describe
from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from core.models import OutboxTask
from matches.models import Match
from tests.concurrency import at_once
from tests.factories import TournamentFactory
from tests.tournaments.factories import cast, drawn, enter, play, snapshot
from tournaments.models import Pairing, Tournament
from tournaments.services import (
    EventRules,
    tournament_cancel,
    tournament_create,
    tournament_delete,
    tournament_open_entries,
    tournament_update,
)
from tournaments.services.life import edit_refusal, length_refusal
from tournaments.services.notifications import tournament_cancelled_notify
from tournaments.tasks import tournament_cancelled_notify_task

pytestmark = pytest.mark.django_db

S = Tournament.Status


# --- the rule, pure ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("field", "status", "has_entries", "allowed"), [
    ("format", S.DRAFT, False, True),
    ("kind", S.OPEN, False, True),
    ("kind", S.OPEN, True, False),
    ("seeding", S.CLOSED, True, True),
    ("name", S.RUNNING, True, True),
    ("starts_on", S.RUNNING, True, True),
    ("lengths", S.RUNNING, True, True),
    ("format", S.RUNNING, True, False),
    ("consolation_rounds", S.RUNNING, True, False),
    ("seeding", S.RUNNING, True, False),
    ("crawford", S.RUNNING, True, False),
    ("name", S.FINISHED, True, False),
    ("name", S.CANCELLED, True, False),
    ("organiser", S.DRAFT, False, False),
])
def test_what_may_change_when(field, status, has_entries, allowed):
    reason = edit_refusal(field, status=status, has_entries=has_entries)
    assert (reason is None) == allowed, reason


def test_a_round_that_has_begun_keeps_its_length():
    assert length_refusal([("main", 1, 5, 5, True), ("main", 2, 7, 9, False)]) is None
    assert "round 1 has begun" in length_refusal([("main", 1, 5, 3, True)])


# --- tournament_update ---------------------------------------------------------------------------


def test_before_the_draw_every_rule_changes_and_is_audited(organiser):
    event = TournamentFactory(organiser=organiser)
    tournament_update(tournament_id=event.pk, user=organiser, changes={
        "name": "Winter Open", "format": Tournament.Format.SWISS, "swiss_rounds": 5,
        "starts_on": datetime.date(2026, 12, 5)})
    event.refresh_from_db()
    assert (event.name, event.format, event.swiss_rounds) == ("Winter Open", "swiss", 5)
    entry = AuditEntry.objects.get(action="tournament.updated", tournament_id=event.pk)
    assert entry.after["swiss_rounds"] == 5 and entry.before["swiss_rounds"] is None
    assert entry.after["starts_on"] == "2026-12-05"
    assert "Winter Open" in describe(entry)


def test_values_equal_to_the_current_ones_change_nothing(organiser):
    event = TournamentFactory(organiser=organiser)
    tournament_update(tournament_id=event.pk, user=organiser, changes={"name": event.name, "crawford": True})
    assert not AuditEntry.objects.filter(action="tournament.updated").exists()


def test_rules_that_do_not_fit_the_format_are_refused_naming_the_field(organiser):
    event = TournamentFactory(organiser=organiser)
    with pytest.raises(DomainError) as error:
        tournament_update(tournament_id=event.pk, user=organiser, changes={"groups": 3})
    assert error.value.code == "bad_rules" and error.value.details["field"] == "groups"


def test_after_the_draw_the_format_is_refused_with_the_reason_and_nothing_saved(organiser):
    event, _players = drawn(4, organiser=organiser)
    before = snapshot(event)
    with pytest.raises(Conflict) as error:
        tournament_update(tournament_id=event.pk, user=organiser,
                          changes={"name": "Renamed", "format": Tournament.Format.SWISS})
    assert error.value.code == "not_editable" and error.value.details["field"] == "format"
    assert "draw is made" in str(error.value)
    event.refresh_from_db()
    assert event.name != "Renamed" and snapshot(event) == before


def test_after_the_draw_the_name_and_dates_still_change(organiser):
    event, _players = drawn(4, organiser=organiser)
    tournament_update(tournament_id=event.pk, user=organiser,
                      changes={"name": "Renamed", "ends_on": datetime.date(2026, 12, 31)})
    event.refresh_from_db()
    assert event.name == "Renamed" and event.ends_on == datetime.date(2026, 12, 31)


def test_after_the_draw_only_the_rounds_not_begun_take_new_lengths(organiser):
    event, players = drawn(8, organiser=organiser, lengths={"main": [5, 7, 9]})
    # The first round's matches are made at the draw: its length stays.
    with pytest.raises(Conflict) as error:
        tournament_update(tournament_id=event.pk, user=organiser, changes={"lengths": {"main": [3, 7, 9]}})
    assert error.value.details["field"] == "lengths" and "round 1 has begun" in str(error.value)
    tournament_update(tournament_id=event.pk, user=organiser, changes={"lengths": {"main": [5, 11, 13]}})
    lengths = dict(Pairing.objects.filter(tournament=event).values_list("key", "length"))
    assert lengths["main-1-1"] == 5 and lengths["main-2-1"] == 11 and lengths["main-3-1"] == 13
    # The semi-final made after the change is to the new length.
    alice, dave = players[0], players[3]
    play(event, "main-1-1", alice)
    play(event, "main-1-2", dave)
    assert Match.objects.get(pairing__tournament=event, pairing__key="main-2-1").length == 11


def test_a_finished_or_cancelled_event_changes_no_more(organiser):
    event = TournamentFactory(organiser=organiser, status=S.FINISHED)
    with pytest.raises(Conflict) as error:
        tournament_update(tournament_id=event.pk, user=organiser, changes={"name": "Late"})
    assert "finished" in str(error.value)


def test_only_the_organiser_or_staff_edit(organiser, another_organiser, staff):
    event = TournamentFactory(organiser=organiser)
    with pytest.raises(NotAllowed):
        tournament_update(tournament_id=event.pk, user=another_organiser, changes={"name": "Mine"})
    tournament_update(tournament_id=event.pk, user=staff, changes={"name": "Staff's"})


def test_the_kind_does_not_change_once_players_are_entered(organiser):
    event = TournamentFactory(organiser=organiser, status=S.OPEN)
    enter(event, cast(2))
    with pytest.raises(Conflict) as error:
        tournament_update(tournament_id=event.pk, user=organiser, changes={"kind": Tournament.Kind.PAIRS})
    assert error.value.details["field"] == "kind"


# --- tournament_cancel -----------------------------------------------------------------------------


def test_cancelling_tells_every_entrant_in_his_language_after_the_commit(organiser):
    event, players = drawn(4, organiser=organiser)
    alice, bob = players[0].user, players[1].user
    alice.preferred_language, bob.preferred_language = "ko", "ro"
    alice.save(update_fields=["preferred_language"])
    bob.save(update_fields=["preferred_language"])
    tournament_cancel(tournament_id=event.pk, user=organiser, reason="The venue flooded")
    event.refresh_from_db()
    assert event.status == S.CANCELLED and event.cancel_reason == "The venue flooded" and event.cancelled_at
    row = OutboxTask.objects.get(task=tournament_cancelled_notify_task.name)
    assert row.args == [event.pk]
    assert tournament_cancelled_notify(tournament_id=event.pk) == 4
    by_address = {m.to[0]: m for m in mail.outbox}
    assert set(by_address) == {p.user.email for p in players}
    assert all("The venue flooded" in m.body for m in mail.outbox)
    assert by_address[alice.email].subject.startswith("대회 취소")  # Korean
    assert by_address[bob.email].subject.startswith("Eveniment anulat")  # Romanian
    assert AuditEntry.objects.filter(action="tournament.cancelled", tournament_id=event.pk).exists()


def test_a_cancelled_event_keeps_its_results_and_moves_no_more(organiser):
    event, players = drawn(4, organiser=organiser)
    play(event, "main-1-1", players[0])
    tournament_cancel(tournament_id=event.pk, user=organiser, reason="Snow")
    play(event, "main-1-2", players[1])  # played anyway: it stands, the final is not made
    assert Match.objects.filter(pairing__tournament=event, status=Match.Status.CONFIRMED).count() == 2
    assert Pairing.objects.get(tournament=event, key="main-2-1").match_id is None
    with pytest.raises(Conflict):
        tournament_open_entries(tournament_id=event.pk, user=organiser)


def test_a_cancellation_needs_a_reason_and_a_finished_event_is_not_cancelled(organiser):
    event = TournamentFactory(organiser=organiser, status=S.OPEN)
    with pytest.raises(DomainError) as error:
        tournament_cancel(tournament_id=event.pk, user=organiser, reason="  ")
    assert error.value.details["field"] == "reason"
    finished = TournamentFactory(organiser=organiser, status=S.FINISHED)
    with pytest.raises(Conflict):
        tournament_cancel(tournament_id=finished.pk, user=organiser, reason="Too late")
    assert Tournament.objects.get(pk=event.pk).status == S.OPEN


def test_cancelling_twice_tells_the_entrants_once(organiser):
    event = TournamentFactory(organiser=organiser, status=S.OPEN)
    enter(event, cast(2))
    tournament_cancel(tournament_id=event.pk, user=organiser, reason="Rain")
    tournament_cancel(tournament_id=event.pk, user=organiser, reason="Rain again")
    assert OutboxTask.objects.filter(task=tournament_cancelled_notify_task.name).count() == 1
    assert Tournament.objects.get(pk=event.pk).cancel_reason == "Rain"


# --- tournament_delete -----------------------------------------------------------------------------


def test_a_draft_is_deleted_and_audited(organiser):
    event = TournamentFactory(organiser=organiser, name="Oops")
    tournament_delete(tournament_id=event.pk, user=organiser)
    assert not Tournament.objects.filter(pk=event.pk).exists()
    entry = AuditEntry.objects.get(action="tournament.deleted", tournament_id=event.pk)
    assert "Oops" in describe(entry)


@pytest.mark.parametrize("status", [S.OPEN, S.RUNNING, S.FINISHED])
def test_only_a_draft_is_deleted(organiser, status):
    event = TournamentFactory(organiser=organiser, status=status)
    with pytest.raises(Conflict) as error:
        tournament_delete(tournament_id=event.pk, user=organiser)
    assert error.value.code == "not_a_draft" and "cancel it instead" in str(error.value)
    assert Tournament.objects.filter(pk=event.pk).exists()


def test_a_draft_with_entrants_is_not_deleted(organiser, another_organiser):
    event = TournamentFactory(organiser=organiser)
    enter(event, cast(1))
    with pytest.raises(Conflict) as error:
        tournament_delete(tournament_id=event.pk, user=organiser)
    assert error.value.code == "has_entrants"
    with pytest.raises(NotAllowed):
        tournament_delete(tournament_id=event.pk, user=another_organiser)


# --- the create token -------------------------------------------------------------------------------


def test_the_same_token_twice_is_one_event(organiser):
    token = uuid.uuid4()
    first = tournament_create(user=organiser, rules=EventRules(name="Once"), token=token)
    second = tournament_create(user=organiser, rules=EventRules(name="Once"), token=token)
    assert first.pk == second.pk and Tournament.objects.filter(name="Once").count() == 1
    third = tournament_create(user=organiser, rules=EventRules(name="Once"), token=uuid.uuid4())
    assert third.pk != first.pk


@pytest.mark.django_db(transaction=True)
def test_the_same_token_at_once_is_one_event():
    from tests.tournaments.factories import make_organiser

    organiser = make_organiser()
    token = uuid.uuid4()
    made = []

    def create():
        made.append(tournament_create(user=organiser, rules=EventRules(name="Raced"), token=token).pk)

    assert at_once([create, create]) == ["done", "done"]
    assert len(set(made)) == 1 and Tournament.objects.filter(name="Raced").count() == 1
