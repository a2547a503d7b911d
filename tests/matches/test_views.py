"""Pages of the matches app and the sign-in page: each page for each role, the result forms end to
end, bad input re-rendered with a message and nothing saved, and a list page's query count."""

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from engine.formats.mat_check import match_from_actions
from engine.formats.mat_write import write_mat
from engine.match import MatchRules
from engine.randomgame import random_match_games
from matches.models import Game, Match, RatingChange, Report
from matches.services.reporting import claim_make, match_confirm, match_report
from tests.factories import MatchFactory, PlayerFactory, SideFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db

SEED = 8  # a 5-point random match of four games ending 2-5


# --- the cast ----------------------------------------------------------------------------------


@pytest.fixture
def match():
    return MatchFactory(
        length=5,
        side0__player_a__display_name="Alice", side0__player_a__user__username="alice",
        side1__player_a__display_name="Bob", side1__player_a__user__username="bob",
        organiser__username="olga",
    )


@pytest.fixture
def alice(match):
    return match.side0.player_a.user


@pytest.fixture
def bob(match):
    return match.side1.player_a.user


@pytest.fixture
def carol():
    return PlayerFactory(display_name="Carol", user__username="carol").user


@pytest.fixture
def organiser(match):
    return match.organiser


@pytest.fixture
def other_organiser():
    return UserFactory(username="oscar", organiser=True)


@pytest.fixture
def staff():
    return UserFactory(username="stan", staff=True)


def mat_text(length: int = 5, seed: int = SEED) -> tuple[str, tuple[int, int]]:
    checked = match_from_actions(("Alice", "Bob"), MatchRules(length), random_match_games(random.Random(seed), length))
    return write_mat(checked), checked.final_score


def upload(text: str, name: str = "match.mat"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, text.encode(), content_type="text/plain")


def confirmed_with_games(match, alice, bob) -> tuple[int, int]:
    """Confirm ``match`` with the SEED match file's games; return the final score."""
    from matches.services.logs import log_from_mat

    text, score = mat_text()
    log = log_from_mat("match.mat", text.encode(), match.rules())
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, score, log))
    match_confirm(match_id=match.pk, user=bob)
    return score


def detail_url(match, **query) -> str:
    url = reverse("matches:detail", args=[match.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def text_of(response) -> str:
    """The page's visible text, tags dropped and whitespace squeezed, for sentence asserts."""
    html = re.sub(r"<svg.*?</svg>", " ", response.content.decode(), flags=re.S)
    # A left-to-right isolate (a score, a rating: core's ltr filter) is inline text, not a break.
    html = re.sub(r"</?bdi[^>]*>", "", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def forms_on(response) -> set[str]:
    return set(re.findall(r'<form method="post" action="([^"]+)"', response.content.decode()))


# --- sign-in and sign-out ----------------------------------------------------------------------


def test_the_sign_in_page_has_a_csrf_protected_form(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert "csrfmiddlewaretoken" in response.content.decode()
    assert 'name="username"' in response.content.decode() and 'name="password"' in response.content.decode()


def test_signing_in_goes_to_my_matches(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "pass-word-123"})
    assert response.status_code == 302 and response.url == reverse("matches:mine")


def test_a_wrong_password_re_renders_the_sign_in_form_with_an_error(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in text_of(response)
    assert "_auth_user_id" not in client.session


def test_signing_out_is_a_post_form_in_the_header(client, alice):
    client.force_login(alice)
    page = client.get(reverse("matches:mine"))
    assert reverse("logout") in forms_on(page)
    response = client.post(reverse("logout"))
    assert response.status_code == 302 and response.url == reverse("login")
    signed_out = client.get(reverse("matches:mine"))  # "/": the visitors' front page now
    assert signed_out.status_code == 200 and reverse("logout") not in forms_on(signed_out)


def test_every_post_form_carries_a_csrf_token(client, match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    client.force_login(bob)
    html = client.get(detail_url(match)).content.decode()
    forms = re.findall(r'<form method="post".*?</form>', html, flags=re.S)
    assert len(forms) == 4  # sign out, confirm, contest, report
    assert all("csrfmiddlewaretoken" in form for form in forms)


# --- my matches ----------------------------------------------------------------------------------


def test_anonymous_visitors_get_the_front_page_at_my_matches_address(client):
    # "/" is a signed-in user's own page and, for a visitor, the front page (config/front.py):
    # never a redirect to the sign-in page.
    response = client.get(reverse("matches:mine"))
    assert response.status_code == 200
    assert "front.html" in [t.name for t in response.templates]


def test_my_matches_lists_the_users_matches_with_status_and_score(client, match, alice):
    other = MatchFactory(side0=match.side0, side1=SideFactory(player_a__display_name="Dora"), length=3,
                         status=Match.Status.CONFIRMED, score0=3, score1=1, winner=0)
    MatchFactory(side0__player_a__display_name="Evangeline Outsider", side1__player_a__display_name="Finn")  # not hers
    client.force_login(alice)
    response = client.get(reverse("matches:mine"))
    assert response.status_code == 200
    text = text_of(response)
    assert "Alice v Bob" in text and "Alice v Dora" in text and "Evangeline Outsider" not in text
    assert "Confirmed" in text and "3-1" in text and "Scheduled" in text
    assert detail_url(other) in response.content.decode()


def test_my_matches_highlights_a_match_waiting_for_my_confirmation(client, match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    client.force_login(bob)
    response = client.get(reverse("matches:mine"))
    assert "1 match waiting for your confirmation" in text_of(response)
    assert '<tr class="waiting">' in response.content.decode()
    assert "(5-3)" in text_of(response)
    # Alice reported: she waits for Bob, nothing waits for her.
    client.force_login(alice)
    response = client.get(reverse("matches:mine"))
    assert "waiting for your confirmation" not in text_of(response)
    assert '<tr class="waiting">' not in response.content.decode()


def test_my_matches_shows_carol_only_her_own_matches(client, match, carol):
    client.force_login(carol)
    response = client.get(reverse("matches:mine"))
    assert response.status_code == 200
    assert "You have no matches yet" in text_of(response) and "Alice v Bob" not in text_of(response)


def test_my_matches_shows_the_organiser_the_unfinished_matches_they_run(client, match, organiser, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=bob, claim=claim_make(match, (3, 5), None))
    event_match = MatchFactory(event=TournamentFactory(organiser=organiser), organiser=None,
                               side0__player_a__display_name="Gil", side1__player_a__display_name="Hal")
    client.force_login(organiser)
    response = client.get(reverse("matches:mine"))
    text = text_of(response)
    assert "no player profile" in text
    assert "Matches you run" in text and "Alice v Bob" in text and "Gil v Hal" in text
    assert "Needs your ruling" in text and '<tr class="ruling">' in response.content.decode()
    assert detail_url(event_match) in response.content.decode()


def test_another_organiser_does_not_see_the_match(client, match, other_organiser):
    client.force_login(other_organiser)
    response = client.get(reverse("matches:mine"))
    assert "Alice v Bob" not in text_of(response) and "Matches you run" not in text_of(response)


def test_my_matches_uses_the_same_number_of_queries_for_1_and_30_matches(client, alice, match):
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("matches:mine")).status_code == 200
        return len(queries)

    # Alice also runs her matches, so that both lists on the page are filled in both counts.
    Match.objects.filter(pk=match.pk).update(organiser=alice)
    client.force_login(alice)
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    one = count()
    for _ in range(29):
        other = MatchFactory(side0=match.side0, organiser=alice)
        match_report(match_id=other.pk, user=alice, claim=claim_make(other, (5, 1), None))
    thirty = count()
    assert Match.objects.filter(side0=match.side0).count() == 30
    assert one == thirty


# --- the match page ------------------------------------------------------------------------------


def test_the_match_page_is_public_and_shows_sides_rules_status_and_score(client, match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    match_confirm(match_id=match.pk, user=bob)
    response = client.get(detail_url(match))
    assert response.status_code == 200
    text = text_of(response)
    assert "Alice v Bob" in text and "5-point match, Crawford rule on, legal moves, rated" in text
    assert "Confirmed" in text and "5-3 (Alice wins)" in text
    assert reverse("matches:player", args=[match.side0.player_a.pk]) in response.content.decode()
    assert forms_on(response) == set()  # anonymous: no forms at all
    assert f'{reverse("login")}?next={detail_url(match)}' in response.content.decode()


def test_an_unknown_match_is_a_404(client):
    assert client.get(reverse("matches:detail", args=[999999])).status_code == 404


def test_the_players_see_the_report_form_and_nobody_else_does(client, match, alice, bob, carol):
    report_url = reverse("matches:report", args=[match.pk])
    for user in (alice, bob):
        client.force_login(user)
        assert report_url in forms_on(client.get(detail_url(match)))
    client.force_login(carol)
    response = client.get(detail_url(match))
    assert response.status_code == 200
    assert forms_on(response) == {reverse("logout")}


def test_the_organiser_and_staff_see_the_override_form(client, match, organiser, staff, other_organiser, alice):
    override_url = reverse("matches:override", args=[match.pk])
    for user in (organiser, staff):
        client.force_login(user)
        forms = forms_on(client.get(detail_url(match)))
        assert override_url in forms and reverse("matches:report", args=[match.pk]) not in forms
    for user in (other_organiser, alice):
        client.force_login(user)
        assert override_url not in forms_on(client.get(detail_url(match)))


def test_the_other_side_sees_confirm_and_contest_for_a_pending_report(client, match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None), statement="close one")
    client.force_login(bob)
    response = client.get(detail_url(match))
    text = text_of(response)
    assert "Alice reported 5-3" in text and "close one" in text
    assert {reverse("matches:confirm", args=[match.pk]), reverse("matches:contest", args=[match.pk])} <= forms_on(response)
    client.force_login(alice)
    response = client.get(detail_url(match))
    assert reverse("matches:confirm", args=[match.pk]) not in forms_on(response)
    assert "You reported 5-3; waiting for Bob" in text_of(response)


# --- reporting, confirming, contesting, overriding -------------------------------------------------


def test_a_player_reports_a_score_and_the_match_waits_for_the_other_side(client, match, alice):
    client.force_login(alice)
    response = client.post(reverse("matches:report", args=[match.pk]), {"report-score0": "5", "report-score1": "3"})
    assert response.status_code == 302 and response.url == detail_url(match)
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    report = match.reports.get()
    assert (report.side, report.score, report.status) == (0, (5, 3), Report.Status.PENDING)
    page = client.get(response.url)
    assert "Your report of 5-3 is saved; waiting for Bob to confirm." in text_of(page)


def test_the_other_side_confirms_and_the_match_is_confirmed(client, match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    client.force_login(bob)
    response = client.post(reverse("matches:confirm", args=[match.pk]), follow=True)
    assert response.redirect_chain == [(detail_url(match), 302)]
    assert "Result confirmed: 5-3." in text_of(response)
    match.refresh_from_db()
    assert (match.status, match.score0, match.score1, match.winner) == (Match.Status.CONFIRMED, 5, 3, 0)
    assert "Confirmed" in text_of(response) and "5-3 (Alice wins)" in text_of(response)


def test_matching_reports_from_both_sides_confirm(client, match, alice, bob):
    client.force_login(alice)
    client.post(reverse("matches:report", args=[match.pk]), {"report-score0": "2", "report-score1": "5"})
    client.force_login(bob)
    response = client.post(reverse("matches:report", args=[match.pk]),
                           {"report-score0": "2", "report-score1": "5"}, follow=True)
    assert "Result confirmed: 2-5." in text_of(response)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner == 1


def test_a_different_report_disputes_the_match(client, match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    client.force_login(bob)
    response = client.post(reverse("matches:report", args=[match.pk]),
                           {"report-score0": "3", "report-score1": "5"}, follow=True)
    assert "differs from the other side's: the match is disputed" in text_of(response)
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED


def test_the_other_side_contests_and_the_match_is_disputed(client, match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    client.force_login(bob)
    response = client.post(reverse("matches:contest", args=[match.pk]), {"contest-statement": "I won game 4"},
                           follow=True)
    assert response.redirect_chain == [(detail_url(match), 302)]
    assert "You contested the report" in text_of(response)
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    contested = match.reports.get()
    assert (contested.statement, contested.contest_statement) == ("", "I won game 4")
    assert "Disputed" in text_of(response) and "Contested: I won game 4" in text_of(response)


def test_the_organiser_overrides_a_disputed_result(client, match, alice, bob, organiser):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=bob, claim=claim_make(match, (3, 5), None))
    client.force_login(organiser)
    response = client.post(reverse("matches:override", args=[match.pk]),
                           {"override-score0": "5", "override-score1": "4", "override-statement": "per the scoresheet"},
                           follow=True)
    assert "Result set by the organiser: 5-4." in text_of(response)
    match.refresh_from_db()
    assert (match.status, match.score0, match.score1) == (Match.Status.CONFIRMED, 5, 4)
    confirmed = match.reports.get(status=Report.Status.CONFIRMED)
    assert confirmed.side is None and confirmed.statement == "per the scoresheet"
    assert "Organiser" in text_of(response)


def test_a_report_with_a_match_file_stores_its_games_once_confirmed(client, match, alice, bob):
    text, score = mat_text()
    client.force_login(alice)
    response = client.post(reverse("matches:report", args=[match.pk]), {
        "report-score0": str(score[0]), "report-score1": str(score[1]), "report-mat_file": upload(text),
    })
    assert response.status_code == 302
    assert match.reports.get().games is not None
    client.force_login(bob)
    client.post(reverse("matches:confirm", args=[match.pk]))
    assert Game.objects.filter(match=match).count() == 4


def test_the_organisers_result_may_carry_a_match_file(client, match, organiser):
    text, score = mat_text()
    client.force_login(organiser)
    response = client.post(reverse("matches:override", args=[match.pk]), {
        "override-score0": str(score[0]), "override-score1": str(score[1]), "override-mat_file": upload(text),
    })
    assert response.status_code == 302
    assert Game.objects.filter(match=match).count() == 4


# --- bad input: an error on the page, nothing saved --------------------------------------------------


def assert_nothing_saved(match):
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and match.score0 is None
    assert not match.reports.exists() and not match.games.exists()


def test_anonymous_posts_are_sent_to_sign_in_and_save_nothing(client, match):
    for name in ("report", "confirm", "contest", "override"):
        response = client.post(reverse(f"matches:{name}", args=[match.pk]), {"report-score0": "5", "report-score1": "0"})
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert_nothing_saved(match)


def test_the_action_urls_refuse_get(client, match, alice):
    client.force_login(alice)
    assert client.get(reverse("matches:report", args=[match.pk])).status_code == 405


def test_a_score_that_is_not_a_number_re_renders_the_form(client, match, alice):
    client.force_login(alice)
    response = client.post(reverse("matches:report", args=[match.pk]), {"report-score0": "five", "report-score1": "3"})
    assert response.status_code == 400
    assert "Enter a whole number." in text_of(response)
    assert 'value="five"' in response.content.decode()  # the input is kept
    assert_nothing_saved(match)


def test_a_score_that_cannot_end_the_match_is_refused_with_the_reason(client, match, alice):
    client.force_login(alice)
    response = client.post(reverse("matches:report", args=[match.pk]), {"report-score0": "5", "report-score1": "5"})
    assert response.status_code == 400
    assert "both sides have 5 points or more: a 5-point match ends as soon as one side reaches 5, so 5-5 cannot be " \
           "its final score" in text_of(response)
    assert_nothing_saved(match)


def test_a_malformed_match_file_names_its_line(client, match, alice):
    broken = " 5 point match\n\n Game 1\n Alice : 0   Bob : 0\n  1) 7x: 13/8\n"
    client.force_login(alice)
    response = client.post(reverse("matches:report", args=[match.pk]), {
        "report-score0": "5", "report-score1": "0", "report-mat_file": upload(broken, "broken.mat"),
    })
    assert response.status_code == 400
    assert "broken.mat: game 1, line 5: expected a roll" in text_of(response)
    assert_nothing_saved(match)


def test_an_illegal_play_in_the_match_file_names_game_and_move(client, match, alice):
    illegal = (
        " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        "  2) 65: 24/1\n"
    )
    client.force_login(alice)
    response = client.post(reverse("matches:report", args=[match.pk]), {
        "report-score0": "5", "report-score1": "0", "report-mat_file": upload(illegal, "illegal.mat"),
    })
    assert response.status_code == 400
    text = text_of(response)
    # The mover named as the file names him, never "side 0".
    assert "illegal.mat: game 1, line 6: move 2, Alice: play 24/1" in text and "side 0" not in text
    assert_nothing_saved(match)


def test_a_match_file_that_disagrees_with_the_score_is_refused(client, match, alice):
    text, score = mat_text()
    client.force_login(alice)
    response = client.post(reverse("matches:report", args=[match.pk]), {
        "report-score0": str(score[1]), "report-score1": str(score[0]), "report-mat_file": upload(text),
    })
    assert response.status_code == 400
    assert f"the game logs give {score[0]}-{score[1]}, not the claimed {score[1]}-{score[0]}" in text_of(response)
    assert_nothing_saved(match)


def test_a_match_file_of_another_length_is_refused(client, match, alice):
    text, _ = mat_text(length=3, seed=1)
    client.force_login(alice)
    response = client.post(reverse("matches:report", args=[match.pk]), {
        "report-score0": "5", "report-score1": "0", "report-mat_file": upload(text, "three.mat"),
    })
    assert response.status_code == 400
    assert "three.mat is a 3-point match, this match is to 5" in text_of(response)
    assert_nothing_saved(match)


def test_carol_cannot_report_on_someone_elses_match(client, match, carol):
    client.force_login(carol)
    response = client.post(reverse("matches:report", args=[match.pk]), {"report-score0": "5", "report-score1": "0"})
    assert response.status_code == 403
    assert "only the match's players and its organiser may do this" in text_of(response)
    assert_nothing_saved(match)


def test_a_player_cannot_override(client, match, alice):
    client.force_login(alice)
    response = client.post(reverse("matches:override", args=[match.pk]), {"override-score0": "5", "override-score1": "0"})
    assert response.status_code == 403
    assert "only the match's organiser (or staff) may do this" in text_of(response)
    assert_nothing_saved(match)


def test_confirming_with_nothing_pending_is_refused(client, match, bob):
    client.force_login(bob)
    response = client.post(reverse("matches:confirm", args=[match.pk]))
    assert response.status_code == 409
    assert "there is no report from the other side to confirm or contest" in text_of(response)
    assert_nothing_saved(match)


def test_contesting_with_nothing_pending_is_refused(client, match, bob):
    client.force_login(bob)
    response = client.post(reverse("matches:contest", args=[match.pk]), {"contest-statement": "no"})
    assert response.status_code == 409
    assert "there is no report from the other side" in text_of(response)
    assert_nothing_saved(match)


def test_a_different_report_after_confirmation_is_refused(client, match, alice, bob):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    match_confirm(match_id=match.pk, user=bob)
    client.force_login(bob)
    response = client.post(reverse("matches:report", args=[match.pk]), {"report-score0": "3", "report-score1": "5"})
    assert response.status_code == 409
    assert "already confirmed" in text_of(response)
    match.refresh_from_db()
    assert (match.score0, match.score1) == (5, 3) and match.reports.count() == 2


# --- stepping through a stored game ------------------------------------------------------------------


def test_each_stored_game_is_listed_and_the_board_starts_at_game_1(client, match, alice, bob):
    confirmed_with_games(match, alice, bob)
    response = client.get(detail_url(match))
    html = response.content.decode()
    assert html.count('class="board"') == 2  # the figure and its one SVG
    assert all(f"?game={n}&amp;moment=0#board" in html for n in range(1, 5))
    text = text_of(response)
    assert "Game 1, moment 0 of" in text
    game = match.games.get(number=1)
    first = game.log[0]
    name = ["Alice", "Bob"][first["side"]]
    assert f"Next: move 1, {name}: roll {first['dice'][0]}{first['dice'][1]}" in text and "side 0" not in text
    assert '<span aria-disabled="true">' in html and 'rel="prev"' not in html and 'rel="next"' in html


def test_the_board_steps_move_by_move_with_query_parameters(client, match, alice, bob):
    confirmed_with_games(match, alice, bob)
    game = match.games.get(number=2)
    response = client.get(detail_url(match, game=2, moment=1))
    assert response.status_code == 200
    html, text = response.content.decode(), text_of(response)
    name = ["Alice", "Bob"][game.log[1]["side"]]
    assert f"Next: move 1, {name}: play {game.log[1]['play']}" in text
    assert f'rel="prev" href="{detail_url(match, game=2, moment=0)}#board"'.replace("&", "&amp;") in html
    assert f'rel="next" href="{detail_url(match, game=2, moment=2)}#board"'.replace("&", "&amp;") in html
    assert "Position ID" in text


def test_the_last_moment_of_a_game_says_how_it_ended(client, match, alice, bob):
    confirmed_with_games(match, alice, bob)
    game = match.games.get(number=1)
    response = client.get(detail_url(match, game=1, moment=len(game.log)))
    assert response.status_code == 200
    winner = ["Alice", "Bob"][game.winner]
    assert f"end of game 1: {winner} wins {game.points} point" in text_of(response)
    assert 'rel="next"' not in response.content.decode()


@pytest.mark.parametrize("query", [{"game": 9}, {"game": 1, "moment": 100000}, {"game": 1, "moment": -1},
                                   {"game": "one"}, {"moment": "x"}])
def test_a_moment_that_does_not_exist_is_a_404(client, match, alice, bob, query):
    confirmed_with_games(match, alice, bob)
    assert client.get(detail_url(match, **query)).status_code == 404


# --- the player page -----------------------------------------------------------------------------------


def test_the_player_page_shows_profile_rating_history_and_recent_matches(client, match, alice, bob):
    from matches.services.ratings import match_rating_apply

    profile = match.side0.player_a
    profile.country = "NL"
    profile.save()
    for score in ((5, 3), (2, 5)):
        played = MatchFactory(side0=match.side0, side1=match.side1, length=5)
        match_report(match_id=played.pk, user=alice, claim=claim_make(played, score, None))
        match_confirm(match_id=played.pk, user=bob)
        match_rating_apply(match_id=played.pk)
    assert RatingChange.objects.filter(player=profile).count() == 2
    profile.refresh_from_db()
    for user in (None, alice, bob):
        if user:
            client.force_login(user)
        response = client.get(reverse("matches:player", args=[profile.pk]))
        assert response.status_code == 200
        text = text_of(response)
        assert "Alice" in text and "NL" in text and f"{profile.rating:.2f}" in text
        assert "10 points of rated matches" in text
        assert response.content.decode().count('class="rating-chart"') == 2  # figure and SVG
        assert text.count("v Bob") >= 2 and "Alice v Bob" in text


def test_a_player_without_rated_matches_has_no_history(client, carol):
    response = client.get(reverse("matches:player", args=[carol.player.pk]))
    assert response.status_code == 200
    assert "No rated matches yet." in text_of(response) and "No matches yet." in text_of(response)
    assert "rating-chart" not in response.content.decode()


def test_an_unknown_player_is_a_404(client):
    assert client.get(reverse("matches:player", args=[999999])).status_code == 404
