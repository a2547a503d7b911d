"""The organiser pages: a player's own page (ask; see staff's answer and its reason) and staff's
queue (approve, refuse with a reason, withdraw the role); everyone else gets a 403 there."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.models_requests import OrganiserRequest
from accounts.organiser.services import organiser_refuse, organiser_request
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

STATEMENT = "I run the Thursday club at the Red Lion, Leeds."


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(response) -> str:
    return html.unescape(response.content.decode())


def test_he_asks_on_his_page_and_sees_it_waiting(pia):
    client = _client(pia)
    page = _text(client.get(reverse("organiser:home")))
    assert "Ask to become an organiser" in page and "Which club or event do you run?" in page
    response = client.post(reverse("organiser:home"), {"statement": STATEMENT})
    assert response.status_code == 302 and response["Location"] == reverse("organiser:home")
    page = _text(client.get(reverse("organiser:home")))
    assert "is waiting for staff" in page and STATEMENT in page and "Ask to become an organiser" not in page


def test_an_empty_statement_is_refused_on_its_field_and_a_second_request_says_why(pia):
    client = _client(pia)
    empty = client.post(reverse("organiser:home"), {"statement": "  "})
    assert empty.status_code == 400 and "say which club or event you run" in _text(empty)
    assert not OrganiserRequest.objects.exists()
    organiser_request(user=pia, statement=STATEMENT)
    again = client.post(reverse("organiser:home"), {"statement": "Again."})
    assert again.status_code == 409 and "your request is waiting for staff" in _text(again)
    assert OrganiserRequest.objects.count() == 1


def test_a_refusal_is_shown_on_his_page_with_its_reason(pia, sam):
    request = organiser_request(user=pia, statement=STATEMENT)
    organiser_refuse(request_id=request.pk, user=sam, reason="We could not find the Red Lion club.")
    page = _text(_client(pia).get(reverse("organiser:home")))
    assert "for this reason:" in page and "We could not find the Red Lion club." in page
    assert "Ask to become an organiser" in page  # he may ask again


def test_staff_approve_from_the_queue_and_he_may_create_events(pia, sam):
    request = organiser_request(user=pia, statement=STATEMENT)
    staff = _client(sam)
    queue = _text(staff.get(reverse("organiser:requests")))
    assert "Pia Player" in queue and STATEMENT in queue and "pia@example.com" not in queue
    response = staff.post(reverse("organiser:approve", args=[request.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("organiser:requests")
    assert User.objects.get(pk=pia.pk).role == "organiser"
    assert _client(pia).get(reverse("tournaments:new")).status_code == 200


def test_staff_refuse_only_with_a_reason(pia, sam):
    request = organiser_request(user=pia, statement=STATEMENT)
    staff = _client(sam)
    empty = staff.post(reverse("organiser:refuse", args=[request.pk]), {"reason": ""})
    assert empty.status_code == 400 and "Reason: say why: the player is shown the reason" in _text(empty)
    request.refresh_from_db()
    assert request.status == "open"
    done = staff.post(reverse("organiser:refuse", args=[request.pk]), {"reason": "Unknown club."})
    assert done.status_code == 302
    request.refresh_from_db()
    assert (request.status, request.reason) == ("refused", "Unknown club.")
    conflict = staff.post(reverse("organiser:approve", args=[request.pk]))
    assert conflict.status_code == 409 and "this request was refused already" in _text(conflict)
    assert staff.post(reverse("organiser:approve", args=[request.pk + 1000])).status_code == 404


def test_staff_withdraw_the_role_from_the_queue(otto, sam):
    staff = _client(sam)
    assert otto.display_name in _text(staff.get(reverse("organiser:requests")))
    assert staff.post(reverse("organiser:revoke", args=[otto.pk]), {"reason": ""}).status_code == 400
    assert User.objects.get(pk=otto.pk).role == "organiser"
    assert staff.post(reverse("organiser:revoke", args=[otto.pk]), {"reason": "The club closed."}).status_code == 302
    assert User.objects.get(pk=otto.pk).role == "player"


def test_nobody_but_staff_sees_the_queue_or_decides(pia, otto):
    request = organiser_request(user=pia, statement=STATEMENT)
    for user in (pia, otto):
        client = _client(user)
        assert client.get(reverse("organiser:requests")).status_code == 403
        assert client.post(reverse("organiser:approve", args=[request.pk])).status_code == 403
        assert client.post(reverse("organiser:refuse", args=[request.pk]), {"reason": "No."}).status_code == 403
    request.refresh_from_db()
    assert request.status == "open"
    assert Client().get(reverse("organiser:home")).status_code == 302  # to the sign-in page


def test_the_queue_reads_in_a_fixed_number_of_queries(sam, otto, django_assert_num_queries):
    for n in range(6):
        organiser_request(user=PlayerFactory(user__username=f"p{n}").user, statement=f"Club {n}")
    staff = _client(sam)
    staff.get(reverse("organiser:requests"))
    with django_assert_num_queries(5):  # session, user, open requests, decided ones, organisers
        page = staff.get(reverse("organiser:requests"))
    assert page.status_code == 200 and "Club 5" in _text(page)


def test_the_my_matches_page_links_a_player_to_his_organiser_page(pia, otto):
    link = f'href="{reverse("organiser:home")}"'
    assert link in _client(pia).get(reverse("tournaments:mine")).content.decode()
    assert link not in _client(otto).get(reverse("tournaments:mine")).content.decode()
