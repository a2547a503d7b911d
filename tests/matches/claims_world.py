"""Test helpers for claims and merges: rated matches confirmed through the services, an imported
player entered in an organiser's event (so that organiser directs him), and a replay of every
rating from scratch to compare the ledger with."""

from __future__ import annotations

import uuid

from engine.match import MatchRules
from engine.ratings import fibs_change
from matches.models import Match, Player
from matches.services.consent import match_consent
from matches.services.matches import match_create, player_create, side_for
from matches.services.ratings import match_rating_apply
from matches.services.reporting import Claim, match_override
from tests.factories import TournamentFactory, UserFactory
from tournaments.models import Entry


def staff():
    return UserFactory(username=f"staff-{uuid.uuid4().hex[:8]}", staff=True)


def user(name: str):
    return UserFactory(username=f"{name}-{uuid.uuid4().hex[:6]}")


def own_player(account, name: str) -> Player:
    """The player a user gets at sign-up (with his solo side, as player_create makes him)."""
    return player_create(display_name=name, user=account)


def imported(name: str) -> Player:
    """A player known only from imported files: no user."""
    return player_create(display_name=name)


def played(first: list[Player] | Player, second: list[Player] | Player, *, winner: int = 0, length: int = 5,
           by=None) -> Match:
    """A match between the sides, its result set by staff, consented for both sides and rated
    (when both sides are single players): as an import confirmed by a director would be."""
    by = by or staff()
    side0 = first if isinstance(first, list) else [first]
    side1 = second if isinstance(second, list) else [second]
    match = match_create(created_by=by, sides=(side0, side1), rules=MatchRules(length))
    score = (length, 1) if winner == 0 else (1, length)
    match_override(match_id=match.pk, user=by, claim=Claim(score))
    for side in (0, 1):
        match_consent(match_id=match.pk, user=by, decision="confirm", side=side)
    match_rating_apply(match_id=match.pk)
    match.refresh_from_db()
    return match


def entered(player: Player, organiser) -> None:
    """``player`` has entered an event of ``organiser``, entered by staff (who typed in the event's
    list): the organiser directs him, and did not enter him himself, so he may decide his claims."""
    Entry.objects.create(tournament=TournamentFactory(organiser=organiser), side=side_for([player]),
                         entered_by=staff())


def replay_from_scratch(alias: dict[int, int] | None = None) -> dict[int, tuple[float, int]]:
    """Every player's rating and experience from 1500 and 0, every rated match (confirmed,
    consented, single players) applied in the order it was confirmed; ``alias`` counts one
    player's matches as another's (a merge)."""
    alias = alias or {}
    standing: dict[int, tuple[float, int]] = {}
    rated = (Match.objects.consented().filter(status="confirmed", rated=True, length__gt=0, winner__isnull=False,
                                              side0__player_b__isnull=True, side1__player_b__isnull=True)
             .select_related("side0", "side1").order_by("confirmed_at", "pk"))
    for match in rated:
        ids = [alias.get(match.side0.player_a_id, match.side0.player_a_id),
               alias.get(match.side1.player_a_id, match.side1.player_a_id)]
        winner, loser = ids[match.winner], ids[1 - match.winner]
        (won, won_xp), (lost, lost_xp) = standing.get(winner, (1500.0, 0)), standing.get(loser, (1500.0, 0))
        change = fibs_change(won, lost, match.length, winner_experience=won_xp, loser_experience=lost_xp)
        standing[winner] = (won + change.winner_delta, won_xp + match.length)
        standing[loser] = (lost + change.loser_delta, lost_xp + match.length)
    return standing
