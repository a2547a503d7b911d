"""tournament_draw: seeding, the format's draw, the first matches, and every refusal."""

from __future__ import annotations

import pytest

from clubs.models import Club
from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match
from tests.tournaments.factories import (
    cast,
    closed,
    drawn,
    enter,
    names,
    pairing,
    player,
    snapshot,
)
from tournaments.models import Entry, Pairing, Round, Tournament
from tournaments.services import tournament_draw

pytestmark = pytest.mark.django_db





def first_round(tournament: Tournament, flight: str = "main") -> list[tuple[str | None, str | None]]:
    rows = Pairing.objects.filter(tournament=tournament, flight=flight, round_number=1).select_related(
        "entry0__side__player_a", "entry1__side__player_a", "entry0__side__player_b", "entry1__side__player_b")
    return [names(p) for p in sorted(rows, key=lambda p: int(p.key.rsplit("-", 1)[1]))]


def test_it_seeds_by_rating_and_creates_the_first_round_matches(organiser):
    tournament = closed(organiser=organiser, lengths={"main": [5, 7, 9]}, crawford=True, move_policy="responsible")
    players = cast(8)
    enter(tournament, reversed(players))  # entry order must not matter: ratings decide
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.drawn_at is not None
    assert tournament.draw_seed is None  # not a random draw
    assert first_round(tournament) == [("Alice", "Heidi"), ("Dave", "Erin"), ("Bob", "Grace"), ("Carol", "Frank")]
    seeds = dict(Entry.objects.filter(tournament=tournament).values_list("side__player_a__display_name", "seed"))
    assert seeds == {"Alice": 1, "Bob": 2, "Carol": 3, "Dave": 4, "Erin": 5, "Frank": 6, "Grace": 7, "Heidi": 8}
    assert Pairing.objects.filter(tournament=tournament).count() == 7
    lengths = dict(Pairing.objects.filter(tournament=tournament).values_list("key", "length"))
    assert (lengths["main-1-1"], lengths["main-2-1"], lengths["main-3-1"]) == (5, 7, 9)
    matches = Match.objects.filter(event_link__tournament=tournament)
    assert matches.count() == 4
    match = pairing(tournament, "main-1-1").match
    assert (match.length, match.crawford, match.move_policy, match.status) == (5, True, "responsible", "scheduled")
    assert match.organiser == organiser and match.created_by == organiser
    assert not Pairing.objects.filter(tournament=tournament, round_number__gt=1, match__isnull=False).exists()


def test_staff_may_make_the_draw(staff):
    tournament = closed()
    enter(tournament, cast(2))
    tournament_draw(tournament_id=tournament.pk, user=staff)
    assert Match.objects.filter(event_link__tournament=tournament, created_by=staff).count() == 1


def test_a_pair_is_seeded_by_its_players_average_rating(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.PAIRS)
    a, b, c, d = (player(n, r) for n, r in (("alice", 2100), ("bob", 1500), ("carol", 1850), ("dave", 1800)))
    enter(tournament, [(a, b), (c, d)])  # 1800 against 1825
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    seeds = {e.side.name: e.seed for e in Entry.objects.filter(tournament=tournament).select_related("side__player_a",
                                                                                                     "side__player_b")}
    assert seeds == {"Carol & Dave": 1, "Alice & Bob": 2}
    match = pairing(tournament, "main-1-1").match
    assert match.rated is False  # a pairs match is never rated


def test_the_organiser_seeds_by_his_list_and_unseeded_entrants_come_after(organiser):
    tournament = closed(organiser=organiser, seeding=Tournament.Seeding.ORGANISER)
    alice, bob, carol, dave = cast(4)
    enter(tournament, [alice], seed=3)
    enter(tournament, [bob])
    enter(tournament, [carol], seed=1)
    enter(tournament, [dave], seed=2)
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    seeds = dict(Entry.objects.filter(tournament=tournament).values_list("side__player_a__display_name", "seed"))
    assert seeds == {"Carol": 1, "Dave": 2, "Alice": 3, "Bob": 4}
    assert first_round(tournament) == [("Carol", "Bob"), ("Dave", "Alice")]


def test_a_random_draw_records_the_seed_it_was_made_from(organiser):
    tournament = closed(organiser=organiser, seeding=Tournament.Seeding.RANDOM)
    enter(tournament, cast(8))
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    assert tournament.draw_seed is not None and 0 <= tournament.draw_seed < 2**32


def test_the_same_entrants_and_seed_give_the_same_draw_whatever_the_sign_up_order(organiser):
    players = cast(8)
    first = closed(organiser=organiser, seeding=Tournament.Seeding.RANDOM)
    second = closed(organiser=organiser, seeding=Tournament.Seeding.RANDOM)
    other = closed(organiser=organiser, seeding=Tournament.Seeding.RANDOM)
    enter(first, players)
    enter(second, [players[i] for i in (5, 2, 7, 0, 3, 6, 1, 4)])
    enter(other, players)
    for tournament, seed in ((first, 20261129), (second, 20261129), (other, 7)):
        tournament_draw(tournament_id=tournament.pk, user=organiser, seed=seed)
    assert first_round(first) == first_round(second)
    assert first_round(first) != first_round(other)  # the seed is what decides
    assert Tournament.objects.get(pk=second.pk).draw_seed == 20261129


def test_entrants_who_did_not_check_in_drop_out_of_the_draw(organiser):
    tournament = closed(organiser=organiser)
    alice, bob, carol = cast(3)
    enter(tournament, [alice, carol])
    (absent,) = enter(tournament, [bob], checked_in=False)
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    absent.refresh_from_db()
    assert absent.seed is None and absent.status == Entry.Status.ENTERED
    assert first_round(tournament) == [("Alice", "Carol")]


def test_byes_go_to_the_top_seeds_and_go_through_at_once(organiser):
    tournament = closed(organiser=organiser)
    enter(tournament, cast(5))
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    assert first_round(tournament) == [("Alice", None), ("Dave", "Erin"), ("Bob", None), ("Carol", None)]
    assert pairing(tournament, "main-1-1").is_bye and pairing(tournament, "main-1-1").match is None
    # Bob and Carol both had byes: their round-2 match exists from the start.
    assert names(pairing(tournament, "main-2-2")) == ("Bob", "Carol")
    assert pairing(tournament, "main-2-2").match is not None
    # Alice waits for the winner of Dave v Erin: nothing stored yet.
    assert names(pairing(tournament, "main-2-1")) == (None, None)
    assert Match.objects.filter(event_link__tournament=tournament).count() == 2


def test_a_consolation_and_a_last_chance_flight_are_drawn_with_their_lengths(organiser):
    tournament = closed(organiser=organiser, consolation_rounds=2, last_chance=True,
                        lengths={"main": [5, 7], "consolation": 3, "last_chance": 1})
    enter(tournament, cast(16))
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    flights = {}
    for flight, length in Pairing.objects.filter(tournament=tournament).values_list("flight", "length"):
        flights.setdefault(flight, set()).add(length)
    assert flights == {"main": {5, 7}, "consolation": {3}, "last_chance": {1}}
    assert Match.objects.filter(event_link__tournament=tournament).count() == 8  # only main round 1 is known


def test_double_elimination_draws_winners_losers_and_final(organiser):
    tournament, _ = drawn(4, organiser=organiser, format=Tournament.Format.DOUBLE_ELIMINATION,
                          lengths={"winners": 5, "losers": 3, "final": [7, 5]})
    keys = dict(Pairing.objects.filter(tournament=tournament).values_list("key", "length"))
    assert keys == {"winners-1-1": 5, "winners-1-2": 5, "winners-2-1": 5, "losers-1-1": 3, "losers-2-1": 3,
                    "final-1-1": 7, "final-2-1": 5}
    assert first_round(tournament, "winners") == [("Alice", "Dave"), ("Bob", "Carol")]


def test_a_round_robin_draws_its_groups_and_every_match(organiser):
    tournament, _ = drawn(8, organiser=organiser, format=Tournament.Format.ROUND_ROBIN, groups=2, lengths={"rounds": 3})
    groups = {}
    for row in Pairing.objects.filter(tournament=tournament).select_related("entry0__side__player_a",
                                                                            "entry1__side__player_a"):
        groups.setdefault(row.flight, set()).update(names(row))
    # The seed snake: A gets seeds 1, 4, 5, 8; B gets 2, 3, 6, 7.
    assert groups == {"A": {"Alice", "Dave", "Erin", "Heidi"}, "B": {"Bob", "Carol", "Frank", "Grace"}}
    assert Pairing.objects.filter(tournament=tournament, match__isnull=True).count() == 0
    assert Match.objects.filter(event_link__tournament=tournament, length=3).count() == 12
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1, 2, 3]


def test_a_swiss_draws_round_one_only(organiser):
    tournament, _ = drawn(6, organiser=organiser, format=Tournament.Format.SWISS, swiss_rounds=3)
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1]
    assert first_round(tournament, "swiss") == [("Alice", "Dave"), ("Bob", "Erin"), ("Carol", "Frank")]


def test_a_swiss_that_forbids_same_club_pairings_keeps_clubmates_apart(organiser):
    north, south = Club.objects.create(name="North", slug="north"), Club.objects.create(name="South", slug="south")
    tournament = closed(organiser=organiser, format=Tournament.Format.SWISS, forbid_same_club=True)
    players = [player(n, r, c) for n, r, c in (("alice", 2000, north), ("bob", 1990, north), ("carol", 1980, south),
                                               ("dave", 1970, south))]
    enter(tournament, players)
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    assert first_round(tournament, "swiss") == [("Alice", "Carol"), ("Bob", "Dave")]


def test_a_swiss_of_one_club_that_forbids_same_club_pairings_cannot_be_drawn(organiser):
    club = Club.objects.create(name="North", slug="north")
    tournament = closed(organiser=organiser, format=Tournament.Format.SWISS, forbid_same_club=True)
    enter(tournament, cast(4, club=club))
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        tournament_draw(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "no_pairing" and caught.value.details["reason"] == "forbidden"
    assert "same club" in caught.value.message
    assert snapshot(tournament) == before


# --- refusals: the right code, and nothing changed ------------------------------------------------


def test_drawing_twice_is_a_conflict_and_changes_nothing(organiser):
    tournament, _ = drawn(4, organiser=organiser)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        tournament_draw(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "already_drawn"
    assert snapshot(tournament) == before


def test_a_draw_with_too_few_checked_in_entries_is_refused(organiser):
    tournament = closed(organiser=organiser)
    alice, bob, carol = cast(3)
    enter(tournament, [alice])
    enter(tournament, [bob, carol], checked_in=False)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        tournament_draw(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "too_few_entries" and "1 checked-in entry" in caught.value.message
    assert snapshot(tournament) == before


def test_double_elimination_needs_three_entrants(organiser):
    tournament = closed(organiser=organiser, format=Tournament.Format.DOUBLE_ELIMINATION)
    enter(tournament, cast(2))
    with pytest.raises(Conflict) as caught:
        tournament_draw(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "too_few_entries" and "at least 3" in caught.value.message


@pytest.mark.parametrize("status", [Tournament.Status.DRAFT, Tournament.Status.OPEN])
def test_the_draw_waits_for_the_entries_to_close(organiser, status):
    tournament = closed(organiser=organiser, status=status)
    enter(tournament, cast(4))
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        tournament_draw(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "entries_open"
    assert snapshot(tournament) == before


def test_another_organiser_cannot_make_the_draw(organiser, another_organiser):
    tournament = closed(organiser=organiser)
    enter(tournament, cast(4))
    before = snapshot(tournament)
    with pytest.raises(NotAllowed) as caught:
        tournament_draw(tournament_id=tournament.pk, user=another_organiser)
    assert caught.value.code == "not_organiser"
    assert snapshot(tournament) == before


def test_a_seed_for_a_draw_that_is_not_random_is_refused(organiser):
    tournament = closed(organiser=organiser)
    enter(tournament, cast(4))
    with pytest.raises(DomainError) as caught:
        tournament_draw(tournament_id=tournament.pk, user=organiser, seed=42)
    assert caught.value.code == "seed_unused" and "by rating" in caught.value.message


@pytest.mark.parametrize("seed", [-1, 2**63, "42", True])
def test_a_random_seed_must_be_a_whole_number_that_fits(organiser, seed):
    tournament = closed(organiser=organiser, seeding=Tournament.Seeding.RANDOM)
    enter(tournament, cast(4))
    before = snapshot(tournament)
    with pytest.raises(DomainError) as caught:
        tournament_draw(tournament_id=tournament.pk, user=organiser, seed=seed)
    assert caught.value.code == "bad_seed"
    assert snapshot(tournament) == before


def test_rules_that_do_not_fit_the_entrants_are_refused_with_the_draws_reason(organiser):
    # Four players: the consolation is a single match, so nothing can feed a last-chance flight.
    tournament = closed(organiser=organiser, consolation_rounds=1, last_chance=True)
    enter(tournament, cast(4))
    before = snapshot(tournament)
    with pytest.raises(DomainError) as caught:
        tournament_draw(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "bad_drop_map" and caught.value.status == 400
    assert snapshot(tournament) == before


def test_too_many_groups_for_a_round_robin_are_refused(organiser):
    tournament = closed(organiser=organiser, format=Tournament.Format.ROUND_ROBIN, groups=3)
    enter(tournament, cast(5))
    with pytest.raises(Conflict) as caught:
        tournament_draw(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "too_few_entries" and "at least 6" in caught.value.message


def test_a_team_event_is_drawn_from_its_checked_in_teams(organiser):
    # Team events are drawn by this service since tournaments/services/teams.py (its draws are
    # tested in tests/tournaments/test_services_teams.py): with no team, too few entries.
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS)
    with pytest.raises(DomainError) as caught:
        tournament_draw(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "too_few_entries"


def test_the_api_answers_a_draw_error_like_a_domain_error():
    from core.api import exception_handler
    from tournaments.draw import DrawError

    response = exception_handler(DrawError("round 2 is not complete", code="round_not_complete"), {})
    assert response.status_code == 409
    assert response.data == {"detail": "round 2 is not complete", "code": "round_not_complete"}
    response = exception_handler(DrawError("no match 'x'", code="unknown_match", match="x"), {})
    assert (response.status_code, response.data["code"]) == (400, "unknown_match")
