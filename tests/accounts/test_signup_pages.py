"""Sign-up through the pages: the form (with the display name), the verification email sent
through the outbox, the link followed, then signing in with the email address and reporting a
match. Bad input is refused with the field named and nothing made."""

from __future__ import annotations

import datetime as dt

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from core.models import OutboxTask
from engine.match import MatchRules
from matches.models import Match, Player, Report
from matches.services.matches import match_create
from tests.accounts.conftest import last_link
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-and-good-password"
SIGNUP = "/accounts/signup/"


def sign_up(client, outbox_inline, **fields):
    data = {"username": "newton", "display_name": "Isaac Newton", "email": "isaac@example.org",
            "password1": PASSWORD, "password2": PASSWORD, **fields}
    with outbox_inline():
        return client.post(SIGNUP, data)


def test_the_sign_up_page_asks_the_display_name_and_the_nav_offers_it():
    page = Client().get(SIGNUP)
    text = page.content.decode()
    assert page.status_code == 200
    for name in ("username", "display_name", "email", "password1", "password2"):
        assert f'name="{name}"' in text
    assert "csrfmiddlewaretoken" in text
    home = Client().get(reverse("login")).content.decode()
    assert f'href="{reverse("account_signup")}"' in home


def test_sign_up_verify_sign_in_by_email_and_report_a_match(outbox_inline):
    client = Client()
    response = sign_up(client, outbox_inline)
    assert response.status_code == 302 and response["Location"] == reverse("account_email_verification_sent")

    user = User.objects.get(username="newton")
    player = Player.objects.get(user=user)
    assert player.display_name == "Isaac Newton" and user.email == "isaac@example.org"
    assert "_auth_user_id" not in client.session  # not signed in before the address is verified
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["isaac@example.org"]
    assert mail.outbox[0].subject.startswith("[Crawford] ") and mail.outbox[0].body.startswith("Hello Isaac Newton,")
    # The email went through the outbox, and its row keeps no copy of the link once sent.
    row = OutboxTask.objects.get(task="accounts.tasks.account_email_send_task")
    assert row.done_at is not None and row.args == []

    # Signing in before verifying: held, and a new link sent.
    held = client.post(reverse("login"), {"username": "newton", "password": PASSWORD})
    assert held.status_code == 302 and held["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in client.session

    link = last_link()
    assert link.startswith("/accounts/confirm-email/")
    page = client.get(link)
    assert page.status_code == 200 and "isaac@example.org" in page.content.decode()
    assert client.post(link).status_code == 302
    assert EmailAddress.objects.get(user=user).verified

    signed_in = client.post(reverse("login"), {"username": "isaac@example.org", "password": PASSWORD})
    assert signed_in.status_code == 302 and signed_in["Location"] == reverse("matches:mine")
    assert client.session["_auth_user_id"] == str(user.pk)

    opponent = PlayerFactory(display_name="Gottfried")
    organiser = UserFactory(organiser=True)
    match = match_create(created_by=organiser, sides=([player], [opponent]), rules=MatchRules(5))
    with outbox_inline():
        reported = client.post(reverse("matches:report", kwargs={"match_id": match.pk}),
                               {"report-score0": "5", "report-score1": "2"})
    assert reported.status_code == 302
    report = Report.objects.get(match=match)
    assert (report.reporter, report.score0, report.score1) == (user, 5, 2)
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED


@pytest.mark.parametrize(("fields", "field", "message"), [
    ({"username": "taken"}, "username", "A user with that username already exists."),
    ({"password1": "12345678", "password2": "12345678"}, "password1", "This password is too short."),
    ({"password1": "password123", "password2": "password123"}, "password1", "This password is too common."),
    ({"password2": "another-long-password"}, "password2", "You must type the same password each time."),
    ({"display_name": "   "}, "display_name", "This field is required."),
    ({"email": "not-an-address"}, "email", "Enter a valid email address."),
    ({"username": "no spaces"}, "username", "Enter a valid username."),
])
def test_bad_sign_ups_are_refused_with_the_field_named_and_nothing_made(fields, field, message, outbox_inline):
    UserFactory(username="taken")
    before = (User.objects.count(), Player.objects.count(), EmailAddress.objects.count())
    response = sign_up(Client(), outbox_inline, **fields)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors and any(message in error for error in errors[field]), errors
    assert message in response.content.decode().replace("&#x27;", "'")
    assert (User.objects.count(), Player.objects.count(), EmailAddress.objects.count()) == before
    assert mail.outbox == []


def test_a_taken_address_makes_no_account_and_tells_its_owner(outbox_inline):
    owner = UserFactory(username="owner", email="isaac@example.org")
    EmailAddress.objects.create(user=owner, email="isaac@example.org", verified=True, primary=True)
    response = sign_up(Client(), outbox_inline)
    # The same answer as a new address (nobody learns whose address it is)...
    assert response.status_code == 302 and response["Location"] == reverse("account_email_verification_sent")
    assert not User.objects.filter(username="newton").exists()
    # ...and its owner learns someone tried.
    assert [m.to for m in mail.outbox] == [["isaac@example.org"]]
    assert "already" in mail.outbox[0].body.lower()


def test_an_invalid_or_expired_verification_link_says_so_and_verifies_nothing(outbox_inline, time_machine):
    client = Client()
    sign_up(client, outbox_inline)
    link = last_link()
    bogus = client.get("/accounts/confirm-email/not-a-key/")
    assert bogus.status_code == 200 and "link is not valid" in bogus.content.decode()
    assert client.post("/accounts/confirm-email/not-a-key/").status_code == 404

    time_machine.move_to(dt.datetime.now(dt.UTC) + dt.timedelta(days=4))
    expired = client.get(link)
    assert "link is not valid" in expired.content.decode()
    client.post(link)
    assert not EmailAddress.objects.get(email="isaac@example.org").verified
