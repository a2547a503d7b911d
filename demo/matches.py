"""The demo's friendly matches, run by the organiser, through the matches services.

Every match is created with ``match_create`` and its result goes through the same reporting path
as a player's (``claim_make`` + ``match_report``, then ``match_confirm`` by the other side), so
statuses, games and FIBS ratings come out exactly as they would in production. The confirmed
matches replay the real match files of ``../shared/data/mat`` (read at run time, never copied);
their two sides are played by demo players, not by the names in the files. Then three matches
with alice left in other states: one reported by bob for her to confirm, one disputed with carol,
one scheduled with dave.

A demo match is known by its organiser and its two sides (``friendly_match_of``: every planned
match uses its own pair of players), so a second run finds each in place and changes nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import transaction

from accounts.models import User
from core.errors import DomainError
from engine.actions import action_to_dict
from engine.errors import EngineError
from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat
from engine.match import MatchRules
from engine.randomgame import random_match_games
from matches.models import Match, Player
from matches.selectors.match import friendly_match_of
from matches.services.logs import log_from_json, log_from_mat
from matches.services.matches import MatchDate, match_create
from matches.services.ratings import match_rating_apply
from matches.services.reporting import claim_make, match_confirm, match_report

# Matches left in other states, all with alice so that signing in as her shows each of them:
# (side 0, side 1, length).
REPORTED = ("alice", "bob", 5)  # bob has reported (with game logs): alice is asked to confirm
DISPUTED = ("alice", "carol", 5)  # alice and carol report different winners: the organiser rules
SCHEDULED = ("alice", "dave", 7)
# The random game logs of bob's report: a fixed seed, so every load writes the same logs.
REPORTED_SEED = 20231126


def mat_dir() -> Path:
    """Where the real match files are: ``shared/data/mat`` beside the project."""
    return Path(settings.BASE_DIR).parent / "shared" / "data" / "mat"


@dataclass
class FriendlyMatches:
    """The demo's friendly matches, those this run created counted in ``created``; ``notes`` say
    what was skipped and why."""

    matches: list[Match] = field(default_factory=list)
    created: int = 0
    notes: list[str] = field(default_factory=list)

    def add(self, match: Match | None, created: bool) -> None:
        if match is not None:
            self.matches.append(match)
            self.created += created


def _pairs(count: int) -> list[tuple[int, int]]:
    """Every pair of ``count`` players once, in round-robin order (the circle method), so that
    consecutive matches spread over all the players; sides alternate to balance who is side 0."""
    ring = list(range(count))
    pairs = []
    for round_ in range(count - 1):
        for k in range(count // 2):
            a, b = ring[k], ring[count - 1 - k]
            pairs.append((a, b) if (round_ + k) % 2 == 0 else (b, a))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return pairs


def _event_date(tags: dict[str, str]) -> date | None:
    try:
        return datetime.strptime(tags.get("EventDate", ""), "%Y.%m.%d").date()
    except ValueError:
        return None


def _load_file(path: Path, organiser: User, side0: Player, side1: Player) -> Match | None:
    """Create a match between ``side0`` and ``side1`` (the file's left and right player) and
    record its result with the file's logs: the winner reports, the loser confirms.

    Raises EngineError or DomainError, before anything is written, for a file the engine rejects.
    """
    data = path.read_bytes()
    check = check_mat(read_mat(data))
    if check.winner is None:
        raise DomainError(f"{path.name} is unfinished or a money session: it has no winner", code="no_winner")
    log = log_from_mat(path.name, data, check.rules)
    match = match_create(created_by=organiser, sides=([side0], [side1]),
                         rules=MatchRules(check.length, crawford=check.crawford), organiser=organiser,
                         when=MatchDate(played_on=_event_date(check.tags)))
    winner, loser = (side0, side1) if check.winner == 0 else (side1, side0)
    match_report(match_id=match.pk, user=winner.user, claim=claim_make(match, log.final_score, log),
                 statement=f"Demo data: the games of {path.name}.")
    match_confirm(match_id=match.pk, user=loser.user)
    # Synchronously, so the demo needs no worker; the task queued on commit then finds it done.
    match_rating_apply(match_id=match.pk)
    return match


def _load_reported(organiser: User, alice: Player, bob: Player) -> Match:
    match = match_create(created_by=organiser, sides=([alice], [bob]), rules=MatchRules(REPORTED[2]),
                         organiser=organiser)
    games = random_match_games(random.Random(REPORTED_SEED), match.length)
    log = log_from_json([[action_to_dict(a) for a in game] for game in games], match.rules())
    match_report(match_id=match.pk, user=bob.user, claim=claim_make(match, log.final_score, log))
    return match


def _load_disputed(organiser: User, alice: Player, carol: Player) -> Match:
    match = match_create(created_by=organiser, sides=([alice], [carol]), rules=MatchRules(DISPUTED[2]),
                         organiser=organiser)
    n = match.length
    match_report(match_id=match.pk, user=alice.user, claim=claim_make(match, (n, n - 2), None),
                 statement="I won the last game with a gammon.")
    match_report(match_id=match.pk, user=carol.user, claim=claim_make(match, (n - 2, n), None),
                 statement="The last game was mine: Alice dropped my redouble.")
    return match


def friendly_matches_load(*, organiser: User, players: list[Player], by_name: dict[str, Player], folder: Path,
                          now: datetime) -> FriendlyMatches:
    """For each readable ``.mat`` file in ``folder`` a confirmed, rated match with its games, each
    between its own pair of ``players``; then a scheduled match, one reported awaiting alice's
    confirmation and one disputed (see the module). A missing folder, or a file the engine
    rejects, is skipped with a note."""
    loaded = FriendlyMatches()
    reserved = {frozenset((by_name[a].pk, by_name[b].pk)) for a, b, _ in (REPORTED, DISPUTED, SCHEDULED)}
    pairs = [(players[a], players[b]) for a, b in _pairs(len(players))
             if frozenset((players[a].pk, players[b].pk)) not in reserved]
    files = sorted(folder.glob("*.mat")) if folder.is_dir() else []
    if not folder.is_dir():
        loaded.notes.append(f"no match files: {folder} is missing, so the demo has no matches from real files")
    if len(files) > len(pairs):
        loaded.notes.append(f"{len(files) - len(pairs)} match files left out: the demo has {len(pairs)} pairs of players")
    for path, (side0, side1) in zip(files, pairs, strict=False):
        match = friendly_match_of(organiser=organiser, player0=side0, player1=side1)
        if match is not None:
            loaded.add(match, False)
            continue
        try:
            # A savepoint: a file rejected half-way leaves nothing of itself behind.
            with transaction.atomic():
                loaded.add(_load_file(path, organiser, side0, side1), True)
        except (EngineError, DomainError) as error:
            loaded.notes.append(f"skipped {path.name}: {error}")

    alice = by_name[REPORTED[0]]
    for (a, b, _), load in ((REPORTED, _load_reported), (DISPUTED, _load_disputed)):
        match = friendly_match_of(organiser=organiser, player0=by_name[a], player1=by_name[b])
        loaded.add(match or load(organiser, by_name[a], by_name[b]), match is None)
    match = friendly_match_of(organiser=organiser, player0=alice, player1=by_name[SCHEDULED[1]])
    if match is None:
        # Next week, at eight in the evening: a club night.
        start = (now + timedelta(days=7)).replace(hour=20, minute=0, second=0, microsecond=0)
        match = match_create(created_by=organiser, sides=([alice], [by_name[SCHEDULED[1]]]),
                             rules=MatchRules(SCHEDULED[2]), organiser=organiser, when=MatchDate(scheduled_at=start))
        loaded.add(match, True)
    else:
        loaded.add(match, False)
    return loaded
