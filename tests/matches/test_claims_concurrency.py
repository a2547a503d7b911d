"""Two directors approve two users' claims on one player at the same moment: exactly one wins
(the player's row is locked; ``Player.user`` is one-to-one), the other is refused, and the player
has one user."""

from __future__ import annotations

import pytest

from matches.models import Player, PlayerClaim
from matches.services.claims import claim_approve, claim_request
from tests.concurrency import at_once
from tests.factories import UserFactory
from tests.matches.claims_world import entered, imported, own_player, user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("own", [False, True])
def test_two_approvals_of_two_claims_on_one_player_at_once_one_wins(own):
    otto, stan = UserFactory(organiser=True), UserFactory(staff=True)
    charlot = imported("charlot1")
    entered(charlot, otto)
    first, second = user("charles"), user("charlotte")
    if own:  # each has his own empty player, removed by the approval that wins
        own_player(first, "Charles")
        own_player(second, "Charlotte")
    claims = [claim_request(player_id=charlot.pk, user=u) for u in (first, second)]

    outcomes = at_once([lambda: claim_approve(claim_id=claims[0].pk, user=otto),
                        lambda: claim_approve(claim_id=claims[1].pk, user=stan)])

    assert outcomes.count("done") == 1
    assert set(outcomes) - {"done"} <= {"claim_player_held", "claim_decided"}
    winner = claims[outcomes.index("done")]
    charlot.refresh_from_db()
    assert charlot.user_id == winner.user_id
    assert PlayerClaim.objects.filter(status="approved").count() == 1
    assert PlayerClaim.objects.get(pk=winner.pk).status == "approved"
    loser = claims[1 - outcomes.index("done")]
    assert PlayerClaim.objects.get(pk=loser.pk).status in ("requested", "refused")
    if own:
        assert Player.objects.filter(user_id=loser.user_id).count() == 1
        assert not Player.objects.filter(display_name="Charles" if winner.user_id == first.pk else "Charlotte").exists()
