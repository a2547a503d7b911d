"""Through the services: the Swiss pairing method, the FIDE tie-breaks and the
Berger order are event settings (EventRules), checked when the event is made and read by the
pairing, the standings and the round robin's draw."""

from __future__ import annotations

import pytest

from core.errors import DomainError
from tests.tournaments.factories import drawn, names, pairing, play
from tournaments.models import Pairing, Tournament
from tournaments.selectors.standings import tournament_standings
from tournaments.services import tournament_create, tournament_pair_next_round
from tournaments.services.events import EventRules

pytestmark = pytest.mark.django_db


def round_of(tournament: Tournament, number: int) -> list[tuple[str | None, str | None]]:
    rows = Pairing.objects.filter(tournament=tournament, round_number=number).select_related(
        "entry0__side__player_a", "entry1__side__player_a")
    return sorted(names(p) for p in rows)


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"format": "swiss", "swiss_pairing": "dutch"}, "swiss_pairing"),
        ({"format": "single_elimination", "swiss_pairing": "top_down"}, "swiss_pairing"),
        ({"format": "swiss", "swiss_tiebreaks": "sonneborn"}, "swiss_tiebreaks"),
        ({"format": "round_robin", "swiss_tiebreaks": "fide"}, "swiss_tiebreaks"),
        ({"format": "round_robin", "round_robin_order": "scheveningen"}, "round_robin_order"),
        ({"format": "swiss", "round_robin_order": "berger"}, "round_robin_order"),
    ],
)
def test_the_new_rules_are_checked_naming_the_field_and_nothing_is_saved(organiser, rules, field):
    with pytest.raises(DomainError) as caught:
        tournament_create(user=organiser, rules=EventRules(name="Open", **rules))
    assert caught.value.code == "bad_rules" and caught.value.details["field"] == field
    assert not Tournament.objects.exists()


def test_a_new_swiss_is_paired_fairly_and_may_choose_top_down(organiser):
    fair = tournament_create(user=organiser, rules=EventRules(name="Open", format="swiss"))
    assert (fair.swiss_pairing, fair.swiss_tiebreaks) == ("fair", "standard")
    greedy = tournament_create(user=organiser, rules=EventRules(name="Open 2", format="swiss", swiss_pairing="top_down",
                                                                swiss_tiebreaks="fide"))
    assert (greedy.swiss_pairing, greedy.swiss_tiebreaks) == ("top_down", "fide")


@pytest.mark.parametrize("method", ["fair", "top_down"])
def test_the_pairing_asks_the_draw_for_the_events_method(organiser, monkeypatch, method):
    from tournaments.services import swiss_rounds

    asked = []
    real = swiss_rounds.pair_round

    def spy(*args, **kwargs):
        asked.append(kwargs["options"].method)
        return real(*args, **kwargs)

    monkeypatch.setattr(swiss_rounds, "pair_round", spy)
    tournament, four = drawn(4, organiser=organiser, format="swiss", swiss_pairing=method)
    assert asked == [method]
    play(tournament, "swiss-1-1", four[0])
    play(tournament, "swiss-1-2", four[1])
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    assert asked == [method, method]


def test_fide_tiebreaks_rank_an_early_bye_above_a_late_one(organiser):
    """FIDE's virtual opponent: Carol's round-1 bye is worth her 0 + 0 + half a point for the round
    after it; Bob's round-2 bye 0. Plain Buchholz leaves them level (Bob first, by seed)."""
    tables, three = {}, None
    for order in ("standard", "fide"):
        tournament, three = drawn(3, organiser=organiser, format="swiss", swiss_tiebreaks=order, players=three)
        alice = three[0]
        assert names(pairing(tournament, "swiss-1-bye")) == ("Carol", None)
        play(tournament, "swiss-1-1", alice)
        tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
        assert names(pairing(tournament, "swiss-2-bye")) == ("Bob", None)
        play(tournament, "swiss-2-1", alice)
        tables[order] = [(s.place, s.entrant.name) for s in tournament_standings(tournament=tournament)]
    assert tables["standard"] == [(1, "Alice"), (2, "Bob"), (2, "Carol")]
    assert tables["fide"] == [(1, "Alice"), (2, "Carol"), (3, "Bob")]


def test_a_round_robin_in_berger_order_plays_the_fide_table(organiser):
    tournament, _ = drawn(6, organiser=organiser, format="round_robin", round_robin_order="berger")
    # FIDE's Berger table for 6: round 2 is 6 v 4, 5 v 3, 1 v 2 (seeds: Alice 1 ... Frank 6)
    assert round_of(tournament, 1) == [("Alice", "Frank"), ("Bob", "Erin"), ("Carol", "Dave")]
    assert round_of(tournament, 2) == [("Alice", "Bob"), ("Erin", "Carol"), ("Frank", "Dave")]


def test_the_api_takes_and_shows_the_new_rules(organiser):
    from tests.matches.factories_api import client_for

    body = {"name": "Berger Open", "format": "round_robin", "round_robin_order": "berger"}
    response = client_for(organiser).post("/api/v1/tournaments/", body)
    assert response.status_code == 201, response.data
    rules = response.data["rules"]
    assert (rules["round_robin_order"], rules["swiss_pairing"], rules["swiss_tiebreaks"]) == ("berger", "fair", "standard")
    response = client_for(organiser).post("/api/v1/tournaments/", {"name": "X", "format": "swiss",
                                                                    "swiss_pairing": "dutch"})
    assert response.status_code == 400 and "swiss_pairing" in str(response.data)
