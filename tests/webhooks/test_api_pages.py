"""The webhooks API and pages: who may see and manage an event's or a club's webhooks, the secret
for its owner only, the delivery log and redelivery, bad input, and query counts that do not grow
with the log."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.clubs.factories import ClubFactory
from tests.factories import UserFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import closed, make_another_organiser, make_staff
from webhooks import services
from webhooks.models import Delivery, Subscription

pytestmark = pytest.mark.django_db
User = get_user_model()

URL = "https://hooks.example.org/crawford"


def made(tournament, user=None, **fields) -> Subscription:
    return services.subscription_create(user=user or tournament.organiser, url=URL, events=["results"],
                                        tournament=tournament, **fields)


def log(subscription: Subscription, count: int) -> None:
    Delivery.objects.bulk_create([Delivery(subscription=subscription, event="results",
                                           payload={"type": "result.confirmed", "id": str(n), "data": {}})
                                  for n in range(count)])


def test_the_organiser_subscribes_his_event_and_sees_the_secret_once():
    tournament = closed()
    client = client_for(tournament.organiser)
    response = client.post(reverse("api-tournament-webhooks", args=[tournament.pk]),
                           {"url": URL, "events": ["results", "rulings"]}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    subscription = Subscription.objects.get()
    assert body["secret"] == subscription.secret and len(body["secret"]) == 64
    assert (body["event"], body["club"], body["events"], body["active"]) == (tournament.pk, None, ["results", "rulings"], True)
    listed = client.get(reverse("api-tournament-webhooks", args=[tournament.pk])).json()
    assert [row["id"] for row in listed["results"]] == [subscription.pk]
    assert "secret" not in listed["results"][0]
    assert "secret" not in client.get(reverse("api-webhook", args=[subscription.pk])).json()
    # Later, on request, to its owner.
    asked = client.get(reverse("api-webhook-secret", args=[subscription.pk]))
    assert asked.status_code == 200 and asked.json() == {"secret": subscription.secret}


def test_another_organiser_can_neither_see_nor_create_nor_touch_the_webhooks_of_an_event():
    tournament = closed()
    subscription = made(tournament)
    log(subscription, 1)
    delivery = Delivery.objects.get()
    oscar = make_another_organiser()
    other = client_for(oscar)
    assert other.get(reverse("api-tournament-webhooks", args=[tournament.pk])).status_code == 403
    refused = other.post(reverse("api-tournament-webhooks", args=[tournament.pk]), {"url": URL, "events": ["results"]},
                         format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_webhook_manager"
    for name, args in (("api-webhook", [subscription.pk]), ("api-webhook-secret", [subscription.pk]),
                       ("api-webhook-deliveries", [subscription.pk])):
        assert other.get(reverse(name, args=args)).status_code == 403, name
    assert other.patch(reverse("api-webhook", args=[subscription.pk]), {"active": False}, format="json").status_code == 403
    assert other.delete(reverse("api-webhook", args=[subscription.pk])).status_code == 403
    assert other.post(reverse("api-webhook-redeliver", args=[subscription.pk, delivery.pk]), {},
                      format="json").status_code == 403
    assert Subscription.objects.count() == 1 and Delivery.objects.count() == 1
    assert client_for(None).get(reverse("api-tournament-webhooks", args=[tournament.pk])).status_code == 401
    page = Client()
    page.force_login(oscar)
    assert page.get(reverse("webhooks:event", args=[tournament.pk])).status_code == 403


def test_staff_manage_an_event_s_webhooks_but_only_the_owner_sees_the_secret():
    tournament = closed()
    subscription = made(tournament)
    staff = client_for(make_staff())
    assert staff.get(reverse("api-webhook", args=[subscription.pk])).status_code == 200
    refused = staff.get(reverse("api-webhook-secret", args=[subscription.pk]))
    assert refused.status_code == 403 and refused.json()["code"] == "not_webhook_owner"
    page = Client()
    page.force_login(User.objects.get(username="stella"))
    shown = page.post(reverse("webhooks:secret", args=[subscription.pk]))
    assert shown.status_code == 403 and subscription.secret not in shown.content.decode()
    changed = staff.patch(reverse("api-webhook", args=[subscription.pk]), {"events": ["pairings"], "active": False},
                          format="json")
    assert changed.status_code == 200 and changed.json()["events"] == ["pairings"] and changed.json()["active"] is False


def test_a_club_s_owners_and_organisers_manage_its_webhooks_and_its_members_do_not():
    club = ClubFactory()
    owner, member = UserFactory(username="owen"), UserFactory(username="mia")
    club.memberships.create(user=owner, role="owner", status="active")
    club.memberships.create(user=member, role="member", status="active")
    created = client_for(owner).post(reverse("api-club-webhooks", args=[club.pk]), {"url": URL, "events": ["pairings"]},
                                     format="json")
    assert created.status_code == 201 and created.json()["club"] == club.pk
    assert client_for(member).get(reverse("api-club-webhooks", args=[club.pk])).status_code == 403
    assert client_for(make_staff()).get(reverse("api-club-webhooks", args=[club.pk])).status_code == 403
    page = Client()
    page.force_login(member)
    assert page.get(reverse("webhooks:club", args=[club.slug])).status_code == 403
    page.force_login(owner)
    assert page.get(reverse("webhooks:club", args=[club.slug])).status_code == 200


@pytest.mark.parametrize(("body", "field"), [
    ({"url": "http://hooks.example.org/", "events": ["results"]}, "url"),   # http only to this computer
    ({"url": "not an address", "events": ["results"]}, "url"),
    ({"url": URL, "events": []}, "events"),
    ({"url": URL, "events": ["scores"]}, "events"),
    ({"url": URL, "events": ["results"], "secret": "mine"}, "secret"),     # strict: no secret of one's own
])
def test_bad_input_is_a_400_naming_the_field_and_nothing_is_saved(body, field):
    tournament = closed()
    response = client_for(tournament.organiser).post(reverse("api-tournament-webhooks", args=[tournament.pk]), body,
                                                     format="json")
    assert response.status_code == 400, response.content
    answer = response.json()
    assert field in answer.get("errors", {}) or answer.get("field") == field, answer
    assert not Subscription.objects.exists()


def test_in_production_only_public_https_addresses_are_taken(settings):
    settings.WEBHOOKS_LOCAL_HTTP = False
    tournament = closed()
    for url in ("http://127.0.0.1:8000/hook", "https://localhost/hook", "https://10.1.2.3/hook", "https://[::1]/hook",
                "http://hooks.example.org/hook", "https://user:pw@hooks.example.org/hook"):
        with pytest.raises(Exception) as refused:
            made_with(tournament, url)
        assert getattr(refused.value, "code", None) == "bad_webhook", url
    assert made_with(tournament, URL).url == URL


def made_with(tournament, url):
    return services.subscription_create(user=tournament.organiser, url=url, events=["results"], tournament=tournament)


def test_while_developing_http_to_this_computer_is_taken(settings):
    settings.WEBHOOKS_LOCAL_HTTP = True
    tournament = closed()
    assert made_with(tournament, "http://127.0.0.1:8000/hook").url == "http://127.0.0.1:8000/hook"
    assert made_with(tournament, "http://localhost/hook").url == "http://localhost/hook"


def test_redeliver_through_the_api_makes_a_new_delivery_of_the_same_payload():
    tournament = closed()
    subscription = made(tournament)
    log(subscription, 1)
    original = Delivery.objects.get()
    client = client_for(tournament.organiser)
    response = client.post(reverse("api-webhook-redeliver", args=[subscription.pk, original.pk]), {}, format="json")
    assert response.status_code == 201, response.content
    again = Delivery.objects.exclude(pk=original.pk).get()
    assert again.payload == original.payload and response.json()["redelivery_of"] == original.pk
    services.subscription_update(subscription_id=subscription.pk, user=tournament.organiser, active=False)
    refused = client.post(reverse("api-webhook-redeliver", args=[subscription.pk, original.pk]), {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "webhook_inactive"
    other = made(tournament)
    assert client.post(reverse("api-webhook-redeliver", args=[other.pk, original.pk]), {},
                       format="json").status_code == 404


def test_the_page_makes_a_webhook_shows_its_secret_once_and_redelivers_from_the_log():
    tournament = closed()
    page = Client()
    page.force_login(tournament.organiser)
    url = reverse("webhooks:event", args=[tournament.pk])
    created = page.post(url, {"url": URL, "events": ["results", "pairings"]})
    assert created.status_code == 201
    subscription = Subscription.objects.get()
    assert subscription.secret in created.content.decode()
    shown = page.get(url).content.decode()
    assert subscription.secret not in shown and "hooks.example.org" in shown
    assert page.post(url, {"url": "ftp://x", "events": ["results"]}).status_code == 400
    log(subscription, 1)
    delivery = Delivery.objects.get()
    again = page.post(reverse("webhooks:redeliver", args=[subscription.pk, delivery.pk]))
    assert again.status_code == 302 and Delivery.objects.count() == 2
    secret = page.post(reverse("webhooks:secret", args=[subscription.pk]))
    assert secret.status_code == 200 and subscription.secret in secret.content.decode()
    assert page.post(reverse("webhooks:switch", args=[subscription.pk])).status_code == 302
    assert Subscription.objects.get().active is False
    assert page.post(reverse("webhooks:delete", args=[subscription.pk])).status_code == 302
    assert not Subscription.objects.exists()


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize("route", ["page", "api-log", "api-list"])
def test_the_page_and_the_log_cost_the_same_queries_however_long_the_log(route):
    tournament = closed()
    first = made(tournament)
    log(first, 2)
    if route == "page":
        client, url = Client(), reverse("webhooks:event", args=[tournament.pk])
        client.force_login(tournament.organiser)
    elif route == "api-log":
        client, url = client_for(tournament.organiser), reverse("api-webhook-deliveries", args=[first.pk])
    else:
        client, url = client_for(tournament.organiser), reverse("api-tournament-webhooks", args=[tournament.pk])
    small = _count(client, url)
    for _ in range(4):
        log(made(tournament), 10)
    log(first, 30)
    assert _count(client, url) == small
