"""Reads about claims of players and merges, shared by the API and the pages
(``matches.services.claims`` owns the changes)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext

from .. import hooks
from ..models import Match, Player, PlayerClaim


@dataclass(frozen=True)
class ClaimRow:
    """A claim as a user sees it: whether he may decide it or withdraw it, and, while it waits,
    the claimant's own player when it has matches (then approving it is refused: staff merge
    the two players instead)."""

    claim: PlayerClaim
    may_decide: bool
    may_withdraw: bool
    needs_merge_with: str | None


def _deciding(user) -> Q:
    """The claims waiting that ``user`` may decide (not his own): all of them for staff; else those
    of players of an event or club he directs, whom he did not enter, by claimants not tied to him
    (``hooks.claim_decidable``: subqueries)."""
    waiting = Q(status=PlayerClaim.Status.REQUESTED) & ~Q(user=user)
    return waiting if user.is_staff else waiting & hooks.claim_decidable(user)


def _with_matches(player_field: str = "pk") -> Exists:
    mine = OuterRef(player_field)
    return Exists(Match.objects.filter(Q(side0__player_a=mine) | Q(side0__player_b=mine) | Q(side1__player_a=mine)
                                       | Q(side1__player_b=mine)))


def claim_list(user) -> list[ClaimRow]:
    """The claims ``user`` may see: his own (every state, newest first), then those waiting that he
    may decide (see :func:`_deciding`). Two queries, whatever their number."""
    if not getattr(user, "is_authenticated", False):
        return []
    claims = list(PlayerClaim.objects.filter(Q(user=user) | _deciding(user))
                  .select_related("user", "player", "decided_by").order_by("-created_at", "-pk"))
    waiting = [c.user_id for c in claims if c.status == PlayerClaim.Status.REQUESTED]
    busy = dict(Player.objects.filter(user_id__in=waiting).filter(_with_matches()).values_list("user_id", "display_name"))
    rows = [ClaimRow(claim=c, may_decide=c.user_id != user.pk and c.status == PlayerClaim.Status.REQUESTED,
                     may_withdraw=c.user_id == user.pk and c.status == PlayerClaim.Status.REQUESTED,
                     needs_merge_with=busy.get(c.user_id) if c.status == PlayerClaim.Status.REQUESTED else None)
            for c in claims]
    return sorted(rows, key=lambda row: row.may_decide)


def claim_get(claim_id: int) -> PlayerClaim:
    """One claim with its player and claimant; raises PlayerClaim.DoesNotExist."""
    return PlayerClaim.objects.select_related("user", "player", "decided_by").get(pk=claim_id)


def open_claim_of(user, player_id: int) -> PlayerClaim | None:
    """``user``'s claim of the player waiting for a decision, if any (for the player's page)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return PlayerClaim.objects.filter(user=user, player_id=player_id, status=PlayerClaim.Status.REQUESTED).first()


def merge_choices() -> list[tuple[int, str]]:
    """Every player as the staff merge page offers him: his name, and whose he is (a signed-in
    user's, or known from imported files). One query."""
    imported = gettext("known from imported files")
    return [(pk, f"{name} ({username})" if username else f"{name} ({imported})")
            for pk, name, username in Player.objects.order_by("display_name", "pk")
            .values_list("pk", "display_name", "user__username")]
