"""Claims of players known from imported files (matches.services.claims): asked, approved by a
director of an event the player played in, refused with a reason, withdrawn; what the database
guards; the API and the pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from audit.describe import describe
from audit.models import AuditEntry
from clubs.models import Club, ClubMatch, ClubNight, Membership
from core.errors import Conflict, DomainError, NotAllowed
from core.outbox import OutboxTask
from matches.models import Match, Player, PlayerClaim, RatingChange
from matches.services.claims import claim_approve, claim_refuse, claim_request, claim_withdraw
from matches.services.matches import player_for_user
from matches.services.notifications import claim_notify
from tests.factories import TournamentFactory, UserFactory
from tests.matches.claims_world import entered, imported, own_player, played, user
from tests.matches.factories_api import client_for
from tournaments.models import EventMatch

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    """charlot1, imported (no user), entered in otto's event, with two rated matches against bob
    and dave; charles (who signed up: his own player has no match) says he is charlot1."""
    otto = UserFactory(username="otto-claims", organiser=True)
    charlot = imported("charlot1")
    bob, dave = own_player(user("bob"), "Bob"), own_player(user("dave"), "Dave")
    entered(charlot, otto)
    first = played(charlot, bob, winner=0)
    second = played(dave, charlot, winner=0, length=7)
    charles = user("charles")
    mine = own_player(charles, "Charles")
    return {"otto": otto, "charlot": charlot, "bob": bob, "dave": dave, "matches": [first, second],
            "charles": charles, "mine": mine}


def test_an_approved_claim_makes_the_player_his_with_his_matches_and_rating(world):
    charlot, charles = world["charlot"], world["charles"]
    rating = Player.objects.get(pk=charlot.pk).rating
    assert rating != 1500.0
    claim = claim_request(player_id=charlot.pk, user=charles, statement="I play as charlot1 at the club.")
    assert set(Match.objects.visible_to(charles).values_list("pk", flat=True)) == {m.pk for m in world["matches"]}

    done = claim_approve(claim_id=claim.pk, user=world["otto"])

    assert done.status == PlayerClaim.Status.APPROVED and done.decided_by == world["otto"]
    charles = type(charles).objects.get(pk=charles.pk)  # his player, read afresh
    assert player_for_user(charles).pk == charlot.pk
    charlot.refresh_from_db()
    assert charlot.user_id == charles.pk and charlot.rating == rating
    # His own player, which had no match, is gone: one user, one player.
    assert not Player.objects.filter(pk=world["mine"].pk).exists()
    mine = set(Match.objects.visible_to(charles).of_player(player_for_user(charles)).values_list("pk", flat=True))
    assert mine == {m.pk for m in world["matches"]}
    assert RatingChange.objects.filter(player=charlot).count() == 2
    # Audited, and the claimant is told by email through the outbox.
    entry = AuditEntry.objects.filter(action="claim.approved", object_id=claim.pk).get()
    assert "approved the claim of charles" in describe(entry, None)
    assert "his own empty player Charles was removed" in describe(entry, None)
    assert OutboxTask.objects.filter(task__endswith="claim_notify_task", args=[claim.pk]).count() == 1
    assert claim_notify(claim_id=claim.pk) == 1
    assert claim_notify(claim_id=claim.pk) == 1  # a second delivery sends nothing more
    assert len(mail.outbox) == 1 and "charlot1" in mail.outbox[0].subject


def test_a_refused_claim_changes_nothing_but_its_state_and_reason(world):
    charlot, charles = world["charlot"], world["charles"]
    claim = claim_request(player_id=charlot.pk, user=charles)
    players = list(Player.objects.order_by("pk").values())
    ledger = list(RatingChange.ledger.order_by("pk").values())

    done = claim_refuse(claim_id=claim.pk, user=world["otto"], reason="charlot1 is Charlotte, she played last week.")

    assert (done.status, done.reason) == (PlayerClaim.Status.REFUSED, "charlot1 is Charlotte, she played last week.")
    assert list(Player.objects.order_by("pk").values()) == players
    assert list(RatingChange.ledger.order_by("pk").values()) == ledger
    assert player_for_user(charles).pk == world["mine"].pk
    claim_notify(claim_id=claim.pk)
    assert "Charlotte, she played last week" in mail.outbox[0].body
    # The reason is shown to him on his claims page.
    client = Client()
    client.force_login(charles)
    page = client.get(reverse("matches:claims")).content.decode()
    assert "Refused" in page and "charlot1 is Charlotte, she played last week." in page


def test_a_claim_of_a_player_already_held_is_refused_saying_so(world):
    with pytest.raises(Conflict) as refused:
        claim_request(player_id=world["bob"].pk, user=world["charles"])
    assert refused.value.code == "claim_player_held"
    assert "already belongs to a signed-in user" in refused.value.message
    assert not PlayerClaim.objects.exists()
    answer = client_for(world["charles"]).post(f"/api/v1/players/{world['bob'].pk}/claim/", {}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "claim_player_held"
    with pytest.raises(Conflict) as own:
        claim_request(player_id=world["mine"].pk, user=world["charles"])
    assert own.value.code == "claim_own_player"


def test_asking_again_answers_the_open_claim_and_the_database_keeps_one(world):
    first = claim_request(player_id=world["charlot"].pk, user=world["charles"])
    assert claim_request(player_id=world["charlot"].pk, user=world["charles"]).pk == first.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerClaim.objects.create(user=world["charles"], player=world["charlot"])


def test_the_database_keeps_one_approved_claim_per_player(world):
    first = claim_request(player_id=world["charlot"].pk, user=world["charles"])
    claim_approve(claim_id=first.pk, user=world["otto"])
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerClaim.objects.create(user=UserFactory(), player=world["charlot"], status="approved",
                                   decided_at=first.decided_at)


def test_nobody_but_a_director_of_the_player_or_staff_decides(world):
    claim = claim_request(player_id=world["charlot"].pk, user=world["charles"])
    olga = UserFactory(username="olga-claims", organiser=True)
    for outsider in (olga, world["bob"].user):
        with pytest.raises(NotAllowed) as refused:
            claim_approve(claim_id=claim.pk, user=outsider)
        assert refused.value.code == "not_a_director"
        answer = client_for(outsider).post(f"/api/v1/claims/{claim.pk}/approve/", {}, format="json")
        assert answer.status_code == 403 and answer.json()["code"] == "not_a_director"
        answer = client_for(outsider).post(f"/api/v1/claims/{claim.pk}/refuse/", {"reason": "No."}, format="json")
        assert answer.status_code == 403
    with pytest.raises(NotAllowed):
        claim_approve(claim_id=claim.pk, user=world["charles"])
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.Status.REQUESTED
    answer = client_for(UserFactory(staff=True)).post(f"/api/v1/claims/{claim.pk}/approve/", {}, format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "approved"


def test_a_claimant_whose_own_player_has_matches_needs_a_merge(world):
    played(world["mine"], world["dave"])
    claim = claim_request(player_id=world["charlot"].pk, user=world["charles"])
    with pytest.raises(Conflict) as refused:
        claim_approve(claim_id=claim.pk, user=world["otto"])
    assert refused.value.code == "claim_needs_merge"
    assert "merge the two players" in refused.value.message
    assert Player.objects.get(pk=world["charlot"].pk).user_id is None
    assert PlayerClaim.objects.get(pk=claim.pk).status == PlayerClaim.Status.REQUESTED
    # The director sees why before he tries.
    client = Client()
    client.force_login(world["otto"])
    page = client.get(reverse("matches:claims")).content.decode()
    assert "He already has a player of his own with matches, Charles" in page


def test_a_refusal_needs_a_reason_and_a_decided_claim_stays_decided(world):
    claim = claim_request(player_id=world["charlot"].pk, user=world["charles"])
    with pytest.raises(DomainError) as refused:
        claim_refuse(claim_id=claim.pk, user=world["otto"], reason="  ")
    assert refused.value.code == "reason_required" and refused.value.details["field"] == "reason"
    answer = client_for(world["otto"]).post(f"/api/v1/claims/{claim.pk}/refuse/", {}, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "reason"
    claim_withdraw(claim_id=claim.pk, user=world["charles"])
    with pytest.raises(Conflict) as decided:
        claim_approve(claim_id=claim.pk, user=world["otto"])
    assert decided.value.code == "claim_decided"


def test_only_the_claimant_withdraws(world):
    claim = claim_request(player_id=world["charlot"].pk, user=world["charles"])
    answer = client_for(world["otto"]).post(f"/api/v1/claims/{claim.pk}/withdraw/", {}, format="json")
    assert answer.status_code == 403
    answer = client_for(world["charles"]).post(f"/api/v1/claims/{claim.pk}/withdraw/", {}, format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "withdrawn"


def test_approving_one_claim_refuses_the_others_on_that_player(world):
    other = user("charlotte")
    theirs = claim_request(player_id=world["charlot"].pk, user=other)
    claim = claim_request(player_id=world["charlot"].pk, user=world["charles"])
    claim_approve(claim_id=claim.pk, user=world["otto"])
    theirs.refresh_from_db()
    assert theirs.status == PlayerClaim.Status.REFUSED and theirs.reason_code == PlayerClaim.Reason.GIVEN_TO_ANOTHER
    assert theirs.reason == "" and "another user" in theirs.reason_text


def test_the_api_lists_his_own_claims_and_those_a_director_may_decide(world, django_assert_max_num_queries):
    claim = claim_request(player_id=world["charlot"].pk, user=world["charles"])
    answer = client_for(world["charles"]).get("/api/v1/claims/")
    assert [(c["id"], c["may_withdraw"], c["may_decide"]) for c in answer.json()] == [(claim.pk, True, False)]
    assert "email" not in answer.content.decode()
    answer = client_for(world["otto"]).get("/api/v1/claims/")
    body = answer.json()
    assert [(c["id"], c["may_decide"], c["player"]["display_name"]) for c in body] == [(claim.pk, True, "charlot1")]
    assert client_for(world["bob"].user).get("/api/v1/claims/").json() == []
    client = Client()
    client.force_login(world["otto"])
    with django_assert_max_num_queries(12):
        page = client.get(reverse("matches:claims"))
    assert "says he is charlot1" in page.content.decode()


def test_the_api_claims_a_player_and_a_repeat_answers_the_same_claim(world):
    client = client_for(world["charles"])
    first = client.post(f"/api/v1/players/{world['charlot'].pk}/claim/", {"statement": "Me."}, format="json")
    assert first.status_code == 201 and first.json()["status"] == "requested"
    again = client.post(f"/api/v1/players/{world['charlot'].pk}/claim/", {}, format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert client.post("/api/v1/players/999999/claim/", {}, format="json").status_code == 404
    assert client.post(f"/api/v1/players/{world['charlot'].pk}/claim/", {"status": "approved"},
                       format="json").status_code == 400


def test_the_player_page_offers_this_is_me_only_for_an_unclaimed_player(world):
    client = Client()
    client.force_login(world["charles"])
    page = client.get(reverse("matches:player", args=[world["charlot"].pk])).content.decode()
    assert "This is me" in page
    assert "This is me" not in client.get(reverse("matches:player", args=[world["bob"].pk])).content.decode()
    answer = client.post(reverse("matches:claim", args=[world["charlot"].pk]), {"statement": "Me."})
    assert answer.status_code == 302
    assert PlayerClaim.objects.filter(user=world["charles"], status="requested").count() == 1
    page = client.get(reverse("matches:player", args=[world["charlot"].pk])).content.decode()
    assert "You claimed to be charlot1" in page and "This is me" not in page
    held = client.post(reverse("matches:claim", args=[world["bob"].pk]))
    assert held.status_code == 409 and "already belongs to a signed-in user" in held.content.decode()


def test_the_pages_approve_and_refuse(world):
    claim = claim_request(player_id=world["charlot"].pk, user=world["charles"])
    client = Client()
    client.force_login(world["otto"])
    missing = client.post(reverse("matches:claim_refuse", args=[claim.pk]), {"reason": ""})
    assert missing.status_code == 400 and "say why the claim is refused" in missing.content.decode()
    assert client.post(reverse("matches:claim_approve", args=[claim.pk])).status_code == 302
    assert Player.objects.get(pk=world["charlot"].pk).user_id == world["charles"].pk


@pytest.mark.parametrize("where", ["club night", "event match"])
def test_a_director_of_a_club_or_event_where_he_played_decides_and_no_other(world, where):
    """The player entered no event of theirs: he played a match at their club night, or one of
    their event's matches (imported for it)."""
    erwin = imported("erwin")
    match = played(erwin, world["bob"])
    director, other = UserFactory(), UserFactory()
    if where == "club night":
        club, elsewhere = (Club.objects.create(name=name, slug=name.lower()) for name in ("Home", "Away"))
        night = ClubNight.objects.create(club=club, date=dt.date(2026, 11, 27), opened_by=director)
        ClubMatch.objects.create(match=match, club=club, night=night)
        Membership.objects.create(club=club, user=director, role="organiser", status="active")
        Membership.objects.create(club=elsewhere, user=other, role="owner", status="active")
    else:
        EventMatch.objects.create(match=match, tournament=TournamentFactory(organiser=director))
        TournamentFactory(organiser=other)
    claim = claim_request(player_id=erwin.pk, user=world["charles"])
    assert client_for(other).get("/api/v1/claims/").json() == []
    with pytest.raises(NotAllowed):
        claim_approve(claim_id=claim.pk, user=other)
    assert [c["id"] for c in client_for(director).get("/api/v1/claims/").json()] == [claim.pk]
    assert claim_approve(claim_id=claim.pk, user=director).status == PlayerClaim.Status.APPROVED
