"""The ruling form as a director reads it: the outcomes worded as a director speaks, the details
grouped by the outcomes that read them (every group shown, with its heading, without JavaScript;
``static/rulings.js`` shows only the chosen outcome's), the errors at the top linking to their
fields, and a ruling said in a sentence. And a dispute opened from a moment of the match page's
board carries that game and action into the form and the dispute."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from matches.models import Match
from matches.services.reporting import claim_make, match_contest, match_report
from rulings.forms import OUTCOME_FIELDS, RulingForm
from rulings.models import Dispute, Ruling
from rulings.wording import ruling_sentence, score_text, stands_label
from tests.matches.factories_api import make_cast
from tests.rulings.factories import confirm_with_games, snapshot, won
from tests.rulings.test_api import opened
from tests.rulings.test_views import browser, send

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return make_cast()


def rule_section(page: str) -> str:
    return page.split('id="rule-title"', 1)[1].split("</section>", 1)[0]


# --- wording -------------------------------------------------------------------------------------


def test_a_score_is_said_with_the_winner_first_and_named():
    assert score_text([5, 3], ("Ana", "Bob")) == "5-3 to Ana"
    assert score_text([3, 5], ("Ana", "Bob")) == "5-3 to Bob"
    assert score_text([None, None], ("Ana", "Bob")) == "no result"


def test_the_result_stands_is_worded_for_what_stands():
    sides = ("Ana", "Bob")
    assert stands_label(confirmed=None, reported=[(5, 3)], sides=sides) == "The reported result stands: 5-3 to Ana"
    assert stands_label(confirmed=(3, 5), reported=[], sides=sides) == "The confirmed result stands: 5-3 to Bob"
    assert stands_label(confirmed=None, reported=[(5, 3), (3, 5)], sides=sides) is None


@pytest.mark.parametrize(("outcome", "params", "expected"), [
    ("stands", {"score": [5, 3]}, "The reported result stands: 5-3 to Ana"),
    ("stands", {}, "The result stands"),
    ("score_corrected", {"score": [2, 5]}, "Score corrected to 5-2 to Bob"),
    ("play_corrected", {"game": 2, "move": 5, "play": "13/7 8/7"},
     "The illegal play in game 2, action 5, is corrected to 13/7 8/7"),
    ("play_condoned", {"game": 2, "move": 5}, "The illegal play in game 2, action 5, stands as played"),
    ("game_voided", {"game": 3}, "Game 3 is void"),
    ("game_replayed", {"game": 3}, "Game 3 is to be replayed"),
    ("crawford_double_voided", {"game": 4}, "The double in game 4, the Crawford game, is void: the game is scored at cube 1"),
    ("penalty_points", {"side": 1, "points": 1}, "Bob is given 1 penalty point: it goes to Ana's score"),
    ("penalty_points", {"side": 0, "minutes_late": 12}, "Ana is penalised for arriving 12 minutes late"),
    ("match_awarded", {"side": 0}, "The match is awarded to Ana"),
    ("warning", {"side": 1}, "Bob is warned"),
    ("disqualification", {"side": 1}, "Bob is disqualified from the event"),
])
def test_every_outcome_is_said_as_a_director_says_it(outcome, params, expected):
    assert ruling_sentence(outcome, params, ("Ana", "Bob")) == expected


def test_every_outcome_has_its_details_and_every_detail_a_group():
    assert set(OUTCOME_FIELDS) == set(Ruling.Outcome.values)
    form = RulingForm(side_names=("Ana", "Bob"))
    grouped = [field.field.name for group in form.detail_groups() for field in group.fields]
    assert sorted(grouped) == sorted(form.DETAIL_FIELDS) and len(grouped) == len(set(grouped))


# --- the form on the dispute page ----------------------------------------------------------------


def test_the_form_groups_the_details_by_outcome_with_headings_and_loads_its_script(cast):
    dispute = opened(cast)
    page = browser(cast.organiser).get(reverse("rulings:dispute", args=[dispute.pk])).content.decode()
    form = rule_section(page)
    legends = re.findall(r"<legend>(.*?) <small", form)
    assert legends == ["The result", "Where in the match", "The illegal play", "Who", "The penalty", "The wrong length"]
    # Each detail is marked with the outcomes that read it: the script shows only those.
    assert re.search(r'<p data-outcomes="penalty_points">\s*<label for="id_points">', form)
    assert re.search(r'<p data-outcomes="[^"]*\bwarning\b[^"]*">\s*<label for="id_side">', form)
    assert 'data-outcomes="play_corrected">' in form and 'src="/static/rulings.js"' in form
    # Without the script every group shows (none is hidden by the server) and says what it is for.
    assert " hidden" not in form and "(for: Penalty points)" in form
    # The choices as a director speaks.
    for label in ("The result stands", "The score is corrected", "The illegal play stands as played",
                  "The double in the Crawford game is void", "A warning"):
        assert f">{label}</option>" in form
    assert f'<option value="0">{cast.match.side0.name}</option>' in form


def test_the_script_shows_only_the_chosen_outcomes_details():
    script = (settings.BASE_DIR / "static" / "rulings.js").read_text()
    assert "data-outcomes" in script and "hidden" in script and "disabled" in script


def test_with_one_contested_report_the_result_stands_says_which_and_confirms_it(cast):
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    match_contest(match_id=match.pk, user=cast.bob, statement="It was not 5-3.")
    dispute = Dispute.objects.get(match=match, automatic=True)
    page = browser(cast.organiser).get(reverse("rulings:dispute", args=[dispute.pk])).content.decode()
    stands = f"The reported result stands: 5-3 to {match.side0.name}"
    assert f'<option value="stands">{stands}</option>' in rule_section(page)
    response = send(cast.organiser, reverse("rulings:rule", args=[dispute.pk]),
                    {"outcome": "stands", "rule": "RULES 8", "reasoning": "The scoresheet agrees."})
    assert response.status_code == 302, response.content.decode()
    match.refresh_from_db()
    assert (match.status, match.score0, match.score1) == (Match.Status.CONFIRMED, 5, 3)
    page = browser(cast.alice).get(reverse("rulings:dispute", args=[dispute.pk])).content.decode()
    assert f"<h3>{stands} <small>" in page


def test_the_errors_come_first_in_a_summary_linking_to_each_field_and_nothing_is_saved(cast):
    dispute = opened(cast)
    before = snapshot()
    response = send(cast.organiser, reverse("rulings:rule", args=[dispute.pk]),
                    {"outcome": "score_corrected", "score0": "5", "reasoning": "Wrong."})
    assert response.status_code == 400
    form = rule_section(response.content.decode())
    summary = form.split('data-error-summary>', 1)[1].split("</div>", 1)[0]
    assert "There is a problem" in summary
    assert '<a href="#id_rule">Rule applied: This field is required.</a>' in summary
    assert f'<a href="#id_score1">Score of {cast.match.side1.name}: A result has both sides&#x27; scores.</a>' in summary
    assert form.index("data-error-summary") < form.index('<select name="outcome"')
    assert snapshot() == before


def test_a_service_refusal_is_in_the_summary_too(cast):
    dispute = opened(cast)
    response = send(cast.organiser, reverse("rulings:rule", args=[dispute.pk]),
                    {"outcome": "warning", "rule": "RULES 9", "reasoning": "Rude."})
    assert response.status_code == 400
    summary = rule_section(response.content.decode()).split('data-error-summary>', 1)[1].split("</div>", 1)[0]
    assert '<a href="#id_side">Side: ' in summary


def test_a_ruling_is_shown_as_a_sentence_never_as_its_stored_details(cast):
    dispute = opened(cast)
    send(cast.organiser, reverse("rulings:rule", args=[dispute.pk]),
         {"outcome": "penalty_points", "side": "1", "points": "2", "rule": "RULES 9", "reasoning": "Late."})
    page = browser(cast.alice).get(reverse("rulings:dispute", args=[dispute.pk])).content.decode()
    main = page.split("<main", 1)[1]
    assert f"{cast.match.side1.name} is given 2 penalty points: they go to {cast.match.side0.name}&#x27;s score" in main
    for raw in ("side: 1", "points: 2", "{", "penalty_points", "Dispute #"):
        assert raw not in main, raw


def test_the_dispute_page_reads_in_a_fixed_number_of_queries(cast, django_assert_num_queries):
    dispute = opened(cast)
    client = browser(cast.organiser)
    url = reverse("rulings:dispute", args=[dispute.pk])
    client.get(url)
    with django_assert_num_queries(9):
        assert client.get(url).status_code == 200


# --- a dispute from a moment of the board --------------------------------------------------------


def test_each_moment_of_the_board_links_to_a_dispute_about_its_action(cast):
    match = confirm_with_games(cast.match, [won(0), won(0, 2), won(0, 2)])
    page = browser(cast.alice).get(reverse("matches:detail", args=[match.pk]) + "?game=2&moment=1").content.decode()
    link = f'{reverse("rulings:open", args=[match.pk])}?game_number=2&amp;move_number=2'
    assert f'<a href="{link}">Open a dispute about this action</a>' in page
    last = browser(cast.alice).get(reverse("matches:detail", args=[match.pk]) + "?game=2&moment=4").content.decode()
    assert f'{reverse("rulings:open", args=[match.pk])}?game_number=2">Open a dispute about this game' in last
    # Not for the public: only the players and the director may open one.
    assert "Open a dispute about" not in browser().get(reverse("matches:detail", args=[match.pk])).content.decode()


def test_the_dispute_form_shows_the_moment_and_stores_it_with_the_dispute(cast):
    match = confirm_with_games(cast.match, [won(0), won(0, 2), won(0, 2)])
    url = reverse("rulings:open", args=[match.pk])
    page = browser(cast.alice).get(f"{url}?game_number=2&move_number=2").content.decode()
    assert 'You are disputing game <bdi dir="ltr">2</bdi>, action <bdi dir="ltr">2</bdi>.' in page
    assert f'{reverse("matches:detail", args=[match.pk])}?game=2&amp;moment=1#board' in page
    assert 'name="game_number" value="2"' in page and 'name="move_number" value="2"' in page
    response = send(cast.alice, url, {"category": "illegal_move", "game_number": "2", "move_number": "2",
                                      "statement": "He played 8/5 with a 31."})
    assert response.status_code == 302
    dispute = Dispute.objects.get(match=match)
    assert (dispute.game_number, dispute.move_number) == (2, 2) and dispute.position_id


def test_a_moment_past_the_game_is_refused_on_its_field_and_nothing_is_saved(cast):
    match = confirm_with_games(cast.match, [won(0), won(0, 2), won(0, 2)])
    response = send(cast.alice, reverse("rulings:open", args=[match.pk]),
                    {"category": "illegal_move", "game_number": "2", "move_number": "99", "statement": "Illegal."})
    assert response.status_code == 400
    assert '<a href="#id_move_number">' in response.content.decode() and not Dispute.objects.exists()
