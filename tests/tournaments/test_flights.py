"""Flights directors use and paid places through the settings, the services,
the API and the pages: EventRules checks each setting naming its field; the draw builds the
shifted consolation, the playoff for 2nd and the open last chance; results advance into them;
the paid places show on their page, the placings and the API, at a constant number of queries."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from core.errors import Conflict, DomainError
from matches.models import Match
from matches.services.reporting import claim_make, match_override
from tests.factories import PlayerFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import cast as make_players
from tests.tournaments.factories import closed, drawn, enter, make_organiser
from tests.tournaments.test_corrections import score_for
from tests.tournaments.test_draw_queries import BRACKET_DRAW_QUERIES, drawn_count
from tests.tournaments.test_views import new_event_data
from tournaments.draw.consolation import notation
from tournaments.drawings.bracket_svg import feed_targets
from tournaments.forms.event import TournamentForm, payouts_initial
from tournaments.models import Pairing, Tournament
from tournaments.services import state, tournament_draw, tournament_finish
from tournaments.services.corrections import result_correct, result_correction_preview
from tournaments.services.events import EventRules
from tournaments.services.life import tournament_update

pytestmark = pytest.mark.django_db

PAYS = {"main": {"pool": 100000, "percentages": [50, 30, 10, 10]}, "consolation": {"pool": 20000, "percentages": [70, 30]}}


@pytest.fixture
def cast():
    return SimpleNamespace(organiser=make_organiser(), players=make_players(16))


def play_out(tournament: Tournament, seed: int = 1) -> None:
    """The organiser confirms every open match, again and again, with a random winner, until none is left."""
    rng = random.Random(seed)
    while True:
        open_ = list(Match.objects.filter(event_link__tournament=tournament).exclude(status=Match.Status.CONFIRMED)
                     .select_related("side0", "side1"))
        if not open_:
            return
        for match in open_:
            score = (match.length, 0) if rng.random() < 0.5 else (0, match.length)
            match_override(match_id=match.pk, user=tournament.organiser, claim=claim_make(match, score, None))


# --- the settings (EventRules) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"consolation_shifted": True, "consolation_rounds": 2}, "consolation_shifted"),
        ({"consolation_shifted": True}, "consolation_shifted"),
        ({"playoff_second": True}, "playoff_second"),
        ({"last_chance_open": True}, "last_chance_open"),  # needs the paid places
        ({"last_chance_open": True, "last_chance": True, "consolation_rounds": 1, "payouts": PAYS},
         "last_chance_open"),
        ({"last_chance_open": True, "format": "swiss", "payouts": {"main": {"pool": 0, "percentages": [100]}}},
         "last_chance_open"),
        ({"payouts": {"consolation": {"pool": 1, "percentages": [100]}}}, "payouts.consolation"),  # no consolation
        ({"payouts": {"main": {"pool": -1, "percentages": [100]}}}, "payouts.main.pool"),
        ({"payouts": {"main": {"pool": True, "percentages": [100]}}}, "payouts.main.pool"),
        ({"payouts": {"main": {"pool": 10, "percentages": [60, 30]}}}, "payouts.main.percentages"),
        ({"payouts": {"main": {"pool": 10, "percentages": [30, 70]}}}, "payouts.main.percentages[1]"),
        ({"payouts": {"main": {"pool": 10, "percentages": [100, 0]}}}, "payouts.main.percentages[1]"),
        ({"payouts": {"main": {"pool": 10}}}, "payouts.main"),
        ({"payouts": {"main": {"pool": 10, "percentages": [100], "currency": "EUR"}}}, "payouts.main"),
        ({"payouts": [50, 50]}, "payouts"),
        ({"payouts": {"groups": {"pool": 10, "percentages": [100]}}, "format": "round_robin"}, "payouts.groups"),
    ],
)
def test_event_rules_refuse_flights_settings_naming_the_field(rules, field):
    """Each flights setting is checked where it is published (the shifted
    consolation, playoff for 2nd, open last chance, paid places per flight)."""
    with pytest.raises(DomainError) as raised:
        EventRules(name="Cup", **rules)
    assert (raised.value.code, raised.value.details["field"]) == ("bad_rules", field)


def test_event_rules_take_and_normalise_the_flights_settings():
    rules = EventRules(name="Cup", consolation_rounds=3, consolation_shifted=1, playoff_second=1,
                       payouts={"main": {"pool": 100000, "percentages": ["50", 30.0, 12.5, 7.5]}})
    assert (rules.consolation_shifted, rules.playoff_second, rules.last_chance_open) == (True, True, False)
    assert rules.payouts == {"main": {"pool": 100000, "percentages": [50, 30, 12.5, 7.5]}}
    swiss = EventRules(name="Swiss", format="swiss", payouts={"main": {"pool": 500, "percentages": [100]}})
    assert swiss.payouts == {"main": {"pool": 500, "percentages": [100]}}


@pytest.mark.parametrize(
    ("fields", "parsed"),
    [
        ({"payouts_main_pool": "1000", "payouts_main_places": "50 30 10 10"},
         {"main": {"pool": 100000, "percentages": [50, 30, 10, 10]}}),
        ({"payouts_main_pool": "1000.50", "payouts_main_places": "60, 40",
          "payouts_consolation_pool": "200", "payouts_consolation_places": "100"},
         {"main": {"pool": 100050, "percentages": [60, 40]}, "consolation": {"pool": 20000, "percentages": [100]}}),
        ({"payouts_last_chance_pool": "20,5", "payouts_last_chance_places": "12.5 87.5"},
         {"last_chance": {"pool": 2050, "percentages": [12.5, 87.5]}}),
        # Arabic-Indic digits, and places announced before the pool is known (a pool of 0).
        ({"payouts_main_pool": "\u0661\u0660\u0660", "payouts_main_places": "\u0666\u0660 \u0664\u0660"},
         {"main": {"pool": 10000, "percentages": [60, 40]}}),
        ({"payouts_main_places": "100"}, {"main": {"pool": 0, "percentages": [100]}}),
        ({}, {}),
    ],
)
def test_the_event_form_reads_each_flights_paid_places_from_its_fields_and_writes_them_back(fields, parsed):
    form = TournamentForm({**new_event_data(), **fields})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["payouts"] == parsed
    again = TournamentForm({**new_event_data(), **payouts_initial(parsed)})
    assert again.is_valid(), again.errors
    assert again.cleaned_data["payouts"] == parsed


@pytest.mark.parametrize(
    ("fields", "field", "shown"),
    [
        ({"payouts_main_pool": "a thousand", "payouts_main_places": "100"}, "payouts_main_pool",
         "write an amount, with two decimals at most, e.g. 1000 or 200.50"),
        ({"payouts_main_pool": "10.005", "payouts_main_places": "100"}, "payouts_main_pool",
         "write an amount, with two decimals at most, e.g. 1000 or 200.50"),
        ({"payouts_main_pool": "-5", "payouts_main_places": "100"}, "payouts_main_pool",
         "write an amount, with two decimals at most, e.g. 1000 or 200.50"),
        ({"payouts_consolation_pool": "100", "payouts_consolation_places": "fifty fifty"}, "payouts_consolation_places",
         "write the percentage of each paid place, best first, e.g. 50 30 20"),
        ({"payouts_main_pool": "100"}, "payouts_main_places",
         "write the percentage of each paid place, best first, e.g. 50 30 20"),
        ({"payouts_main_pool": "100", "payouts_main_places": "Infinity"}, "payouts_main_places",
         "write the percentage of each paid place, best first, e.g. 50 30 20"),
        ({"payouts_main_pool": "NaN", "payouts_main_places": "100"}, "payouts_main_pool",
         "write an amount, with two decimals at most, e.g. 1000 or 200.50"),
    ],
)
def test_a_paid_place_that_does_not_read_is_refused_on_its_own_field(fields, field, shown):
    with translation.override("en"):
        form = TournamentForm({**new_event_data(), **fields})
        assert not form.is_valid()
        assert form.errors == {field: [shown]}


# --- the draw and advancing into the new flights ----------------------------------------------------


def test_the_draw_makes_a_shifted_consolation_and_results_advance_through_it(cast):
    """Shifted progressive consolation (A.B.C.D. for a 32-player main fed by rounds 1-4): the
    stored pairings are the draw's, one round shorter than today's; played out, it finishes."""
    players = PlayerFactory.create_batch(32)
    tournament, _ = drawn(32, players=players, organiser=cast.organiser, consolation_rounds=4, consolation_shifted=True)
    bracket = state.build_bracket(tournament, state.load(tournament).order)
    assert notation(bracket, "consolation") == "A.B.C.D.|."
    rounds = set(Pairing.objects.filter(tournament=tournament, flight="consolation").values_list("round_number", flat=True))
    assert rounds == {1, 2, 3, 4, 5, 6}
    play_out(tournament)
    tournament_finish(tournament_id=tournament.pk, user=cast.organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_the_playoff_for_2nd_is_made_when_both_finalists_are_known_and_places_them(cast):
    """Playoff for 2nd: its match is made once the main final and the consolation final are
    decided; its winner is 2nd, its loser 3rd; its round is named on the bracket page."""
    tournament, _ = drawn(16, players=cast.players, organiser=cast.organiser, consolation_rounds=1,
                          playoff_second=True, lengths={"main": [5, 7], "playoff": 9})
    playoff = Pairing.objects.get(tournament=tournament, key="playoff-1-1")
    assert playoff.match_id is None and playoff.length == 9
    play_out(tournament, seed=2)
    playoff.refresh_from_db()
    assert playoff.match is not None and playoff.match.status == Match.Status.CONFIRMED
    response = client_for().get(f"/api/v1/tournaments/{tournament.pk}/placings/")
    by_place = {row["label"]: row for row in response.data}
    assert by_place["2"]["flight"] == "playoff" and by_place["3"]["flight"] == "playoff"
    assert by_place["1"]["flight"] == "main" and by_place["4-5"]["flight"] == "main"
    page = Client().get(f"/events/{tournament.pk}/bracket/").content.decode()
    assert "Playoff for 2nd" in page


def test_a_last_chance_open_to_everyone_who_has_not_cashed_is_drawn_from_the_paid_places(cast):
    """Last chance open to everyone who has not cashed: fed by every unpaid loss; played out, no
    one paid plays it and everybody is placed once."""
    tournament, _ = drawn(16, players=cast.players, organiser=cast.organiser, consolation_rounds=1,
                          last_chance_open=True, payouts=PAYS)
    assert Pairing.objects.filter(tournament=tournament, flight="last_chance").count() == 15
    play_out(tournament, seed=3)
    tournament_finish(tournament_id=tournament.pk, user=cast.organiser)
    placings = client_for().get(f"/api/v1/tournaments/{tournament.pk}/placings/").data
    assert len(placings) == 16 and len({row["entrant"]["id"] for row in placings}) == 16
    paid = client_for().get(f"/api/v1/tournaments/{tournament.pk}/payouts/").data
    winners = {prize["entrant"]["id"] for flight in paid for prize in flight["prizes"] if prize["amount"]}
    in_last_chance = {row["entrant"]["id"] for row in placings if row["flight"] == "last_chance"}
    assert winners and not winners & in_last_chance


# --- editing the paid places ------------------------------------------------------------------------


def test_the_paid_places_may_change_after_the_draw_but_not_shape_an_open_last_chance_again(cast):
    """Paid places after the draw: the pool is known once the entries are, so they may change;
    when they shaped an open last chance only the amounts may, not how many places are paid."""
    tournament, _ = drawn(8, players=cast.players[:8], organiser=cast.organiser, consolation_rounds=1, payouts=PAYS)
    tournament_update(tournament_id=tournament.pk, user=cast.organiser,
                      changes={"payouts": {"main": {"pool": 5000, "percentages": [60, 40]}}})
    tournament.refresh_from_db()
    assert tournament.payouts == {"main": {"pool": 5000, "percentages": [60, 40]}}
    with pytest.raises(Conflict) as raised:
        tournament_update(tournament_id=tournament.pk, user=cast.organiser, changes={"playoff_second": True})
    assert raised.value.details["field"] == "playoff_second"
    other, _ = drawn(8, players=PlayerFactory.create_batch(8), organiser=cast.organiser, consolation_rounds=1,
                     last_chance_open=True, payouts=PAYS)
    tournament_update(tournament_id=other.pk, user=cast.organiser, changes={"payouts": {
        "main": {"pool": 1, "percentages": [40, 30, 20, 10]}, "consolation": {"pool": 2, "percentages": [50, 50]}}})
    with pytest.raises(Conflict) as raised:
        tournament_update(tournament_id=other.pk, user=cast.organiser, changes={"payouts": {
            "main": {"pool": 1, "percentages": [100]}}})
    assert raised.value.details["field"] == "payouts"


# --- API ----------------------------------------------------------------------------------------------


def test_the_api_creates_an_event_with_flights_settings_and_shows_them(cast):
    body = {"name": "Flights Open", "consolation_rounds": 3, "consolation_shifted": True, "playoff_second": True,
            "payouts": PAYS}
    response = client_for(cast.organiser).post("/api/v1/tournaments/", body)
    assert response.status_code == 201, response.data
    rules = response.data["rules"]
    assert (rules["consolation_shifted"], rules["playoff_second"], rules["last_chance_open"]) == (True, True, False)
    assert rules["payouts"] == PAYS


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"payouts": {"main": {"pool": 100, "percentages": [40, 50, 10]}}}, "payouts.main.percentages[1]"),
        ({"payouts": {"main": {"pool": 100, "percentages": [40, 40]}}}, "payouts.main.percentages"),
        ({"playoff_second": True}, "playoff_second"),
    ],
)
def test_the_api_refuses_bad_flights_settings_naming_the_field_and_saves_nothing(cast, body, field):
    response = client_for(cast.organiser).post("/api/v1/tournaments/", {"name": "X", **body})
    assert response.status_code == 400 and response.data["code"] == "bad_rules"
    assert response.data["field"] == field
    assert not Tournament.objects.exists()


def test_the_payouts_api_splits_ties_and_pays_the_playoff_from_the_main_pool(cast):
    tournament, _ = drawn(16, players=cast.players, organiser=cast.organiser, consolation_rounds=2,
                          playoff_second=True, payouts={"main": {"pool": 1001, "percentages": [50, 25, 12.5, 12.5]}})
    play_out(tournament, seed=4)
    [main] = client_for().get(f"/api/v1/tournaments/{tournament.pk}/payouts/").data
    assert main["pool"] == 1001 and [p["percent"] for p in main["places"]] == ["50.00", "25.00", "12.50", "12.50"]
    paid = [(p["label"], p["amount"]) for p in main["prizes"] if p["amount"]]
    assert paid[:3] == [("1", 500), ("2", 250), ("3", 125)]
    # the semi-final losers share 4-5: place 4's 12.5 % split, the odd cent to the better seed
    assert sorted(paid[3:]) == [("4-5", 62), ("4-5", 63)]
    assert sum(amount for _, amount in paid) == 1000  # int(1001 * 12.5 %) is 125: the cent left is not paid
    bracket = client_for().get(f"/api/v1/tournaments/{tournament.pk}/bracket/", {"flight": "playoff"}).data
    assert (bracket["flight"], bracket["round_name"], bracket["round_kind"]["kind"]) == (
        "playoff", "Playoff for 2nd", "playoff_second")


def _count(path: str) -> int:
    client = Client() if not path.startswith("/api/") else client_for()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.slow
def test_the_paid_places_page_and_api_run_the_same_queries_for_16_and_128_players(cast):
    counts = {}
    for size in (16, 128):
        tournament = closed(organiser=cast.organiser, consolation_rounds=3, consolation_shifted=True,
                            playoff_second=True, payouts=PAYS)
        enter(tournament, PlayerFactory.create_batch(size))
        tournament_draw(tournament_id=tournament.pk, user=cast.organiser)
        play_out(tournament, seed=size)
        counts[size] = (_count(f"/events/{tournament.pk}/payouts/"), _count(f"/api/v1/tournaments/{tournament.pk}/payouts/"),
                        _count(f"/events/{tournament.pk}/bracket/"))
    assert counts[16] == counts[128], counts


# --- pages ---------------------------------------------------------------------------------------------


def test_the_paid_places_page_shows_each_flights_pool_shares_and_prize_winners(cast):
    tournament, _ = drawn(8, players=cast.players[:8], organiser=cast.organiser, consolation_rounds=1, payouts=PAYS)
    page = Client().get(f"/events/{tournament.pk}/payouts/").content.decode()
    assert "Main flight" in page and "Consolation flight" in page
    assert "4 places paid from a pool of 1,000.00" in page and "500.00" in page and "Prize winners" not in page
    play_out(tournament, seed=5)
    page = Client().get(f"/events/{tournament.pk}/payouts/").content.decode()
    assert "Prize winners" in page and "140.00" in page  # the consolation's winner: 70 % of 200
    detail = Client().get(f"/events/{tournament.pk}/").content.decode()
    assert "Paid places" in detail and "6 places paid" in detail
    bracket = Client().get(f"/events/{tournament.pk}/bracket/").content.decode()
    assert 'class="prize"' in bracket and "500.00" in bracket


def test_an_event_that_pays_nothing_says_so(cast):
    tournament, _ = drawn(4, players=cast.players[:4], organiser=cast.organiser)
    page = Client().get(f"/events/{tournament.pk}/payouts/").content.decode()
    assert "This event pays no prizes." in page


def test_the_event_page_describes_the_new_flights(cast):
    tournament = closed(organiser=cast.organiser, consolation_rounds=3, consolation_shifted=True, playoff_second=True)
    page = Client().get(f"/events/{tournament.pk}/").content.decode()
    assert "Shifted progressive consolation" in page and "Playoff for 2nd" in page


# --- the drawing -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "next_count", "targets"),
    [
        (8, 4, [0, 0, 1, 1, 2, 2, 3, 3]),  # a knockout round
        (4, 4, [0, 1, 2, 3]),  # an entry round
        (16, 12, [0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 9, 10, 10, 11, 11]),  # a shifted consolation's mixed round
        (12, 8, [0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7]),
    ],
)
def test_the_bracket_drawing_joins_a_shifted_consolations_mixed_round(count, next_count, targets):
    """Shifted progressive consolation on the drawing: in a mixed round the first cells meet a
    newcomer one to one, the others pair off after them."""
    assert feed_targets(count, next_count) == targets


@pytest.mark.slow
def test_a_draw_with_every_new_flight_takes_the_same_queries_for_512_and_64_entrants():
    """Draw query counts stay constant (tests/tournaments/test_draw_queries.py) with a shifted
    consolation, the playoff for 2nd and a last chance open to everyone who has not cashed."""
    organiser = make_organiser()
    rules = {"consolation_rounds": 4, "consolation_shifted": True, "playoff_second": True, "last_chance_open": True,
             "payouts": PAYS, "seeding": Tournament.Seeding.RANDOM}
    _big, big_count = drawn_count(512, organiser, **rules)
    small, small_count = drawn_count(64, organiser, **rules)
    assert (big_count, small_count) == (BRACKET_DRAW_QUERIES, BRACKET_DRAW_QUERIES)
    assert Pairing.objects.filter(tournament=small, flight="playoff").count() == 1


def test_correcting_the_main_final_resets_the_playoff_for_2nd_it_fed(cast):
    """Playoff for 2nd under a correction: the main final's other player now loses it, so the
    playoff (played by the old loser) is reset, named in the director's sentence."""
    tournament, _ = drawn(8, players=cast.players[:8], organiser=cast.organiser, consolation_rounds=1,
                          playoff_second=True)
    play_out(tournament, seed=6)
    final = Pairing.objects.select_related("match__side0", "match__side1").get(tournament=tournament, key="main-3-1")
    loser = final.match.side1 if final.match.winner == 0 else final.match.side0
    match, score = score_for(tournament, "main-3-1", loser.name)
    preview = result_correction_preview(match_id=match.pk, user=cast.organiser, score=score)
    assert preview.keys == ["playoff-1-1"]
    assert preview.resets[0].sentence.startswith("The playoff for 2nd, ")
    result_correct(match_id=match.pk, user=cast.organiser, score=score, expected=preview.keys)
    playoff = Pairing.objects.select_related("match").get(tournament=tournament, key="playoff-1-1")
    assert playoff.match.status == Match.Status.SCHEDULED


@pytest.mark.parametrize("path", ["projector/", "embed/bracket/", "bracket.svg", "bracket.png", "paper/draw.pdf",
                                  "bracket/?flight=playoff", "bracket/?flight=last_chance"])
def test_every_screen_and_sheet_shows_an_event_with_the_new_flights(cast, path):
    """The projector, the embedded bracket, the downloads and the draw sheet take the shifted
    consolation, the playoff for 2nd and the open last chance like any flight."""
    tournament, _ = drawn(16, players=cast.players, organiser=cast.organiser, consolation_rounds=3,
                          consolation_shifted=True, playoff_second=True, last_chance_open=True, payouts=PAYS)
    play_out(tournament, seed=7)
    response = Client().get(f"/events/{tournament.pk}/{path}")
    assert response.status_code == 200
    if path.startswith("bracket/?flight=playoff"):
        assert "Playoff for 2nd" in response.content.decode()


@pytest.mark.parametrize(
    ("changes", "status", "shown"),
    [
        ({"payouts_main_pool": "1000", "payouts_main_places": "50 30 20", "playoff_second": "on",
          "consolation_shifted": ""}, 302, None),
        ({"payouts_main_pool": "1000", "payouts_main_places": "30 50 20"}, 400,
         "a place is paid more than the place before it"),
        ({"payouts_main_pool": "1000", "payouts_main_places": "50-30-20"}, 400,
         "write the percentage of each paid place, best first, e.g. 50 30 20"),
        ({"consolation_shifted": "on"}, 400, "only a progressive consolation of at least 3 rounds"),
    ],
)
def test_the_event_form_takes_the_flights_settings_or_says_what_is_wrong(cast, changes, status, shown):
    """The event form: the paid places as a pool and places a flight, and the new flights as boxes;
    a wrong one is a 400 saying what is wrong, and nothing is created."""
    client = Client()
    client.force_login(cast.organiser)
    response = client.post("/events/new/", new_event_data(**changes))
    assert response.status_code == status
    if shown:
        assert shown in response.content.decode()
        assert not Tournament.objects.exists()
    else:
        made = Tournament.objects.get()
        assert made.payouts == {"main": {"pool": 100000, "percentages": [50, 30, 20]}} and made.playoff_second
        edit = client.get(f"/events/{made.pk}/manage/edit/").content.decode()
        assert 'name="payouts_main_pool" value="1000"' in edit
        assert 'name="payouts_main_places" value="50 30 20"' in edit


def test_a_swiss_pays_its_placings_as_main_with_ties_split(cast):
    """Paid places in a Swiss: its placings (standings order, equal entrants sharing) are paid from
    the main pool; players sharing places share their percentages."""
    tournament, _ = drawn(4, players=cast.players[:4], organiser=cast.organiser, format="swiss",
                          payouts={"main": {"pool": 1000, "percentages": [60, 40]}})
    play_out(tournament, seed=8)
    [main] = client_for().get(f"/api/v1/tournaments/{tournament.pk}/payouts/").data
    paid = sorted((p["label"], p["amount"]) for p in main["prizes"] if p["amount"])
    # after one round two players have won: they share places 1-2 (60 % + 40 %) equally
    assert paid == [("1-2", 500), ("1-2", 500)]
