"""Selectors: what the pages and the API show of an event, in a fixed number of queries."""

from __future__ import annotations

import pytest

from matches.models import Match
from tests.tournaments.factories import (
    cast,
    closed,
    drawn,
    enter,
    entry_of,
    pairing,
    play,
    report_only,
)
from tournaments.models import Pairing, Tournament
from tournaments.selectors.brackets import tournament_bracket
from tournaments.selectors.event import entry_list, tournament_get, tournament_list, tournament_match_list, tournament_named
from tournaments.selectors.next_match import player_next_match
from tournaments.selectors.rounds import tournament_rounds
from tournaments.selectors.standings import tournament_placings, tournament_standings
from tournaments.services import entry_withdraw, tournament_draw

pytestmark = pytest.mark.django_db



def shown(match):
    return (match.key, match.top and match.top.name, match.bottom and match.bottom.name, match.status)


def test_the_bracket_shows_each_flight_round_by_round_with_byes_sources_scores_and_winners(organiser):
    tournament, (alice, _bob, _carol, _dave, erin) = drawn(5, organiser=organiser, consolation_rounds=1,
                                                        lengths={"main": [3, 5, 7], "consolation": 3})
    play(tournament, "main-1-2", erin, 2)
    bracket = tournament_bracket(tournament=tournament)
    assert [f.name for f in bracket.flights] == ["main", "consolation"]
    main, consolation = bracket.flights
    assert [(r.number, r.length) for r in main.rounds] == [(1, 3), (2, 5), (3, 7)]
    first = main.rounds[0].matches
    assert [shown(m) for m in first] == [
        ("main-1-1", "Alice", None, "bye"), ("main-1-2", "Dave", "Erin", "confirmed"),
        ("main-1-3", "Bob", None, "bye"), ("main-1-4", "Carol", None, "bye")]
    assert first[0].bottom_bye and not first[0].top_bye and first[0].match_id is None
    assert first[0].top.seed == 1 and first[0].top.players == ((alice.pk, "Alice"),)
    played = first[1]
    assert played.score == (2, 3) and played.winner == entry_of(tournament, erin).pk
    assert [shown(m) for m in main.rounds[1].matches] == [("main-2-1", "Alice", "Erin", "scheduled"),
                                                          ("main-2-2", "Bob", "Carol", "scheduled")]
    final = main.rounds[2].matches[0]
    assert (final.top, final.top_from, final.bottom_from) == (None, "winner of main-2-1", "winner of main-2-2")
    assert (consolation.source, consolation.fed_rounds) == ("main", (1,))
    # Only Dave lost a real first-round match: he goes through the consolation's byes.
    assert [shown(m) for m in consolation.rounds[0].matches] == [("consolation-1-1", None, "Dave", "bye"),
                                                                 ("consolation-1-2", None, None, "bye")]
    assert consolation.champion.name == "Dave" and main.champion is None and not bracket.finished


def test_a_walkover_and_the_champion_are_shown(organiser):
    tournament, (alice, bob, _carol) = drawn(3, organiser=organiser)
    entry_withdraw(tournament_id=tournament.pk, entry_id=entry_of(tournament, alice).pk, user=organiser)
    play(tournament, "main-1-2", bob)
    bracket = tournament_bracket(tournament=tournament)
    final = bracket.flights[0].rounds[1].matches[0]
    assert shown(final) == ("main-2-1", "Alice", "Bob", "walkover") and final.top.withdrawn
    assert final.winner == entry_of(tournament, bob).pk and final.match_id is None
    assert bracket.flights[0].champion.name == "Bob" and bracket.finished


def test_nothing_is_drawn_before_the_draw(organiser):
    tournament = closed(organiser=organiser)
    enter(tournament, cast(4))
    assert tournament_bracket(tournament=tournament) is None
    assert tournament_placings(tournament=tournament) == ()
    assert tournament_standings(tournament=tournament) == ()
    assert tournament_rounds(tournament=tournament) == ()


def test_swiss_rounds_show_the_boards_and_the_bye(organiser):
    tournament, (alice, _bob, _carol, _dave, _erin) = drawn(5, organiser=organiser, format=Tournament.Format.SWISS)
    play(tournament, "swiss-1-1", alice, 1)
    (first,) = tournament_rounds(tournament=tournament)
    assert first.number == 1 and first.bye.name == "Erin"
    assert [shown(p) for p in first.pairings] == [("swiss-1-1", "Alice", "Carol", "confirmed"),
                                                  ("swiss-1-2", "Bob", "Dave", "scheduled")]
    assert first.pairings[0].score == (5, 1)


def test_round_robin_standings_are_per_group_and_placings_share_the_group_places(organiser):
    tournament, eight = drawn(8, organiser=organiser, format=Tournament.Format.ROUND_ROBIN, groups=2)
    seeds = {p.pk: i for i, p in enumerate(eight)}
    for row in Pairing.objects.filter(tournament=tournament).select_related("entry0__side__player_a",
                                                                            "entry1__side__player_a"):
        a, b = row.entry0.side.player_a, row.entry1.side.player_a
        play(tournament, row.key, a if seeds[a.pk] < seeds[b.pk] else b)
    table = [(s.group, s.place, s.entrant.name) for s in tournament_standings(tournament=tournament)]
    assert table == [("A", 1, "Alice"), ("A", 2, "Dave"), ("A", 3, "Erin"), ("A", 4, "Heidi"),
                     ("B", 1, "Bob"), ("B", 2, "Carol"), ("B", 3, "Frank"), ("B", 4, "Grace")]
    labels = [(p.label, p.entrant.name) for p in tournament_placings(tournament=tournament)]
    assert labels == [("1-2", "Alice"), ("1-2", "Bob"), ("3-4", "Dave"), ("3-4", "Carol"), ("5-6", "Erin"),
                      ("5-6", "Frank"), ("7-8", "Heidi"), ("7-8", "Grace")]


def test_a_players_next_match_is_his_match_or_the_one_he_waits_in(organiser):
    tournament, (alice, bob, _carol, dave, erin) = drawn(5, organiser=organiser)
    waiting = player_next_match(tournament=tournament, player=alice)
    assert (waiting.key, waiting.opponent, waiting.waiting_for, waiting.match_id) == (
        "main-2-1", None, "winner of main-1-2", None)
    ready = player_next_match(tournament=tournament, player=bob.pk)
    assert (ready.key, ready.opponent.name, ready.status, ready.length) == ("main-2-2", "Carol", "scheduled", 5)
    assert ready.match_id == pairing(tournament, "main-2-2").match_id
    report_only(tournament, "main-1-2", dave)
    assert player_next_match(tournament=tournament, player=erin).status == "reported"
    play(tournament, "main-1-2", dave)
    assert player_next_match(tournament=tournament, player=erin) is None  # out
    assert player_next_match(tournament=tournament, player=alice).opponent.name == "Dave"


def test_a_pair_member_finds_the_pairs_next_match_and_a_swiss_player_his_board(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.PAIRS)
    alice, bob, carol, dave = cast(4)
    enter(tournament, [(alice, bob), (carol, dave)])
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    mine = player_next_match(tournament=tournament, player=bob)
    assert (mine.entrant.name, mine.opponent.name) == ("Alice & Bob", "Carol & Dave")
    assert mine.entrant.roller == "a"
    swiss, _ = drawn(4, organiser=organiser, format=Tournament.Format.SWISS, players=[alice, bob, carol, dave])
    assert player_next_match(tournament=swiss, player=dave).opponent.name == "Bob"


def test_lists_of_events_and_entrants(organiser):
    tournament, _ = drawn(3, organiser=organiser)
    other = closed(status=Tournament.Status.OPEN)
    assert list(tournament_list(status=Tournament.Status.RUNNING)) == [tournament]
    assert list(tournament_list(organiser_id=organiser.pk)) == [tournament]
    assert tournament_get(other.pk) == other
    assert [(e.seed, e.name) for e in entry_list(tournament=tournament)] == [(1, "Alice"), (2, "Bob"), (3, "Carol")]


def test_an_event_by_its_organiser_and_name_and_its_matches_in_the_order_they_were_made(
        organiser, another_organiser, django_assert_num_queries):
    tournament, _ = drawn(4, organiser=organiser, name="Spring Open")
    closed(organiser=another_organiser, name="Spring Open")
    assert tournament_named(organiser=organiser, name="Spring Open") == tournament
    assert tournament_named(organiser=organiser, name="Autumn Open") is None
    made = list(Match.objects.filter(event_link__tournament=tournament).order_by("pk"))
    assert len(made) == 2 and list(tournament_match_list(tournament=tournament)) == made
    play(tournament, made[0].pairing.key, made[0].side0.player_a)
    scheduled = list(tournament_match_list(tournament=tournament, status=Match.Status.SCHEDULED))
    assert scheduled == made[1:]
    with django_assert_num_queries(0):  # the sides' first players and their users are joined
        assert scheduled[0].side0.player_a.user.username and scheduled[0].side1.player_a.user.username


# --- a fixed number of queries, whatever the event's size ------------------------------------------


def _half_played(tournament: Tournament) -> None:
    """Confirm the first half of the matches that exist, to have every kind of row."""
    rows = list(Pairing.objects.filter(tournament=tournament, match__isnull=False).select_related(
        "match__side0__player_a").order_by("id"))
    for row in rows[: max(1, len(rows) // 2)]:
        play(tournament, row.key, row.match.side0.player_a)


@pytest.mark.parametrize("count", [4, 16])
def test_bracket_reads_take_the_same_queries_for_4_and_16_entrants(organiser, django_assert_num_queries, count):
    players = cast(count)
    tournament, _ = drawn(count, organiser=organiser, consolation_rounds=1, players=players)
    _half_played(tournament)
    with django_assert_num_queries(2):
        bracket = tournament_bracket(tournament=tournament)
    assert sum(len(r.matches) for f in bracket.flights for r in f.rounds) == count - 1 + count // 2 - 1
    with django_assert_num_queries(2):
        tournament_placings(tournament=tournament)
    with django_assert_num_queries(2):
        player_next_match(tournament=tournament, player=players[-1])
    with django_assert_num_queries(1):
        entry_list(tournament=tournament)


@pytest.mark.parametrize("count", [4, 16])
@pytest.mark.parametrize("format", [Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN])
def test_table_reads_take_the_same_queries_for_4_and_16_entrants(organiser, django_assert_num_queries, count, format):
    players = cast(count)
    tournament, _ = drawn(count, organiser=organiser, format=format, players=players)
    _half_played(tournament)
    with django_assert_num_queries(2):
        rows = tournament_standings(tournament=tournament)
    assert len(rows) == count
    with django_assert_num_queries(2):
        tournament_rounds(tournament=tournament)
    with django_assert_num_queries(2):
        tournament_placings(tournament=tournament)
    with django_assert_num_queries(2):
        player_next_match(tournament=tournament, player=players[0])
