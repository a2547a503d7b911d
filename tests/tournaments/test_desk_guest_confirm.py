"""A report against a walk-in who has no account: nobody can confirm it but the event's director,
who does so from the round desk in one click, with the reported score (matches.services.reporting
.match_confirm, a director confirming for a side none of whose players has an account): the usual
confirmation's effects follow (the bracket, the rating, the audit log, the emails), and the desk
says the result awaits a guest who cannot confirm. The same through the API's confirm endpoint."""

from __future__ import annotations

import html

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit.models import AuditEntry
from core.errors import Conflict, NotAllowed
from matches.models import Match, RatingChange, Report
from matches.services.reporting import claim_make, match_confirm, match_report
from tests.factories import PlayerFactory, UserFactory
from tests.matches.factories_api import client_for
from tests.matches.factories_ratings import run_tasks_inline
from tests.tournaments.factories import cast, drawn, final_score, make_another_organiser, override, pairing
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def reported(monkeypatch, django_capture_on_commit_callbacks):
    """A rated bracket of four: Alice (seed 1) plays the walk-in 김민준 (seed 4), who has no
    account; Alice reports winning by the match's length to 1. Returns (tournament, match, alice)."""
    run_tasks_inline(monkeypatch)
    alice, bob, carol = cast(3)
    minjun = PlayerFactory(user=None, display_name="김민준", rating=1400.0)
    tournament, _players = drawn(4, players=[alice, bob, carol, minjun])
    match = Match.objects.select_related("side0__player_a", "side1__player_a").get(
        pairing__tournament=tournament, side0__player_a__in=[alice, minjun], side1__player_a__in=[alice, minjun])
    score = final_score(match, 0 if match.side0.player_a == alice else 1, 1)
    with django_capture_on_commit_callbacks(execute=True):
        match_report(match_id=match.pk, user=alice.user, claim=claim_make(match, score, None))
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    mail.outbox.clear()
    return tournament, match, alice


def _confirmed_as_reported(match: Match, alice) -> None:
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert match.sides[match.winner].player_a == alice and sorted((match.score0, match.score1)) == [1, match.length]
    # Alice's own report is the result (confirmed, not overridden); the director's answers for 김민준.
    alices = Report.objects.get(match=match, reporter=alice.user)
    assert alices.status == Report.Status.CONFIRMED
    assert AuditEntry.objects.filter(action="match.result_confirmed", match_id=match.pk).exists()
    assert not AuditEntry.objects.filter(action="match.result_overridden", match_id=match.pk).exists()


def test_the_director_confirms_a_report_against_a_guest_with_the_usual_effects(
        reported, django_capture_on_commit_callbacks):
    tournament, match, alice = reported
    with django_capture_on_commit_callbacks(execute=True):
        report = match_confirm(match_id=match.pk, user=tournament.organiser, score=_reported(match))
    # The answer is the confirming side's report, as a player's confirmation answers: the director's, for 김민준.
    assert (report.status, report.reporter, report.side) == (Report.Status.AGREED, tournament.organiser,
                                                             1 - Report.objects.get(reporter=alice.user).side)
    _confirmed_as_reported(match, alice)
    entry = AuditEntry.objects.get(action="match.result_confirmed", match_id=match.pk)
    assert entry.actor_id == tournament.organiser.pk and entry.tournament_id == tournament.pk
    assert RatingChange.objects.filter(match=match).count() == 2
    assert [m.to for m in mail.outbox] == [[alice.user.email]]  # the confirmation's email; 김민준 has no address
    # A repeat (a double click, a retried request) changes nothing.
    audited = AuditEntry.objects.filter(match_id=match.pk).count()
    with django_capture_on_commit_callbacks(execute=True):
        again = match_confirm(match_id=match.pk, user=tournament.organiser, score=_confirmed(match))
    assert again.status == Report.Status.CONFIRMED and AuditEntry.objects.filter(match_id=match.pk).count() == audited
    assert len(mail.outbox) == 1
    # The bracket took the result: with the other semifinal's, the final is Alice's and its winner's.
    other = pairing(tournament, "main-1-2" if match.pairing.key == "main-1-1" else "main-1-1")
    winner = other.entry0.side.player_a
    override(tournament, other.key, winner)
    final = pairing(tournament, "main-2-1")
    assert {final.entry0.side.player_a, final.entry1.side.player_a} == {alice, winner}


def _confirmed(match: Match) -> tuple[int, int]:
    match.refresh_from_db()
    return (match.score0, match.score1)


def _reported(match: Match) -> tuple[int, int]:
    pending = Report.objects.get(match=match, status=Report.Status.PENDING)
    return (pending.score0, pending.score1)


def test_only_the_director_confirms_for_the_guest_and_only_what_he_was_shown(reported):
    tournament, match, _alice = reported
    for outsider in (make_another_organiser(), UserFactory(username="passer-by")):
        with pytest.raises(NotAllowed):
            match_confirm(match_id=match.pk, user=outsider)
    with pytest.raises(Conflict) as refused:
        match_confirm(match_id=match.pk, user=tournament.organiser, score=tuple(reversed(_reported(match))))
    assert refused.value.code == "report_changed"
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED


def test_a_player_with_an_account_confirms_for_himself_not_the_director():
    tournament, _players = drawn(2)
    match = Match.objects.select_related("side0__player_a", "side1__player_a").get(pairing__tournament=tournament)
    match_report(match_id=match.pk, user=match.side0.player_a.user, claim=claim_make(match, final_score(match, 0), None))
    with pytest.raises(NotAllowed) as refused:
        match_confirm(match_id=match.pk, user=tournament.organiser)
    assert match.side1.player_a.display_name in refused.value.message
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED


def test_the_desk_says_the_result_awaits_a_guest_and_confirms_it_in_one_click(client, reported):
    tournament, match, alice = reported
    client.force_login(tournament.organiser)
    desk = reverse("tournaments:desk", args=[tournament.pk])
    page = html.unescape(client.get(desk).content.decode())
    assert "김민준 has no account and cannot confirm the result Alice reported" in page
    s0, s1 = _reported(match)
    url = reverse("tournaments:desk_result", args=[tournament.pk, match.pk])
    assert f'name="score0" value="{s0}"' in page and f'name="score1" value="{s1}"' in page
    assert 'name="confirm_reported"' in page and url in page
    answer = client.post(url, {"score0": str(s0), "score1": str(s1), "confirm_reported": "1"})
    assert answer.status_code == 302
    _confirmed_as_reported(match, alice)
    page = html.unescape(client.get(desk).content.decode())
    assert "confirmed." in page and "cannot confirm" not in page


def test_the_desk_refuses_a_confirmation_of_a_report_since_changed(client, reported):
    tournament, match, _alice = reported
    client.force_login(tournament.organiser)
    s0, s1 = _reported(match)
    answer = client.post(reverse("tournaments:desk_result", args=[tournament.pk, match.pk]),
                         {"score0": str(s1), "score1": str(s0), "confirm_reported": "1"})
    assert answer.status_code == 409
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED


def test_the_api_lets_the_director_confirm_for_the_guest(reported):
    tournament, match, alice = reported
    url = reverse("api-match-confirm", args=[match.pk])
    assert client_for(make_another_organiser()).post(url, {}, format="json").status_code == 403
    answer = client_for(tournament.organiser).post(url, {}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "confirmed"
    _confirmed_as_reported(match, alice)


def test_the_desk_takes_the_same_queries_with_reports_awaiting_guests(client):
    counts = []
    for size in (4, 8):
        organiser = UserFactory(username=f"olga{size}", organiser=True)
        players = [PlayerFactory(user=UserFactory(username=f"p{size}x{i}"), display_name=f"Player {size}-{i}",
                                 rating=2000.0 - i) for i in range(size // 2)]
        players += [PlayerFactory(user=None, display_name=f"Guest {size}-{i}", rating=1500.0 - i)
                    for i in range(size // 2)]
        tournament, _ = drawn(size, players=players, organiser=organiser, format=Tournament.Format.SWISS,
                              swiss_rounds=2)
        for match in Match.objects.select_related("side0__player_a__user", "side1__player_a__user").filter(
                pairing__tournament=tournament):
            reporter = match.side0.player_a.user or match.side1.player_a.user
            if reporter is not None and (match.side0.player_a.user is None or match.side1.player_a.user is None):
                score = final_score(match, 0 if match.side0.player_a.user == reporter else 1)
                match_report(match_id=match.pk, user=reporter, claim=claim_make(match, score, None))
        client.force_login(organiser)
        with CaptureQueriesContext(connection) as queries:
            page = html.unescape(client.get(reverse("tournaments:desk", args=[tournament.pk])).content.decode())
        assert page.count("has no account and cannot confirm") >= 1
        counts.append(len(queries))
    assert counts[0] == counts[1]
