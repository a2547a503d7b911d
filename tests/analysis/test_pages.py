"""The analysis where players look: the match page's section and its board
stepper's blunders, a player's PR over time, an event's players ranked by PR; each in a fixed
number of queries, and in Korean, Arabic and Romanian (the project's catalogs)."""

from __future__ import annotations

import html as htmllib
import re
from datetime import date, timedelta
from pathlib import Path
from xml.etree import ElementTree

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from analysis.models import MatchAnalysis
from analysis.services import match_analysis_request, match_analysis_run
from core.outbox import OutboxTask
from matches.services.matches import side_for
from tests.factories import MatchFactory, PlayerFactory
from tests.matches.factories_api import PASSWORD
from tests.tournaments.factories import drawn, player
from tournaments.models import EventMatch

pytestmark = pytest.mark.django_db

def client(user=None) -> Client:
    out = Client()
    if user is not None:
        assert out.login(username=user.username, password=PASSWORD)
    return out


def page(user, url: str, **headers) -> str:
    response = client(user).get(url, **headers)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def text_of(html: str) -> str:
    html = re.sub(r"</?bdi[^>]*>", "", html)  # an isolated run is read in its sentence
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def analysed(played):
    """The cast's match (a real 3-point match) analysed at 0-ply through the services."""
    match_analysis_request(played.match, actor=played.organiser, plies=0)
    played.row = match_analysis_run(played.match.pk)
    assert played.row.status == "done"
    return played


def blunders(row) -> list[tuple[int, dict]]:
    return [(game["number"], d) for game in row.result["games"] for d in game["decisions"] if d["mark"] == "blunder"]


def done_row(match, *, pr: tuple[float, float], unforced: int = 50, on: date | None = None,
             decisions: int = 2) -> MatchAnalysis:
    """A done analysis of ``match`` written as the service stores one (its figures and a result of
    ``decisions`` decisions), without running gnubg: the pages read what is stored."""
    if on is not None:
        type(match).objects.filter(pk=match.pk).update(played_on=on)
    sides = [{"decisions": unforced, "unforced": unforced, "equity_lost": p * unforced / 500,
              "error_rate": 2 * p, "pr": p, "doubtful": 0, "errors": 1, "blunders": 1, "luck": 0.1, "rating": 4,
              "luck_rating": 2} for p in pr]
    decision = {"index": 1, "move": 1, "side": 0, "kind": "play", "dice": [3, 1], "played": "6/5 6/3",
                "best": "8/5 6/5", "equity_played": -0.2, "equity_best": 0.0, "loss": 0.2, "mark": "blunder",
                "forced": False, "luck": 0.0, "position_id": "4HPwATDgc/ABMA", "match_id": "cAgAAAAAAAAA"}
    result = {"version": 1, "plies": 0, "engine": "GNU Backgammon test", "sides": sides,
              "games": [{"number": 1, "score": [0, 0], "crawford": False, "sides": sides,
                         "decisions": [decision] * decisions}]}
    now = timezone.now()
    values = {"status": "done", "plies": 0, "requested_at": now, "analysed_at": now, "result": result,
              "done": decisions, "total": decisions, "engine": "GNU Backgammon test"}
    for side, stats in enumerate(sides):
        for name in ("decisions", "unforced", "equity_lost", "error_rate", "pr", "errors", "blunders"):
            values[f"{name}{side}"] = stats[name]
    row, _ = MatchAnalysis.objects.update_or_create(match=match, defaults=values)
    return row


def queries(user, url: str) -> int:
    browser = client(user)
    with CaptureQueriesContext(connection) as captured:
        assert browser.get(url).status_code == 200
    return len(captured)


# --- the match page ------------------------------------------------------------------------------


def test_the_match_page_shows_each_sides_pr_errors_blunders_luck_rating_and_depth(analysed):
    row = analysed.row
    html = page(analysed.carol, f"/matches/{analysed.match.pk}/")
    section = html[html.index('id="analysis"'):]
    text = text_of(section)
    assert "Analysis by GNU Backgammon" in text and "Analysed at 0-ply on" in text
    for side, name in ((0, "Alice"), (1, "Bob")):
        stats = row.result["sides"][side]
        assert re.search(rf"{name} {stats['pr']:.2f} {stats['error_rate']:.1f} "
                         rf"{stats['errors']} {stats['blunders']} ", text), text
        assert ["Beginner", "Intermediate", "Advanced", "Master", "Grandmaster", "Super Grandmaster"][stats["rating"]] in text
    assert f'href="/matches/{analysed.match.pk}/analysis.json"' in section
    # Nobody but the director is offered the button; no id, no JSON on the page.
    assert "Analyse again" not in html and '"equity_lost"' not in html and "analysis_unavailable" not in html


def test_the_director_asks_again_from_the_page_and_sees_the_progress(analysed):
    match = analysed.match
    html = page(analysed.organiser, f"/matches/{match.pk}/")
    assert "Analyse again" in html and 'name="plies"' in html
    browser = client(analysed.organiser)
    response = browser.post(f"/matches/{match.pk}/analysis/request/", {"plies": "2"})
    assert response.status_code == 302 and response["Location"].endswith(f"/matches/{match.pk}/#analysis")
    row = MatchAnalysis.objects.get(pk=match.pk)
    assert (row.status, row.plies, row.generation) == ("queued", 2, analysed.row.generation + 1)
    assert OutboxTask.objects.filter(task="analysis.tasks.match_analysis_task").count() == 3
    text = text_of(browser.get(f"/matches/{match.pk}/").content.decode())
    assert "The analysis at 2-ply is queued" in text and "Waiting for an analysis worker (2-ply)" in text
    MatchAnalysis.objects.filter(pk=match.pk).update(status="running", done=37, total=120)
    html = page(None, f"/matches/{match.pk}/")
    assert "Analysed 37 of 120 decisions" in text_of(html)
    assert f'data-live="/matches/{match.pk}/analysis/live/"' in html
    assert f'data-live-version="{row.generation}-running-37-120"' in html


def test_only_the_director_may_ask_and_a_refusal_writes_nothing(analysed):
    match = analysed.match
    before = OutboxTask.objects.count()
    response = client(analysed.carol).post(f"/matches/{match.pk}/analysis/request/", {"plies": "0"})
    assert response.status_code == 403 and "only the match's director may ask for its analysis" in text_of(
        response.content.decode())
    response = client(analysed.organiser).post(f"/matches/{match.pk}/analysis/request/", {"plies": "5"})
    assert response.status_code == 400 and "the depth of the analysis is 0, 1 or 2 plies" in text_of(
        response.content.decode())
    assert client().post(f"/matches/{match.pk}/analysis/request/", {"plies": "0"}).status_code == 302  # sign in
    assert OutboxTask.objects.count() == before
    assert MatchAnalysis.objects.get(pk=match.pk).generation == analysed.row.generation


def test_a_match_without_analysis_shows_nothing_to_its_players_and_the_button_to_its_director(played):
    MatchAnalysis.objects.filter(pk=played.match.pk).delete()
    assert 'id="analysis"' not in page(played.carol, f"/matches/{played.match.pk}/")
    text = text_of(page(played.organiser, f"/matches/{played.match.pk}/"))
    assert "This match has not been analysed." in text and "Analyse" in text


def test_the_live_version_moves_with_the_progress_and_answers_304_meanwhile(analysed):
    match = analysed.match
    MatchAnalysis.objects.filter(pk=match.pk).update(status="running", done=3, total=9, result=None, pr0=None,
                                                     pr1=None, analysed_at=None)
    url = f"/matches/{match.pk}/analysis/live/"
    first = client().get(url)
    generation = analysed.row.generation
    assert first.status_code == 200 and first.json() == {"version": f"{generation}-running-3-9"}
    assert client().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    MatchAnalysis.objects.filter(pk=match.pk).update(done=4)
    assert client().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).json() == {"version": f"{generation}-running-4-9"}
    assert client().get(f"/matches/{match.pk + 1000}/analysis/live/").status_code == 404


# --- the board stepper ---------------------------------------------------------------------------


def test_the_stepper_marks_each_blunder_and_steps_from_one_to_the_next_without_script(analysed):
    match, marked = analysed.match, blunders(analysed.row)
    assert len(marked) >= 2  # the file's game 2 has a missed double, game 4 a bad play
    html = page(None, f"/matches/{match.pk}/?game=1&moment=0")
    found = re.search(r'<a class="jump jump-next" href="([^"]+)">Next blunder \u203a</a>', html)
    assert found and "Previous blunder" not in html
    number, decision = marked[0]
    assert found.group(1).replace("&amp;", "&") == f"/matches/{match.pk}/?game={number}&moment={decision['index']}#board"
    html = page(None, found.group(1).replace("&amp;", "&"))
    mark = text_of(re.search(r'<p class="move-mark move-mark-blunder">.*?</p>', html).group(0))
    played = {"no double": "no double", "double": "double"}.get(decision["played"], decision["played"])
    assert mark.strip() == (f"Blunder: played {played}, best {decision['best']}, "
                            f"equity lost {decision['loss']:.3f}")
    assert "Previous blunder" not in html
    following = re.search(r'<a class="jump jump-next" href="([^"]+)">', html).group(1).replace("&amp;", "&")
    number, decision = marked[1]
    assert following.endswith(f"?game={number}&moment={decision['index']}#board")
    html = page(None, following)
    assert "Previous blunder" in html and f"equity lost {decision['loss']:.3f}" in text_of(html)
    if decision["kind"] == "play":
        assert f"best {decision['best']}," in text_of(html)


def test_an_error_is_marked_at_its_move_but_is_no_stop(analysed):
    match = analysed.match
    errors = [(game["number"], d) for game in analysed.row.result["games"] for d in game["decisions"]
              if d["mark"] == "error"]
    number, decision = errors[0]
    html = page(None, f"/matches/{match.pk}/?game={number}&moment={decision['index']}")
    assert "move-mark-error" in html and text_of(html).count("Error: played ") == 1


# --- query counts -------------------------------------------------------------------------------


def test_the_match_pages_queries_are_fixed_whatever_the_number_of_decisions(analysed):
    match = analysed.match
    url = f"/matches/{match.pk}/?game=4&moment=10"
    count = queries(analysed.organiser, url)
    result = analysed.row.result
    extra = dict(result["games"][0]["decisions"][0], mark="blunder")
    result["games"][0]["decisions"] += [extra] * 2000
    MatchAnalysis.objects.filter(pk=match.pk).update(result=result)
    assert queries(analysed.organiser, url) == count
    MatchAnalysis.objects.filter(pk=match.pk).delete()
    assert queries(analysed.organiser, url) == count  # the analysis is one query: found or not


def test_the_player_pages_queries_are_fixed_whatever_the_number_of_analysed_matches(analysed):
    alice = analysed.match.side0.player_a
    url = f"/players/{alice.pk}/"
    count = queries(None, url)
    for day in range(5):
        match = MatchFactory(side0=side_for([alice]), side1=side_for([PlayerFactory()]), length=5)
        done_row(match, pr=(4.0 + day, 9.0), on=date(2026, 1, 1) + timedelta(days=7 * day))
    assert queries(None, url) == count


def test_the_event_rankings_queries_are_fixed_whatever_the_number_of_matches(analysed):
    tournament, _ = drawn(2, players=[player("dave"), player("erin")], organiser=analysed.organiser)
    EventMatch.objects.create(match=analysed.match, tournament=tournament)
    url = f"/events/{tournament.pk}/analysis/"
    count = queries(None, url)
    for _ in range(6):
        match = MatchFactory(side0=side_for([PlayerFactory()]), side1=side_for([PlayerFactory()]), length=5)
        EventMatch.objects.create(match=match, tournament=tournament)
        done_row(match, pr=(7.0, 8.0))
    assert queries(None, url) == count


# --- a player's PR over time ---------------------------------------------------------------------


def test_a_players_page_draws_his_pr_over_time_with_dated_ticks_and_a_table(analysed):
    alice = analysed.match.side0.player_a
    prs = [6.0, 3.5, 8.25]
    for week, pr in enumerate(prs):
        match = MatchFactory(side0=side_for([alice]), side1=side_for([PlayerFactory(display_name=f"Foe {week}")]),
                             length=5)
        done_row(match, pr=(pr, 5.0), unforced=40, on=date(2026, 3, 2) + timedelta(days=14 * week))
    html = page(None, f"/players/{alice.pk}/")
    section = html[html.index('id="pr"'):html.index("</section>", html.index('id="pr"'))]
    svg = ElementTree.fromstring(re.search(r"<svg.*?</svg>", section, re.S).group(0))
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert svg.find("s:title", ns).text == "PR of Alice over time"
    assert len(svg.findall(".//s:text[@class='tick-x']", ns)) >= 2
    assert len(svg.find(".//s:polyline", ns).get("points").split()) == 4
    text = text_of(section)
    assert "4 analysed matches; PR over all of them:" in text
    # Newest first: the cast's match, confirmed today, then the three of March.
    assert re.findall(r'<td class="pr"><bdi dir="ltr">(.*?)</bdi></td>', section) == [
        f"{analysed.row.pr0:.2f}", "8.25", "3.50", "6.00"]
    assert "v Foe 2" in text


def test_a_player_without_analysed_matches_has_no_pr_section():
    nobody = PlayerFactory()
    assert 'id="pr"' not in page(None, f"/players/{nobody.pk}/")


# --- an event's ranking --------------------------------------------------------------------------


def test_an_event_ranks_its_players_by_pr_and_its_page_links_to_it(analysed):
    tournament, _ = drawn(2, players=[player("dave"), player("erin")], organiser=analysed.organiser)
    EventMatch.objects.create(match=analysed.match, tournament=tournament)
    row = analysed.row
    assert f'href="/events/{tournament.pk}/analysis/"' in page(None, f"/events/{tournament.pk}/")
    html = page(None, f"/events/{tournament.pk}/analysis/")
    rows = re.findall(r"<tr>\s*<td>(.*?)</td>\s*<td><a [^>]+>(.*?)</a></td>\s*<td class=\"pr\">(.*?)</td>"
                      r"\s*<td>(.*?)</td>\s*<td>(.*?)</td>", html)
    expected = sorted([(row.pr0, "Alice", row.error_rate0), (row.pr1, "Bob", row.error_rate1)])
    assert [(text_of(r[0]).strip(), r[1], text_of(r[2]).strip(), text_of(r[3]).strip(), text_of(r[4]).strip())
            for r in rows] == [(str(rank), name, f"{pr:.2f}", "1", f"{rate:.1f}")
                               for rank, (pr, name, rate) in enumerate(expected, start=1)]


def test_an_event_without_analysed_matches_says_so():
    tournament, _ = drawn(2, players=[player("dave"), player("erin")])
    assert "None of this event's matches has been analysed yet." in text_of(
        page(None, f"/events/{tournament.pk}/analysis/"))


# --- in Korean, Arabic and Romanian -------------------------------------------------------------


@pytest.fixture
def catalogs():
    """The project's catalogs, compiled (the README's test command runs compilemessages): the pages
    read in them as a visitor's browser asks."""
    for lang in ("ko", "ar", "ro"):
        assert (Path(settings.BASE_DIR) / "locale" / lang / "LC_MESSAGES" / "django.mo").exists()
    return ("ko", "ar", "ro")


@pytest.mark.parametrize(("lang", "words"), [
    ("ko", ("다음 블런더", "블런더:", "잃은 에퀴티")),
    ("ar", ("الخطأ الفادح التالي", "خطأ فادح:", "الخسارة في القيمة المتوقعة")),
    ("ro", ("Gafa următoare", "Gafă: s-a jucat", "echitate pierdută")),
])
def test_the_section_and_the_blunders_read_in_korean_arabic_and_romanian(analysed, catalogs, lang, words):
    match = analysed.match
    number, decision = blunders(analysed.row)[0]
    html = page(None, f"/matches/{match.pk}/?game={number}&moment={decision['index']}",
                HTTP_ACCEPT_LANGUAGE=lang)
    text = text_of(html)
    assert "Analysis by GNU Backgammon" not in text and "Blunder: played" not in text
    html_start = page(None, f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE=lang)
    assert words[0] in text_of(html_start)
    assert words[1] in text and words[2] in text
