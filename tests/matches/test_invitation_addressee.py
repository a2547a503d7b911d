"""An invitation to claim a guest player gives the player only to its addressee: an account one of
whose verified email addresses (allauth's, whatever the case) is the one the invitation was sent to.
Anyone else holding the link (it was forwarded, or read over a shoulder) gets no player: his
acceptance becomes a claim a director decides (the claims flow, /claims/), and the API answers 202
saying so. An addressee who has not verified his address yet is told to verify it first (403),
nothing changed. Through the API and the page alike."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from core.errors import NotAllowed
from core.models import OutboxTask
from matches.models import Player, PlayerClaim, PlayerInvitation, Side
from matches.services.claims import claim_approve
from matches.services.guests import invitation_accept, player_create_guest
from matches.services.invitations import invitation_token
from tests.factories import UserFactory
from tests.matches.claims_world import entered
from tests.matches.factories_api import client_for
from tests.matches.factories_ratings import run_tasks_inline

pytestmark = pytest.mark.django_db

INVITED = "mohammed.ali@example.org"


@pytest.fixture
def organiser():
    return UserFactory(username="otto", organiser=True)


@pytest.fixture
def invited(organiser) -> tuple[Player, str]:
    """Mohammed Ali, a walk-in Otto entered in his event and invited at his address; the token of
    the link."""
    player = player_create_guest(actor=organiser, name="Mohammed Ali", email=INVITED)
    entered(player, organiser)
    return player, invitation_token(player.invitations.get())


def account(username: str, email: str, *, verified: bool | None = True):
    """A user whose allauth address is ``email``, verified or not (None: no allauth row, as staff
    and the demo make accounts)."""
    user = UserFactory(username=username, email=email)
    if verified is not None:
        EmailAddress.objects.create(user=user, email=email, verified=verified, primary=True)
    return user


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def rows() -> dict:
    return {
        "players": list(Player.objects.order_by("pk").values("pk", "user_id")),
        "sides": Side.objects.count(),
        "invitations": list(PlayerInvitation.objects.order_by("pk").values()),
        "claims": list(PlayerClaim.objects.order_by("pk").values()),
        "audit": AuditEntry.objects.count(),
        "outbox": OutboxTask.objects.count(),
    }


API = "api-invitation-accept"


# --- the attack: someone else's account holds the link ----------------------------------------------------


def test_through_the_api_another_account_gets_no_player_but_a_claim_a_director_decides(invited):
    player, token = invited
    mallory = account("mallory", "mallory@example.org")
    answer = client_for(mallory).post(reverse(API), {"token": token, "statement": "I played Saturday."},
                                      format="json")
    assert answer.status_code == 202
    body = answer.json()
    claim = PlayerClaim.objects.get()
    assert body == {"status": "claim_requested", "claim_id": claim.pk, "player_id": player.pk,
                    "name": "Mohammed Ali", "detail": body["detail"]}
    assert "sent to another email address" in body["detail"] and "director" in body["detail"]
    assert INVITED not in body["detail"]
    # Nothing given: the player has no user, the invitation is still open for its addressee.
    assert Player.objects.get(pk=player.pk).user_id is None
    invitation = player.invitations.get()
    assert (invitation.accepted_at, invitation.accepted_by_id) == (None, None)
    assert (claim.user, claim.player_id, claim.status, claim.statement) == (
        mallory, player.pk, "requested", "I played Saturday.")
    assert not AuditEntry.objects.filter(action="player.claimed").exists()
    # Asking again answers the same claim and adds nothing.
    before = rows()
    again = client_for(mallory).post(reverse(API), {"token": token}, format="json")
    assert again.status_code == 202 and again.json()["claim_id"] == claim.pk and rows() == before


def test_through_the_page_another_account_is_told_before_and_after_and_gets_a_claim(invited):
    player, token = invited
    mallory = account("mallory", "mallory@example.org")
    client = browser(mallory)
    url = reverse("matches:invitation", args=[token])
    text = client.get(url).content.decode()
    assert "sent to another email address than your account" in text and "Ask for Mohammed Ali" in text
    assert "Yes, I am" not in text and INVITED not in text
    answer = client.post(url, {"statement": "Table 4 on Saturday."})
    assert answer.status_code == 302 and answer["Location"] == reverse("matches:claims")
    claims_page = client.get(answer["Location"]).content.decode()
    assert "sent to another email address than yours" in claims_page and "Waiting for a decision" in claims_page
    assert Player.objects.get(pk=player.pk).user_id is None
    assert PlayerClaim.objects.get().statement == "Table 4 on Saturday."
    # Back on the invitation: his claim waits; no second form.
    text = client.get(url).content.decode()
    assert "You asked for Mohammed Ali" in text and "Ask for Mohammed Ali" not in text


def test_the_director_finds_the_claim_on_his_claims_page_and_approving_it_gives_the_player(invited, organiser):
    player, token = invited
    mallory = account("mallory", "mallory@example.org")
    claim = invitation_accept(token=token, user=mallory).claim
    page = browser(organiser).get(reverse("matches:claims")).content.decode()
    assert "mallory says he is Mohammed Ali" in page
    claim_approve(claim_id=claim.pk, user=organiser)
    assert Player.objects.get(pk=player.pk).user == mallory


# --- the addressee ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("address", [INVITED, "Mohammed.Ali@EXAMPLE.org"])
def test_the_verified_addressee_takes_the_player_through_the_api_whatever_the_case(invited, address):
    player, token = invited
    mohammed = account("mohammed", address)
    answer = client_for(mohammed).post(reverse(API), {"token": token}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {"status": "claimed", "player_id": player.pk, "name": "Mohammed Ali"}
    assert Player.objects.get(pk=player.pk).user == mohammed and not PlayerClaim.objects.exists()


def test_a_verified_second_address_is_his_too(invited):
    player, token = invited
    mohammed = account("mohammed", "mo@example.net")
    EmailAddress.objects.create(user=mohammed, email=INVITED, verified=True, primary=False)
    assert invitation_accept(token=token, user=mohammed).claim is None
    assert Player.objects.get(pk=player.pk).user == mohammed


def test_the_verified_addressee_takes_the_player_through_the_page(invited):
    player, token = invited
    mohammed = account("mohammed", INVITED)
    client = browser(mohammed)
    url = reverse("matches:invitation", args=[token])
    assert "Yes, I am Mohammed Ali" in client.get(url).content.decode()
    answer = client.post(url)
    assert answer.status_code == 302 and answer["Location"] == reverse("matches:mine")
    assert Player.objects.get(pk=player.pk).user == mohammed


@pytest.mark.parametrize("verified", [False, None], ids=["unverified row", "no allauth row"])
def test_an_addressee_not_verified_yet_is_told_to_verify_first_and_nothing_changes(invited, verified):
    player, token = invited
    mohammed = account("mohammed", INVITED, verified=verified)
    before = rows()
    answer = client_for(mohammed).post(reverse(API), {"token": token}, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "email_unverified"
    assert "verify your email address" in answer.json()["detail"]
    with pytest.raises(NotAllowed):
        invitation_accept(token=token, user=mohammed)
    client = browser(mohammed)
    url = reverse("matches:invitation", args=[token])
    text = client.get(url).content.decode()
    assert "not verified yet" in text and "Yes, I am" not in text and reverse("account_email") in text
    page = client.post(url)
    assert page.status_code == 403 and "verify your email address" in page.content.decode()
    assert rows() == before and Player.objects.get(pk=player.pk).user_id is None


def test_once_verified_the_addressee_takes_the_player_and_the_waiting_claims_are_closed(invited, monkeypatch,
                                                                                        django_capture_on_commit_callbacks):
    run_tasks_inline(monkeypatch)
    player, token = invited
    mallory = account("mallory", "mallory@example.org")
    theirs = invitation_accept(token=token, user=mallory).claim
    # Mohammed first came with his other address: a claim of his own, waiting too.
    mohammed = account("mohammed", "mo@example.net")
    his = invitation_accept(token=token, user=mohammed).claim
    EmailAddress.objects.create(user=mohammed, email=INVITED, verified=True)
    with django_capture_on_commit_callbacks(execute=True):
        accepted = invitation_accept(token=token, user=mohammed)
    assert accepted.claim is None and Player.objects.get(pk=player.pk).user == mohammed
    theirs.refresh_from_db()
    his.refresh_from_db()
    assert (theirs.status, theirs.reason_code, his.status) == ("refused", "given_to_another", "withdrawn")
    assert [m.to for m in mail.outbox] == [["mallory@example.org"]]
    assert "was refused" in mail.outbox[0].subject
