"""An event's files drawn for anyone (tournaments/drawings/renders.py): the bracket's SVG and PNG and the paper
sheets are drawn once per state of the event and kept, drawing is throttled (anonymous addresses
harder than users), and a big file is drawn by a task while the page answers 202."""

from __future__ import annotations

import io
import re
from collections import Counter
from time import monotonic

import pytest
from django.core.cache import caches
from django.db.models import F
from django.test import Client
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from core.models import OutboxTask
from tests.concurrency import at_once
from tests.factories import UserFactory
from tests.tournaments.factories import drawn, make_organiser, play, report_only
from tournaments.drawings import bracket_export, paper, renders
from tournaments.drawings.bracket_svg import BracketCell, BracketRound
from tournaments.models import Pairing, Tournament
from tournaments.tasks import render_keep_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawings(monkeypatch):
    """How many times each kind of file was drawn (the drawing functions, counted and let through)."""
    counted: Counter = Counter()

    def count(module, name: str, kind: str) -> None:
        real = getattr(module, name)

        def counting(*args, **kwargs):
            counted[kind] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, counting)

    count(paper, "draw_sheet_pdf", renders.DRAW)
    count(paper, "scoresheets_pdf", renders.SCORESHEETS)
    count(paper, "results_pdf", renders.RESULTS)
    count(renders, "bracket_png", renders.PNG)
    count(renders, "bracket_svg_file", renders.SVG)
    return counted


@pytest.fixture
def eight():
    """A drawn single elimination of eight (four first-round matches, seven in all)."""
    tournament, _players = drawn(8, organiser=make_organiser())
    return tournament


def url(tournament: Tournament, kind: str, number: int = 1, **query) -> str:
    names = {renders.DRAW: ("paper_draw", [tournament.pk]), renders.SVG: ("bracket_svg", [tournament.pk]),
             renders.PNG: ("bracket_png", [tournament.pk]),
             renders.SCORESHEETS: ("paper_scoresheets", [tournament.pk, number]),
             renders.RESULTS: ("paper_results", [tournament.pk, number])}
    name, args = names[kind]
    base = reverse(f"tournaments:{name}", args=args)
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def pages(response) -> int:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return len(PdfReader(io.BytesIO(response.content)).pages)


def first_match_winner(tournament: Tournament):
    pairing = (Pairing.objects.filter(tournament=tournament, round_number=1, match__isnull=False)
               .select_related("match__side0__player_a").order_by("pk").first())
    return pairing.key, pairing.match.side0.player_a


def rows(task: str = renders.TASK):
    return list(OutboxTask.objects.filter(task=task).order_by("pk"))


def run_task(row: OutboxTask):
    """The task of ``row`` as a worker runs it (tests call tasks directly: no eager mode)."""
    return render_keep_task.apply(args=list(row.args), kwargs={"outbox_id": row.pk})


# --- kept ------------------------------------------------------------------------------------------


def test_a_sheet_asked_again_is_served_from_the_cache_without_drawing_it_or_reading_the_event_again(
        client, eight, drawings, django_assert_num_queries):
    first = client.get(url(eight, renders.DRAW))
    assert pages(first) == 1 and drawings[renders.DRAW] == 1
    with django_assert_num_queries(1):  # the event's row (its version is the key), nothing else
        second = client.get(url(eight, renders.DRAW))
    assert second.content == first.content and second["ETag"] == first["ETag"]
    assert second["Content-Disposition"] == first["Content-Disposition"]
    assert drawings[renders.DRAW] == 1
    unchanged = client.get(url(eight, renders.DRAW), headers={"if-none-match": first["ETag"]})
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert drawings[renders.DRAW] == 1


@pytest.mark.parametrize("kind", [renders.SVG, renders.PNG])
def test_the_bracket_files_asked_again_are_not_drawn_again(client, eight, drawings, kind):
    first = client.get(url(eight, kind))
    second = client.get(url(eight, kind))
    assert first.status_code == second.status_code == 200
    assert first.content == second.content and first["Content-Disposition"].startswith("attachment;")
    assert drawings[kind] == 1


def test_each_language_and_paper_is_a_file_of_its_own(client, eight, drawings):
    asked = [(url(eight, renders.SCORESHEETS), "en"), (url(eight, renders.SCORESHEETS, paper="letter"), "en"),
             (url(eight, renders.SCORESHEETS, paper="LETTER"), "en"), (url(eight, renders.SCORESHEETS), "ro")]
    for address, language in asked * 2:
        assert pages(client.get(address, headers={"accept-language": language})) == 4
    assert drawings[renders.SCORESHEETS] == 3  # a4 in English, letter in English, a4 in Romanian


def test_a_result_confirmed_moves_the_version_and_every_file_is_drawn_again(client, eight, drawings):
    kinds = (renders.DRAW, renders.RESULTS, renders.SVG, renders.PNG)
    for kind in kinds:
        assert client.get(url(eight, kind)).status_code == 200
    before = Tournament.objects.get(pk=eight.pk).version
    key, winner = first_match_winner(eight)
    play(eight, key, winner)
    assert Tournament.objects.get(pk=eight.pk).version > before
    for kind in kinds:
        assert client.get(url(eight, kind)).status_code == 200
    assert all(drawings[kind] == 2 for kind in kinds), drawings
    results = PdfReader(io.BytesIO(client.get(url(eight, renders.RESULTS)).content)).pages[0].extract_text()
    assert winner.display_name in results and re.search(r"\b(\d+-0|0-\d+)\b", results)


def test_a_result_only_reported_keeps_the_version_the_sheets_but_draws_the_bracket_again(client, eight, drawings):
    # A report alone moves no version, but the bracket shows the match as reported (its frame and
    # class): the bracket's files are keyed by what they draw, the sheets print no such status.
    first = client.get(url(eight, renders.SVG))
    assert client.get(url(eight, renders.DRAW)).status_code == 200
    before = Tournament.objects.get(pk=eight.pk).version
    key, winner = first_match_winner(eight)
    report_only(eight, key, winner)
    assert Tournament.objects.get(pk=eight.pk).version == before
    second = client.get(url(eight, renders.SVG))
    assert b'data-status="reported"' in second.content and b'data-status="reported"' not in first.content
    assert client.get(url(eight, renders.DRAW)).status_code == 200
    assert (drawings[renders.SVG], drawings[renders.DRAW]) == (2, 1)


def test_a_bare_version_bump_draws_a_sheet_again(client, eight, drawings):
    assert pages(client.get(url(eight, renders.SCORESHEETS))) == 4
    Tournament.objects.filter(pk=eight.pk).update(version=F("version") + 1)
    assert pages(client.get(url(eight, renders.SCORESHEETS))) == 4
    assert drawings[renders.SCORESHEETS] == 2


# --- throttled ---------------------------------------------------------------------------------------


def test_anonymous_addresses_are_throttled_before_signed_in_users_and_a_kept_file_still_answers(
        throttle_rates, eight, drawings):
    throttle_rates(renders_anon="2/minute", renders="4/minute")
    anonymous = Client()
    assert pages(anonymous.get(url(eight, renders.DRAW))) == 1
    assert pages(anonymous.get(url(eight, renders.SCORESHEETS))) == 4
    refused = anonymous.get(url(eight, renders.RESULTS))
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    text = refused.content.decode()
    assert "Too many requests" in text and "Too many new sheets and images asked for in a short time." in text
    assert drawings[renders.RESULTS] == 0
    # What is kept costs nothing to send again: not counted, not refused.
    assert pages(anonymous.get(url(eight, renders.DRAW))) == 1

    signed_in = Client()
    signed_in.force_login(UserFactory(username="reader"))
    asked = [url(eight, renders.RESULTS), url(eight, renders.DRAW, paper="letter"),
             url(eight, renders.SCORESHEETS, paper="letter"), url(eight, renders.RESULTS, paper="letter")]
    assert [signed_in.get(address).status_code for address in asked] == [200, 200, 200, 200]
    assert signed_in.get(url(eight, renders.RESULTS, number=2)).status_code == 429
    assert drawings[renders.RESULTS] == 2


def test_a_throttled_bracket_image_is_refused_in_the_readers_language(throttle_rates, eight):
    throttle_rates(renders_anon="1/minute")
    anonymous = Client(headers={"accept-language": "ro"})
    assert anonymous.get(url(eight, renders.SVG)).status_code == 200
    refused = anonymous.get(url(eight, renders.PNG))
    assert refused.status_code == 429 and refused["Retry-After"]
    assert "Prea multe cereri" in refused.content.decode()  # the title, already in the catalogs


# --- big files by a task ---------------------------------------------------------------------------------


def test_a_big_sheet_answers_202_then_the_task_draws_it_and_the_same_address_serves_it(
        client, settings, eight, drawings):
    settings.RENDER_TASK_SCORESHEETS = 3  # round 1 has four scoresheets
    address = url(eight, renders.SCORESHEETS)
    pending = client.get(address)
    assert pending.status_code == 202
    assert pending["Retry-After"] == str(renders.PENDING_SECONDS)
    assert pending["Content-Type"].startswith("text/html")
    page = pending.content.decode()
    assert f'<meta http-equiv="refresh" content="{renders.PENDING_SECONDS}">' in page
    assert "Your file is being made" in page and f"looks again in {renders.PENDING_SECONDS} seconds" in page
    assert "round-1-scoresheets.pdf" in page
    assert drawings[renders.SCORESHEETS] == 0  # nothing drawn in the request

    [row] = rows()
    assert row.args == [eight.pk, renders.SCORESHEETS, 1, "a4", "en"] and row.queue == "quick"
    assert render_keep_task.name == renders.TASK
    assert run_task(row).successful()
    row.refresh_from_db()
    assert row.done_at is not None and drawings[renders.SCORESHEETS] == 1

    assert pages(client.get(address)) == 4
    assert drawings[renders.SCORESHEETS] == 1
    # A second delivery of the row, or of another row for the same file, draws nothing.
    assert run_task(row).result is None
    assert renders.render_keep(tournament_id=eight.pk, kind=renders.SCORESHEETS, number=1, paper="a4",
                               language="en") is not None
    assert drawings[renders.SCORESHEETS] == 1 and len(rows()) == 1


def test_sixteen_requests_for_a_big_sheet_write_one_task_and_only_the_first_is_counted(
        throttle_rates, settings, eight, drawings):
    throttle_rates(renders_anon="1/minute")
    settings.RENDER_TASK_SCORESHEETS = 3
    statuses = [Client().get(url(eight, renders.SCORESHEETS)).status_code for _ in range(16)]
    assert statuses == [202] * 16  # the others find the task in flight: no 429 while a reader waits
    assert len(rows()) == 1 and drawings[renders.SCORESHEETS] == 0
    assert run_task(rows()[0]).successful()
    assert pages(Client().get(url(eight, renders.SCORESHEETS))) == 4


def test_a_new_version_asks_a_new_task(client, settings, eight):
    settings.RENDER_TASK_SCORESHEETS = 3
    assert client.get(url(eight, renders.SCORESHEETS)).status_code == 202
    assert run_task(rows()[0]).successful()
    assert client.get(url(eight, renders.SCORESHEETS)).status_code == 200
    key, winner = first_match_winner(eight)
    play(eight, key, winner)
    assert client.get(url(eight, renders.SCORESHEETS)).status_code == 202
    assert len(rows()) == 2


def test_the_draw_sheet_and_the_bracket_go_to_a_task_past_their_own_limit(client, settings, eight, drawings):
    settings.RENDER_TASK_SCORESHEETS = 3  # round 1's four scoresheets are big...
    assert client.get(url(eight, renders.SCORESHEETS)).status_code == 202
    for kind in (renders.PNG, renders.SVG, renders.DRAW, renders.RESULTS):  # ...the bracket's seven matches are not
        assert client.get(url(eight, kind)).status_code == 200, kind
    settings.RENDER_TASK_MATCHES = 6
    for kind in (renders.PNG, renders.SVG):
        assert client.get(url(eight, kind)).status_code == 200  # kept: served as it is, whatever its size
    key, winner = first_match_winner(eight)
    play(eight, key, winner)  # a new version: nothing kept
    for kind in (renders.PNG, renders.SVG, renders.DRAW):
        assert client.get(url(eight, kind)).status_code == 202, kind
    assert pages(client.get(url(eight, renders.RESULTS))) == 1  # round 1: four matches
    assert [row.args[1] for row in rows()] == [renders.SCORESHEETS, renders.PNG, renders.SVG, renders.DRAW]
    for row in rows():
        assert run_task(row).successful()
    image = client.get(url(eight, renders.PNG))
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(image.content)).format == "PNG"
    assert client.get(url(eight, renders.SVG)).status_code == 200
    assert pages(client.get(url(eight, renders.DRAW))) == 1
    assert (drawings[renders.PNG], drawings[renders.SVG], drawings[renders.DRAW]) == (2, 2, 2)


def test_a_small_file_another_request_is_drawing_now_answers_202_uncounted_and_is_drawn_once(
        throttle_rates, eight, drawings):
    throttle_rates(renders_anon="1/minute")
    wanted = renders.Wanted(eight.pk, renders.RESULTS, 1, "a4", "en")
    key = renders.render_source(Tournament.objects.get(pk=eight.pk), wanted).key
    assert renders.render_claim(key, seconds=60, wait=renders.DRAWING_PENDING_SECONDS)  # drawn elsewhere, now
    waiting = Client().get(url(eight, renders.RESULTS))
    assert waiting.status_code == 202 and waiting["Retry-After"] == str(renders.DRAWING_PENDING_SECONDS)
    assert drawings[renders.RESULTS] == 0 and rows() == []
    renders.render_release(key)
    assert pages(Client().get(url(eight, renders.RESULTS))) == 1  # the one request the rate lets through
    assert drawings[renders.RESULTS] == 1


def test_a_task_that_fails_gives_its_claim_back(client, settings, eight, monkeypatch):
    settings.RENDER_TASK_SCORESHEETS = 3
    assert client.get(url(eight, renders.SCORESHEETS)).status_code == 202
    [row] = rows()

    def broken(*args, **kwargs):
        raise RuntimeError("the drawing broke")

    monkeypatch.setattr(paper, "scoresheets_pdf", broken)
    assert run_task(row).failed()
    monkeypatch.undo()
    # The claim is back: the next request asks again rather than waiting for a task that is gone.
    assert client.get(url(eight, renders.SCORESHEETS)).status_code == 202
    assert len(rows()) == 2


def test_a_task_for_an_event_gone_keeps_nothing():
    assert renders.render_keep(tournament_id=0, kind=renders.DRAW, number=0, paper="a4", language="en") is None


def test_without_a_shared_cache_a_big_sheet_is_drawn_in_the_request(client, settings, eight, drawings):
    # The laptop's memory cache is each process's own: a task's file would never reach this one.
    settings.RENDER_TASK_SCORESHEETS = 3
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert pages(client.get(url(eight, renders.SCORESHEETS))) == 4
    assert pages(client.get(url(eight, renders.SCORESHEETS))) == 4
    assert drawings[renders.SCORESHEETS] == 1 and rows() == []


def test_with_redis_unreachable_a_big_sheet_is_drawn_in_the_request(client, settings, eight, drawings, monkeypatch):
    # The cache failing open can neither keep the task's file nor hold a claim: drawn here, as before.
    settings.RENDER_TASK_SCORESHEETS = 3
    monkeypatch.setattr(caches["default"].circuit, "open_until", monotonic() + 60)
    assert pages(client.get(url(eight, renders.SCORESHEETS))) == 4
    assert rows() == [] and drawings[renders.SCORESHEETS] == 1


@pytest.mark.django_db(transaction=True)
def test_requests_at_the_same_moment_for_a_small_sheet_draw_it_once(drawings):
    tournament, _players = drawn(8, organiser=make_organiser())
    statuses: list[int] = []
    assert at_once([lambda: statuses.append(Client().get(url(tournament, renders.SCORESHEETS)).status_code)
                    for _ in range(8)]) == ["done"] * 8
    assert set(statuses) <= {200, 202} and 200 in statuses
    assert drawings[renders.SCORESHEETS] == 1


@pytest.mark.django_db(transaction=True)
def test_requests_at_the_same_moment_for_a_big_sheet_write_one_task(settings):
    settings.RENDER_TASK_SCORESHEETS = 3
    tournament, _players = drawn(8, organiser=make_organiser())
    statuses: list[int] = []
    assert at_once([lambda: statuses.append(Client().get(url(tournament, renders.SCORESHEETS)).status_code)
                    for _ in range(8)]) == ["done"] * 8
    assert statuses == [202] * 8
    assert len(rows()) == 1


# --- the pages' words -----------------------------------------------------------------------------------


def test_the_202_and_429_pages_say_their_sentences_in_the_readers_language(throttle_rates, settings, eight):
    throttle_rates(renders_anon="1/minute")
    settings.RENDER_TASK_SCORESHEETS = 3
    korean = Client(headers={"accept-language": "ko"})
    page = korean.get(url(eight, renders.SCORESHEETS)).content.decode()
    assert '<html lang="ko"' in page
    assert "파일을 만드는 중입니다" in page and f"이 페이지는 {renders.PENDING_SECONDS}초 뒤에 다시 확인하고" in page
    assert "지금 다시 확인" in page and "Your file is being made" not in page
    refused = korean.get(url(eight, renders.RESULTS))
    assert refused.status_code == 429
    assert re.search(r"짧은 시간에 새 인쇄물과 이미지를 너무 많이 요청했습니다. \d+초 뒤에 다시 시도하세요.",
                     refused.content.decode())


# --- the PNG's size ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_png_of_a_1024_entrant_bracket_with_its_consolation_stays_under_the_pixel_cap():
    def flight(entrants: int):
        rounds, count, number = [], entrants // 2, 1
        while count:
            rounds.append(BracketRound(f"Round {number}", 7, tuple(
                BracketCell(f"{number}-{i}", (f"Player {2 * i}", f"Player {2 * i + 1}")) for i in range(count))))
            count, number = count // 2, number + 1
        return rounds

    data = bracket_export.bracket_png([("Main flight", flight(1024)), ("Consolation flight", flight(512))])
    image = Image.open(io.BytesIO(data))
    assert image.width * image.height <= bracket_export.MAX_PIXELS == 16_000_000
    assert image.height > 15_000 and image.width > 800  # drawn smaller, not refused
