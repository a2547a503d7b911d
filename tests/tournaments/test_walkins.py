"""Walk-ins in an event (tournaments.services.walkins and its page and API): the organiser enters
someone without an account in one step; invited by email, he claims his player later and finds the
match he already played on his pages. Only the event's organiser (or staff) enters walk-ins; bad
input is refused with its field and nothing is saved."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.urls import reverse

from core.errors import DomainError, NotAllowed
from matches.models import Match, Player, PlayerInvitation
from tests.factories import UserFactory
from tests.matches.factories_api import client_for
from tests.matches.factories_ratings import run_tasks_inline
from tests.tournaments.factories import closed, drawn, enter, override, player, snapshot
from tournaments.models import Entry, Tournament
from tournaments.services import entry_check_in, tournament_draw
from tournaments.services.walkins import entry_add_walk_in

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_walk_in_entered_by_an_organiser_invited_by_email_claims_the_guest_and_sees_the_match_he_played(
        monkeypatch, django_capture_on_commit_callbacks):
    run_tasks_inline(monkeypatch)
    tournament = closed()
    alice = player("alice")
    organiser = signed_in(tournament.organiser)
    assert 'name="walkin-name"' in organiser.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    # The organiser enters Walter, who has no account, with his email address, and Alice.
    with django_capture_on_commit_callbacks(execute=True):
        answer = organiser.post(reverse("tournaments:add_walk_in", args=[tournament.pk]), {
            "walkin-name": "Walter", "walkin-email": "walter@example.com", "walkin-country": "nl"})
    assert answer.status_code == 302
    walter = Player.objects.get(display_name="Walter")
    assert walter.user_id is None and walter.country == "NL"
    entries = [Entry.objects.get(tournament=tournament, side__player_a=walter), *enter(tournament, [alice],
                                                                                        checked_in=False)]
    for entry in entries:
        entry_check_in(tournament_id=tournament.pk, entry_id=entry.pk, user=tournament.organiser)
    tournament_draw(tournament_id=tournament.pk, user=tournament.organiser)
    # He plays Alice and wins: the organiser enters the result (he has no account to report with).
    match = Match.objects.get(event_link__tournament=tournament)
    key = match.pairing.key
    match = override(tournament, key, walter)
    assert match.status == Match.Status.CONFIRMED
    # The invitation reached him; he creates his account and signs in.
    assert [m.to for m in mail.outbox] == [["walter@example.com"]]
    link = re.search(r"/invitations/[0-9a-f]{64}/", mail.outbox[0].body).group(0)
    # His account's verified address is the one he was invited at: accepting gives him the player.
    user = UserFactory(username="walter", email="walter@example.com")
    EmailAddress.objects.create(user=user, email="walter@example.com", verified=True, primary=True)
    client = signed_in(user)
    page = client.get(link)
    assert page.status_code == 200 and "Walter" in page.content.decode()
    assert tournament.organiser.username in page.content.decode()
    answer = client.post(link)
    assert answer.status_code == 302 and answer["Location"] == reverse("matches:mine")
    walter.refresh_from_db()
    assert walter.user == user
    mine = client.get(reverse("matches:mine")).content.decode()
    assert reverse("matches:detail", args=[match.pk]) in mine and "Alice" in mine
    # The result is as it was.
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.sides[match.winner].player_a_id == walter.pk
    assert PlayerInvitation.objects.get(player=walter).accepted_by == user


def test_after_the_draw_a_walk_in_is_a_late_entrant_checked_in():
    tournament, _players = drawn(3, format=Tournament.Format.SWISS, swiss_rounds=3)
    entry = entry_add_walk_in(tournament_id=tournament.pk, user=tournament.organiser, name="Walter")
    assert (entry.late, entry.status, entry.side.player_a.user_id) == (True, Entry.Status.CHECKED_IN, None)


@pytest.mark.parametrize(("fields", "field"), [
    ({"walkin-name": ""}, "name"),
    ({"walkin-name": "Walter", "walkin-email": "walter@"}, "email"),
    ({"walkin-name": "Walter", "walkin-country": "NLD"}, "country"),
    ({"walkin-name": "Walter", "walkin-country": "1x"}, "country"),
])
def test_the_page_refuses_bad_input_with_its_field_and_saves_nothing(fields, field):
    tournament = closed()
    before, players = snapshot(tournament), Player.objects.count()
    answer = signed_in(tournament.organiser).post(reverse("tournaments:add_walk_in", args=[tournament.pk]), fields)
    assert answer.status_code == 400
    form = answer.context["walkin_form"]
    assert field in form.errors and "Nothing was saved" in answer.content.decode()
    assert snapshot(tournament) == before and Player.objects.count() == players


def test_a_refusal_of_the_event_rolls_the_guest_back_too():
    tournament = closed(kind=Tournament.Kind.PAIRS)
    before, players = snapshot(tournament), Player.objects.count()
    with pytest.raises(DomainError) as refused:
        entry_add_walk_in(tournament_id=tournament.pk, user=tournament.organiser, name="Walter",
                          email="walter@example.com")
    assert refused.value.code == "walk_in_singles_only"
    finished = closed(status=Tournament.Status.FINISHED)
    with pytest.raises(DomainError):
        entry_add_walk_in(tournament_id=finished.pk, user=finished.organiser, name="Walter")
    assert snapshot(tournament) == before and Player.objects.count() == players
    assert not PlayerInvitation.objects.exists()


def test_a_late_walk_in_has_no_seed():
    tournament, _players = drawn(3, format=Tournament.Format.SWISS, swiss_rounds=3)
    with pytest.raises(DomainError) as refused:
        entry_add_walk_in(tournament_id=tournament.pk, user=tournament.organiser, name="Walter", seed=2)
    assert refused.value.details["field"] == "seed"


# --- who may -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["another organiser", "a player", "an entrant"])
def test_only_the_events_organiser_enters_walk_ins(who):
    tournament, players = drawn(2)
    user = {"another organiser": UserFactory(username="olga", organiser=True),
            "a player": player("carol").user, "an entrant": players[0].user}[who]
    before, count = snapshot(tournament), Player.objects.count()
    with pytest.raises(NotAllowed):
        entry_add_walk_in(tournament_id=tournament.pk, user=user, name="Walter")
    assert signed_in(user).post(reverse("tournaments:add_walk_in", args=[tournament.pk]),
                                {"walkin-name": "Walter"}).status_code == 403
    api = client_for(user).post(reverse("api-tournament-walk-in", args=[tournament.pk]), {"name": "Walter"},
                                format="json")
    assert api.status_code == 403
    assert snapshot(tournament) == before and Player.objects.count() == count


def test_staff_may_enter_a_walk_in():
    tournament = closed()
    entry = entry_add_walk_in(tournament_id=tournament.pk, user=UserFactory(username="stan", staff=True),
                              name="Walter")
    assert entry.side.player_a.display_name == "Walter"


# --- the API ---------------------------------------------------------------------------------------------


def test_the_api_enters_a_walk_in_and_shows_no_email(monkeypatch, django_capture_on_commit_callbacks):
    run_tasks_inline(monkeypatch)
    tournament = closed()
    client = client_for(tournament.organiser)
    url = reverse("api-tournament-walk-in", args=[tournament.pk])
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"name": "Walter", "email": "walter@example.com", "seed": 3}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["name"] == "Walter" and "example.com" not in answer.content.decode()
    assert Entry.objects.get(pk=answer.json()["id"]).seed == 3
    assert len(mail.outbox) == 1
    bad = client.post(url, {"name": "Wendy", "email": "wendy@"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_email" and bad.json()["field"] == "email"
    unknown = client.post(url, {"name": "Wendy", "rating": 2000}, format="json")
    assert unknown.status_code == 400 and "rating" in unknown.json()["errors"]
    assert not Player.objects.filter(display_name="Wendy").exists()
