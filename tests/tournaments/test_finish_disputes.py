"""An event cannot be finished while a dispute on one of its matches is open (awaiting a ruling or
under appeal): the refusal (409 ``event_unfinished``) names each dispute in a sentence, on the
service, the API and the event's control page, and changes nothing. tournaments asks through its
finish checks (``tournaments.hooks``), which rulings connects to."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from rest_framework.test import APIClient

from audit.models import AuditEntry
from core.errors import Conflict
from rulings.models import Dispute
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make
from tests.tournaments.factories import drawn, play, snapshot
from tournaments import hooks as event_hooks
from tournaments.models import Tournament
from tournaments.services import tournament_finish

pytestmark = pytest.mark.django_db


def played_with_dispute(organiser):
    """A two-player bracket played out (Bob beat Alice in round 1), then Alice disputes Bob's conduct."""
    tournament, (alice, bob) = drawn(2, organiser=organiser)
    match = play(tournament, "main-1-1", bob)
    dispute = dispute_open(match_id=match.pk, user=alice.user, category=Dispute.Category.CONDUCT,
                           statement="He rolled before I had picked up my dice.")
    return tournament, match, dispute


def expected_sentence(match, dispute) -> str:
    day = date_format(timezone.localtime(dispute.created_at), "j M")
    return f"the dispute on {match.side0.name} v {match.side1.name}, round 1, opened on {day} is still open"


def test_rulings_registers_its_finish_check():
    assert "rulings.open_disputes" in event_hooks.finish_checks.receivers()


def test_an_open_dispute_keeps_the_event_from_finishing_and_the_refusal_changes_nothing(organiser):
    tournament, match, dispute = played_with_dispute(organiser)
    before, entries = snapshot(tournament), AuditEntry.objects.count()
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "event_unfinished"
    assert caught.value.message == f"the event cannot be finished yet: {expected_sentence(match, dispute)}"
    assert snapshot(tournament) == before and AuditEntry.objects.count() == entries
    assert Dispute.objects.get(pk=dispute.pk).status == Dispute.Status.OPEN


def test_once_ruled_the_event_finishes(organiser):
    tournament, _match, dispute = played_with_dispute(organiser)
    ruling_make(dispute_id=dispute.pk, user=organiser, outcome="warning", params={"side": 1},
                rule="RULES 9: conduct", reasoning="A first warning.")
    assert tournament_finish(tournament_id=tournament.pk, user=organiser).status == Tournament.Status.FINISHED


def test_a_dispute_under_appeal_also_keeps_it_open_and_a_settled_one_does_not(organiser):
    tournament, match, dispute = played_with_dispute(organiser)
    Dispute.objects.filter(pk=dispute.pk).update(status=Dispute.Status.APPEALED)
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert "is under appeal" in caught.value.message and f"{match.side0.name} v {match.side1.name}" in caught.value.message
    Dispute.objects.filter(pk=dispute.pk).update(status=Dispute.Status.SETTLED)
    assert tournament_finish(tournament_id=tournament.pk, user=organiser).status == Tournament.Status.FINISHED


def test_two_open_disputes_are_both_named(organiser):
    tournament, match, first = played_with_dispute(organiser)
    second = dispute_open(match_id=match.pk, user=organiser, category=Dispute.Category.SLOW_PLAY, statement="Slow.")
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.message == (f"the event cannot be finished yet: {expected_sentence(match, first)}; "
                                    f"{expected_sentence(match, second)}")


def test_the_api_answers_409_naming_the_dispute_and_changes_nothing(organiser):
    tournament, match, dispute = played_with_dispute(organiser)
    before = snapshot(tournament)
    client = APIClient()
    client.force_authenticate(organiser)
    response = client.post(f"/api/v1/tournaments/{tournament.pk}/finish/")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "event_unfinished" and expected_sentence(match, dispute) in body["detail"]
    assert snapshot(tournament) == before


def test_the_control_page_shows_the_refusal_in_a_sentence_and_changes_nothing(organiser):
    tournament, match, dispute = played_with_dispute(organiser)
    before = snapshot(tournament)
    client = Client()
    client.force_login(organiser)
    response = client.post(reverse("tournaments:finish", args=[tournament.pk]))
    assert response.status_code == 409
    page = response.content.decode()
    assert expected_sentence(match, dispute) in page
    assert snapshot(tournament) == before
