"""Helpers for the rulings tests: tiny game logs written by hand, matches played through the real
reporting services, and a snapshot of every row a ruling may touch.

The games are short on purpose: the winner opens with 31 and plays it, the other side resigns (at
a level: single, gammon, backgammon) and the winner accepts; a doubled game has the other side
double and the winner take before the resignation. Each replays under the engine in a few
actions, so a test can say exactly which score a ruling must give.
"""

from __future__ import annotations

from audit.models import AuditEntry
from matches.models import Game, Match, Player, RatingChange, Report
from matches.services.logs import log_from_json
from matches.services.reporting import claim_make, match_report
from rulings.models import Dispute, Ruling, Statement
from tests.matches.factories_api import Cast, make_cast  # noqa: F401  (re-exported for the tests)
from tournaments.models import Entry, Pairing

OPENING_PLAY = "8/5 6/5"  # the 31 made into the 5-point
ILLEGAL_PLAY = "8/5"  # the 31 with the 1 left unplayed although it can be played


def roll(side: int, a: int = 3, b: int = 1) -> dict:
    return {"type": "roll", "side": side, "dice": [a, b]}


def move(side: int, play: str = OPENING_PLAY, *, condoned: bool = False) -> dict:
    action = {"type": "move", "side": side, "play": play}
    if condoned:
        action["condoned"] = True
    return action


def won(winner: int, level: int = 1, *, doubled: bool = False, play: str = OPENING_PLAY) -> list[dict]:
    """A game ``winner`` wins: ``level`` x the cube (2 when ``doubled``) points."""
    loser = 1 - winner
    log = [roll(winner), move(winner, play)]
    if doubled:
        log += [{"type": "double", "side": loser, "value": 2}, {"type": "take", "side": winner}]
    return [*log, {"type": "resign", "side": loser, "level": level}, {"type": "accept", "side": winner}]


def confirm_with_games(match: Match, games: list[list[dict]]) -> Match:
    """Both sides report ``games`` (the second report confirms): the match is confirmed with the
    score they give and its games stored."""
    match.refresh_from_db()
    log = log_from_json(games, match.rules(), start=match.start)
    for side in match.sides:
        match_report(match_id=match.pk, user=side.player_a.user, claim=claim_make(match, log.final_score, log))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED, match.status
    return match


def confirm_score(match: Match, score: tuple[int, int]) -> Match:
    """Both sides report ``score`` without logs: the match is confirmed."""
    for side in match.sides:
        match_report(match_id=match.pk, user=side.player_a.user, claim=claim_make(match, score, None))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED, match.status
    return match


def stored_games(match: Match) -> list[tuple[int, int, int, int, int]]:
    """(number, score0 before, score1 before, winner, points) of each stored game."""
    return list(match.games.order_by("number").values_list("number", "score0", "score1", "winner", "points"))


def snapshot() -> dict:
    """Every row a ruling may change, to assert that a refused one changed none."""
    return {
        "matches": list(Match.objects.order_by("pk").values()),
        "reports": list(Report.objects.order_by("pk").values()),
        "games": list(Game.objects.order_by("pk").values()),
        "ratings": list(RatingChange.objects.order_by("pk").values()),
        "players": list(Player.objects.order_by("pk").values("pk", "rating", "experience")),
        "pairings": list(Pairing.objects.order_by("pk").values()),
        "entries": list(Entry.objects.order_by("pk").values()),
        "disputes": list(Dispute.objects.order_by("pk").values()),
        "statements": list(Statement.objects.order_by("pk").values()),
        "rulings": list(Ruling.objects.order_by("pk").values()),
        "audit": list(AuditEntry.objects.order_by("pk").values_list("pk", flat=True)),
    }
