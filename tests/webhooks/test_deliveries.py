"""Webhook deliveries against a local receiver (tests/webhooks/conftest.py): what is sent and how it
is signed, the retries after a 500, nothing sent for a change that rolled back, redelivery from the
log; and the deliveries a paired round and a ruling make."""

from __future__ import annotations

import json
import time

import pytest
from django.db import transaction

from clubs.models import ClubEvent
from core.local_worker import LocalWorker
from core.models import OutboxTask
from matches.models import Match
from matches.services.reporting import claim_make, match_override
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make
from tests.clubs.factories import ClubFactory
from tests.matches.factories_api import make_cast
from tests.tournaments.factories import closed, drawn, enter, player
from tournaments.models import Tournament
from tournaments.services import tournament_draw, tournament_pair_next_round
from webhooks import services, signing
from webhooks.models import Delivery, Subscription
from webhooks.tasks import webhook_deliver_task

pytestmark = pytest.mark.django_db


def event_match():
    tournament, _players = drawn(2)
    match = Match.objects.select_related("side0__player_a", "side1__player_a").get(event_link__tournament=tournament)
    return tournament, match


def confirm(match, user) -> None:
    match_override(match_id=match.pk, user=user, claim=claim_make(match, (match.length, 0), None))


def subscribe(receiver, *, tournament=None, club=None, user=None, events=("results",)) -> Subscription:
    user = user or tournament.organiser
    return services.subscription_create(user=user, url=receiver.url, events=list(events), tournament=tournament, club=club)


def test_a_confirmed_result_is_posted_signed_with_the_secret_and_a_timestamp(receiver):
    tournament, match = event_match()
    subscription = subscribe(receiver, tournament=tournament)
    confirm(match, tournament.organiser)
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.event, delivery.attempts) == ("pending", "results", 0)
    assert OutboxTask.objects.filter(task=services.DELIVER_TASK, args=[delivery.pk, 1]).count() == 1

    before = int(time.time())
    webhook_deliver_task.apply(args=[delivery.pk, 1])

    [request] = receiver.requests
    assert request.path == "/hooks/crawford"
    assert request.headers["content-type"] == "application/json"
    assert request.headers["x-crawford-event"] == "result.confirmed"
    assert request.headers["x-crawford-delivery"] == str(delivery.uid)
    header = request.headers["x-crawford-signature"]
    stamp = int(dict(part.split("=", 1) for part in header.split(","))["t"])
    assert before <= stamp <= int(time.time())
    assert signing.verify(subscription.secret, header, request.body, now=time.time())
    # The signature is HMAC-SHA256 of "<t>.<body>": another secret, body or an old time fails.
    assert not signing.verify("another secret", header, request.body, now=time.time())
    assert not signing.verify(subscription.secret, header, request.body + b" ", now=time.time())
    assert not signing.verify(subscription.secret, header, request.body, now=time.time() + 3600)
    body = json.loads(request.body)
    assert set(body) == {"type", "id", "occurred_at", "data"}
    assert body["type"] == "result.confirmed"
    match.refresh_from_db()
    assert body["data"]["event"] == tournament.pk
    assert body["data"]["match"]["players"] == [match.side0.name, match.side1.name]
    assert body["data"]["match"]["score"] == [match.score0, match.score1]
    assert body["data"]["match"]["winner"] == 0
    text = request.body.decode()
    assert subscription.secret not in text and "@" not in text and "email" not in text
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("delivered", 1, 200)
    assert delivery.delivered_at is not None
    # A second copy of the task (the relay, a duplicate) sends nothing.
    webhook_deliver_task.apply(args=[delivery.pk, 1])
    assert len(receiver.requests) == 1


def test_a_receiver_answering_500_is_tried_again_then_the_delivery_is_delivered(receiver):
    tournament, match = event_match()
    subscribe(receiver, tournament=tournament)
    confirm(match, tournament.organiser)
    delivery = Delivery.objects.get()
    receiver.script = [500]

    # The task's retry (eager here: Celery runs the retry at once instead of after 30 s).
    webhook_deliver_task.apply(args=[delivery.pk, 1])

    assert len(receiver.requests) == 2
    first, second = receiver.requests
    assert first.body == second.body
    assert first.headers["x-crawford-delivery"] == second.headers["x-crawford-delivery"] == str(delivery.uid)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("delivered", 2, 200)


def test_the_backoff_waits_longer_each_time_and_gives_up_after_six_attempts(receiver):
    tournament, match = event_match()
    subscribe(receiver, tournament=tournament)
    confirm(match, tournament.organiser)
    delivery = Delivery.objects.get()
    receiver.script = [500] * 6
    waits = []
    for attempt in range(1, 7):
        outcome = services.delivery_attempt(delivery_id=delivery.pk, attempt=attempt)
        assert outcome.attempted
        waits.append(outcome.retry_in)
        # The same attempt again (a duplicated task) sends nothing.
        assert not services.delivery_attempt(delivery_id=delivery.pk, attempt=attempt).attempted
    assert waits == [30, 120, 600, 3600, 6 * 3600, None]
    assert len(receiver.requests) == 6
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("failed", 6, 500)
    assert delivery.next_attempt_at is None


def test_no_answer_within_the_timeout_is_a_failed_attempt(receiver, monkeypatch):
    tournament, match = event_match()
    subscription = subscribe(receiver, tournament=tournament)
    subscription.url = "http://127.0.0.1:9/nothing-listens-here"  # the discard port: refused at once
    subscription.save(update_fields=["url"])
    confirm(match, tournament.organiser)
    outcome = services.delivery_attempt(delivery_id=Delivery.objects.get().pk, attempt=1)
    delivery = Delivery.objects.get()
    assert (outcome.retry_in, delivery.status, delivery.last_status_code) == (30, "pending", None)
    assert delivery.last_error


def test_the_sweep_sends_again_a_delivery_whose_task_was_lost(receiver):
    tournament, match = event_match()
    subscribe(receiver, tournament=tournament)
    confirm(match, tournament.organiser)
    delivery = Delivery.objects.get()
    receiver.script = [500]
    outcome = services.delivery_attempt(delivery_id=delivery.pk, attempt=1)
    delivery.refresh_from_db()
    assert services.deliveries_sweep(now=delivery.next_attempt_at) == 0  # not overdue yet
    assert services.deliveries_sweep(now=delivery.next_attempt_at + services.SWEEP_GRACE) == 1
    assert outcome.retry_in == 30
    assert OutboxTask.objects.filter(task=services.DELIVER_TASK, args=[delivery.pk, 2]).count() == 1


def test_a_transaction_that_rolls_back_after_a_confirmation_writes_no_delivery_and_sends_nothing(
        receiver, settings, django_capture_on_commit_callbacks):
    settings.LOCAL_TASKS = True  # what is committed is run by a local worker (no broker)
    tournament, match = event_match()
    subscribe(receiver, tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        confirm(match, tournament.organiser)
        assert Delivery.objects.count() == 1  # written in the change's own transaction...
        raise RuntimeError("something after the confirmation failed")
    assert Delivery.objects.count() == 0  # ...and gone with it
    assert not OutboxTask.objects.filter(task=services.DELIVER_TASK).exists()
    assert receiver.requests == []
    match.refresh_from_db()
    assert match.status != Match.Status.CONFIRMED

    # The same change committed is delivered, through the outbox, by the quick queue's worker.
    with django_capture_on_commit_callbacks(execute=True):
        confirm(match, tournament.organiser)
    LocalWorker(["quick"], poll_seconds=0, max_idle_polls=1).run()
    assert len(receiver.requests) == 1
    assert Delivery.objects.get().status == "delivered"


def test_redelivery_from_the_log_sends_the_same_body_with_a_new_delivery_id(receiver):
    tournament, match = event_match()
    subscription = subscribe(receiver, tournament=tournament)
    confirm(match, tournament.organiser)
    original = Delivery.objects.get()
    webhook_deliver_task.apply(args=[original.pk, 1])

    again = services.delivery_redeliver(subscription_id=subscription.pk, delivery_id=original.pk,
                                        user=tournament.organiser)
    assert again.pk != original.pk and again.uid != original.uid and again.redelivery_of_id == original.pk
    webhook_deliver_task.apply(args=[again.pk, 1])

    first, second = receiver.requests
    assert second.body == first.body
    assert second.headers["x-crawford-delivery"] == str(again.uid) != first.headers["x-crawford-delivery"]
    assert signing.verify(subscription.secret, second.headers["x-crawford-signature"], second.body, now=time.time())
    again.refresh_from_db()
    assert again.status == "delivered"


def test_a_switched_off_webhook_is_told_nothing(receiver):
    tournament, match = event_match()
    subscription = subscribe(receiver, tournament=tournament)
    services.subscription_update(subscription_id=subscription.pk, user=tournament.organiser, active=False)
    confirm(match, tournament.organiser)
    assert Delivery.objects.count() == 0


def test_a_draw_and_its_pairings_are_posted(receiver):
    tournament = closed()
    enter(tournament, [player("ana"), player("bob"), player("cat"), player("dan")])
    subscribe(receiver, tournament=tournament, events=["pairings"])
    tournament_draw(tournament_id=tournament.pk, user=tournament.organiser)
    delivery = Delivery.objects.get()
    assert delivery.event == "pairings"
    webhook_deliver_task.apply(args=[delivery.pk, 1])
    body = json.loads(receiver.requests[0].body)
    assert body["type"] == "round.paired"
    assert body["data"]["event"] == tournament.pk
    names = sorted(name for pairing in body["data"]["pairings"] for name in pairing["players"] if name)
    assert names == ["Ana", "Bob", "Cat", "Dan"]
    assert all(isinstance(pairing["match"], int) for pairing in body["data"]["pairings"])


def test_each_swiss_round_is_posted_with_its_number_and_its_bye(receiver):
    tournament = closed(format=Tournament.Format.SWISS)
    enter(tournament, [player("ana"), player("bob"), player("cat")])
    subscribe(receiver, tournament=tournament, events=["pairings", "results"])
    tournament_draw(tournament_id=tournament.pk, user=tournament.organiser)
    [first] = Delivery.objects.filter(event="pairings")
    assert first.payload["data"]["round"] == 1
    assert [None] in [[p for p in pairing["players"] if p is None] for pairing in first.payload["data"]["pairings"]]
    for match in Match.objects.filter(event_link__tournament=tournament, status=Match.Status.SCHEDULED):
        confirm(match, tournament.organiser)
    assert Delivery.objects.filter(event="results").count() == 1
    tournament_pair_next_round(tournament_id=tournament.pk, user=tournament.organiser)
    second = Delivery.objects.filter(event="pairings").exclude(pk=first.pk).get()
    assert second.payload["type"] == "round.paired" and second.payload["data"]["round"] == 2


def test_a_ruling_on_an_event_s_match_is_posted_to_the_event_and_to_its_club(receiver):
    tournament, match = event_match()
    club = ClubFactory()
    club.memberships.create(user=tournament.organiser, role="owner", status="active")
    ClubEvent.objects.create(tournament=tournament, club=club)
    subscribe(receiver, tournament=tournament, events=["rulings"])
    subscribe(receiver, club=club, user=tournament.organiser, events=["rulings", "results"])
    dispute = dispute_open(match_id=match.pk, user=match.side0.player_a.user, category="slow_play", statement="Slow.")
    ruling_make(dispute_id=dispute.pk, user=tournament.organiser, outcome="match_awarded", params={"side": 0},
                rule="RULES 9: no-show", reasoning="He did not come.")
    rulings = Delivery.objects.filter(event="rulings")
    assert sorted(d.subscription.tournament_id or 0 for d in rulings) == [0, tournament.pk]
    payload = rulings[0].payload
    assert payload == rulings[1].payload
    assert (payload["data"]["event"], payload["data"]["club"]) == (tournament.pk, club.pk)
    assert payload["data"]["match"]["winner"] == 0
    # The match awarded is a confirmed result: the club's webhook told of results hears of it too.
    assert Delivery.objects.get(event="results").subscription.club_id == club.pk


def test_a_ruling_on_a_club_match_is_posted_to_the_club(receiver):
    cast = make_cast()
    club = ClubFactory()
    club.memberships.create(user=cast.carol, role="owner", status="active")
    club.match_links.create(match=cast.match)
    subscribe(receiver, club=club, user=cast.carol, events=["rulings"])
    dispute = dispute_open(match_id=cast.match.pk, user=cast.alice, category="conduct", statement="Early roll.")
    ruling = ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome="warning", params={"side": 1},
                         rule="RULES 9: a warning", reasoning="A first premature roll.")
    delivery = Delivery.objects.get()
    assert delivery.payload["type"] == "ruling.made"
    assert delivery.payload["data"]["club"] == club.pk
    assert delivery.payload["data"]["ruling"] == {"id": ruling.pk, "dispute": dispute.pk, "outcome": "warning",
                                                  "rule": "RULES 9: a warning", "on_appeal": False}


def test_a_result_with_no_webhook_costs_one_query(django_assert_num_queries):
    _tournament, match = event_match()
    with django_assert_num_queries(1):
        services.deliveries_for_result(match=match)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_delivers_through_the_outbox_and_retries_after_a_500(receiver, celery_cluster):
    # A real `celery -A config worker` (DEBUG on: http to this computer), the waits cut to a second.
    worker = celery_cluster.worker(queues=("quick",), CRAWFORD_WEBHOOKS_BACKOFF="1,1,1,1,1")
    tournament, match = event_match()
    subscribe(receiver, tournament=tournament)
    receiver.script = [500]
    confirm(match, tournament.organiser)  # committed: its outbox row is published after the commit
    delivery = Delivery.objects.get()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and delivery.status != Delivery.Status.DELIVERED:
        time.sleep(0.3)
        delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.DELIVERED, worker.log()
    assert delivery.attempts == 2 and len(receiver.requests) == 2
    assert {r.headers["x-crawford-delivery"] for r in receiver.requests} == {str(delivery.uid)}
