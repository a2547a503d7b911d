"""A chouette session's rows as the engine's values and back, for the services beside: the
table's lock and version checks, the state its steps lead to and the kept copy of it, the engine's
refusals as the service's errors (a field of the input, a player named as people know him) and the
audit entries of a session's changes. See :mod:`chouette.services` for what every service shares."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from django.db.models import Count, Max, Q
from django.utils.translation import gettext

from audit.services import audit_record
from clubs.models import Club
from clubs.permissions import require_club_manager
from clubs.selectors import member_players
from core.engine_messages import refusal_text
from core.errors import Conflict, DomainError
from core.locking import locked_one
from engine.chouette import (
    Session,
    SessionGame,
    SessionState,
    Step,
    session_advance,
    state_from_json,
    state_to_json,
)
from engine.errors import ChouetteError
from matches.models import Player

from .. import errors
from ..models import ChouetteSession, ChouetteStep
from ..selectors import HOUSE_RULES, engine_steps, session_settings

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
#: The audit log's name for each kind of row. The tables were the clubs app's when the log began and an
#: entry is never rewritten, so new entries keep the names the old ones have: a table's history
#: (``object_type`` and ``object_id``) reads as one across the move to this app.
AUDIT_OBJECT_TYPES = {ChouetteSession: "clubs.ChouetteSession", ChouetteStep: "clubs.ChouetteStep"}


# --- refusals ------------------------------------------------------------------------------------------


def engine_message(error: ChouetteError) -> str:
    """The engine's refusal in the reader's language, its step counted as the table counts them."""
    step = error.details.get("step")
    # The engine counts steps from 0 in its message; the table counts them from 1, in details.
    text = refusal_text(error)
    return text.removeprefix(f"step {step}: ") if step is not None else text


def record_field(error: ChouetteError, entered: Mapping | None, entry: str | None) -> str | None:
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


def engine_refusal(error: ChouetteError, *, field: str | None = None, conflict: bool = False, **details) -> DomainError:
    """The service's error for an engine refusal: Conflict (409) when the table's state forbids the
    step (``conflict``, :data:`STATE_CODES`), else DomainError (400); ``field`` where the input broke
    the rule, the player named as people know him."""
    kind = Conflict if conflict or error.code in STATE_CODES else DomainError
    location = {key: error.details[key] for key in ("action_index", "player", "round") if key in error.details}
    return kind(player_named(engine_message(error), error.details.get("player")), code=error.code, field=field,
                **location, **details)


def player_named(message: str, player) -> str:
    """The engine's message with the player it names (by id) named as people know him (one query)."""
    if not isinstance(player, int) or isinstance(player, bool):
        return message
    name = Player.objects.filter(pk=player).values_list("display_name", flat=True).first()
    return re.sub(rf"(?<![\w.]){player}(?![\w.])", name or gettext("a player unknown here"), message)


def audit_change(action: str, *, actor, club: Club, obj: ChouetteSession | ChouetteStep, before=None, after=None,
                 note: str = "") -> None:
    """One audit entry, with the club, for a change of a session or one of its steps."""
    audit_record(actor=actor, action=action, object_type=AUDIT_OBJECT_TYPES[type(obj)], object_id=obj.pk,
                 club_id=club.pk, before=before, after=after, note=note)


# --- rows to engine values ------------------------------------------------------------------------------


def session_locked(club_id: int, chouette_id: int, user) -> tuple[Club, ChouetteSession]:
    """The club and its session, the session row locked until the transaction ends (the table's
    lock), after checking that ``user`` manages the club."""
    club = Club.objects.get(pk=club_id)
    session = locked_one(ChouetteSession.objects.all(), pk=chouette_id, club=club)
    require_club_manager(club, user)
    return club, session


def check_open(session: ChouetteSession, expected_version: int | None) -> None:
    """Refuse a change to an ended session (Conflict ``chouette_ended``) or to a table that moved on
    since the client's ``expected_version`` (Conflict ``stale_table``)."""
    if session.status != ChouetteSession.Status.OPEN:
        raise errors.chouette_ended()
    _check_version(session, expected_version)


def _check_version(session: ChouetteSession, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != session.version:
        raise errors.stale_table(expected_version, session.version)


def step_rows(session: ChouetteSession) -> list[ChouetteStep]:
    """The session's steps in order."""
    return list(session.steps.order_by("number"))


def game_rows(rows: Sequence[ChouetteStep]) -> list[tuple[int, ChouetteStep]]:
    """The game steps among ``rows``, each with its index there (game N is the N-th)."""
    return [(index, row) for index, row in enumerate(rows) if row.kind == ChouetteStep.Kind.GAME]


def session_replay(session: ChouetteSession, steps: Sequence[Step], rows: Sequence[ChouetteStep | None], *,
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
    one being written); refusals as :func:`session_replay`."""
    try:
        return session_advance(state, steps, session_settings(session))
    except ChouetteError as error:
        index = error.details.get("step")
        row = rows[index] if index is not None and index < len(rows) else None
        if row is None or index == changed:
            raise engine_refusal(error, field=field or record_field(error, entered, entry)) from None
        games = [number for number, (_, game) in enumerate(game_rows(rows), start=1) if game is row]
        raise engine_refusal(error, conflict=True, step=row.number, game=games[0] if games else None,
                             field=field) from None


def club_player(club: Club, player_id, field: str) -> Player:
    """An active member's player; DomainError ``unknown_player`` (``field``) for anyone else."""
    player = None
    if isinstance(player_id, int) and not isinstance(player_id, bool):
        player = member_players(club_id=club.pk).filter(pk=player_id).first()
    if player is None:
        raise DomainError(gettext("player %(player)r is not an active member of this club") % {"player": player_id},
                          code="unknown_player",
                          field=field)
    return player


@dataclass(frozen=True)
class Standing:
    """Where a session stands: the engine's state after its steps, its last step's number and how many
    of its steps are games (voided ones too)."""

    state: SessionState
    last: int
    games: int


def _settings_key(session: ChouetteSession) -> dict:
    return asdict(session_settings(session))


def session_standing(session: ChouetteSession) -> Standing:
    """The state the session's steps lead to: the kept one (``session.kept``, no step row read, no
    game settled) while it matches the session, else every step replayed.

    The kept state matches when it was written at the session's current ``version`` (every service
    change moves it on), with its current settings, and the rows still number as many steps, with the
    same last number and as many games (one aggregate query, also the next step's number). A step row
    updated or deleted below the services has emptied it (the trigger of migration 0002). Raises as
    :func:`session_replay` when a full replay is refused (409 at the step that no longer replays).
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
            return Standing(state, last, counts["games"])
    rows = step_rows(session)
    state, _ = _fold(session, SessionState(), engine_steps(rows), rows)
    return Standing(state, last, counts["games"])


def moved_on(session: ChouetteSession, state: SessionState, *, last: int, games: int, fields: Sequence[str] = ()) -> None:
    """Move the session's version on and keep ``state``, where its steps now lead (``last`` the
    number of its last step, ``games`` how many steps are games)."""
    session.version += 1
    keep_state(session, state, last=last, games=games)
    session.save(update_fields=["version", "kept", *fields])


def keep_state(session: ChouetteSession, state: SessionState, *, last: int, games: int) -> None:
    """Keep ``state`` on the session (not saved) with what it was computed from (see
    :func:`session_standing`)."""
    session.kept = {"version": session.version, "settings": _settings_key(session), "count": state.steps,
                    "last": last, "games": games, "state": state_to_json(state)}


def step_create(session: ChouetteSession, user, kind: str, data: dict, number: int,
                player: int | None = None) -> ChouetteStep:
    """Write step ``number`` of the session (``data`` its record) as recorded by ``user``."""
    return ChouetteStep.objects.create(session=session, number=number, kind=kind, player_id=player, record=data,
                                       recorded_by=user)


def settings_summary(session: ChouetteSession) -> dict:
    """The table's settings and stake as the audit log keeps them."""
    return {name: getattr(session, name) for name in (
        "single_cube", "jacoby", "beavers", "raccoons", "automatic_doubles", "box_partner_from",
        "box_must_take_half", "lone_taker_must_beaver", *HOUSE_RULES, "stake", "currency")}


def fold_one(session: ChouetteSession, standing: Standing, step: Step, *, entered: Mapping | None = None,
             entry: str | None = None, field: str | None = None) -> tuple[SessionState, tuple[SessionGame, ...]]:
    """``step`` folded into where the session stands: refused as the input's fault (400), since the
    steps before it are known to replay."""
    # No row is named: a refusal can only be this step's, the input's fault.
    return _fold(session, standing.state, [step], (), changed=standing.state.steps, entered=entered, entry=entry,
                 field=field)
