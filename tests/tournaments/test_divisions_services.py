"""Divisions and handicaps through the services: the settings (EventRules, each
field checked), an entrant's division at entry and the director's placing (audited), and the
handicap start of the matches the draw and the rounds make ("divisions rule N":
``tournaments.draw.divisions``)."""

from __future__ import annotations

import pytest

from audit.describe import describe
from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match
from matches.services.reporting import claim_make, match_report
from tests.tournaments.factories import closed, enter, player
from tournaments.models import Entry, Pairing, Tournament
from tournaments.services import (
    EventRules,
    entry_add,
    entry_add_late,
    entry_sign_up,
    tournament_create,
    tournament_draw,
    tournament_pair_next_round,
    tournament_update,
)
from tournaments.services.corrections import result_correct
from tournaments.services.divisions import entry_set_division

pytestmark = pytest.mark.django_db

CHICAGO = [{"name": "Open"}, {"name": "Intermediate", "max_rating": 1650}, {"name": "Novice", "max_rating": 1500}]
DEFAULT_ROWS = [
    {"division": "Intermediate", "against": "Open", "length": 7, "points": 1},
    {"division": "Novice", "against": "Intermediate", "length": 7, "points": 1},
    {"division": "Novice", "against": "Open", "length": 7, "points": 2},
]


# --- the settings -----------------------------------------------------------------------------------

def test_divisions_without_a_table_take_the_default_table_rule_6():
    """divisions rule 6: divisions sent without handicaps get the default rows between them."""
    rules = EventRules(name="Chicago", divisions=CHICAGO)
    assert [d["name"] for d in rules.divisions] == ["Open", "Intermediate", "Novice"]
    assert rules.divisions[1] == {"name": "Intermediate", "min_rating": None, "max_rating": 1650.0}
    assert rules.handicaps == DEFAULT_ROWS
    assert EventRules(name="Chicago", divisions=CHICAGO, handicaps=[]).handicaps == []
    assert EventRules(name="Plain").divisions == [] and EventRules(name="Plain").handicaps == []


@pytest.mark.parametrize(("values", "field", "words"), [
    ({"divisions": "Open"}, "divisions", "a list, strongest division first"),
    ({"divisions": [{"name": ""}]}, "divisions.0.name", "a name of 1 to 40 characters"),
    ({"divisions": ["Open", "OPEN"]}, "divisions.1.name", "two divisions cannot have the same name"),
    ({"divisions": [{"name": "A", "max_rating": "x"}]}, "divisions.0.max_rating", "a rating from 0 to 10000"),
    ({"divisions": [{"name": "A", "min_rating": 1700, "max_rating": 1600}]}, "divisions.0.max_rating",
     "the highest rating must be above the lowest"),
    ({"divisions": [{"name": "A", "colour": 1}]}, "divisions.0.colour", "not a field of a division"),
    ({"divisions": CHICAGO, "handicaps": [{"division": "Pro", "against": "Open", "length": 7, "points": 1}]},
     "handicaps.0.division", "not one of the event's divisions"),
    ({"divisions": CHICAGO, "handicaps": [{"division": "Novice", "against": "Open", "length": 7, "points": 7}]},
     "handicaps.0.points", "a start of at least 1 point and less than the match length"),
    ({"divisions": CHICAGO, "handicaps": [{"division": "Novice", "against": "Open", "length": 7, "points": 1},
                                          {"division": "Open", "against": "Novice", "length": 7, "points": 1}]},
     "handicaps.1", "these two divisions already have a handicap at this length"),
    ({"handicaps": [{"division": "Novice", "against": "Open", "length": 7, "points": 1}]}, "handicaps.0.division",
     "not one of the event's divisions"),
    ({"divisions": CHICAGO, "kind": Tournament.Kind.PAIRS}, "divisions", "divisions are for events of single players"),
])
def test_each_bad_setting_is_refused_naming_its_field(values, field, words):
    """divisions rules 1 and 5 at the service: the field named, the reason in words."""
    with pytest.raises(DomainError) as caught:
        EventRules(name="Chicago", **values)
    assert caught.value.code == "bad_rules"
    assert caught.value.details["field"] == field
    assert words in caught.value.message


def test_an_event_is_created_and_edited_with_its_divisions(organiser):
    tournament = tournament_create(user=organiser, rules=EventRules(name="Chicago", divisions=CHICAGO))
    tournament.refresh_from_db()
    assert tournament.divisions[2]["max_rating"] == 1500.0 and tournament.handicaps == DEFAULT_ROWS
    rows = [{"division": "Novice", "against": "Open", "length": 11, "points": 3}]
    tournament_update(tournament_id=tournament.pk, user=organiser, changes={"handicaps": rows})
    tournament.refresh_from_db()
    assert tournament.handicaps == rows
    entry = AuditEntry.objects.filter(tournament_id=tournament.pk, action="tournament.updated").get()
    assert describe(entry) == (
        "Olga changed the event's settings: the handicap starts from Intermediate starts 1-0 "
        "against Open at 7 points, Novice starts 1-0 against Intermediate at 7 points and Novice starts 2-0 "
        "against Open at 7 points to Novice starts 3-0 against Open at 11 points.")


def test_divisions_do_not_change_after_the_draw(organiser):
    tournament = closed(organiser=organiser, divisions=CHICAGO, handicaps=DEFAULT_ROWS, lengths={"main": 7})
    enter(tournament, [player("alice", 1800), player("bob", 1600)])
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    with pytest.raises(Conflict) as caught:
        tournament_update(tournament_id=tournament.pk, user=organiser, changes={"handicaps": []})
    assert caught.value.code == "not_editable"


# --- an entrant's division ----------------------------------------------------------------------------

def open_event(organiser, **rules) -> Tournament:
    rules.setdefault("divisions", CHICAGO)
    return closed(organiser=organiser, status=Tournament.Status.OPEN, **rules)


@pytest.mark.parametrize(("rating", "chosen", "placed"), [
    (1800, None, "Open"),
    (1600, None, "Intermediate"),
    (1400, None, "Novice"),
    (1400, "Open", "Open"),  # playing up
    (1600, "Intermediate", "Intermediate"),
])
def test_a_player_signing_up_is_placed_by_rating_or_plays_up_rules_2_and_3(organiser, rating, chosen, placed):
    """divisions rules 2 and 3: his choice if his rating is eligible, else the weakest eligible."""
    tournament = open_event(organiser)
    alice = player("alice", rating)
    entry = entry_sign_up(tournament_id=tournament.pk, user=alice.user, division=chosen)
    assert Entry.objects.get(pk=entry.pk).division == placed
    audit = AuditEntry.objects.get(tournament_id=tournament.pk, action="entry.signed_up")
    assert audit.after["division"] == placed


@pytest.mark.parametrize(("divisions", "rating", "chosen", "code"), [
    (CHICAGO, 1800, "Novice", "not_eligible"),  # never down
    (CHICAGO, 1800, "Masters", "unknown_division"),
    ([{"name": "Open", "min_rating": 1700}], 1500, None, "no_division"),
    ([], 1500, "Open", "no_divisions"),
])
def test_a_sign_up_in_a_division_he_may_not_play_is_refused_rules_2_and_3(organiser, divisions, rating, chosen, code):
    """divisions rules 2 and 3: refused with the reason, nothing entered."""
    tournament = open_event(organiser, divisions=divisions)
    alice = player("alice", rating)
    with pytest.raises(DomainError) as caught:
        entry_sign_up(tournament_id=tournament.pk, user=alice.user, division=chosen)
    assert (caught.value.code, caught.value.details["field"]) == (code, "division")
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_the_director_enters_anyone_in_any_division_rule_4(organiser):
    """divisions rule 4: the director's placing overrides the rating."""
    tournament = open_event(organiser)
    alice = player("alice", 2100)
    entry = entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[alice.pk], division="Novice")
    assert entry.division == "Novice"
    bob = player("bob", 1450)
    assert entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[bob.pk]).division == "Novice"
    with pytest.raises(DomainError) as caught:
        entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[player("carol").pk], division="Pro")
    assert caught.value.code == "unknown_division"


def test_the_director_moves_an_entrant_audited_rule_4(organiser):
    """divisions rule 4: ``entry_set_division``, audited and described; a second identical call
    changes nothing."""
    tournament = open_event(organiser)
    alice = player("alice", 1400)
    entry = entry_sign_up(tournament_id=tournament.pk, user=alice.user)
    assert entry.division == "Novice"
    entry_set_division(tournament_id=tournament.pk, entry_id=entry.pk, user=organiser, division="Open")
    entry_set_division(tournament_id=tournament.pk, entry_id=entry.pk, user=organiser, division="Open")
    assert Entry.objects.get(pk=entry.pk).division == "Open"
    audits = AuditEntry.objects.filter(tournament_id=tournament.pk, action="entry.division_set")
    assert audits.count() == 1
    assert describe(audits.get()) == (
        "Olga moved Alice from the Novice division to the Open division.")


def test_only_the_director_moves_an_entrant_and_only_to_a_division_of_the_event(organiser):
    tournament = open_event(organiser)
    alice = player("alice", 1400)
    entry = entry_sign_up(tournament_id=tournament.pk, user=alice.user)
    with pytest.raises(NotAllowed):
        entry_set_division(tournament_id=tournament.pk, entry_id=entry.pk, user=alice.user, division="Open")
    with pytest.raises(DomainError) as caught:
        entry_set_division(tournament_id=tournament.pk, entry_id=entry.pk, user=organiser, division="Masters")
    assert caught.value.code == "unknown_division"
    plain = open_event(organiser, divisions=[])
    other = entry_sign_up(tournament_id=plain.pk, user=alice.user)
    with pytest.raises(DomainError) as caught:
        entry_set_division(tournament_id=plain.pk, entry_id=other.pk, user=organiser, division="Open")
    assert caught.value.code == "no_divisions"
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(Conflict):
        entry_set_division(tournament_id=tournament.pk, entry_id=entry.pk, user=organiser, division="Open")
    assert Entry.objects.get(pk=entry.pk).division == "Novice"


# --- the handicap start ----------------------------------------------------------------------------

def division_event(organiser, **rules) -> Tournament:
    rules.setdefault("divisions", CHICAGO)
    rules.setdefault("handicaps", DEFAULT_ROWS)
    return closed(organiser=organiser, **rules)


def test_a_drawn_match_between_divisions_starts_from_the_table_rule_5(organiser):
    """divisions rule 5 (the Chicago Open's figure, rule 6): an Intermediate starts 1-0 against an
    Open player in a match to 7; two Open players start level."""
    tournament = division_event(organiser, lengths={"main": 7})
    alice, bob, carol, dave = (player("alice", 1900), player("bob", 1600), player("carol", 1850),
                               player("dave", 1800))
    enter(tournament, [alice, bob], division="Open")
    Entry.objects.filter(side__player_a=bob).update(division="Intermediate")
    enter(tournament, [carol, dave], division="Open")
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    starts = {}
    for row in Pairing.objects.filter(tournament=tournament, match__isnull=False).select_related(
            "match", "entry0", "entry1"):
        divisions = (row.entry0.division, row.entry1.division)
        assert (row.match.penalty0, row.match.penalty1) == (row.handicap0, row.handicap1)
        starts[divisions] = (row.handicap0, row.handicap1)
    # seeded by rating: alice (1) v bob (4), carol (2) v dave (3)
    assert starts == {("Open", "Intermediate"): (0, 1), ("Open", "Open"): (0, 0)}


def test_a_handicapped_match_is_reported_from_its_start_rule_5(organiser):
    """divisions rule 5: the engine replays from the start: the Intermediate who started 1-0 and
    lost has at least 1 point."""
    tournament = division_event(organiser, lengths={"main": 7})
    alice, bob = player("alice", 1900), player("bob", 1600)
    enter(tournament, [alice], division="Open")
    enter(tournament, [bob], division="Intermediate")
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    match = Match.objects.get(pairing__tournament=tournament)
    assert match.start == (0, 1)
    with pytest.raises(DomainError):
        match_report(match_id=match.pk, user=alice.user, claim=claim_make(match, (7, 0), None))
    for who in (alice, bob):
        match_report(match_id=match.pk, user=who.user, claim=claim_make(match, (7, 1), None))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


def test_no_row_for_the_length_starts_level_rule_5(organiser):
    """divisions rule 5: the default table has no row at 5 points."""
    tournament = division_event(organiser, lengths={"main": 5})
    enter(tournament, [player("alice", 1900)], division="Open")
    enter(tournament, [player("bob", 1400)], division="Novice")
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    row = Pairing.objects.select_related("match").get(tournament=tournament)
    assert (row.handicap0, row.handicap1, row.match.penalty0, row.match.penalty1) == (0, 0, 0, 0)


def test_a_swiss_round_and_a_late_entrant_follow_the_table_rules_4_and_5(organiser):
    """divisions rules 4 and 5: Swiss rounds paired later take the divisions as they are then (a
    late entrant placed by the director)."""
    tournament = division_event(organiser, format=Tournament.Format.SWISS, swiss_rounds=3, lengths={"rounds": 7})
    players = [player("alice", 1900), player("bob", 1880), player("carol", 1600)]
    enter(tournament, players[:2], division="Open")
    enter(tournament, players[2:], division="Intermediate")
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    late = player("dave", 2000)
    entry_add_late(tournament_id=tournament.pk, user=organiser, player_ids=[late.pk], division="Novice")
    assert Entry.objects.get(side__player_a=late).division == "Novice"
    for match in Match.objects.filter(pairing__tournament=tournament):
        for side in (match.side0, match.side1):
            winner = 0 if match.start[1] else 1
            score = [max(match.start[0], 0), max(match.start[1], 0)]
            score[winner] = 7
            match_report(match_id=match.pk, user=side.player_a.user, claim=claim_make(match, tuple(score), None))
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    for row in Pairing.objects.filter(tournament=tournament, round_number=2, match__isnull=False).select_related(
            "entry0", "entry1", "match"):
        pair = {row.entry0.division: row.handicap0, row.entry1.division: row.handicap1}
        expected = {("Open", "Intermediate"): {"Open": 0, "Intermediate": 1},
                    ("Open", "Novice"): {"Open": 0, "Novice": 2},
                    ("Intermediate", "Novice"): {"Intermediate": 0, "Novice": 1},
                    ("Open", "Open"): {"Open": 0}}
        key = tuple(sorted(pair, key=["Open", "Intermediate", "Novice"].index))
        assert pair == expected[key if len(key) == 2 else ("Open", "Open")]
        assert (row.match.penalty0, row.match.penalty1) == (row.handicap0, row.handicap1)


def test_a_corrected_winner_remakes_the_next_match_with_its_own_handicap_rule_5(organiser):
    """divisions rule 5: a corrected result resets the match it fed; the match made again for the
    new entrant starts from the table's score for his division, not the old one's."""
    tournament = division_event(organiser, lengths={"main": [7, 7]})
    alice, bob, carol, dave = (player("alice", 1900), player("bob", 1850), player("carol", 1800),
                               player("dave", 1600))
    enter(tournament, [alice, bob, carol], division="Open")
    enter(tournament, [dave], division="Intermediate")
    tournament_draw(tournament_id=tournament.pk, user=organiser)  # alice v dave, bob v carol
    first = Match.objects.get(pairing__tournament=tournament, pairing__key="main-1-1")
    assert first.start == (0, 1)
    second = Match.objects.get(pairing__tournament=tournament, pairing__key="main-1-2")
    for match, score in ((first, (7, 1)), (second, (7, 0))):
        for side in (match.side0, match.side1):
            match_report(match_id=match.pk, user=side.player_a.user, claim=claim_make(match, score, None))
    final = Pairing.objects.select_related("match").get(tournament=tournament, key="main-2-1")
    assert (final.handicap0, final.handicap1, final.match.start) == (0, 0, (0, 0))  # alice v bob
    result_correct(match_id=first.pk, user=organiser, score=(1, 7))
    final = Pairing.objects.select_related("match", "entry0", "entry1").get(tournament=tournament, key="main-2-1")
    assert (final.entry0.division, final.entry1.division) == ("Intermediate", "Open")  # dave v bob
    assert (final.handicap0, final.handicap1, final.match.start) == (1, 0, (1, 0))


def test_a_division_that_holds_entrants_is_not_dropped_from_the_list(organiser):
    """divisions rule 1: the list changes before the draw, but not under an entrant's feet."""
    tournament = open_event(organiser, handicaps=[])
    entry = entry_sign_up(tournament_id=tournament.pk, user=player("alice", 1400).user)
    with pytest.raises(DomainError) as caught:
        tournament_update(tournament_id=tournament.pk, user=organiser, changes={"divisions": CHICAGO[:2]})
    assert caught.value.details["field"] == "divisions" and "Novice" in caught.value.message
    entry_set_division(tournament_id=tournament.pk, entry_id=entry.pk, user=organiser, division="Intermediate")
    tournament_update(tournament_id=tournament.pk, user=organiser, changes={"divisions": CHICAGO[:2]})
    assert [d["name"] for d in Tournament.objects.get(pk=tournament.pk).divisions] == ["Open", "Intermediate"]
