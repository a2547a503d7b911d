"""Corrections through the pages and the API: the confirmation step lists the reset matches in
sentences (names and round names, never ids), the API's dry run gives the same list and changes
nothing, and a finished event is reopened with a confirmation."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from matches.models import Match
from tests.matches.factories_api import client_for
from tests.tournaments.factories import drawn, names, pairing, play, snapshot
from tests.tournaments.test_corrections import score_for, sixteen
from tournaments.models import Tournament
from tournaments.services import tournament_finish

pytestmark = pytest.mark.django_db


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_previews_the_cascade_in_sentences_then_corrects(organiser):
    tournament, _who = sixteen(organiser)
    match, score = score_for(tournament, "main-1-1", "Sybil")
    url = reverse("tournaments:result_correct", args=[tournament.pk, match.pk])
    client = browser(organiser)
    page = client.get(url).content.decode()
    assert "Correct the result of Alice v Sybil" in page and 'value="3"' in page  # the confirmed score, prefilled
    before = snapshot(tournament)
    preview = client.post(url, {"score0": score[0], "score1": score[1], "statement": "wrong sheet"})
    assert preview.status_code == 200 and snapshot(tournament) == before
    text = preview.content.decode()
    assert "Sybil wins a round-of-16 match, Alice v Sybil, 3-2, instead of Alice." in text
    assert "This resets 3 later matches" in text
    assert ("A quarter-final, Alice v Heidi, which Alice won 5-1, is reset: its result is void and Sybil v Heidi "
            "will be played instead.") in text
    assert "Already started or reported with the wrong player" in text
    assert "a quarter-final: Alice v Heidi" in text and "a quarter-final of the consolation flight: Sybil v Ivan" in text
    assert not re.search(r">[^<]*(main|consolation)-\d", text)  # no draw keys shown as text
    assert 'name="expected" value="main-2-1,main-3-1,consolation-1-1"' in text
    done = client.post(url, {"score0": score[0], "score1": score[1], "statement": "wrong sheet",
                             "expected": "main-2-1,main-3-1,consolation-1-1", "confirm": "1"})
    assert done.status_code == 302 and done.url == reverse("matches:detail", args=[match.pk])
    assert pairing(tournament, "main-2-1").match.status == "scheduled"
    assert AuditEntry.objects.get(action="result.corrected", tournament_id=tournament.pk).note == "wrong sheet"


def test_the_page_refuses_a_bad_score_and_a_stale_confirmation_without_changing_anything(organiser):
    tournament, _who = sixteen(organiser)
    match, score = score_for(tournament, "main-1-1", "Sybil")
    url = reverse("tournaments:result_correct", args=[tournament.pk, match.pk])
    client = browser(organiser)
    before = snapshot(tournament)
    bad = client.post(url, {"score0": 3, "score1": 3})
    assert bad.status_code == 400 and "both sides have 3 points or more" in bad.content.decode()
    stale = client.post(url, {"score0": score[0], "score1": score[1], "expected": "main-2-1", "confirm": "1"})
    assert stale.status_code == 409 and "has changed since" in stale.content.decode()
    assert snapshot(tournament) == before


def test_the_match_page_links_its_director_to_the_correction(organiser):
    tournament, _who = sixteen(organiser)
    match = pairing(tournament, "main-1-1").match
    page = browser(organiser).get(reverse("matches:detail", args=[match.pk])).content.decode()
    assert reverse("tournaments:result_correct", args=[tournament.pk, match.pk]) in page


def test_the_api_dry_run_lists_the_resets_and_changes_nothing_in_constant_queries(organiser, django_assert_num_queries):
    tournament, _who = sixteen(organiser)
    match, score = score_for(tournament, "main-1-1", "Sybil")
    url = reverse("api-tournament-result-correct", args=[tournament.pk, match.pk])
    api = client_for(organiser)
    before = snapshot(tournament)
    # token, tournament, the match, entries, pairings
    with django_assert_num_queries(5):
        answer = api.post(url + "?dry_run=1", {"score": list(score)}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert snapshot(tournament) == before
    assert body["applied"] is False and body["keys"] == ["main-2-1", "main-3-1", "consolation-1-1"]
    assert body["started"] == ["main-2-1", "consolation-1-1"]
    first = body["resets"][0]
    assert (first["round_name"], first["before"], first["after"], first["voided"], first["score"]) == (
        "a quarter-final", ["Alice", "Heidi"], ["Sybil", "Heidi"], "Alice", [5, 1])
    assert api.post(url, {"score": list(score), "dry_run": True}, format="json").json()["keys"] == body["keys"]
    assert snapshot(tournament) == before
    done = api.post(url, {"score": list(score), "expected": body["keys"]}, format="json")
    assert done.status_code == 200 and done.json()["applied"] is True
    assert pairing(tournament, "main-2-1").match.status == "scheduled"


def test_the_api_refuses_with_what_and_where(organiser, another_organiser):
    tournament, _who = sixteen(organiser)
    match, score = score_for(tournament, "main-1-1", "Sybil")
    url = reverse("api-tournament-result-correct", args=[tournament.pk, match.pk])
    before = snapshot(tournament)
    assert client_for(another_organiser).post(url, {"score": list(score)}, format="json").status_code == 403
    bad = client_for(organiser).post(url, {"score": [3, 3]}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_score"
    unknown = client_for(organiser).post(url, {"score": list(score), "winner": 1}, format="json")
    assert unknown.status_code == 400 and "winner" in str(unknown.json())
    elsewhere = reverse("api-tournament-result-correct", args=[tournament.pk, 999999])
    assert client_for(organiser).post(elsewhere, {"score": [3, 0]}, format="json").status_code == 404
    assert snapshot(tournament) == before


def test_a_finished_event_is_reopened_from_its_control_page_and_the_api(organiser):
    tournament, (alice, bob, _carol, _dave) = drawn(4, organiser=organiser)
    for key, winner in (("main-1-1", alice), ("main-1-2", bob), ("main-2-1", alice)):
        play(tournament, key, winner)
    tournament_finish(tournament_id=tournament.pk, user=organiser)
    client = browser(organiser)
    manage = client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    assert reverse("tournaments:reopen", args=[tournament.pk]) in manage
    confirm = client.get(reverse("tournaments:reopen", args=[tournament.pk])).content.decode()
    assert "Reopen the event" in confirm and "placings are no longer final" in confirm
    done = client.post(reverse("tournaments:reopen", args=[tournament.pk]), {"note": "a wrong score sheet"})
    assert done.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).status == "running"
    again = client_for(organiser).post(reverse("api-tournament-reopen", args=[tournament.pk]), {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "not_finished"
    tournament_finish(tournament_id=tournament.pk, user=organiser)
    answer = client_for(organiser).post(reverse("api-tournament-reopen", args=[tournament.pk]),
                                        {"note": "again"}, format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "running"
    assert AuditEntry.objects.filter(action="tournament.reopened", tournament_id=tournament.pk).count() == 2


def test_the_page_preview_reads_a_constant_number_of_queries(organiser, django_assert_num_queries):
    tournament, _who = sixteen(organiser)
    match, score = score_for(tournament, "main-1-1", "Sybil")
    url = reverse("tournaments:result_correct", args=[tournament.pk, match.pk])
    client = browser(organiser)
    # session, user, the event, the match and its sides' players (2) for the page, then the
    # preview's 3 (the match with its event, the entries, the pairings): the same for any event size
    with django_assert_num_queries(9):
        answer = client.post(url, {"score0": score[0], "score1": score[1]})
    assert answer.status_code == 200 and "This resets 3 later matches" in answer.content.decode()


def quarter_finals_won_by_their_bottom_players(organiser):
    """16 players with a consolation flight: main round 1 played (the top players win), both
    quarter-finals feeding the first semi-final won by their bottom players (Heidi beat Alice,
    Erin beat Dave); the semi-final, Heidi v Erin, is scheduled, not played."""
    tournament, _players = drawn(16, organiser=organiser, consolation_rounds=1,
                                lengths={"main": [3, 5, 7, 9], "consolation": 3})
    for i in range(1, 9):
        row = pairing(tournament, f"main-1-{i}")
        play(tournament, row.key, row.entry0.side.player_a)
    for key in ("main-2-1", "main-2-2"):
        play(tournament, key, pairing(tournament, key).entry1.side.player_a, loser_points=1)
    assert pairing(tournament, "main-3-1").match.status == "scheduled"
    return tournament


SEMI_RESET = "A semi-final, Heidi v Erin, is reset: Erin waits there for an opponent still to be decided."


def test_the_confirmation_step_names_the_scheduled_semi_final_the_correction_removes(organiser):
    tournament = quarter_finals_won_by_their_bottom_players(organiser)
    semi = pairing(tournament, "main-3-1").match_id
    match, score = score_for(tournament, "main-1-1", "Sybil")
    url = reverse("tournaments:result_correct", args=[tournament.pk, match.pk])
    client = browser(organiser)
    before = snapshot(tournament)
    text = client.post(url, {"score0": score[0], "score1": score[1]}).content.decode()
    assert snapshot(tournament) == before
    assert "This resets 3 later matches" in text
    assert ("A quarter-final, Alice v Heidi, which Heidi won 5-1, is reset: its result is void and Sybil v Heidi "
            "will be played instead.") in text
    assert SEMI_RESET in text
    assert "A quarter-final of the consolation flight, Sybil v Ivan, is reset: Alice v Ivan will be played instead." in text
    tell = re.search(r'class="cascade-tell">(.*?)</section>', text, re.S).group(1)
    assert "Players to tell" in tell
    assert re.findall(r"<li>([^<]*)</li>", tell) == ["Alice", "Sybil", "Heidi", "Erin", "Ivan"]
    assert not re.search(r">[^<]*(main|consolation)-\d", text)
    assert 'name="expected" value="main-2-1,main-3-1,consolation-1-1"' in text
    done = client.post(url, {"score0": score[0], "score1": score[1], "expected": "main-2-1,main-3-1,consolation-1-1",
                             "confirm": "1"})
    assert done.status_code == 302
    assert not Match.objects.filter(pk=semi).exists()
    assert names(pairing(tournament, "main-3-1")) == (None, None)
    assert names(pairing(tournament, "main-2-1")) == ("Sybil", "Heidi")
    assert pairing(tournament, "main-2-2").match.status == "confirmed"  # Erin's win stands


def test_the_api_dry_run_names_the_scheduled_semi_final_the_correction_removes(organiser):
    tournament = quarter_finals_won_by_their_bottom_players(organiser)
    semi = pairing(tournament, "main-3-1").match_id
    match, score = score_for(tournament, "main-1-1", "Sybil")
    url = reverse("api-tournament-result-correct", args=[tournament.pk, match.pk])
    api = client_for(organiser)
    before = snapshot(tournament)
    body = api.post(url + "?dry_run=1", {"score": list(score)}, format="json").json()
    assert snapshot(tournament) == before
    assert body["keys"] == ["main-2-1", "main-3-1", "consolation-1-1"]
    quarter, semi_line, drop = body["resets"]
    assert (quarter["before"], quarter["after"], quarter["voided"], quarter["removed"]) == (
        ["Alice", "Heidi"], ["Sybil", "Heidi"], "Heidi", True)
    assert (semi_line["round_name"], semi_line["before"], semi_line["after"], semi_line["voided"],
            semi_line["removed"], semi_line["match"], semi_line["sentence"]) == (
        "a semi-final", ["Heidi", "Erin"], [None, "Erin"], None, True, semi, SEMI_RESET)
    assert (drop["before"], drop["after"], drop["removed"]) == (["Sybil", "Ivan"], ["Alice", "Ivan"], True)
    assert body["tell"] == ["Alice", "Sybil", "Heidi", "Erin", "Ivan"]
    done = api.post(url, {"score": list(score), "expected": body["keys"]}, format="json").json()
    assert done["applied"] is True and done["keys"] == body["keys"] and done["tell"] == body["tell"]
    assert not Match.objects.filter(pk=semi).exists()
