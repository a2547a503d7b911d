"""Merging two players (matches.services.claims.player_merge, staff): every match kept, sides
repointed or folded (solo sides and pairs), the ratings ledger rated again as one player's (the
same as a replay from scratch), claims and the user following, refusals that change nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from audit.describe import describe
from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from matches.models import Match, Player, PlayerClaim, RatingChange, Side
from matches.services.claims import claim_request, player_merge
from tests.matches.claims_world import entered, imported, own_player, played, replay_from_scratch, staff, user
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db


def _sides_of(player: Player) -> list[tuple[int, int, int | None]]:
    return sorted(Match.objects.of_player(player).values_list("pk", "side0__player_a", "side1__player_a"))


@pytest.fixture
def world():
    """charlot1 (imported) and Charles (his own player) have both played, each first at the first
    place of his ledger (the places collide when merged); pairs with Carol on both, one side each."""
    charlot, charles = imported("charlot1"), own_player(user("charles"), "Charles")
    carol, dave, erin = (own_player(user(name), name.title()) for name in ("carol", "dave", "erin"))
    matches = [
        played(charlot, carol, winner=0),                 # charlot1's first: place 1
        played(charles, dave, winner=1),                  # Charles's first: place 1 too
        played(dave, charlot, winner=0, length=7),
        played(charles, erin, winner=0),
        played(carol, charles, winner=0, length=3),
        played(erin, charlot, winner=1),
        played([charlot, carol], [dave, erin], winner=0),  # pairs are never rated, their sides move
        played([carol, charles], [dave, erin], winner=1),
    ]
    return {"charlot": charlot, "charles": charles, "carol": carol, "dave": dave, "erin": erin, "matches": matches}


def test_a_merge_keeps_every_match_and_rates_the_ledger_as_a_replay_from_scratch(world):
    charlot, charles = world["charlot"], world["charles"]
    before = Match.objects.count()
    theirs = {m.pk for m in Match.objects.of_player(charlot)} | {m.pk for m in Match.objects.of_player(charles)}
    assert RatingChange.objects.filter(player=charlot, sequence=1).exists()
    assert RatingChange.objects.filter(player=charles, sequence=1).exists()

    outcome = player_merge(source_id=charlot.pk, target_id=charles.pk, user=staff())

    assert outcome.applied and outcome.matches == 4 and outcome.sides_folded == 2
    assert Match.objects.count() == before
    assert not Player.objects.filter(pk=charlot.pk).exists()
    assert {m.pk for m in Match.objects.of_player(charles)} == theirs
    # One solo side, and the pairs with Carol folded into one.
    assert Side.objects.filter(player_a=charles, player_b__isnull=True).count() == 1
    pair = sorted((carol_pk := world["carol"].pk, charles.pk))
    assert Side.objects.filter(player_a=pair[0], player_b=pair[1]).count() == 1 and carol_pk
    assert Match.objects.of_player(charles).filter(side0__player_b__isnull=False).count() == 2

    expected = replay_from_scratch()
    for player in Player.objects.filter(pk__in=expected):
        rating, experience = expected[player.pk]
        assert player.rating == pytest.approx(rating, abs=1e-9), player
        assert player.experience == experience, player
    assert outcome.rating == pytest.approx(expected[charles.pk][0], abs=1e-9)
    # The ledger holds together: one live change per player and rated match, each player's in one
    # order, both rows of a match at one place.
    for player_id in expected:
        places = list(RatingChange.objects.filter(player_id=player_id).order_by("sequence")
                      .values_list("sequence", flat=True))
        assert places == sorted(set(places))
    for match_id in RatingChange.objects.values_list("match_id", flat=True).distinct():
        assert RatingChange.objects.filter(match_id=match_id).values("sequence").distinct().count() == 1
    assert RatingChange.objects.filter(player=charles).count() == 6
    entry = AuditEntry.objects.get(action="player.merged")
    assert describe(entry, None).lower().startswith(entry.actor_name + " merged charlot1 into charles: 4 matches moved")


def test_a_dry_run_says_what_the_merge_does_and_changes_nothing(world):
    players = list(Player.objects.order_by("pk").values())
    ledger = list(RatingChange.ledger.order_by("pk").values())
    sides = list(Side.objects.order_by("pk").values())
    preview = player_merge(source_id=world["charlot"].pk, target_id=world["charles"].pk, user=staff(), dry_run=True)
    assert not preview.applied
    assert list(Player.objects.order_by("pk").values()) == players
    assert list(RatingChange.ledger.order_by("pk").values()) == ledger
    assert list(Side.objects.order_by("pk").values()) == sides
    assert not AuditEntry.objects.filter(action="player.merged").exists()
    done = player_merge(source_id=world["charlot"].pk, target_id=world["charles"].pk, user=staff())
    assert (preview.matches, preview.rating, preview.experience) == (done.matches, done.rating, done.experience)


def test_players_who_met_cannot_be_merged(world):
    played(world["charlot"], world["charles"])
    ledger = list(RatingChange.ledger.order_by("pk").values())
    with pytest.raises(Conflict) as refused:
        player_merge(source_id=world["charlot"].pk, target_id=world["charles"].pk, user=staff())
    assert refused.value.code == "merge_played_each_other"
    assert Player.objects.filter(pk=world["charlot"].pk).exists()
    assert list(RatingChange.ledger.order_by("pk").values()) == ledger


def test_two_users_players_cannot_be_merged_nor_one_into_itself(world):
    with pytest.raises(Conflict) as refused:
        player_merge(source_id=own_player(user("zed"), "Zed").pk, target_id=world["charles"].pk, user=staff())
    assert refused.value.code == "merge_both_held"
    with pytest.raises(DomainError) as same:
        player_merge(source_id=world["dave"].pk, target_id=world["dave"].pk, user=staff())
    assert same.value.code == "same_player"


def test_merging_his_own_player_into_the_imported_one_moves_him_and_approves_his_claim(world):
    charles_user = world["charles"].user
    claim = claim_request(player_id=world["charlot"].pk, user=charles_user)
    outcome = player_merge(source_id=world["charles"].pk, target_id=world["charlot"].pk, user=staff())
    assert outcome.user_moves
    charlot = Player.objects.get(pk=world["charlot"].pk)
    assert charlot.user_id == charles_user.pk
    assert PlayerClaim.objects.get(pk=claim.pk).status == PlayerClaim.Status.APPROVED
    expected = replay_from_scratch()
    assert charlot.rating == pytest.approx(expected[charlot.pk][0], abs=1e-9)


def test_an_entry_on_the_source_side_is_kept_by_folding_the_other_way(world):
    organiser = user("otto")
    entered(world["charlot"], organiser)
    player_merge(source_id=world["charlot"].pk, target_id=world["charles"].pk, user=staff())
    side = Side.objects.get(player_a=world["charles"], player_b__isnull=True)
    assert side.entries.count() == 1


def test_only_staff_merge(world):
    with pytest.raises(NotAllowed):
        player_merge(source_id=world["charlot"].pk, target_id=world["charles"].pk, user=world["dave"].user)
    body = {"source": world["charlot"].pk, "target": world["charles"].pk, "dry_run": True}
    answer = client_for(world["dave"].user).post("/api/v1/players/merge/", body, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "not_staff"
    answer = client_for(staff()).post("/api/v1/players/merge/", body, format="json")
    assert answer.status_code == 200 and answer.json()["applied"] is False and answer.json()["matches"] == 4
    answer = client_for(staff()).post("/api/v1/players/merge/", {"source": world["charlot"].pk}, format="json")
    assert answer.status_code == 400 and "target" in answer.json()["errors"]


def test_the_merge_page_previews_then_merges(world):
    client = Client()
    client.force_login(staff())
    query = {"source": world["charlot"].pk, "target": world["charles"].pk}
    page = client.get(reverse("matches:player_merge"), query)
    text = page.content.decode()
    assert page.status_code == 200 and "4 matches of charlot1 become Charles" in text and "Ratings before" in text
    assert Player.objects.filter(pk=world["charlot"].pk).exists()
    done = client.post(reverse("matches:player_merge"), query)
    assert done.status_code == 302 and not Player.objects.filter(pk=world["charlot"].pk).exists()
    player = Client()
    player.force_login(world["dave"].user)
    assert player.get(reverse("matches:player_merge")).status_code == 403
