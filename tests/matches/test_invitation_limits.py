"""Invitations are not a relay: one sender sends at most ``CRAWFORD_INVITATIONS_PER_SENDER``
invitations in 24 hours and one address receives at most ``CRAWFORD_INVITATIONS_PER_ADDRESS``,
whoever sends them; beyond, the walk-in is refused with a 429 saying when to try again, and
nothing is saved. Every path that sends one is held: an event's walk-ins and a club's, on the page
and in the API. And the email says who sent it the way the service knows him (his display name)
and where (the event or club by its name), under a subject of the service's own."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from matches.models import Player, PlayerInvitation
from matches.services.guests import player_create_guest
from matches.services.invitations import invitation_email
from tests.clubs.factories import club_cast
from tests.matches.factories_api import client_for
from tests.matches.factories_ratings import run_tasks_inline
from tests.tournaments.factories import closed

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def limits(settings):
    settings.CRAWFORD_INVITATIONS_PER_SENDER = 4
    settings.CRAWFORD_INVITATIONS_PER_ADDRESS = 2
    return settings


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


class Path:
    """One way of entering a walk-in with an email address: ``send(n, email)`` enters the n-th
    walk-in and answers the response."""

    def __init__(self, name: str):
        self.name = name
        if name.startswith("event"):
            self.place = closed()
            self.sender = self.place.organiser
        else:
            cast = club_cast()
            self.place, self.sender = cast.club, cast.owner

    def send(self, n: int, email: str, sender=None):
        sender = sender or self.sender
        walker = f"Walker {chr(ord('A') + n)}"
        if self.name == "event-api":
            return client_for(sender).post(reverse("api-tournament-walk-in", args=[self.place.pk]),
                                           {"name": walker, "email": email}, format="json")
        if self.name == "event-page":
            return signed_in(sender).post(reverse("tournaments:add_walk_in", args=[self.place.pk]),
                                          {"walkin-name": walker, "walkin-email": email})
        if self.name == "club-api":
            return client_for(sender).post(reverse("api-club-membership-walk-in", args=[self.place.pk]),
                                           {"name": walker, "email": email}, format="json")
        return signed_in(sender).post(reverse("clubs:add_walk_in", args=[self.place.slug]),
                                      {"walkin-name": walker, "walkin-email": email})


PATHS = ["event-api", "event-page", "club-api", "club-page"]
ACCEPTED = {"event-api": 201, "event-page": 302, "club-api": 201, "club-page": 302}


@pytest.mark.parametrize("name", PATHS)
def test_one_sender_sends_so_many_invitations_a_day_then_is_told_when_he_may_again(name):
    path = Path(name)
    for n in range(4):
        assert path.send(n, f"stranger{n}@example.com").status_code == ACCEPTED[name]
    players = Player.objects.count()
    refused = path.send(4, "stranger4@example.com")
    assert refused.status_code == 429
    text = refused.json()["detail"] if name.endswith("api") else refused.content.decode()
    assert "You have sent 4 invitations in the last 24 hours" in text and "you can send the next one from" in text
    if name.endswith("api"):
        assert refused.json()["code"] == "too_many_invitations" and 0 < int(refused["Retry-After"]) <= 24 * 3600
    # Nothing is saved: no guest, no invitation, no entry or membership for him.
    assert Player.objects.count() == players and not Player.objects.filter(display_name="Walker E").exists()
    assert PlayerInvitation.objects.count() == 4
    # A day after the first, one more goes.
    first = PlayerInvitation.objects.order_by("created_at").first()
    PlayerInvitation.objects.filter(pk=first.pk).update(created_at=first.created_at - dt.timedelta(hours=24))
    assert path.send(4, "stranger4@example.com").status_code == ACCEPTED[name]


@pytest.mark.parametrize("name", PATHS)
def test_one_address_receives_so_many_invitations_a_day_whoever_sends_them(name):
    path = Path(name)
    assert path.send(0, "victim@example.com").status_code == ACCEPTED[name]
    # Another sender, elsewhere, with other capitals: the same address.
    player_create_guest(actor=club_cast(name="Other Club", owner=None).owner, name="Someone",
                        email="Victim@EXAMPLE.com")
    refused = path.send(1, "victim@example.com")
    assert refused.status_code == 429
    text = refused.json()["detail"] if name.endswith("api") else refused.content.decode()
    assert "has received 2 invitations in the last 24 hours" in text and "it can be invited again from" in text
    if name.endswith("api"):
        assert refused.json()["code"] == "address_invited_enough" and "email" in refused.json()["errors"]
    assert PlayerInvitation.objects.filter(email__iexact="victim@example.com").count() == 2
    # Another address is still his to invite.
    assert path.send(2, "someone.else@example.com").status_code == ACCEPTED[name]


@pytest.mark.parametrize(("name", "where"), [("event-api", "the event “{}”"), ("club-api", "the club “{}”")])
def test_the_email_names_the_sender_by_his_display_name_and_where_he_entered_the_player(
        name, where, monkeypatch, django_capture_on_commit_callbacks):
    path = Path(name)
    sender = path.sender
    # The free name fields of his account could say anything; the service names him by his player.
    sender.first_name, sender.last_name = "Crawford", "Security Team"
    sender.save(update_fields=["first_name", "last_name"])
    Player.objects.update_or_create(user=sender, defaults={"display_name": "Mallory"})
    run_tasks_inline(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        assert path.send(0, "walter@example.com").status_code == 201
    [message] = mail.outbox
    assert message.subject == "An invitation to claim your player on Crawford"
    assert "Security Team" not in message.subject + message.body
    assert message.body.splitlines()[2].startswith(f"Mallory, who runs {where.format(path.place.name)} on Crawford, "
                                                   "entered you in it as “Walker A”")
    assert "Crawford sends this email for Mallory, one of its users" in message.body
    # The invitation's page names him the same way.
    link = re.search(r"/invitations/[0-9a-f]{64}/", message.body).group(0)
    page = Client().get(link).content.decode()
    assert "Mallory entered you as" in page and "Security Team" not in page
    invitation = PlayerInvitation.objects.get()
    assert (invitation.sent_for, invitation.sent_for_name) == (name.split("-")[0], path.place.name)


def test_an_invitation_entered_nowhere_names_its_sender_as_a_user(monkeypatch):
    sender = club_cast().owner
    sender.first_name = "Crawford Support"
    sender.save(update_fields=["first_name"])
    player = player_create_guest(actor=sender, name="Walter", email="walter@example.com")
    mail.outbox.clear()
    assert invitation_email(invitation_id=player.invitations.get().pk) == 1
    [message] = mail.outbox
    shown = Player.objects.get(user=sender).display_name
    assert f"{shown}, a user of Crawford, entered you as “Walter”" in message.body
    assert "Crawford Support" not in message.body
