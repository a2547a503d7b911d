"""Chouette tables (RULES.md §7): starting a session from the opening roll-off, players joining at
the bottom and leaving, games recorded (a quick result or the full record of the board), corrected
(amended or voided) and the session ended with its settlement, or reopened by its director.

An ended session is closed to every change (a game recorded, amended or voided, a join or a leave,
the house rules): its settlement is final, refused with Conflict ``chouette_ended`` saying who can
reopen it, until one of the club's owners or organisers reopens it (``chouette_reopen``).

Every rule is the engine's (``engine.chouette``, full records included): the services only turn
rows into engine values and back. A session is a list of steps, and a step is written only if the
whole session still replays with it. The line-up, each game's amounts and the ledger are never
stored to be edited: :mod:`chouette.selectors` recomputes them from the steps.

The session keeps the state its steps lead to (``ChouetteSession.kept``: the engine's
``SessionState`` with the version, settings, step count, last step number and game count it was
computed from), written with every change. A new step at the end (a game, a join, a leave) is
folded into that state by ``engine.chouette.session_advance``: recording game N+1 settles one game,
not N+1, and reads no step row.

A correction (amend, void) really corrects: every later game's line-up is recomputed from the
corrected steps (``engine.chouette.session_correct``). A later game still played by the same Box and
Captain moves to its new line-up (its stored ``lineup`` rewritten); one that no longer can is named
to the director, who amends it with the correction (``later``): the correction and those games are
written together, or nothing is. The kept state is written after the step rows (the trigger of
migration 0002 empties it when they change), from the corrected fold. The state is used only if it still matches the session (see
:func:`_standing`); otherwise every step is replayed, as a correction (amend, void) always does,
and the state is written afresh.

Each service runs in one transaction under the session's row lock (``select_for_update``: the
table's lock), so two games recorded at one table at the same moment are written one after the
other, numbered without gaps, the second replayed after the first. A client that built its form
from a given state of the table may send that state's ``expected_version``: if the table has moved
on since (another game was recorded), the write is refused (409 ``stale_table``) rather than
applied to a line-up the client never saw. Each change moves ``version`` on and is audited with the
club (``chouette.*``).

Who acts: the club's owners and organisers (NotAllowed ``not_club_manager`` for anyone else).

Refusals (nothing is saved): DomainError (400) with the engine's own ``code`` and, in
``details``, the ``field`` it concerns — a path inside the record as sent (``cubes[2].value``,
``log[1]``, ``amounts``, ``board_log[7]``; a full record's errors also carry ``action_index``, the
0-based index in its ``board_log``) or the service's argument (``rolloff[0][2][0]``, ``player``,
``stake``); Conflict (409) when the table's state forbids it: ``chouette_ended``, ``stale_table``,
``chouette_game_voided``, ``duplicate_player`` (already at the table), ``too_few_players`` (the
last two cannot leave: end the session), and a correction that later games no longer fit:
``later_games_to_amend`` (their Box or Captain is no longer who the recomputed line-up puts there,
or their record no longer fits it; ``details['games']`` names each with its players, the message
speaks of them by name, ``details['step']``/``details['game']`` the first). A refused message never
names a player by id (:func:`_named`). Club.DoesNotExist,
ChouetteSession.DoesNotExist and ChouetteStep.DoesNotExist (an unknown game number) are for the
views to turn into 404s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from audit.services import audit_record
from clubs import errors as club_errors
from clubs.models import Club, ClubNight
from clubs.permissions import require_club_manager
from clubs.selectors import member_players
from core.bounds import SMALLINT_MAX
from core.engine_messages import refusal_text
from core.errors import Conflict, DomainError
from core.locking import locked_one
from core.text import name_clean
from engine.chouette import (
    ChouetteGame,
    ChouetteSettings,
    Correction,
    GameStep,
    GameToAmend,
    JoinStep,
    LeaveStep,
    Lineup,
    Session,
    SessionGame,
    SessionState,
    Step,
    chouette_quick_game,
    game_from_json,
    lineup_to_json,
    session_advance,
    session_correct,
    settle_up,
    state_from_json,
    state_to_json,
    step_from_json,
    step_to_json,
)
from engine.chouette.full_game import full_game_from_json
from engine.errors import ChouetteError
from matches.models import Player

from . import errors
from .models import ChouetteSession, ChouetteStep
from .selectors import HOUSE_RULES, engine_step, engine_steps, session_settings

QUICK, FULL = "quick", "full"
ENTRIES = (QUICK, FULL)
#: The engine's codes that say the table's state forbids the step (409), not that the input is wrong.
STATE_CODES = frozenset({"duplicate_player", "too_few_players"})
#: Where a rule broken by a game record lives in the record, when the engine names no path.
CODE_FIELDS = {
    "missing_result": "winner", "unexpected_result": "winner", "bad_winner": "winner", "bad_level": "level",
    "too_many_automatic": "automatic", "bad_automatic": "automatic", "bad_box_partner": "box_partner",
    "box_partner_not_allowed": "box_partner", "amounts_unbalanced": "amounts", "amounts_mismatch": "amounts",
    "single_cube_values": "cubes", "single_cube_split": "cubes", "box_partner_not_next": "box_partner",
}
CURRENCY = re.compile(r"[A-Z]{3}")
MAX_STAKE = Decimal("9999999.99")
MAX_AUTOMATIC = 30  # the engine counts automatic doubles up to 30 (a cube of 2**30)
MAX_BOX_PARTNER_FROM = SMALLINT_MAX  # no table seats that many: the column's bound
#: The audit log's name for each kind of row. The tables were the clubs app's when the log began and an
#: entry is never rewritten, so new entries keep the names the old ones have: a table's history
#: (``object_type`` and ``object_id``) reads as one across the move to this app.
AUDIT_OBJECT_TYPES = {ChouetteSession: "clubs.ChouetteSession", ChouetteStep: "clubs.ChouetteStep"}


# --- refusals ------------------------------------------------------------------------------------------


def _engine_message(error: ChouetteError) -> str:
    step = error.details.get("step")
    # The engine counts steps from 0 in its message; the table counts them from 1, in details.
    text = refusal_text(error)
    return text.removeprefix(f"step {step}: ") if step is not None else text


def _field_of(error: ChouetteError, entered: Mapping | None, entry: str | None) -> str | None:
    """Where in the record (as sent) the broken rule lives: the engine's path when it gives one."""
    details = error.details
    if details.get("path") is not None:
        return details["path"] or None
    if details.get("field"):
        return details["field"]
    if entry == FULL and details.get("action_index") is not None:
        return f"board_log[{details['action_index']}]"
    if entry == QUICK and details.get("moment") is not None:
        return f"log[{details['moment']}]"
    player = details.get("player")
    if player is not None and isinstance(entered, Mapping) and isinstance(entered.get("cubes"), list):
        for index, cube in enumerate(entered["cubes"]):
            if isinstance(cube, Mapping) and cube.get("player") == player:
                return f"cubes[{index}]"
    return CODE_FIELDS.get(error.code)


def _refusal(error: ChouetteError, *, field: str | None = None, conflict: bool = False, **details) -> DomainError:
    kind = Conflict if conflict or error.code in STATE_CODES else DomainError
    location = {key: error.details[key] for key in ("action_index", "player", "round") if key in error.details}
    return kind(_named(_engine_message(error), error.details.get("player")), code=error.code, field=field,
                **location, **details)


def _named(message: str, player) -> str:
    """The engine's message with the player it names (by id) named as people know him (one query)."""
    if not isinstance(player, int) or isinstance(player, bool):
        return message
    name = Player.objects.filter(pk=player).values_list("display_name", flat=True).first()
    return re.sub(rf"(?<![\w.]){player}(?![\w.])", name or gettext("a player unknown here"), message)


def _audit(action: str, *, actor, club: Club, obj: ChouetteSession | ChouetteStep, before=None, after=None,
           note: str = "") -> None:
    """One audit entry, with the club, for a change of a session or one of its steps."""
    audit_record(actor=actor, action=action, object_type=AUDIT_OBJECT_TYPES[type(obj)], object_id=obj.pk,
                 club_id=club.pk, before=before, after=after, note=note)


# --- rows to engine values ------------------------------------------------------------------------------


def _locked(club_id: int, chouette_id: int, user) -> tuple[Club, ChouetteSession]:
    """The club and its session, the session row locked until the transaction ends (the table's
    lock), after checking that ``user`` manages the club."""
    club = Club.objects.get(pk=club_id)
    session = locked_one(ChouetteSession.objects.all(), pk=chouette_id, club=club)
    require_club_manager(club, user)
    return club, session


def _check_open(session: ChouetteSession, expected_version: int | None) -> None:
    if session.status != ChouetteSession.Status.OPEN:
        raise errors.chouette_ended()
    _check_version(session, expected_version)


def _check_version(session: ChouetteSession, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != session.version:
        raise errors.stale_table(expected_version, session.version)


def _rows(session: ChouetteSession) -> list[ChouetteStep]:
    return list(session.steps.order_by("number"))


def _game_rows(rows: Sequence[ChouetteStep]) -> list[tuple[int, ChouetteStep]]:
    return [(index, row) for index, row in enumerate(rows) if row.kind == ChouetteStep.Kind.GAME]


def _replay(session: ChouetteSession, steps: Sequence[Step], rows: Sequence[ChouetteStep | None], *,
            changed: int | None = None, entered: Mapping | None = None, entry: str | None = None,
            field: str | None = None) -> Session:
    """Replay the session's steps with the engine. A refusal at step ``changed`` (the one being
    written) is the input's fault (400, located in the record); at a later step it is a correction
    that this step no longer survives (409, with its step and game numbers)."""
    state, games = _fold(session, SessionState(), steps, rows, changed=changed, entered=entered, entry=entry,
                         field=field)
    return Session(state.lineup, games, state.ledger)


def _fold(session: ChouetteSession, state: SessionState, steps: Sequence[Step], rows: Sequence[ChouetteStep | None],
          *, changed: int | None = None, entered: Mapping | None = None, entry: str | None = None,
          field: str | None = None) -> tuple[SessionState, tuple[SessionGame, ...]]:
    """Fold ``steps`` into ``state`` with the engine (``rows[i]`` is step ``i``'s row, None for the
    one being written); refusals as :func:`_replay`."""
    try:
        return session_advance(state, steps, session_settings(session))
    except ChouetteError as error:
        index = error.details.get("step")
        row = rows[index] if index is not None and index < len(rows) else None
        if row is None or index == changed:
            raise _refusal(error, field=field or _field_of(error, entered, entry)) from None
        games = [number for number, (_, game) in enumerate(_game_rows(rows), start=1) if game is row]
        raise _refusal(error, conflict=True, step=row.number, game=games[0] if games else None,
                       field=field) from None


def _club_player(club: Club, player_id, field: str) -> Player:
    """An active member's player; DomainError ``unknown_player`` (``field``) for anyone else."""
    player = None
    if isinstance(player_id, int) and not isinstance(player_id, bool):
        player = member_players(club_id=club.pk).filter(pk=player_id).first()
    if player is None:
        raise DomainError(gettext("player %(player)r is not an active member of this club") % {"player": player_id},
                          code="unknown_player",
                          field=field)
    return player


def _announced(data) -> dict[int, int]:
    """The amounts the table announced, ``[{"player": 7, "points": -2}, ...]``, by player."""
    if not isinstance(data, list):
        raise DomainError(gettext("amounts: expected a list of {player, points}"), code="bad_json", field="amounts")
    amounts: dict[int, int] = {}
    for index, item in enumerate(data):
        where = f"amounts[{index}]"
        if not isinstance(item, dict) or set(item) != {"player", "points"}:
            raise DomainError(f"{where}: expected {{player, points}}", code="bad_json", field=where)
        player, points = item["player"], item["points"]
        for name, value in (("player", player), ("points", points)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise DomainError(f"{where}.{name}: expected a whole number, not {value!r}", code="bad_json",
                                  field=f"{where}.{name}")
        if player in amounts:
            raise DomainError(f"{where}.player: player {player} is announced twice", code="bad_json",
                              field=f"{where}.player")
        amounts[player] = points
    return amounts


def _parse_entry(entry: str, entered, lineup: Lineup, settings: ChouetteSettings) -> ChouetteGame:
    """The engine's game for a record as the table sent it, checked against the line-up it was
    played with: a quick result (``engine.chouette.game_from_json``'s form, plus the ``amounts`` the
    table announced, if any: see :func:`_check_announced`) or a full record
    (``engine.chouette.full_game``'s form: the board's log and the crew's cube moments)."""
    if entry not in ENTRIES:
        raise DomainError(gettext("kind: a game is recorded as quick or full, not %(entry)r") % {"entry": entry},
                          code="bad_entry", field="kind")
    if not isinstance(entered, dict):
        raise DomainError(gettext("record: expected a JSON object"), code="bad_json", field="record")
    try:
        if entry == QUICK:
            return game_from_json({key: value for key, value in entered.items() if key != "amounts"}, lineup)
        if "board_log" not in entered:
            raise DomainError("board_log: a full record carries the board's log", code="bad_json", field="board_log")
        return full_game_from_json(entered, lineup).chouette_game(lineup, settings)
    except ChouetteError as error:
        raise _refusal(error, field=_field_of(error, entered, entry)) from None


def _check_announced(entry: str, entered: dict, game: ChouetteGame, lineup: Lineup, settings: ChouetteSettings) -> None:
    """The amounts a quick result announces (``[{"player": 7, "points": -2}, ...]``, players left out
    at 0) must sum to zero and be what the cubes give (engine.chouette.chouette_quick_game). Called
    once the game is known to settle, so that whatever is refused here is the amounts' fault."""
    if entry != QUICK or "amounts" not in entered:
        return
    announced = _announced(entered["amounts"])
    try:
        chouette_quick_game(
            lineup, winner=game.winner, level=game.level, automatic=game.automatic, box_partner=game.box_partner,
            cubes={cube.player: (cube.value, cube.end) for cube in game.cubes}, amounts=announced, settings=settings,
        )
    except ChouetteError as error:
        player = error.details.get("player")
        where = next((f"amounts[{index}]" for index, key in enumerate(announced) if key == player), "amounts")
        raise _refusal(error, field=where if error.code != "amounts_unbalanced" else "amounts") from None


def _game_record(entry: str, entered: dict, game: ChouetteGame, lineup: Lineup) -> dict:
    return {**step_to_json(GameStep(game, lineup)), "entry": entry, "entered": entered}


def _amounts(replayed: Session | Sequence[SessionGame], index: int) -> dict[int, int] | None:
    games = replayed.games if isinstance(replayed, Session) else replayed
    game = next((game for game in games if game.step == index), None)
    return None if game is None else {str(player): points for player, points in game.settlement.amounts.items()}


@dataclass(frozen=True)
class _Standing:
    """Where a session stands: the engine's state after its steps, its last step's number and how many
    of its steps are games (voided ones too)."""

    state: SessionState
    last: int
    games: int


def _settings_key(session: ChouetteSession) -> dict:
    return asdict(session_settings(session))


def _standing(session: ChouetteSession) -> _Standing:
    """The state the session's steps lead to: the kept one (``session.kept``, no step row read, no
    game settled) while it matches the session, else every step replayed.

    The kept state matches when it was written at the session's current ``version`` (every service
    change moves it on), with its current settings, and the rows still number as many steps, with the
    same last number and as many games (one aggregate query, also the next step's number). A step row
    updated or deleted below the services has emptied it (the trigger of migration 0002). Raises as
    :func:`_replay` when a full replay is refused (409 at the step that no longer replays).
    """
    counts = session.steps.aggregate(count=Count("id"), last=Max("number"),
                                     games=Count("id", filter=Q(kind=ChouetteStep.Kind.GAME)))
    last = counts["last"] or 0
    kept = session.kept
    if (isinstance(kept, dict) and kept.get("version") == session.version
            and kept.get("settings") == _settings_key(session)
            and (kept.get("count"), kept.get("last"), kept.get("games")) == (counts["count"], last, counts["games"])):
        try:
            state = state_from_json(kept.get("state"))
        except ChouetteError:
            state = None
        if state is not None and state.steps == counts["count"]:
            return _Standing(state, last, counts["games"])
    rows = _rows(session)
    state, _ = _fold(session, SessionState(), engine_steps(rows), rows)
    return _Standing(state, last, counts["games"])


def _moved_on(session: ChouetteSession, state: SessionState, *, last: int, games: int, fields: Sequence[str] = ()) -> None:
    """Move the session's version on and keep ``state``, where its steps now lead (``last`` the
    number of its last step, ``games`` how many steps are games)."""
    session.version += 1
    _keep(session, state, last=last, games=games)
    session.save(update_fields=["version", "kept", *fields])


def _keep(session: ChouetteSession, state: SessionState, *, last: int, games: int) -> None:
    session.kept = {"version": session.version, "settings": _settings_key(session), "count": state.steps,
                    "last": last, "games": games, "state": state_to_json(state)}


def _step_create(session: ChouetteSession, user, kind: str, data: dict, number: int,
                 player: int | None = None) -> ChouetteStep:
    return ChouetteStep.objects.create(session=session, number=number, kind=kind, player_id=player, record=data,
                                       recorded_by=user)


def _settings_summary(session: ChouetteSession) -> dict:
    return {name: getattr(session, name) for name in (
        "single_cube", "jacoby", "beavers", "raccoons", "automatic_doubles", "box_partner_from",
        "box_must_take_half", "lone_taker_must_beaver", *HOUSE_RULES, "stake", "currency")}


# --- the session -----------------------------------------------------------------------------------------


def _stake(stake) -> Decimal:
    try:
        value = Decimal(str(stake))
    except (InvalidOperation, ValueError):
        raise errors.bad_chouette("stake", gettext("%(stake)r is not an amount") % {"stake": stake}) from None
    if not value.is_finite() or value < 0 or value > MAX_STAKE or value != value.quantize(Decimal("0.01")):
        raise errors.bad_chouette("stake", gettext("an amount from 0 to 9999999.99, at most two decimals"))
    return value.quantize(Decimal("0.01"))


#: A new table's settings unless its director chooses others: a cube per member, Jacoby (an
#: automatic double not turning the cube for it), no beavers, no automatic doubles, no Box partner and
#: every house rule off.
NEW_TABLE = ChouetteSettings(beavers=False, box_partner_from=None, jacoby_counts_automatic=False)
#: The names of a table's settings (``ChouetteSettings``' fields).
SETTING_NAMES = tuple(ChouetteSettings.__dataclass_fields__)


def chouette_settings(options: Mapping[str, object]) -> ChouetteSettings:
    """A new table's settings: :data:`NEW_TABLE` with ``options`` (a setting's name -> its value; the
    settings left out keep :data:`NEW_TABLE`'s), as the start form and the API send them.

    Raises DomainError: the engine's ``bad_settings`` / ``raccoons_without_beavers`` (``field`` the
    option: a value of the wrong type, a negative limit, a Box partner from fewer than 3 players, a
    house rule without the setting it needs). A name that is not a setting's is a TypeError.
    """
    try:
        return replace(NEW_TABLE, **options)
    except ChouetteError as error:
        raise _refusal(error, field=error.details.get("field")) from None


@transaction.atomic
def chouette_start(*, club_id: int, user, rolloff, settings: ChouetteSettings = NEW_TABLE, name: str = "",
                   night_id: int | None = None, stake=Decimal("1.00"), currency: str = "EUR") -> ChouetteSession:
    """An owner or organiser starts a chouette table: its settings (RULES.md §7: one cube per member
    or a single cube, Jacoby, beavers and raccoons, the limit on automatic doubles, a Box partner from
    a given number of players, the house rules; :func:`chouette_settings` makes them from a form's or
    a request's options, :data:`NEW_TABLE` unless given), the stake per point and the opening roll-off
    (``rolloff``: rounds of ``[player_id, die]``, the first with every player, each later one the
    rerolls of the players still tied; see ``engine.chouette.lineup_from_rolloff``), which gives the
    first line-up. Creates the session and its step 1 (the start); audited as ``chouette.started``.

    The house rules (engine.chouette.settings): ``three_handed_both_cubes``,
    ``box_must_take_captain``, ``take_half_initial_only`` (narrows ``box_must_take_half``),
    ``captain_alone_must_beaver`` (needs beavers), ``box_partner_next_in_line`` (the partner
    convention: the partner is the next in line and captains when the Box loses) and
    ``jacoby_counts_automatic``: off by default, so at a new table an automatic double does not turn
    the cube for Jacoby (gnubg's and most clubs' convention); tables started before keep counting it.

    Raises Club.DoesNotExist; NotAllowed ``not_club_manager``; DomainError ``bad_chouette`` (name,
    stake, currency, automatic_doubles and box_partner_from above what a table stores),
    ``bad_json`` / ``bad_die`` / ``rolloff_tie`` / ``rolloff_not_tied`` /
    ``too_few_players`` / ``duplicate_player`` (``field`` in ``rolloff``), ``unknown_player`` (a player
    who is not an active member's), ``unknown_night``; Conflict ``night_closed``.
    """
    club = Club.objects.get(pk=club_id)
    require_club_manager(club, user)
    name = name_clean(name, field="name", refuse=errors.bad_chouette) if isinstance(name, str) else ""
    if len(name) > 80:
        raise errors.bad_chouette("name", gettext("at most 80 characters"))
    stake = _stake(stake)
    if not isinstance(currency, str) or not CURRENCY.fullmatch(currency.strip().upper()):
        raise errors.bad_chouette("currency", gettext("three letters, such as EUR"))
    currency = currency.strip().upper()
    if settings.automatic_doubles > MAX_AUTOMATIC:
        raise errors.bad_chouette("automatic_doubles", gettext("at most %(limit)s") % {"limit": MAX_AUTOMATIC})
    if settings.box_partner_from is not None and settings.box_partner_from > MAX_BOX_PARTNER_FROM:
        raise errors.bad_chouette("box_partner_from", gettext("at most %(limit)s") % {"limit": MAX_BOX_PARTNER_FROM})
    night = None
    if night_id is not None:
        night = ClubNight.objects.filter(pk=night_id, club=club).first()
        if night is None:
            raise DomainError(gettext("night %(night)s is not one of this club's nights") % {"night": night_id},
                              code="unknown_night", field="night")
        if night.status != ClubNight.Status.OPEN:
            raise club_errors.night_closed()
    try:
        start = step_from_json({"type": "start", "rolloff": rolloff})
    except ChouetteError as error:
        raise _refusal(error, field=error.details.get("path") or "rolloff") from None
    for index, (player_id, _die) in enumerate(start.rolloff[0] if start.rolloff else ()):
        _club_player(club, player_id, f"rolloff[0][{index}][0]")
    try:
        state, _ = session_advance(SessionState(), [start], settings)
    except ChouetteError as error:
        where = error.details.get("round")
        raise _refusal(error, field="rolloff" if where is None else f"rolloff[{where}]") from None
    lineup = state.lineup

    session = ChouetteSession.objects.create(
        club=club, night=night, name=name, created_by=user, single_cube=settings.single_cube, jacoby=settings.jacoby,
        beavers=settings.beavers, raccoons=settings.raccoons, automatic_doubles=settings.automatic_doubles,
        box_partner_from=settings.box_partner_from, box_must_take_half=settings.box_must_take_half,
        lone_taker_must_beaver=settings.lone_taker_must_beaver, stake=stake, currency=currency, version=1,
        **{name: getattr(settings, name) for name in HOUSE_RULES},
    )
    step = _step_create(session, user, ChouetteStep.Kind.START, step_to_json(start), 1)
    _keep(session, state, last=step.number, games=0)
    session.save(update_fields=["kept"])
    _audit("chouette.started", actor=user, club=club, obj=session, after={
        "name": session.name, "night": night_id, "settings": _settings_summary(session),
        "rolloff": step.record["rolloff"], "lineup": lineup_to_json(lineup)})
    return session


#: The house rules a table may change while it is open: every recorded game must still stand under
#: them, and the session is settled again by them.
CHANGEABLE_RULES = ("box_must_take_half", "lone_taker_must_beaver", *HOUSE_RULES)


@transaction.atomic
def chouette_rules_change(*, club_id: int, chouette_id: int, user, rules: Mapping[str, bool],
                          expected_version: int | None = None) -> ChouetteSession:
    """Change the house rules of an open table (``rules``: a rule's name -> on or off; the rules left
    out keep their value). The rules apply to the whole session: every game recorded so far is
    replayed under them and must still stand, and the line-up and the ledger follow them (e.g.
    Jacoby with automatic doubles not counting settles an earlier gammon single). Changing nothing
    changes nothing. Audited as ``chouette.rules_changed`` with the rules before and after.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager``;
    DomainError ``bad_chouette`` (a name that is not a house rule, a value that is not true or
    false; ``field`` the name), the engine's ``bad_settings`` (``field`` the rule: "initial cubes
    only" without the take-half rule, a Captain made to beaver without beavers); Conflict
    ``chouette_ended``, ``stale_table``, ``house_rules_break_game`` (a recorded game breaks the new
    rules: ``details`` ``game``, ``step`` and ``reason``, the rule's code).
    """
    club, session = _locked(club_id, chouette_id, user)
    _check_open(session, expected_version)
    for name, value in rules.items():
        if name not in CHANGEABLE_RULES:
            raise errors.bad_chouette(str(name), gettext("not a house rule of the table"))
        if not isinstance(value, bool):
            raise errors.bad_chouette(name, gettext("true or false"))
    before = {name: getattr(session, name) for name in CHANGEABLE_RULES}
    after = {**before, **rules}
    if after == before:
        return session
    try:
        settings = ChouetteSettings(**{**asdict(session_settings(session)), **after})
    except ChouetteError as error:
        raise _refusal(error, field=error.details.get("field")) from None
    rows = _rows(session)
    try:
        state, _ = session_advance(SessionState(), engine_steps(rows), settings)
    except ChouetteError as error:
        index = error.details.get("step")
        games = [number for number, (at, _row) in enumerate(_game_rows(rows), start=1) if at == index]
        raise errors.house_rules_break_game(
            games[0] if games else None, rows[index].number if index is not None else None, error.code,
            _named(_engine_message(error), error.details.get("player"))) from None
    for name, value in after.items():
        setattr(session, name, value)
    _moved_on(session, state, last=rows[-1].number, games=len(_game_rows(rows)), fields=CHANGEABLE_RULES)
    changed = sorted(name for name in CHANGEABLE_RULES if before[name] != after[name])
    _audit("chouette.rules_changed", actor=user, club=club, obj=session,
           before={name: before[name] for name in changed}, after={name: after[name] for name in changed})
    return session


@transaction.atomic
def chouette_join(*, club_id: int, chouette_id: int, user, player_id: int,
                  expected_version: int | None = None) -> ChouetteStep:
    """A newcomer (an active member's player) joins the table at the bottom of the line, between
    games; a player who left may come back. Writes a join step; audited as ``chouette.joined``.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager``;
    DomainError ``unknown_player`` (field ``player``); Conflict ``duplicate_player`` (already at the
    table), ``chouette_ended``, ``stale_table``.
    """
    club, session = _locked(club_id, chouette_id, user)
    _check_open(session, expected_version)
    player = _club_player(club, player_id, "player")
    standing = _standing(session)
    step = JoinStep(player.pk)
    state, _ = _fold_one(session, standing, step, field="player")
    row = _step_create(session, user, ChouetteStep.Kind.JOIN, step_to_json(step), standing.last + 1, player.pk)
    _moved_on(session, state, last=row.number, games=standing.games)
    _audit("chouette.joined", actor=user, club=club, obj=row, after={
        "session": session.pk, "player": player.pk, "name": player.display_name,
        "lineup": lineup_to_json(state.lineup)})
    return row


@transaction.atomic
def chouette_leave(*, club_id: int, chouette_id: int, user, player_id: int,
                   expected_version: int | None = None) -> ChouetteStep:
    """A player leaves the table between games (the others move up, engine.chouette.lineup_leave);
    his ledger stays. Writes a leave step; audited as ``chouette.left``.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager``;
    DomainError ``unknown_player`` (not at the table; field ``player``); Conflict ``too_few_players``
    (the last two stay: end the session instead), ``chouette_ended``, ``stale_table``.
    """
    club, session = _locked(club_id, chouette_id, user)
    _check_open(session, expected_version)
    if not isinstance(player_id, int) or isinstance(player_id, bool):
        raise DomainError(gettext("player %(player)r is not at the table") % {"player": player_id}, code="unknown_player",
                          field="player")
    standing = _standing(session)
    step = LeaveStep(player_id)
    state, _ = _fold_one(session, standing, step, field="player")
    row = _step_create(session, user, ChouetteStep.Kind.LEAVE, step_to_json(step), standing.last + 1, player_id)
    _moved_on(session, state, last=row.number, games=standing.games)
    _audit("chouette.left", actor=user, club=club, obj=row, after={
        "session": session.pk, "player": player_id, "lineup": lineup_to_json(state.lineup)})
    return row


@transaction.atomic
def chouette_game_record(*, club_id: int, chouette_id: int, user, kind: str, record: dict,
                         expected_version: int | None = None) -> ChouetteStep:
    """Record the next game at the table, played by the current line-up: ``kind`` ``"quick"`` (who
    won, the level, each member's cube and how it ended, the Box partner, optionally the cube log
    and the amounts the table announced) or ``"full"`` (the board's log and the crew's cube
    moments). The record is checked against the state the session's steps lead to (the kept one,
    see :func:`_standing`: one game settled whatever the session's length) plus this game; it is then
    written as a game step with the line-up it was played with. Audited as ``chouette.game_recorded``
    with every player's amount.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager``;
    DomainError with the engine's code and the field (see the module docstring) — e.g.
    ``amounts_unbalanced`` (a game announced not to settle to zero), ``member_out`` (a cube action
    by a member already out of the game), ``beavers_not_allowed``, ``unknown_player`` — or
    ``bad_entry`` (kind); Conflict ``chouette_ended``, ``stale_table``.
    """
    club, session = _locked(club_id, chouette_id, user)
    _check_open(session, expected_version)
    standing = _standing(session)
    lineup = standing.state.lineup
    game = _parse_entry(kind, record, lineup, session_settings(session))
    state, played = _fold_one(session, standing, GameStep(game, lineup), entered=record, entry=kind)
    _check_announced(kind, record, game, lineup, session_settings(session))
    row = _step_create(session, user, ChouetteStep.Kind.GAME, _game_record(kind, record, game, lineup),
                       standing.last + 1)
    number = standing.games + 1
    _moved_on(session, state, last=row.number, games=number)
    audit_record_of_game("chouette.game_recorded", user, club, session, row, number, after={
        "entry": kind, "record": record, "amounts": _amounts(played, standing.state.steps),
        "lineup": lineup_to_json(lineup)})
    return row


def _fold_one(session: ChouetteSession, standing: _Standing, step: Step, *, entered: Mapping | None = None,
              entry: str | None = None, field: str | None = None) -> tuple[SessionState, tuple[SessionGame, ...]]:
    """``step`` folded into where the session stands: refused as the input's fault (400), since the
    steps before it are known to replay."""
    # No row is named: a refusal can only be this step's, the input's fault.
    return _fold(session, standing.state, [step], (), changed=standing.state.steps, entered=entered, entry=entry,
                 field=field)


def audit_record_of_game(action: str, user, club: Club, session: ChouetteSession, row: ChouetteStep, number: int, *,
                         before=None, after=None) -> None:
    """One audit entry for a change of a game step (its session, step and game numbers in the note)."""
    _audit(action, actor=user, club=club, obj=row, before=before, after=after,
           note=f"chouette {session.pk}, step {row.number}, game {number}")


def _game_at(rows: Sequence[ChouetteStep], number: int) -> tuple[int, ChouetteStep]:
    games = _game_rows(rows)
    if not isinstance(number, int) or not 1 <= number <= len(games):
        raise ChouetteStep.DoesNotExist(f"there is no game {number} at this table")
    return games[number - 1]


#: A later game's amendment sent with a correction: game number -> (kind, record) as
#: :func:`chouette_game_record` takes them.
Later = Mapping[int, tuple[str, dict]]


def _later_games(rows: Sequence[ChouetteStep], number: int, later: Later | None) -> dict[int, tuple[int, str, dict]]:
    """The later games' amendments by game number, each with its step's index, checked to name a
    later game that counts (DomainError ``bad_later``, field ``later[<game>]``, otherwise)."""
    games = _game_rows(rows)
    out = {}
    for game, entered in sorted((later or {}).items(), key=lambda item: str(item[0])):
        where = f"later[{game}]"
        if not isinstance(game, int) or isinstance(game, bool) or not number < game <= len(games):
            raise DomainError(gettext("%(where)s: only a game after game %(number)d can be amended with it") % {
                "where": where, "number": number}, code="bad_later", field=where)
        index, row = games[game - 1]
        if row.voided:
            raise DomainError(gettext("%(where)s: game %(game)d is voided: it no longer counts") % {
                "where": where, "game": game}, code="bad_later", field=where)
        if not isinstance(entered, tuple | list) or len(entered) != 2:
            raise DomainError(gettext("%(where)s: expected a kind and a record") % {"where": where}, code="bad_later",
                              field=where)
        out[game] = (index, entered[0], entered[1])
    return out


def _names(players) -> dict[int, str]:
    """Players' names by id (one query), for refusals that speak of them."""
    wanted = {player for player in players if isinstance(player, int)}
    return dict(Player.objects.filter(pk__in=wanted).values_list("pk", "display_name")) if wanted else {}


def _to_amend(items: Sequence[GameToAmend], numbers: Mapping[int, int], rows: Sequence[ChouetteStep]) -> Conflict:
    """The refusal of a correction that later games no longer fit: which games and why, in
    players' names (never ids)."""
    names = _names(player for item in items for lineup in (item.recorded, item.lineup) for player in lineup.players)

    def name(player) -> str:
        return names.get(player, gettext("a player who has left"))

    lines = []
    for item in items:
        values = {"game": numbers[item.step], "box": name(item.lineup.box), "captain": name(item.lineup.captain),
                  "was_box": name(item.recorded.box), "was_captain": name(item.recorded.captain),
                  "crew": ", ".join(name(player) for player in item.lineup.crew) or gettext("nobody")}
        if item.code in ("box_changed", "captain_changed", "players_changed"):
            lines.append(gettext("game %(game)d was played by %(was_captain)s as Captain against %(was_box)s in the "
                                 "box; it now falls to %(captain)s as Captain against %(box)s") % values)
        else:
            lines.append(gettext("game %(game)d no longer fits its new crew order (%(crew)s): its cube record must "
                                 "be entered again") % values)
    first = items[0]
    return Conflict(
        gettext("This correction changes who plays later games. Amend them with it: %(games)s.") % {
            "games": "; ".join(lines)},
        code="later_games_to_amend", game=numbers[first.step], step=rows[first.step].number, reason=first.code,
        games=[{"game": numbers[item.step], "step": rows[item.step].number, "reason": item.code,
                "box": name(item.lineup.box), "captain": name(item.lineup.captain),
                "crew": [name(player) for player in item.lineup.crew],
                "recorded_box": name(item.recorded.box), "recorded_captain": name(item.recorded.captain),
                "lineup": lineup_to_json(item.lineup)} for item in items],
    )


def _correct(session: ChouetteSession, rows: Sequence[ChouetteStep], steps: list[Step], *, changed: int,
             number: int, later: dict[int, tuple[int, str, dict]], entered: Mapping | None = None,
             entry: str | None = None) -> tuple[Correction, dict[int, tuple[str, dict, ChouetteGame, Lineup]]]:
    """``steps`` (step ``changed``, game ``number``, already corrected) folded with every later
    game's line-up recomputed (engine.chouette.session_correct), the later games' amendments
    (``later``) applied in order, each on the line-up the steps before it now lead to. Returns the
    correction and the amendments applied (game number -> kind, record, game, line-up); ``steps``
    ends with them in place.

    Raises as :func:`_replay` (400 at step ``changed``); DomainError located at
    ``later[<game>].<field>`` for an amendment that does not fit; Conflict
    ``later_games_to_amend`` (the games, in players' names) when a later game is left that the
    corrected steps no longer let stand."""
    settings = session_settings(session)
    numbers = {index: game for game, (index, _row) in enumerate(_game_rows(rows), start=1)}
    applied: dict[int, tuple[str, dict, ChouetteGame, Lineup]] = {}
    by_index = {index: game for game, (index, _kind, _record) in later.items()}
    pending = sorted(later)
    while True:
        try:
            correction = session_correct(steps, settings)
        except ChouetteError as error:
            index = error.details.get("step")
            if index in by_index:
                game = by_index[index]
                raise _refusal(error, field=_later_field(game, _field_of(error, later[game][2], later[game][1])),
                               game=game) from None
            raise _fold_refusal(error, rows, changed=changed, entered=entered, entry=entry) from None
        if not pending:
            break
        game = pending.pop(0)
        index, kind, record = later[game]
        lineup = correction.lineups[index]
        try:
            parsed = _parse_entry(kind, record, lineup, settings)
            _check_announced(kind, record, parsed, lineup, settings)
        except DomainError as error:
            raise type(error)(gettext("game %(game)d: %(message)s") % {"game": game, "message": error.message},
                              code=error.code, **{**error.details, "field": _later_field(game, error.details.get("field")),
                                                  "game": game}) from None
        steps[index] = GameStep(parsed, lineup)
        applied[game] = (kind, record, parsed, lineup)
    if correction.to_amend:
        raise _to_amend(correction.to_amend, numbers, rows)
    return correction, applied


def _later_field(game: int, field: str | None) -> str:
    return f"later[{game}].{field}" if field else f"later[{game}]"


def _fold_refusal(error: ChouetteError, rows: Sequence[ChouetteStep | None], *, changed: int | None,
                  entered: Mapping | None = None, entry: str | None = None) -> DomainError:
    """A refusal of the engine at some step: the input's fault (400) at step ``changed``, else a
    later step's (409, with its step and game numbers)."""
    index = error.details.get("step")
    row = rows[index] if index is not None and index < len(rows) else None
    if row is None or index == changed:
        return _refusal(error, field=_field_of(error, entered, entry))
    games = [number for number, (_, game) in enumerate(_game_rows(rows), start=1) if game is row]
    return _refusal(error, conflict=True, step=row.number, game=games[0] if games else None)


def _save_correction(session: ChouetteSession, rows: Sequence[ChouetteStep], correction: Correction,
                     applied: Mapping[int, tuple[str, dict, ChouetteGame, Lineup]], before: Session, user,
                     club: Club) -> list[int]:
    """Write the later games a correction moved (their new line-up) or amended (their new record;
    audited each as ``chouette.game_amended``), then where the session now stands (``kept``, written
    after the rows: the trigger of migration 0002 empties it when a step row changes). Returns the
    numbers of the games moved."""
    moved = []
    numbers = {index: game for game, (index, _row) in enumerate(_game_rows(rows), start=1)}
    amended_at = {index: game for index, game in numbers.items() if game in applied}
    for index in correction.moved:
        if index in amended_at:
            continue
        row = rows[index]
        row.record = {**row.record, "lineup": lineup_to_json(correction.steps[index].lineup)}
        row.save(update_fields=["record"])
        moved.append(numbers[index])
    for index, game in sorted(amended_at.items()):
        kind, record, parsed, lineup = applied[game]
        row = rows[index]
        old = row.record
        row.record = _game_record(kind, record, parsed, lineup)
        row.amended += 1
        row.save(update_fields=["record", "amended"])
        audit_record_of_game(
            "chouette.game_amended", user, club, session, row, game,
            before={"entry": old.get("entry"), "record": old.get("entered"), "amounts": _amounts(before, index),
                    "lineup": old.get("lineup")},
            after={"entry": kind, "record": record, "amounts": _amounts(correction.games, index),
                   "amended": row.amended, "lineup": lineup_to_json(lineup)},
        )
    _moved_on(session, correction.state, last=rows[-1].number, games=len(_game_rows(rows)))
    return moved


@transaction.atomic
def chouette_game_amend(*, club_id: int, chouette_id: int, number: int, user, kind: str, record: dict,
                        expected_version: int | None = None, later: Later | None = None) -> ChouetteStep:
    """Replace the record of game ``number`` (its place among the session's games, from 1), as
    :func:`chouette_game_record` takes it, checked against the line-up that game was played with.
    Only while the session is open: an ended session's settlement is final until it is reopened
    (:func:`chouette_reopen`). ``amended`` counts up; audited as ``chouette.game_amended`` with the
    record and the amounts before and after.

    A game that now ends another way moves the line-up: every later game's line-up is recomputed
    (engine.chouette.session_correct). A later game still played by the same Box and Captain is
    moved to its new line-up (the crew's order); one whose Box or Captain is no longer who the new
    line-up puts there, or whose record no longer fits, must be amended with this correction:
    ``later`` maps its game number to ``(kind, record)`` for the line-up it now falls to, applied in
    order. Without them nothing changes and the refusal names those games and players.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist, ChouetteStep.DoesNotExist (no such
    game); NotAllowed ``not_club_manager``; DomainError as :func:`chouette_game_record`, or
    ``bad_later`` / a later amendment's own refusal (``field`` ``later[<game>]...``); Conflict
    ``chouette_ended``, ``chouette_game_voided``, ``stale_table``, ``later_games_to_amend`` (``details['games']``: each
    game to amend with its new line-up), or a later join or leave's refusal (``details['step']``).
    """
    club, session = _locked(club_id, chouette_id, user)
    _check_open(session, expected_version)
    rows = _rows(session)
    index, row = _game_at(rows, number)
    if row.voided:
        raise errors.chouette_game_voided(number)
    amendments = _later_games(rows, number, later)
    steps = engine_steps(rows)
    lineup = _replay(session, steps[:index], rows[:index]).lineup
    game = _parse_entry(kind, record, lineup, session_settings(session))
    before = _replay(session, steps, rows)
    steps[index] = GameStep(game, lineup)
    correction, applied = _correct(session, rows, steps, changed=index, number=number, later=amendments,
                                   entered=record, entry=kind)
    _check_announced(kind, record, game, lineup, session_settings(session))
    old = row.record
    row.record = _game_record(kind, record, game, lineup)
    row.amended += 1
    row.save(update_fields=["record", "amended"])
    moved = _save_correction(session, rows, correction, applied, before, user, club)
    audit_record_of_game(
        "chouette.game_amended", user, club, session, row, number,
        before={"entry": old.get("entry"), "record": old.get("entered"), "amounts": _amounts(before, index)},
        after={"entry": kind, "record": record, "amounts": _amounts(correction.games, index), "amended": row.amended,
               "moved": moved, "later_amended": sorted(applied)},
    )
    return row


@transaction.atomic
def chouette_game_void(*, club_id: int, chouette_id: int, number: int, user,
                       expected_version: int | None = None, later: Later | None = None) -> ChouetteStep:
    """Void game ``number``: it no longer counts (its amounts leave the ledger and its rotation is
    undone: if it made the Captain the Box, the old Box is the Box again). Every later game's
    line-up is recomputed, and the later games that no longer stand are amended with it (``later``)
    or refused by name, as :func:`chouette_game_amend`. Voiding it again changes nothing. Only while
    the session is open (an ended one is reopened first: :func:`chouette_reopen`). Audited as
    ``chouette.game_voided`` with the amounts it had.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist, ChouetteStep.DoesNotExist; NotAllowed
    ``not_club_manager``; DomainError ``bad_later`` or a later amendment's refusal; Conflict
    ``chouette_ended``, ``stale_table``, ``later_games_to_amend`` or a later join or leave's refusal
    (``details['step']``).
    """
    club, session = _locked(club_id, chouette_id, user)
    _check_open(session, expected_version)
    rows = _rows(session)
    index, row = _game_at(rows, number)
    if row.voided:
        return row
    amendments = _later_games(rows, number, later)
    steps = engine_steps(rows)
    before = _replay(session, steps, rows)
    steps[index] = engine_step(row, void=True)
    correction, applied = _correct(session, rows, steps, changed=index, number=number, later=amendments)
    row.voided = True
    row.save(update_fields=["voided"])
    moved = _save_correction(session, rows, correction, applied, before, user, club)
    audit_record_of_game("chouette.game_voided", user, club, session, row, number,
                         before={"voided": False, "amounts": _amounts(before, index)},
                         after={"voided": True, "moved": moved, "later_amended": sorted(applied)})
    return row


def _transfers(session: ChouetteSession, state: SessionState) -> list[dict]:
    """Who pays whom to settle ``state``'s ledger (engine.chouette.settle_up), in points and money."""
    return [{"payer": payer, "payee": payee, "points": points, "money": str(Decimal(points) * session.stake)}
            for payer, payee, points in settle_up(state.ledger)]


@transaction.atomic
def chouette_end(*, club_id: int, chouette_id: int, user) -> ChouetteSession:
    """End the session: its settlement is final. Nothing changes any more (no game recorded,
    amended or voided, no join or leave, no change of the house rules: Conflict ``chouette_ended``)
    until one of the club's owners or organisers reopens it (:func:`chouette_reopen`). The
    settlement is the engine's ``settle_up`` of the ledger: who pays whom, with the fewest
    transfers, in points and in money (points x stake); the selector recomputes it. Ending again
    changes nothing. Audited as ``chouette.ended`` with the ledger and the transfers.

    Written under the session's row lock, as every change of the table: a game recorded at the same
    moment is either in before the end (and in its settlement) or refused after it.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager``.
    """
    club, session = _locked(club_id, chouette_id, user)
    if session.status == ChouetteSession.Status.ENDED:
        return session
    standing = _standing(session)
    replayed = standing.state
    session.status = ChouetteSession.Status.ENDED
    session.ended_at = timezone.now()
    _moved_on(session, standing.state, last=standing.last, games=standing.games, fields=("status", "ended_at"))
    _audit("chouette.ended", actor=user, club=club, obj=session, before={"status": "open"}, after={
        "status": "ended", "ledger": {str(player): points for player, points in replayed.ledger.items()},
        "stake": session.stake, "currency": session.currency, "transfers": _transfers(session, replayed)})
    return session


@transaction.atomic
def chouette_reopen(*, club_id: int, chouette_id: int, user) -> ChouetteSession:
    """Reopen an ended session, for the table's director (one of the club's owners or organisers):
    games can be recorded, amended and voided again, players join and leave, the house rules
    change; the settlement is no longer final until the session is ended again
    (:func:`chouette_end`). Reopening an open session changes nothing. Audited as
    ``chouette.reopened`` with the settlement that was final (its transfers) and when it ended.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager`` (a
    player at the table who does not manage the club included).
    """
    club, session = _locked(club_id, chouette_id, user)
    if session.status == ChouetteSession.Status.OPEN:
        return session
    standing = _standing(session)
    ended_at = session.ended_at
    session.status = ChouetteSession.Status.OPEN
    session.ended_at = None
    _moved_on(session, standing.state, last=standing.last, games=standing.games, fields=("status", "ended_at"))
    _audit("chouette.reopened", actor=user, club=club, obj=session,
           before={"status": "ended", "ended_at": ended_at, "transfers": _transfers(session, standing.state)},
           after={"status": "open"})
    return session


__all__ = [
    "CHANGEABLE_RULES",
    "FULL",
    "QUICK",
    "chouette_end",
    "chouette_game_amend",
    "chouette_game_record",
    "chouette_game_void",
    "chouette_join",
    "chouette_leave",
    "chouette_reopen",
    "chouette_rules_change",
    "chouette_start",
]
