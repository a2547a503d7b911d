"""Reads of the chouette tables: a session's state (line-up with roles, games with their amounts, the
ledger, the settlement), a club's sessions, and a night's net results. Everything is recomputed from
the session's recorded steps by the engine (``engine.chouette.replay_session``) on every read: the
state a session keeps after its last step (``ChouetteSession.kept``) is the services' shortcut for
writing the next step, never what a page or the API shows.

How a step is stored (``ChouetteStep.record``): the engine's JSON form of the step
(``engine.chouette.step_to_json``). A game step also keeps what the table entered, so that a
correction can start from it: ``{"type": "game", "record": <the game as the engine checked it>,
"lineup": <the line-up it was played with>, "entry": "quick" | "full", "entered": <the quick result or
the full record as sent>}``. The replay reads ``record`` and ``lineup`` (a full record's board is
replayed once, when it is recorded; its cube log is kept in ``record``), and the pinned line-up
makes a correction to an earlier step that would give this game's players other roles fail.

Amounts are in points (whole numbers, the engine's) and in money: points x the session's stake.
Who may read what is for :mod:`clubs.permissions` and the views (every amount is for the club's
members only); nothing here checks it.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubNight
from clubs.selectors import member_players
from engine.chouette import (
    ChouetteGame,
    ChouetteSettings,
    CubeEnd,
    GameStep,
    Lineup,
    Session,
    Step,
    replay_session,
    settle_up,
    step_from_json,
)
from matches.models import Player

from .models import ChouetteSession, ChouetteStep

#: The keys of a stored game step that the engine reads (the others are the table's entry).
ENGINE_KEYS = ("type", "rolloff", "lineup", "player", "record")
ROLE_LABELS = {"box": _("Box"), "captain": _("Captain"), "crew": _("Crew"), "box_partner": _("Box partner")}
END_LABELS = {CubeEnd.PLAYED: _("played"), CubeEnd.MEMBER_DROPPED: _("dropped"), CubeEnd.BOX_DROPPED: _("Box dropped")}
LEVEL_LABELS = {1: pgettext_lazy("chouette result", "single"), 2: _("gammon"), 3: _("backgammon")}
#: Who won what, as whole sentences (the Box or the team, at each level): a translator words each.
RESULT_LABELS = {
    ("box", 1): _("the Box won a single"), ("box", 2): _("the Box won a gammon"), ("box", 3): _("the Box won a backgammon"),
    ("team", 1): _("the team won a single"), ("team", 2): _("the team won a gammon"),
    ("team", 3): _("the team won a backgammon"),
}


# --- from rows to the engine ---------------------------------------------------------------------

#: The house rules a table may play by, each a column of the session named as the engine's option
#: (engine.chouette.settings).
HOUSE_RULES = ("three_handed_both_cubes", "box_must_take_captain", "take_half_initial_only",
               "captain_alone_must_beaver", "box_partner_next_in_line", "jacoby_counts_automatic")
#: The sentence a table's page shows for each house rule it plays by (jacoby_counts_automatic: when
#: Jacoby is on, one of the two sentences is shown, see house_rule_labels).
HOUSE_RULE_LABELS = {
    "three_handed_both_cubes": _("at three players the Box takes both cubes or passes both"),
    "box_must_take_captain": _("the Box takes the Captain's cube when he takes another"),
    "take_half_initial_only": _("the Box takes half of a full turn of initial cubes only"),
    "captain_alone_must_beaver": _("a Captain who takes alone beavers"),
    "box_partner_next_in_line": _("the Box partner is the next in line and captains when the Box loses"),
}


def house_rule_labels(session: ChouetteSession) -> list[str]:
    """The sentences naming the house rules a table plays by, for its page."""
    labels = [str(label) for name, label in HOUSE_RULE_LABELS.items() if getattr(session, name)]
    if session.jacoby and session.automatic_doubles:
        labels.append(gettext("an automatic double counts for Jacoby") if session.jacoby_counts_automatic
                      else gettext("an automatic double does not count for Jacoby"))
    return labels



def session_settings(session: ChouetteSession) -> ChouetteSettings:
    """The engine's table options of a session (every option passed explicitly)."""
    return ChouetteSettings(
        single_cube=session.single_cube, jacoby=session.jacoby, box_must_take_half=session.box_must_take_half,
        lone_taker_must_beaver=session.lone_taker_must_beaver, beavers=session.beavers, raccoons=session.raccoons,
        automatic_doubles=session.automatic_doubles, box_partner_from=session.box_partner_from,
        **{name: getattr(session, name) for name in HOUSE_RULES},
    )


def engine_step(row: ChouetteStep, *, void: bool | None = None) -> Step:
    """The engine's step for a stored row (voided as the row is, unless ``void`` says otherwise)."""
    data = {key: value for key, value in row.record.items() if key in ENGINE_KEYS}
    data["void"] = row.voided if void is None else void
    return step_from_json(data)


def engine_steps(rows: Iterable[ChouetteStep]) -> list[Step]:
    return [engine_step(row) for row in rows]


def money(points: int, stake: Decimal) -> Decimal:
    """Points in money at the session's stake (exact: the stake has two decimals)."""
    return (Decimal(points) * stake).quantize(Decimal("0.01"))


# --- what the pages and the API show ---------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """A player of the line-up for the next game: ``place`` 0 is the Box, 1 the Captain, then the crew."""

    player_id: int
    display_name: str
    role: str
    place: int
    points: int
    money: Decimal

    @property
    def role_label(self) -> str:
        return str(ROLE_LABELS[self.role])


@dataclass(frozen=True)
class CubeRow:
    """One team member's cube in one game: its face when his game ended, and how it ended."""

    player_id: int
    display_name: str
    value: int
    end: str

    @property
    def end_label(self) -> str:
        return str(END_LABELS[CubeEnd(self.end)])


@dataclass(frozen=True)
class AmountRow:
    """One player's result in one game, with his role in it."""

    player_id: int
    display_name: str
    role: str
    points: int
    money: Decimal

    @property
    def role_label(self) -> str:
        return str(ROLE_LABELS[self.role])


@dataclass(frozen=True)
class GameRow:
    """One recorded game. ``number`` is its place among the session's games (voided ones count: the
    numbers never change); ``step`` its step number. A voided game has no amounts."""

    number: int
    step: int
    entry: str
    voided: bool
    amended: int
    recorded_by: str
    recorded_at: dt.datetime
    box_id: int
    box_name: str
    captain_id: int
    captain_name: str
    box_partner_id: int | None
    box_partner_name: str | None
    crew: tuple[tuple[int, str], ...]
    winner: str | None
    level: int
    automatic: int
    cubes: tuple[CubeRow, ...]
    amounts: tuple[AmountRow, ...] | None
    captain_won: bool | None
    entered: dict

    @property
    def level_label(self) -> str:
        return str(LEVEL_LABELS[self.level])

    @property
    def result_label(self) -> str:
        if self.winner is None:
            return gettext("nobody played to the end")
        return str(RESULT_LABELS[("box" if self.winner == "box" else "team", self.level)])


@dataclass(frozen=True)
class LedgerRow:
    """A player's running total over the session (everyone who sat, in order of arrival)."""

    player_id: int
    display_name: str
    points: int
    money: Decimal
    seated: bool


@dataclass(frozen=True)
class Transfer:
    """One payment of the settlement (fewest transfers, engine.chouette.settle_up)."""

    payer_id: int
    payer_name: str
    payee_id: int
    payee_name: str
    points: int
    money: Decimal


@dataclass(frozen=True)
class StepRow:
    """A step of the session's history (start, join, leave, game)."""

    number: int
    kind: str
    player_id: int | None
    display_name: str | None
    voided: bool
    amended: int
    recorded_by: str
    recorded_at: dt.datetime


@dataclass(frozen=True)
class ChouetteState:
    """A session as its table page and its API show it (newest game first)."""

    session: ChouetteSession
    settings: ChouetteSettings
    lineup: tuple[Seat, ...]
    box_partner_allowed: bool
    games: tuple[GameRow, ...]
    game_count: int
    ledger: tuple[LedgerRow, ...]
    settlement: tuple[Transfer, ...]
    steps: tuple[StepRow, ...]

    @property
    def version(self) -> int:
        return self.session.version

    @property
    def team(self) -> tuple[Seat, ...]:
        return self.lineup[1:]

    @property
    def crew(self) -> tuple[Seat, ...]:
        return self.lineup[2:]

    @property
    def earlier_numbers(self) -> range:
        """The numbers of the games older than those shown."""
        return range(1, self.game_count - len(self.games) + 1)

    @property
    def last_game(self) -> GameRow | None:
        return next((game for game in self.games if not game.voided), None)


def _names(player_ids: Iterable[int]) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=set(player_ids)).values_list("pk", "display_name"))


def _roles(lineup: Lineup, partner=None) -> dict[int, str]:
    roles = {lineup.box: "box", lineup.captain: "captain"}
    roles.update((player, "box_partner" if player == partner else "crew") for player in lineup.crew)
    return roles


def _cubes(lineup: Lineup, game: ChouetteGame, names: Mapping[int, str]) -> tuple[CubeRow, ...]:
    # A member the record leaves out played the whole game on the starting cube (engine.chouette.ChouetteGame).
    given = {cube.player: cube for cube in game.cubes}
    rows = []
    for player in lineup.team:
        if player == game.box_partner:
            continue
        cube = given.get(player)
        value, end = (cube.value, str(cube.end)) if cube is not None else (game.start_value, str(CubeEnd.PLAYED))
        rows.append(CubeRow(player, names.get(player, "?"), value, end))
    return tuple(rows)


def _game_row(number: int, row: ChouetteStep, lineup: Lineup, game: ChouetteGame, settlement, stake: Decimal,
              names: Mapping[int, str]) -> GameRow:
    amounts = None
    if settlement is not None:
        roles = _roles(lineup, game.box_partner)
        amounts = tuple(AmountRow(player, names.get(player, "?"), roles[player], points, money(points, stake))
                        for player, points in settlement.amounts.items())
    partner = game.box_partner
    return GameRow(
        number=number, step=row.number, entry=row.record.get("entry", "quick"), voided=row.voided, amended=row.amended,
        recorded_by=row.recorded_by.get_username(), recorded_at=row.recorded_at,
        box_id=lineup.box, box_name=names.get(lineup.box, "?"), captain_id=lineup.captain,
        captain_name=names.get(lineup.captain, "?"), box_partner_id=partner,
        box_partner_name=None if partner is None else names.get(partner, "?"),
        crew=tuple((player, names.get(player, "?")) for player in lineup.crew),
        winner=None if game.winner is None else str(game.winner), level=game.level, automatic=game.automatic,
        cubes=_cubes(lineup, game, names), amounts=amounts,
        captain_won=None if settlement is None else settlement.captain_won, entered=row.record.get("entered", {}),
    )


def chouette_replay(session: ChouetteSession, rows: Sequence[ChouetteStep]) -> Session:
    """The engine's replay of the session's steps (``rows`` in order)."""
    return replay_session(engine_steps(rows), session_settings(session))


#: Bounds how long a renamed player can show under his old name on a table's cached state.
STATE_CACHE_SECONDS = 300


def chouette_state(*, session: ChouetteSession, last_games: int | None = None) -> ChouetteState:
    """Everything the table shows, recomputed from the steps: the line-up for the next game with each
    seat's running total, the games newest first (the last ``last_games`` of them, or all) with every
    member's cube and every player's amount, the ledger and the settlement with the fewest transfers
    (what would be paid if the session ended now; the final one once it has). ``game_count`` counts
    every game, shown or not. Four queries, one when the cache has this version of the table.

    Cached by the session's ``version``, which every change of its steps (or its end) moves on in
    the same transaction: a cached state is never older than the table, whatever changed it. The
    version is read afresh (one query), so a caller holding an old copy of the session row still
    gets the table as it is. ``started_at`` keeps a recreated database from meeting an old entry.
    """
    session = ChouetteSession.objects.get(pk=session.pk)
    key = f"chouette:state:{session.pk}:{session.started_at.timestamp()}:{session.version}:{last_games}"
    state = cache.get(key)
    if state is None:
        state = _chouette_state(session, last_games)
        cache.set(key, state, STATE_CACHE_SECONDS)
    return state


def _chouette_state(session: ChouetteSession, last_games: int | None) -> ChouetteState:
    """:func:`chouette_state`, computed.

    Each stored step is parsed once: the replay and the game rows read the same engine steps (a game
    step carries the line-up it was played with and its game). Only the games shown get a row.
    """
    rows = list(session.steps.select_related("recorded_by").order_by("number"))
    settings = session_settings(session)
    steps = engine_steps(rows)
    replayed = replay_session(steps, settings)
    settled = {game.step: game.settlement for game in replayed.games}
    stake = session.stake

    game_indexes = [index for index, row in enumerate(rows) if row.kind == ChouetteStep.Kind.GAME]
    shown_count = len(game_indexes) if last_games is None else max(0, min(last_games, len(game_indexes)))
    # (number, index) of the games shown, newest first; a game's number is its place among all of them.
    shown = [(number, game_indexes[number - 1])
             for number in range(len(game_indexes), len(game_indexes) - shown_count, -1)]
    played = {index: _played(steps[index], settings) for _, index in shown}

    lineup = replayed.lineup
    seen = set(replayed.ledger)
    seen.update(lineup.players if lineup is not None else ())
    for game_lineup, _game in played.values():
        seen.update(game_lineup.players)
    seen.update(row.player_id for row in rows if row.player_id is not None)
    names = _names(seen)

    games = tuple(_game_row(number, rows[index], *played[index], settled.get(index), stake, names)
                  for number, index in shown)

    seats: list[Seat] = []
    if lineup is not None:
        roles = _roles(lineup)
        seats = [Seat(player, names.get(player, "?"), roles[player], place, replayed.ledger.get(player, 0),
                      money(replayed.ledger.get(player, 0), stake))
                 for place, player in enumerate(lineup.players)]
    seated = set(lineup.players) if lineup is not None else set()
    ledger = tuple(LedgerRow(player, names.get(player, "?"), points, money(points, stake), player in seated)
                   for player, points in replayed.ledger.items())
    settlement = tuple(Transfer(payer, names.get(payer, "?"), payee, names.get(payee, "?"), points, money(points, stake))
                       for payer, payee, points in settle_up(replayed.ledger))
    step_rows = tuple(StepRow(row.number, row.kind, row.player_id, names.get(row.player_id) if row.player_id else None,
                              row.voided, row.amended, row.recorded_by.get_username(), row.recorded_at) for row in rows)
    return ChouetteState(
        session=session, settings=settings, lineup=tuple(seats),
        box_partner_allowed=lineup is not None and settings.box_partner_allowed(len(lineup.players)),
        games=games, game_count=len(game_indexes), ledger=ledger, settlement=settlement, steps=step_rows,
    )


def _played(step: GameStep, settings: ChouetteSettings) -> tuple[Lineup, ChouetteGame]:
    """The line-up a stored game step was played with and its game (a stored record is the game the
    engine checked; a full record would give its game here)."""
    record = step.record
    game = record if isinstance(record, ChouetteGame) else record.chouette_game(step.lineup, settings)
    return step.lineup, game


# --- lists ---------------------------------------------------------------------------------------------


def chouette_list(*, club: Club) -> QuerySet[ChouetteSession]:
    """The club's sessions, newest first, with ``game_count`` (the games that count: not voided)."""
    return (ChouetteSession.objects.filter(club=club).select_related("night", "created_by")
            .annotate(game_count=Count("steps", filter=Q(steps__kind="game", steps__voided=False)))
            .order_by("-started_at", "-id"))


def chouette_player_seated(player_id: int) -> bool:
    """Whether ``player_id`` ever sat at a chouette table: he joined one (a step names him) or was
    in a table's opening roll-off (held in the start step's JSON). One query on PostgreSQL; the
    embedded SQLite run reads the start steps."""
    if ChouetteStep.objects.filter(player_id=player_id).exists():
        return True
    starts = ChouetteStep.objects.filter(kind=ChouetteStep.Kind.START)
    if connection.vendor == "postgresql":
        # strict: lax mode would unwrap each [player, die] pair and match a die equal to the id.
        return starts.extra(where=["jsonb_path_exists(record, 'strict $.rolloff[*][*] ? (@[0] == $id)', "
                                   "jsonb_build_object('id', %s), true)"], params=[player_id]).exists()
    return any(player_id in (seat[0] for seat in rolloff_round)
               for record in starts.values_list("record", flat=True).iterator()
               for rolloff_round in (record or {}).get("rolloff") or ())


def club_players(*, club: Club) -> list[tuple[int, str]]:
    """The players of the club's active members, by name: who may sit at its tables. One query."""
    return list(member_players(club_id=club.pk).order_by("display_name", "id").values_list("pk", "display_name"))


def chouette_get(*, club: Club, chouette_id: int) -> ChouetteSession:
    """One session of the club; raises ChouetteSession.DoesNotExist (another club's too)."""
    return ChouetteSession.objects.select_related("club", "night", "created_by").get(pk=chouette_id, club=club)


def chouette_night_sessions(night: ClubNight) -> list[ChouetteSession]:
    """The sessions played at a club night, in the order they started, with their club and their
    steps (prefetched). Two queries."""
    return list(ChouetteSession.objects.filter(night=night).select_related("club").prefetch_related("steps")
                .order_by("started_at", "id"))


def chouette_night_totals(night: ClubNight, *, sessions: Sequence[ChouetteSession] | None = None) -> dict[int, Decimal]:
    """Each player's net money over the night's sessions (points x each session's stake), by player
    id; everyone who sat at one of them is there, at 0 if he broke even. Two queries, none when
    given the night's ``sessions`` as :func:`chouette_night_sessions` reads them."""
    totals: dict[int, Decimal] = defaultdict(lambda: Decimal("0.00"))
    for session in chouette_night_sessions(night) if sessions is None else sessions:
        rows = sorted(session.steps.all(), key=lambda row: row.number)
        for player, points in chouette_replay(session, rows).ledger.items():
            totals[player] += money(points, session.stake)
    return dict(totals)
