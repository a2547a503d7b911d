"""Re-entry (buy-back) into the main while its first round is open: the event's
setting, the service ``entry_reenter`` (the pure rule ``tournaments.draw.flights.reentry`` applied
to the stored event), its refusals, the database's limits and the bracket going on with the
re-entered player.

The event of most tests: six players by rating in a bracket of eight, so seeds 1 (Alice) and 2
(Bob) have byes; round 1 is Dave-Erin (main-1-2) and Carol-Frank (main-1-4). A re-entry takes
seed 7, the line of Bob's bye (main-1-3).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.db import IntegrityError, transaction

from audit.describe import describe
from audit.models import AuditEntry
from core.errors import Conflict, DomainError
from tests.concurrency import at_once
from tests.tournaments.factories import drawn, names, pairing, play, report_only, snapshot
from tournaments.models import Entry, Pairing, Tournament
from tournaments.selectors import event as event_selectors
from tournaments.selectors import standings
from tournaments.services import entry_withdraw, tournament_finish
from tournaments.services.corrections import result_correct, result_correction_preview
from tournaments.services.events import EventRules
from tournaments.services.life import tournament_update
from tournaments.services.reentry import entry_reenter

pytestmark = pytest.mark.django_db


def named(result) -> tuple[Tournament, SimpleNamespace]:
    """A drawn event and its players by name (``who.erin``)."""
    tournament, players = result
    return tournament, SimpleNamespace(**{p.display_name.lower(): p for p in players})


def first(tournament: Tournament, who) -> Entry:
    """``who``'s original entry (a re-entry is a second entry of the same side)."""
    return Entry.objects.get(tournament=tournament, side__player_a=who, reentry_of__isnull=True)


@pytest.fixture
def event():
    return named(drawn(6, reentries=1))


def reenter(tournament: Tournament, who, user=None) -> Entry:
    return entry_reenter(tournament_id=tournament.pk, entry_id=first(tournament, who).pk,
                         user=user or tournament.organiser)


def refused(tournament: Tournament, who, reason: str, user=None) -> Conflict:
    """``who``'s re-entry is refused with ``reason`` and nothing of the event changes."""
    before = snapshot(tournament)
    with pytest.raises(Conflict) as raised:
        reenter(tournament, who, user)
    assert (raised.value.code, raised.value.details.get("reason")) == ("reentry_refused", reason)
    assert snapshot(tournament) == before
    return raised.value


# --- the setting -------------------------------------------------------------------------------


def rules(**changes) -> EventRules:
    return EventRules(**{"name": "Cup", "club_id": None, **changes})


def test_re_entry_is_off_by_default_and_allowed_once_in_a_single_elimination():
    assert rules().reentries == 0 and Tournament().reentries == 0
    assert rules(reentries=1).reentries == 1


@pytest.mark.parametrize(("changes", "says"), [
    ({"reentries": 2}, "from 0 to 1"),
    ({"reentries": -1}, "from 0 to 1"),
    ({"reentries": True}, "from 0 to 1"),
    ({"reentries": 1, "format": "swiss"}, "single elimination"),
    ({"reentries": 1, "format": "double_elimination"}, "single elimination"),
    ({"reentries": 1, "consolation_rounds": 1}, "consolation"),
    ({"reentries": 1, "last_chance_open": True, "payouts": {"main": {"pool": 100, "percentages": [100]}}},
     "consolation or last chance"),
])
def test_the_setting_is_checked_naming_its_field(changes, says):
    with pytest.raises(DomainError) as raised:
        rules(**changes)
    assert raised.value.code == "bad_rules" and raised.value.details["field"] == "reentries"
    assert says in raised.value.message


def test_the_database_keeps_the_setting_at_most_one(event):
    tournament, _ = event
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(reentries=2)


def test_the_director_allows_or_stops_re_entry_after_the_draw():
    tournament, _ = drawn(6)
    tournament_update(tournament_id=tournament.pk, user=tournament.organiser, changes={"reentries": 1})
    tournament.refresh_from_db()
    assert tournament.reentries == 1
    entry = AuditEntry.objects.filter(action="tournament.updated").latest("pk")
    assert "the re-entries allowed from 0 to 1" in describe(entry)


# --- a re-entry allowed ------------------------------------------------------------------------


def test_a_first_round_loser_re_enters_into_the_first_unused_bye_as_the_next_seed(event):
    tournament, who = event
    play(tournament, "main-1-2", who.dave)
    again = reenter(tournament, who.erin)
    assert (again.side_id, again.seed, again.status, again.reentry_of_id, again.late) == (
        first(tournament, who.erin).side_id, 7, Entry.Status.CHECKED_IN, first(tournament, who.erin).pk, False)
    bye = pairing(tournament, "main-1-3")
    assert names(bye) == ("Bob", "Erin") and bye.entry1_id == again.pk and bye.match is not None
    # The first entry stays what it was: the loser of main-1-2.
    assert first(tournament, who.erin).status == Entry.Status.CHECKED_IN
    audit = AuditEntry.objects.get(action="entry.reentered")
    assert (audit.object_id, audit.tournament_id, audit.after["reentry_of"], audit.after["match"]) == (
        again.pk, tournament.pk, first(tournament, who.erin).pk, "main-1-3")
    assert describe(audit).endswith(" re-entered Erin into the main, after a first-round loss.")


def test_a_re_entry_is_shown_as_one_beside_the_name(event):
    tournament, who = event
    play(tournament, "main-1-2", who.dave)
    again = reenter(tournament, who.erin)
    shown = {e.entry_id: e for e in event_selectors.entry_list(tournament=tournament)}
    assert shown[again.pk].reentry and shown[again.pk].reentry_of == first(tournament, who.erin).pk
    assert shown[again.pk].name == "Erin (re-entry)"
    assert not shown[first(tournament, who.erin).pk].reentry and shown[first(tournament, who.erin).pk].name == "Erin"


def test_the_bracket_goes_on_with_the_re_entered_player_to_the_final_and_the_placings(event):
    tournament, who = event
    play(tournament, "main-1-2", who.dave)
    again = reenter(tournament, who.erin)
    play(tournament, "main-1-3", who.erin)  # the re-entry beats Bob, who had the bye
    play(tournament, "main-1-4", who.carol)
    semi = pairing(tournament, "main-2-2")
    assert (semi.entry0_id, semi.entry1_id) == (again.pk, first(tournament, who.carol).pk) and semi.match is not None
    play(tournament, "main-2-1", who.alice)
    play(tournament, "main-2-2", who.erin)
    final = pairing(tournament, "main-3-1")
    assert (final.entry0_id, final.entry1_id) == (first(tournament, who.alice).pk, again.pk)
    play(tournament, "main-3-1", who.erin)
    tournament_finish(tournament_id=tournament.pk, user=tournament.organiser)
    placings = standings.tournament_placings(tournament=Tournament.objects.get(pk=tournament.pk))
    assert (placings[0].place, placings[0].entrant.entry_id, placings[0].entrant.name) == (1, again.pk,
                                                                                          "Erin (re-entry)")
    # Her first entry keeps its first-round loss.
    assert first(tournament, who.erin).pk in {row.entrant.entry_id for row in placings if row.place > 2}


@pytest.fixture
def event7():
    """Seven players: only Alice (seed 1) has a bye (main-1-1), and a re-entry takes seed 8, her
    bye's line; round 1 is Dave-Erin (main-1-2), Bob-Grace (main-1-3), Carol-Frank (main-1-4)."""
    return named(drawn(7, reentries=1))


def test_the_re_entry_may_be_made_before_the_bye_holders_next_match_starts(event7):
    tournament, who = event7
    play(tournament, "main-1-2", who.dave)  # Alice (bye) meets Dave in main-2-1: made, not started
    assert pairing(tournament, "main-2-1").match_id is not None
    play(tournament, "main-1-3", who.bob)
    again = reenter(tournament, who.grace)
    semi = pairing(tournament, "main-2-1")
    # Alice's match with Dave is reset: Alice must first beat the re-entry.
    assert semi.match_id is None and (semi.entry0_id, semi.entry1_id) == (None, None)
    assert names(pairing(tournament, "main-1-1")) == ("Alice", "Grace") and again.seed == 8
    play(tournament, "main-1-1", who.alice)
    semi = pairing(tournament, "main-2-1")
    assert (semi.entry0_id, semi.entry1_id) == (first(tournament, who.alice).pk, first(tournament, who.dave).pk)
    assert semi.match_id is not None
    assert AuditEntry.objects.filter(action="pairing.reset").exists()


def test_a_pair_re_enters_like_a_player():
    from tests.tournaments.factories import cast as make_players
    players = make_players(12)
    pairs = [tuple(players[i:i + 2]) for i in range(0, 12, 2)]
    tournament, _ = drawn(6, players=pairs, kind=Tournament.Kind.PAIRS, reentries=1)
    played = Pairing.objects.filter(tournament=tournament, round_number=1, match__isnull=False).order_by("key").first()
    loser = Entry.objects.get(pk=played.entry1_id)
    play(tournament, played.key, Entry.objects.get(pk=played.entry0_id).side.player_a)
    again = entry_reenter(tournament_id=tournament.pk, entry_id=loser.pk, user=tournament.organiser)
    assert again.side_id == loser.side_id and again.reentry_of_id == loser.pk


# --- refused -------------------------------------------------------------------------------------


def test_an_event_without_re_entry_refuses_it():
    tournament, who = named(drawn(6))
    play(tournament, "main-1-2", who.dave)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as raised:
        reenter(tournament, who.erin)
    assert raised.value.code == "reentry_off" and "allows no re-entry" in raised.value.message
    assert snapshot(tournament) == before


def test_a_player_who_has_not_lost_in_round_one_cannot_re_enter(event):
    tournament, who = event
    play(tournament, "main-1-2", who.dave)
    error = refused(tournament, who.dave, "not_a_first_round_loser")  # he won
    assert "Dave did not lose a match of the main's first round" in error.message
    refused(tournament, who.carol, "not_a_first_round_loser")  # still to play
    refused(tournament, who.alice, "not_a_first_round_loser")  # a bye


def test_a_player_re_enters_once(event):
    tournament, who = event
    play(tournament, "main-1-2", who.dave)
    again = reenter(tournament, who.erin)
    error = refused(tournament, who.erin, "already_reentered")
    assert "Erin has already re-entered" in error.message
    play(tournament, "main-1-3", who.bob)  # the re-entry loses in round 1 too
    before = snapshot(tournament)
    with pytest.raises(Conflict) as raised:
        entry_reenter(tournament_id=tournament.pk, entry_id=again.pk, user=tournament.organiser)
    assert raised.value.details["reason"] == "already_reentered" and snapshot(tournament) == before


def test_no_re_entry_once_the_first_round_is_over(event):
    tournament, who = event
    play(tournament, "main-1-2", who.dave)
    play(tournament, "main-1-4", who.carol)
    error = refused(tournament, who.erin, "first_round_closed")
    assert "the main's first round is over" in error.message


def test_no_re_entry_into_a_full_bracket():
    tournament, _ = drawn(8, reentries=1)
    loser_key = "main-1-1"
    p = pairing(tournament, loser_key)
    play(tournament, loser_key, p.entry0.side.player_a)
    refused(tournament, p.entry1.side.player_a, "bracket_full")


def test_no_re_entry_once_the_bye_holder_has_played_on(event7):
    tournament, who = event7
    play(tournament, "main-1-2", who.dave)
    play(tournament, "main-2-1", who.alice)  # Alice, who had the bye a re-entry would take, has played on
    play(tournament, "main-1-3", who.bob)
    refused(tournament, who.grace, "slot_played_on")


def test_no_re_entry_once_the_bye_holders_next_match_has_started(event7):
    tournament, who = event7
    play(tournament, "main-1-2", who.dave)
    report_only(tournament, "main-2-1", who.alice)  # reported, not confirmed: it has started
    play(tournament, "main-1-3", who.bob)
    error = refused(tournament, who.grace, "slot_played_on")
    assert "the match Alice v Dave (a semi-final)" in error.message and error.details["match"] == "main-2-1"
    assert "main-" not in error.message


def test_a_withdrawn_player_cannot_re_enter(event):
    tournament, who = event
    play(tournament, "main-1-2", who.dave)
    entry_withdraw(tournament_id=tournament.pk, entry_id=first(tournament, who.erin).pk, user=tournament.organiser)
    refused(tournament, who.erin, "withdrawn")


def test_only_the_director_re_enters_a_player(event):
    tournament, who = event
    play(tournament, "main-1-2", who.dave)
    before = snapshot(tournament)
    with pytest.raises(DomainError) as raised:
        reenter(tournament, who.erin, user=who.erin.user)
    assert raised.value.code == "not_organiser" and snapshot(tournament) == before


def test_an_unknown_entry_is_bad_input(event):
    tournament, _ = event
    with pytest.raises(DomainError) as raised:
        entry_reenter(tournament_id=tournament.pk, entry_id=10**9, user=tournament.organiser)
    assert raised.value.code == "unknown_entry" and raised.value.status == 400


def test_a_finished_event_takes_no_re_entry():
    tournament, who = named(drawn(2, reentries=1))
    play(tournament, "main-1-1", who.alice)
    tournament_finish(tournament_id=tournament.pk, user=tournament.organiser)
    with pytest.raises(Conflict) as raised:
        reenter(tournament, who.bob)
    assert raised.value.code == "tournament_finished"


# --- the database's limits --------------------------------------------------------------------------


def test_the_database_keeps_a_side_to_one_original_and_one_re_entry(event):
    tournament, who = event
    play(tournament, "main-1-2", who.dave)
    again = reenter(tournament, who.erin)
    original = first(tournament, who.erin)
    for fields in ({"reentry_of": original}, {"reentry_of": again}, {"reentry_of": None}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Entry.objects.create(tournament=tournament, side_id=original.side_id, **fields)


@pytest.mark.django_db(transaction=True)
def test_two_directors_re_entering_the_same_loser_at_once_make_one_re_entry():
    tournament, who = named(drawn(6, reentries=1))
    play(tournament, "main-1-2", who.dave)
    entry_id = first(tournament, who.erin).pk

    def call():
        return entry_reenter(tournament_id=tournament.pk, entry_id=entry_id, user=tournament.organiser)

    outcomes = at_once([call, call])
    assert sorted(outcomes) == ["done", "reentry_refused"]
    assert Entry.objects.filter(tournament=tournament, reentry_of__isnull=False).count() == 1


def test_a_correction_cannot_make_a_re_entered_loser_the_winner_until_the_re_entry_is_withdrawn(event):
    tournament, who = event
    match = play(tournament, "main-1-2", who.dave)
    again = reenter(tournament, who.erin)
    score = (0, match.length) if match.side1.player_a_id == who.erin.pk else (match.length, 0)
    before = snapshot(tournament)
    for correct in (result_correction_preview, result_correct):
        with pytest.raises(Conflict) as raised:
            correct(match_id=match.pk, user=tournament.organiser, score=score)
        assert raised.value.code == "reentered_loser" and "Erin re-entered the main" in raised.value.message
    assert snapshot(tournament) == before
    entry_withdraw(tournament_id=tournament.pk, entry_id=again.pk, user=tournament.organiser)
    result_correct(match_id=match.pk, user=tournament.organiser, score=score)
    assert pairing(tournament, "main-2-1").entry1_id == first(tournament, who.erin).pk


def test_disqualifying_a_re_entered_player_withdraws_the_entry_that_plays_the_match(event):
    """Re-entry with RULES.md §9: a player who re-entered holds two entries; a
    disqualification ruled on his re-entry's match withdraws the re-entry (his first entry, already
    out of the main, stays as it was)."""
    from rulings.models import Dispute, Ruling
    from tests.rulings.test_services_rulings import dispute_on, rule_on

    tournament, who = event
    play(tournament, "main-1-2", who.dave)
    again = reenter(tournament, who.erin)
    match = pairing(tournament, "main-1-3").match
    side = 0 if match.side0_id == again.side_id else 1
    dispute = dispute_on(match, who.bob.user, category=Dispute.Category.CONDUCT)
    rule_on(dispute, tournament.organiser, Ruling.Outcome.DISQUALIFICATION, {"side": side})
    assert Entry.objects.get(pk=again.pk).status == Entry.Status.WITHDRAWN
    assert first(tournament, who.erin).status == Entry.Status.CHECKED_IN
