"""Guest players and the invitations to claim them (matches.services.guests): bad input is refused
with its field and nothing saved; an invitation is accepted once, by its addressee (a verified
address of his is the invited one: tests/matches/test_invitation_addressee.py) when he does not
already play as a player with a record; the link works only while it is open; the email goes through
the task outbox and carries the only copy of the token."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from core.models import OutboxTask
from matches.errors import NotFound
from matches.models import Player, PlayerInvitation, Side
from matches.services.claims import claim_approve
from matches.services.guests import invitation_accept, invitation_send, player_create_guest
from matches.services.invitations import invitation_email, invitation_token, token_hash
from tests.concurrency import at_once
from tests.factories import MatchFactory, PlayerFactory, SideFactory, UserFactory
from tests.matches.claims_world import entered
from tests.matches.factories_api import client_for
from tests.matches.factories_ratings import run_tasks_inline

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="otto", organiser=True)


@pytest.fixture
def dispatched(monkeypatch):
    return run_tasks_inline(monkeypatch)


def guest(organiser, email: str = "walter@example.com", name: str = "Walter") -> tuple[Player, str]:
    """A guest invited by ``organiser``, and the token of his invitation's link."""
    player = player_create_guest(actor=organiser, name=name, email=email, country="gb")
    return player, invitation_token(player.invitations.get())


def addressee(username: str, *emails: str):
    """A user whose verified addresses are ``emails`` (by default the one Walter is invited at):
    the invitation's addressee, to whom accepting gives the player."""
    emails = emails or ("walter@example.com",)
    user = UserFactory(username=username, email=emails[0])
    for index, email in enumerate(emails):
        EmailAddress.objects.create(user=user, email=email, verified=True, primary=index == 0)
    return user


def rows() -> dict:
    """What a refused call must leave as it was."""
    return {
        "players": list(Player.objects.order_by("pk").values("pk", "user_id", "display_name", "country")),
        "sides": Side.objects.count(),
        "invitations": list(PlayerInvitation.objects.order_by("pk").values()),
        "audit": AuditEntry.objects.count(),
        "outbox": OutboxTask.objects.count(),
    }


# --- entering a guest ---------------------------------------------------------------------------------


def test_a_guest_is_a_player_without_a_user_and_his_invitation_is_emailed_once(organiser, dispatched,
                                                                                django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        player = player_create_guest(actor=organiser, name="  Walter   White ", email="walter@EXAMPLE.com",
                                     country="gb")
    assert (player.user_id, player.display_name, player.country) == (None, "Walter White", "GB")
    assert Side.objects.filter(player_a=player, player_b=None).exists()
    invitation = player.invitations.get()
    assert invitation.email == "walter@example.com" and invitation.created_by == organiser
    # The token is not stored, only its hash; the email carries it.
    token = invitation_token(invitation)
    assert invitation.token_hash == token_hash(token) != token
    assert [m.to for m in mail.outbox] == [["walter@example.com"]]
    body = mail.outbox[0].body
    assert f"/invitations/{token}/" in body and "otto" in body and "Walter White" in body
    assert "{" not in body and "None" not in body
    assert [a for a in AuditEntry.objects.order_by("pk").values_list("action", flat=True)] == [
        "player.guest_created", "player.invited"]
    assert "example.com" not in str(list(AuditEntry.objects.values_list("before", "after")))


def test_a_guest_without_an_email_gets_no_invitation(organiser, dispatched, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        player = player_create_guest(actor=organiser, name="Walter")
    assert not player.invitations.exists() and mail.outbox == [] and dispatched == []


@pytest.mark.parametrize(("fields", "code", "field"), [
    ({"name": "   "}, "bad_name", "name"),
    ({"name": "x" * 121}, "bad_name", "name"),
    ({"name": "Walter", "email": "walter@"}, "bad_email", "email"),
    ({"name": "Walter", "email": "not an address"}, "bad_email", "email"),
    ({"name": "Walter", "country": "GBR"}, "bad_country", "country"),
    ({"name": "Walter", "country": "1x"}, "bad_country", "country"),
])
def test_bad_input_is_refused_with_its_field_and_nothing_is_saved(organiser, fields, code, field):
    before = rows()
    with pytest.raises(DomainError) as refused:
        player_create_guest(actor=organiser, **fields)
    assert (refused.value.code, refused.value.details.get("field")) == (code, field)
    assert refused.value.message.startswith(f"{field}: ")
    assert rows() == before


def test_only_a_signed_in_user_enters_a_guest():
    with pytest.raises(NotAllowed):
        player_create_guest(actor=None, name="Walter")
    assert not Player.objects.exists()


def test_a_new_invitation_replaces_the_open_one_and_the_old_link_says_so(organiser):
    player, old = guest(organiser)
    invitation_send(player_id=player.pk, email="walter@example.org", actor=organiser)
    assert player.invitations.filter(withdrawn_at__isnull=True).count() == 1
    with pytest.raises(Conflict) as refused:
        invitation_accept(token=old, user=UserFactory(username="walter"))
    assert refused.value.code == "invitation_replaced" and "newer" in refused.value.message


def test_the_database_keeps_one_open_invitation_per_player(organiser):
    player, _token = guest(organiser)
    now = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerInvitation.objects.create(player=player, email="w@example.com", token_hash="0" * 64, created_at=now,
                                        expires_at=now + dt.timedelta(days=1))


def test_a_player_held_by_a_user_is_not_invited(organiser):
    held = PlayerFactory()
    with pytest.raises(Conflict) as refused:
        invitation_send(player_id=held.pk, email="walter@example.com", actor=organiser)
    assert refused.value.code == "player_held" and not PlayerInvitation.objects.exists()


# --- accepting ------------------------------------------------------------------------------------------


def test_accepting_links_the_user_to_the_guest_and_keeps_his_results(organiser):
    player, token = guest(organiser)
    match = MatchFactory(side0=Side.objects.get(player_a=player), side1=SideFactory(), score0=5, score1=2,
                         winner=0, status="confirmed")
    walter = addressee("walter")
    claimed = invitation_accept(token=token, user=walter).player
    assert claimed.pk == player.pk and Player.objects.get(pk=player.pk).user == walter
    match.refresh_from_db()
    assert (match.side0.player_a_id, match.score0, match.score1, match.winner) == (player.pk, 5, 2, 0)
    invitation = player.invitations.get()
    assert invitation.accepted_by == walter and invitation.accepted_at is not None
    entry = AuditEntry.objects.get(action="player.claimed")
    assert entry.after["user"] == "walter" and entry.actor_id == walter.pk


def test_the_users_own_empty_player_is_removed_and_he_plays_as_the_guest(organiser):
    player, token = guest(organiser)
    walter = addressee("walter")
    own = PlayerFactory(user=walter, display_name="Walt")
    Side.objects.create(player_a=own)
    invitation_accept(token=token, user=walter)
    assert not Player.objects.filter(pk=own.pk).exists() and not Side.objects.filter(player_a_id=own.pk).exists()
    walter.refresh_from_db()
    assert walter.player.pk == player.pk
    assert AuditEntry.objects.get(action="player.claimed").after["replaced"] == {"id": own.pk, "name": "Walt"}


def test_a_user_who_already_plays_as_a_player_with_matches_is_refused_and_nothing_changes(organiser):
    _player, token = guest(organiser)
    walter = addressee("walter")
    own = PlayerFactory(user=walter, display_name="Walt")
    MatchFactory(side0=SideFactory(player_a=own))
    before = rows()
    with pytest.raises(Conflict) as refused:
        invitation_accept(token=token, user=walter)
    assert refused.value.code == "user_holds_player"
    assert "one account cannot hold two players" in refused.value.message and "Walt" in refused.value.message
    assert "1 match " in refused.value.message
    assert rows() == before


@pytest.mark.parametrize("shift", [dt.timedelta(days=-1), dt.timedelta(seconds=-1)])
def test_an_expired_link_is_refused_with_its_date_and_nothing_changes(organiser, shift):
    player, token = guest(organiser)
    now = timezone.now()
    PlayerInvitation.objects.filter(player=player).update(created_at=now - dt.timedelta(days=31),
                                                          expires_at=now + shift)
    before = rows()
    with pytest.raises(Conflict) as refused:
        invitation_accept(token=token, user=UserFactory(username="walter"))
    assert refused.value.code == "invitation_expired" and "expired on" in refused.value.message
    assert rows() == before


def test_a_used_link_is_refused_whoever_uses_it_again(organiser):
    _player, token = guest(organiser)
    walter = addressee("walter")
    invitation_accept(token=token, user=walter)
    before = rows()
    for user, words in ((walter, "you have already claimed"), (UserFactory(username="mallory"), "already been used")):
        with pytest.raises(Conflict) as refused:
            invitation_accept(token=token, user=user)
        assert refused.value.code == "invitation_used" and words in refused.value.message
    assert rows() == before


def test_a_player_already_held_is_not_claimed_again(organiser):
    player, token = guest(organiser)
    Player.objects.filter(pk=player.pk).update(user=UserFactory(username="someone"))
    before = rows()
    with pytest.raises(Conflict) as refused:
        invitation_accept(token=token, user=UserFactory(username="walter"))
    assert refused.value.code == "player_held" and "already belongs to an account" in refused.value.message
    assert rows() == before


def test_an_unknown_token_is_not_found_and_an_anonymous_accept_is_not_allowed(organiser):
    _player, token = guest(organiser)
    with pytest.raises(NotFound):
        invitation_accept(token="f" * 64, user=UserFactory(username="walter"))
    with pytest.raises(NotAllowed):
        invitation_accept(token=token, user=None)


# --- the page and the API ---------------------------------------------------------------------------------


def test_the_page_shows_an_anonymous_visitor_who_invited_him_and_the_way_back_after_signing_in(organiser):
    player, token = guest(organiser)
    url = reverse("matches:invitation", args=[token])
    page = Client().get(url)
    text = page.content.decode()
    assert page.status_code == 200 and "Walter" in text and "otto" in text
    assert f"?next={url.replace('/', '%2F')}" in text
    assert "walter@example.com" not in text
    # Pressing the button signed out sends him to sign in first; nothing is claimed.
    assert Client().post(url).status_code == 302 and Player.objects.get(pk=player.pk).user_id is None
    assert Client().get(reverse("matches:invitation", args=["f" * 64])).status_code == 404


def test_the_page_refuses_with_the_reason_and_a_409(organiser):
    player, token = guest(organiser)
    walter = addressee("walter")
    MatchFactory(side0=SideFactory(player_a=PlayerFactory(user=walter, display_name="Walt")))
    client = Client()
    client.force_login(walter)
    page = client.get(reverse("matches:invitation", args=[token]))
    assert "one account cannot hold two players" in page.content.decode()
    answer = client.post(reverse("matches:invitation", args=[token]))
    assert answer.status_code == 409 and "one account cannot hold two players" in answer.content.decode()
    assert Player.objects.get(pk=player.pk).user_id is None


def test_the_api_accepts_an_invitation_and_answers_its_refusals_in_the_house_body(organiser):
    player, token = guest(organiser)
    walter = addressee("walter")
    client = client_for(walter)
    url = reverse("api-invitation-accept")
    assert client.post(url, {"token": "f" * 64}, format="json").status_code == 404
    refused = client.post(url, {"token": token, "player": 3}, format="json")
    assert refused.status_code == 400 and "player" in refused.json()["errors"]
    answer = client.post(url, {"token": token}, format="json")
    assert answer.status_code == 200 and answer.json() == {"status": "claimed", "player_id": player.pk,
                                                           "name": "Walter"}
    again = client.post(url, {"token": token}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "invitation_used"
    assert client_for(None).post(url, {"token": token}, format="json").status_code == 401


def test_the_email_is_not_sent_for_an_invitation_no_longer_open(organiser, monkeypatch,
                                                                django_capture_on_commit_callbacks):
    dispatched = run_tasks_inline(monkeypatch, run=False)
    with django_capture_on_commit_callbacks(execute=True):
        player = player_create_guest(actor=organiser, name="Walter", email="walter@example.com")
    invitation = player.invitations.get()
    assert [name for name, _args in dispatched] == ["matches.tasks.invitation_email_task"]
    invitation_accept(token=invitation_token(invitation), user=addressee("walter"))
    assert invitation_email(invitation_id=invitation.pk) == 0 and mail.outbox == []


def test_the_link_in_the_email_opens_the_invitation(organiser, dispatched, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        player_create_guest(actor=organiser, name="Walter", email="walter@example.com")
    path = re.search(r"(/invitations/[0-9a-f]{64}/)", mail.outbox[0].body).group(1)
    assert Client().get(path).status_code == 200


# --- at the same moment ------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_an_accept_and_an_approval_at_once_give_the_guest_once_and_one_user_gets_one_of_two_guests():
    organiser = UserFactory(username="otto", organiser=True)
    player, token = guest(organiser)
    entered(player, organiser)
    walter, mallory = addressee("walter"), addressee("mallory", "mallory@example.org")
    claim = invitation_accept(token=token, user=mallory).claim
    outcomes = at_once([lambda: invitation_accept(token=token, user=walter),
                        lambda: claim_approve(claim_id=claim.pk, user=organiser)])
    assert outcomes.count("done") == 1 and set(outcomes) - {"done"} <= {"player_held", "claim_decided"}
    holder = Player.objects.get(pk=player.pk).user
    assert holder == (walter if outcomes[0] == "done" else mallory)
    # One user, two guests, at once: the second claim is refused, not a server error.
    first, first_token = guest(organiser, email="a@example.com", name="Ann")
    second, second_token = guest(organiser, email="b@example.com", name="Bea")
    zoe = addressee("zoe", "a@example.com", "b@example.com")
    outcomes = at_once([lambda: invitation_accept(token=first_token, user=zoe),
                        lambda: invitation_accept(token=second_token, user=zoe)])
    assert sorted(outcomes) == ["done", "user_holds_player"]
    assert Player.objects.filter(user=zoe).count() == 1
    assert Player.objects.filter(pk__in=[first.pk, second.pk], user__isnull=True).count() == 1


def test_a_guest_claimed_before_is_kept_even_without_matches(organiser):
    first, first_token = guest(organiser, email="a@example.com", name="Ann")
    _second, second_token = guest(organiser, email="b@example.com", name="Bea")
    zoe = addressee("zoe", "a@example.com", "b@example.com")
    invitation_accept(token=first_token, user=zoe)
    before = rows()
    with pytest.raises(Conflict) as refused:
        invitation_accept(token=second_token, user=zoe)
    assert refused.value.code == "user_holds_player" and "you already claimed Ann" in refused.value.message
    assert rows() == before and Player.objects.get(pk=first.pk).user == zoe
