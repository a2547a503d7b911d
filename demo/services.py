"""Demo data: a club, an organiser, ten players and their matches, loaded through the real services.

Every match is created with ``match_create`` and its result goes through the same reporting path
as a player's (``claim_make`` + ``match_report``, then ``match_confirm`` by the other side), so
statuses, games and FIBS ratings come out exactly as they would in production. The confirmed
matches replay the real match files of ``../shared/data/mat`` (read at run time, never copied);
their two sides are played by demo players, not by the names in the files.

Loading is idempotent: a demo match is known by its organiser and its two sides (every planned
match uses its own pair of players), users, players and the club by their unique names, so a
second run finds everything in place and changes nothing.

Two tournaments run by the demo organiser with the demo players go through the tournaments
services the same way (create, enter, close entries, check in, draw, results, pair, finish):
a finished 8-player single elimination with a one-round consolation flight, and a 6-player
Swiss after round 1 (round 1 confirmed, round 2 paired). Their results are confirmed as in
production: most by a report of the winner confirmed by the loser, some by the organiser's
override. A tournament is known by its name and organiser; one that exists is left alone.

The club (owned by the organiser, the players its members, a season, tonight's club night with its
matches) is loaded last by ``clubs.services.demo``, and the chouette table at that night by
``chouette.demo``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from chouette.demo import ChouetteDemo, chouette_demo_load
from clubs.models import Club
from clubs.services.common import home_club_offer
from clubs.services.demo import ClubDemo, club_demo_load, demo_club
from core.errors import DomainError
from engine.actions import action_to_dict
from engine.errors import EngineError
from engine.formats.mat import check_mat, read_mat
from engine.randomgame import random_match_games
from matches.models import Game, Match, Player, RatingChange, Report
from matches.services.logs import log_from_json, log_from_mat
from matches.services.matches import match_create, player_create, side_for
from matches.services.ratings import match_rating_apply
from matches.services.reporting import claim_make, match_confirm, match_override, match_report
from tournaments.models import Tournament
from tournaments.services import (
    EventRules,
    entry_add,
    entry_check_in,
    tournament_close_entries,
    tournament_create,
    tournament_draw,
    tournament_finish,
    tournament_pair_next_round,
)

DEMO_PASSWORD = "crawford-demo"
CLUB_NAME = "Crawford Demo Club"
CLUB_SLUG = "crawford-demo-club"
ORGANISER_USERNAME = "organiser"
DEMO_URL = "http://127.0.0.1:8000/"

# (username, first name, last name, country). The first is the player the demo signs in as.
PLAYERS = [
    ("alice", "Alice", "Lambert", "GB"),
    ("bob", "Bob", "Okafor", "NG"),
    ("carol", "Carol", "Jensen", "DK"),
    ("dave", "Dave", "Moreau", "FR"),
    ("erin", "Erin", "Walsh", "IE"),
    ("frank", "Frank", "Weber", "DE"),
    ("grace", "Grace", "Rossi", "IT"),
    ("heidi", "Heidi", "Larsen", "NO"),
    ("ivan", "Ivan", "Petrov", "BG"),
    ("judy", "Judy", "Tanaka", "JP"),
]

# Matches left in other states, all with alice so that signing in as her shows each of them:
# (side 0, side 1, length).
REPORTED = ("alice", "bob", 5)  # bob has reported (with game logs): alice is asked to confirm
DISPUTED = ("alice", "carol", 5)  # alice and carol report different winners: the organiser rules
SCHEDULED = ("alice", "dave", 7)
# The random game logs of bob's report: a fixed seed, so every load writes the same logs.
REPORTED_SEED = 20231126

# The demo tournaments: (name, the usernames entered, in the organiser's seeding order).
BRACKET_EVENT = ("Crawford Demo Open", ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"])
SWISS_EVENT = ("Crawford Demo Swiss", ["erin", "frank", "grace", "heidi", "ivan", "judy"])


def mat_dir() -> Path:
    """Where the real match files are: ``shared/data/mat`` beside the project."""
    return Path(settings.BASE_DIR).parent / "shared" / "data" / "mat"


@dataclass
class DemoSummary:
    """What a load found and did. ``created`` counts the matches this run created (0 on a second
    run); ``notes`` say what was skipped and why."""

    club: Club
    organiser: User
    players: list[Player]
    matches: list[Match] = field(default_factory=list)
    created: int = 0
    tournaments: list[Tournament] = field(default_factory=list)
    created_events: int = 0
    notes: list[str] = field(default_factory=list)
    club_demo: ClubDemo | None = None
    chouette_demo: ChouetteDemo | None = None

    @property
    def login(self) -> str:
        player = PLAYERS[0][0]
        return (f"Demo ready: {DEMO_URL}  sign in as {player} / {DEMO_PASSWORD} (player) "
                f"or {ORGANISER_USERNAME} / {DEMO_PASSWORD} (organiser)")

    def counts(self) -> dict[str, int]:
        """The demo's rows by kind (the demo players' and matches' rows only)."""
        ids = [m.pk for m in self.matches]
        return {
            "players": len(self.players),
            "matches": len(ids),
            "games": Game.objects.filter(match_id__in=ids).count(),
            "reports": Report.objects.filter(match_id__in=ids).count(),
            "rating_changes": RatingChange.objects.filter(match_id__in=ids).count(),
        }


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


def _user(username: str, *, first: str = "", last: str = "", role: str = User.Role.PLAYER) -> User:
    # An existing user is left as it is (a second run changes nothing, not even a password hash).
    user = User.objects.filter(username=username).first()
    if user is None:
        # No email address: the demo's many reports would otherwise each send (or, in
        # development, print) a notification.
        user = User.objects.create_user(username, password=DEMO_PASSWORD, first_name=first, last_name=last,
                                        role=role)
    return user


def _player(username: str, first: str, last: str, country: str, club: Club) -> Player:
    user = _user(username, first=first, last=last)
    player = Player.objects.filter(user=user).first()
    if player is None:
        player = player_create(display_name=f"{first} {last}", user=user, country=country)
        home_club_offer(player, club.pk)
    return player


def _existing(organiser: User, side0: Player, side1: Player) -> Match | None:
    # Friendly matches only: the demo tournaments' matches have the same organiser and players.
    return Match.objects.filter(organiser=organiser, event_link__isnull=True, side0=side_for([side0]),
                                side1=side_for([side1])).first()


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
    match = match_create(created_by=organiser, organiser=organiser, side0=[side0], side1=[side1],
                         length=check.length, crawford=check.crawford, played_on=_event_date(check.tags))
    winner, loser = (side0, side1) if check.winner == 0 else (side1, side0)
    match_report(match_id=match.pk, user=winner.user, claim=claim_make(match, log.final_score, log),
                 statement=f"Demo data: the games of {path.name}.")
    match_confirm(match_id=match.pk, user=loser.user)
    # Synchronously, so the demo needs no worker; the task queued on commit then finds it done.
    match_rating_apply(match_id=match.pk)
    return match


def _load_reported(organiser: User, alice: Player, bob: Player) -> Match:
    match = match_create(created_by=organiser, organiser=organiser, side0=[alice], side1=[bob], length=REPORTED[2])
    games = random_match_games(random.Random(REPORTED_SEED), match.length)
    log = log_from_json([[action_to_dict(a) for a in game] for game in games], match.rules())
    match_report(match_id=match.pk, user=bob.user, claim=claim_make(match, log.final_score, log))
    return match


def _load_disputed(organiser: User, alice: Player, carol: Player) -> Match:
    match = match_create(created_by=organiser, organiser=organiser, side0=[alice], side1=[carol], length=DISPUTED[2])
    n = match.length
    match_report(match_id=match.pk, user=alice.user, claim=claim_make(match, (n, n - 2), None),
                 statement="I won the last game with a gammon.")
    match_report(match_id=match.pk, user=carol.user, claim=claim_make(match, (n - 2, n), None),
                 statement="The last game was mine: Alice dropped my redouble.")
    return match


def _decide(match: Match, organiser: User, k: int) -> None:
    """Confirm a result for the ``k``-th decided match of a demo event through the reporting
    services, then rate it. A fixed pattern, so every load plays the same: side 0 wins two
    matches in three; every third result is the organiser's override, the others a report by
    the winner confirmed by the loser."""
    winner = 1 if k % 3 == 2 else 0
    score = [k % match.length, k % match.length]
    score[winner] = match.length
    claim = claim_make(match, (score[0], score[1]), None)
    if k % 3 == 1:
        match_override(match_id=match.pk, user=organiser, claim=claim, statement="Demo data: the director's ruling.")
    else:
        sides = (match.side0.player_a, match.side1.player_a)
        match_report(match_id=match.pk, user=sides[winner].user, claim=claim)
        match_confirm(match_id=match.pk, user=sides[1 - winner].user)
    match_rating_apply(match_id=match.pk)


def _decide_scheduled(tournament: Tournament, organiser: User, *, rounds: bool) -> int:
    """Decide every scheduled match of ``tournament``; with ``rounds`` (a bracket) again and
    again, as confirmed results create the next matches, until none is left. Returns how many."""
    decided = 0
    while True:
        waiting = list(Match.objects.filter(event_link__tournament=tournament, status=Match.Status.SCHEDULED)
                       .select_related("side0__player_a__user", "side1__player_a__user").order_by("pk"))
        for match in waiting:
            _decide(match, organiser, decided)
            decided += 1
        if not waiting or not rounds:
            return decided


def _event_start(organiser: User, name: str, usernames: list[str], by_name: dict[str, Player], **rules) -> Tournament:
    """A demo event created, its players entered in seeding order and checked in, and drawn."""
    tournament = tournament_create(user=organiser, rules=EventRules(name=name, seeding=Tournament.Seeding.ORGANISER,
                                                                    **rules))
    entries = [entry_add(tournament_id=tournament.pk, user=organiser, player_ids=[by_name[u].pk], seed=seed)
               for seed, u in enumerate(usernames, start=1)]
    tournament_close_entries(tournament_id=tournament.pk, user=organiser)
    for entry in entries:
        entry_check_in(tournament_id=tournament.pk, entry_id=entry.pk, user=organiser)
    return tournament_draw(tournament_id=tournament.pk, user=organiser)


def _load_bracket(organiser: User, club: Club, by_name: dict[str, Player], today: date) -> Tournament:
    """The finished 8-player single elimination with a one-round consolation flight."""
    name, usernames = BRACKET_EVENT
    tournament = _event_start(organiser, name, usernames, by_name, club_id=club.pk,
                              starts_on=today - timedelta(days=14), ends_on=today - timedelta(days=13),
                              consolation_rounds=1, lengths={"main": [5, 5, 7], "consolation": 3})
    _decide_scheduled(tournament, organiser, rounds=True)
    return tournament_finish(tournament_id=tournament.pk, user=organiser)


def _load_swiss(organiser: User, club: Club, by_name: dict[str, Player], today: date) -> Tournament:
    """The running 6-player Swiss of three rounds: round 1 confirmed, round 2 paired."""
    name, usernames = SWISS_EVENT
    tournament = _event_start(organiser, name, usernames, by_name, club_id=club.pk, starts_on=today,
                              format=Tournament.Format.SWISS, swiss_rounds=3, lengths={"rounds": [3, 3, 5]})
    _decide_scheduled(tournament, organiser, rounds=False)
    tournament_pair_next_round(tournament_id=tournament.pk, user=organiser)
    return tournament


@transaction.atomic
def demo_data_load(*, folder: Path | None = None, now: datetime | None = None) -> DemoSummary:
    """Create (once) the demo club, organiser, players and matches; return a summary.

    Creates what is missing and leaves what exists alone, so a second run changes nothing. For
    each readable ``.mat`` file in ``folder`` (default :func:`mat_dir`) a confirmed, rated match
    with its games; then a scheduled match, one reported awaiting alice's confirmation and one
    disputed. Then the two demo tournaments (see the module), each created once. A missing
    folder, or a file the engine rejects, is skipped with a note in the summary; one
    transaction, so an unexpected error leaves nothing half-loaded. Raises the tournaments'
    DomainErrors only on a bug: the demo events are built from scratch.
    """
    now = now or timezone.now()
    folder = mat_dir() if folder is None else folder
    organiser = _user(ORGANISER_USERNAME, first="Olive", last="Organiser", role=User.Role.ORGANISER)
    club = demo_club(organiser, CLUB_NAME, CLUB_SLUG, "London")
    players = [_player(username, first, last, country, club) for username, first, last, country in PLAYERS]
    by_name = {username: player for (username, *_), player in zip(PLAYERS, players, strict=True)}
    summary = DemoSummary(club=club, organiser=organiser, players=players)

    def add(match: Match | None, created: bool) -> None:
        if match is not None:
            summary.matches.append(match)
            summary.created += created

    reserved = {frozenset((by_name[a].pk, by_name[b].pk)) for a, b, _ in (REPORTED, DISPUTED, SCHEDULED)}
    pairs = [(players[a], players[b]) for a, b in _pairs(len(players))
             if frozenset((players[a].pk, players[b].pk)) not in reserved]
    files = sorted(folder.glob("*.mat")) if folder.is_dir() else []
    if not folder.is_dir():
        summary.notes.append(f"no match files: {folder} is missing, so the demo has no matches from real files")
    if len(files) > len(pairs):
        summary.notes.append(f"{len(files) - len(pairs)} match files left out: the demo has {len(pairs)} pairs of players")
    for path, (side0, side1) in zip(files, pairs, strict=False):
        match = _existing(organiser, side0, side1)
        if match is not None:
            add(match, False)
            continue
        try:
            # A savepoint: a file rejected half-way leaves nothing of itself behind.
            with transaction.atomic():
                add(_load_file(path, organiser, side0, side1), True)
        except (EngineError, DomainError) as error:
            summary.notes.append(f"skipped {path.name}: {error}")

    alice = by_name[REPORTED[0]]
    for (a, b, _), load in ((REPORTED, _load_reported), (DISPUTED, _load_disputed)):
        match = _existing(organiser, by_name[a], by_name[b])
        add(match or load(organiser, by_name[a], by_name[b]), match is None)
    match = _existing(organiser, alice, by_name[SCHEDULED[1]])
    if match is None:
        # Next week, at eight in the evening: a club night.
        start = (now + timedelta(days=7)).replace(hour=20, minute=0, second=0, microsecond=0)
        match = match_create(created_by=organiser, organiser=organiser, side0=[alice], side1=[by_name[SCHEDULED[1]]],
                             length=SCHEDULED[2], scheduled_at=start)
        add(match, True)
    else:
        add(match, False)
    # The tournaments last: their results move the players' ratings, which the files' matches
    # (rated first, in file order) must not see on a first run either.
    for (name, _), load in ((BRACKET_EVENT, _load_bracket), (SWISS_EVENT, _load_swiss)):
        tournament = Tournament.objects.filter(organiser=organiser, name=name).first()
        if tournament is None:
            tournament = load(organiser, club, by_name, now.date())
            summary.created_events += 1
        summary.tournaments.append(tournament)
    summary.club_demo = club_demo_load(club=club, organiser=organiser, players=by_name, today=now.date())
    summary.chouette_demo = chouette_demo_load(club=club, night=summary.club_demo.night, organiser=organiser,
                                               players=by_name)
    return summary
