"""A chouette table's games: recorded (a quick result or the full record of the board), amended or
voided. A correction replays the session and moves the later games to their new line-ups, or names
those the director must amend with it (``later``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils.translation import gettext

from clubs.models import Club
from core.errors import Conflict, DomainError
from core.text import isolate, join_clauses, join_list
from engine.chouette import (
    ChouetteGame,
    ChouetteSettings,
    Correction,
    GameStep,
    GameToAmend,
    Lineup,
    Session,
    SessionGame,
    Step,
    chouette_quick_game,
    game_from_json,
    lineup_to_json,
    session_correct,
    step_to_json,
)
from engine.chouette.full_game import full_game_from_json
from engine.errors import ChouetteError
from matches.models import Player

from .. import errors
from ..models import ChouetteSession, ChouetteStep
from ..selectors import engine_step, engine_steps, session_settings
from .state import (
    ENTRIES,
    QUICK,
    audit_change,
    check_open,
    engine_refusal,
    fold_one,
    game_rows,
    moved_on,
    record_field,
    session_locked,
    session_replay,
    session_standing,
    step_create,
    step_rows,
)


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
        raise engine_refusal(error, field=record_field(error, entered, entry)) from None


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
        raise engine_refusal(error, field=where if error.code != "amounts_unbalanced" else "amounts") from None


def _game_record(entry: str, entered: dict, game: ChouetteGame, lineup: Lineup) -> dict:
    return {**step_to_json(GameStep(game, lineup)), "entry": entry, "entered": entered}


def _amounts(replayed: Session | Sequence[SessionGame], index: int) -> dict[int, int] | None:
    games = replayed.games if isinstance(replayed, Session) else replayed
    game = next((game for game in games if game.step == index), None)
    return None if game is None else {str(player): points for player, points in game.settlement.amounts.items()}


@transaction.atomic
def chouette_game_record(*, club_id: int, chouette_id: int, user, kind: str, record: dict,
                         expected_version: int | None = None) -> ChouetteStep:
    """Record the next game at the table, played by the current line-up: ``kind`` ``"quick"`` (who
    won, the level, each member's cube and how it ended, the Box partner, optionally the cube log
    and the amounts the table announced) or ``"full"`` (the board's log and the crew's cube
    moments). The record is checked against the state the session's steps lead to (the kept one,
    see :func:`session_standing`: one game settled whatever the session's length) plus this game; it is then
    written as a game step with the line-up it was played with. Audited as ``chouette.game_recorded``
    with every player's amount.

    Raises Club.DoesNotExist, ChouetteSession.DoesNotExist; NotAllowed ``not_club_manager``;
    DomainError with the engine's code and the field (see the module docstring) — e.g.
    ``amounts_unbalanced`` (a game announced not to settle to zero), ``member_out`` (a cube action
    by a member already out of the game), ``beavers_not_allowed``, ``unknown_player`` — or
    ``bad_entry`` (kind); Conflict ``chouette_ended``, ``stale_table``.
    """
    club, session = session_locked(club_id, chouette_id, user)
    check_open(session, expected_version)
    standing = session_standing(session)
    lineup = standing.state.lineup
    game = _parse_entry(kind, record, lineup, session_settings(session))
    state, played = fold_one(session, standing, GameStep(game, lineup), entered=record, entry=kind)
    _check_announced(kind, record, game, lineup, session_settings(session))
    row = step_create(session, user, ChouetteStep.Kind.GAME, _game_record(kind, record, game, lineup),
                      standing.last + 1)
    number = standing.games + 1
    moved_on(session, state, last=row.number, games=number)
    audit_record_of_game("chouette.game_recorded", user, club, session, row, number, after={
        "entry": kind, "record": record, "amounts": _amounts(played, standing.state.steps),
        "lineup": lineup_to_json(lineup)})
    return row


def audit_record_of_game(action: str, user, club: Club, session: ChouetteSession, row: ChouetteStep, number: int, *,
                         before=None, after=None) -> None:
    """One audit entry for a change of a game step (its session, step and game numbers in the note)."""
    audit_change(action, actor=user, club=club, obj=row, before=before, after=after,
                 note=f"chouette {session.pk}, step {row.number}, game {number}")


def _game_at(rows: Sequence[ChouetteStep], number: int) -> tuple[int, ChouetteStep]:
    games = game_rows(rows)
    if not isinstance(number, int) or not 1 <= number <= len(games):
        raise ChouetteStep.DoesNotExist(f"there is no game {number} at this table")
    return games[number - 1]


#: A later game's amendment sent with a correction: game number -> (kind, record) as
#: :func:`chouette_game_record` takes them.
Later = Mapping[int, tuple[str, dict]]


def _later_games(rows: Sequence[ChouetteStep], number: int, later: Later | None) -> dict[int, tuple[int, str, dict]]:
    """The later games' amendments by game number, each with its step's index, checked to name a
    later game that counts (DomainError ``bad_later``, field ``later[<game>]``, otherwise)."""
    games = game_rows(rows)
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
        values = {"game": numbers[item.step], "box": isolate(name(item.lineup.box)),
                  "captain": isolate(name(item.lineup.captain)),
                  "was_box": isolate(name(item.recorded.box)), "was_captain": isolate(name(item.recorded.captain)),
                  "crew": join_list(isolate(name(player)) for player in item.lineup.crew) or gettext("nobody")}
        if item.code in ("box_changed", "captain_changed", "players_changed"):
            lines.append(gettext("game %(game)d was played by %(was_captain)s as Captain against %(was_box)s in the "
                                 "box; it now falls to %(captain)s as Captain against %(box)s") % values)
        else:
            lines.append(gettext("game %(game)d no longer fits its new crew order (%(crew)s): its cube record must "
                                 "be entered again") % values)
    first = items[0]
    return Conflict(
        gettext("This correction changes who plays later games. Amend them with it: %(games)s.") % {
            "games": join_clauses(lines)},
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

    Raises as :func:`session_replay` (400 at step ``changed``); DomainError located at
    ``later[<game>].<field>`` for an amendment that does not fit; Conflict
    ``later_games_to_amend`` (the games, in players' names) when a later game is left that the
    corrected steps no longer let stand."""
    settings = session_settings(session)
    numbers = {index: game for game, (index, _row) in enumerate(game_rows(rows), start=1)}
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
                raise engine_refusal(error, field=_later_field(game, record_field(error, later[game][2], later[game][1])),
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
        return engine_refusal(error, field=record_field(error, entered, entry))
    games = [number for number, (_, game) in enumerate(game_rows(rows), start=1) if game is row]
    return engine_refusal(error, conflict=True, step=row.number, game=games[0] if games else None)


def _save_correction(session: ChouetteSession, rows: Sequence[ChouetteStep], correction: Correction,
                     applied: Mapping[int, tuple[str, dict, ChouetteGame, Lineup]], before: Session, user,
                     club: Club) -> list[int]:
    """Write the later games a correction moved (their new line-up) or amended (their new record;
    audited each as ``chouette.game_amended``), then where the session now stands (``kept``, written
    after the rows: the trigger of migration 0002 empties it when a step row changes). Returns the
    numbers of the games moved."""
    moved = []
    numbers = {index: game for game, (index, _row) in enumerate(game_rows(rows), start=1)}
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
    moved_on(session, correction.state, last=rows[-1].number, games=len(game_rows(rows)))
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
    club, session = session_locked(club_id, chouette_id, user)
    check_open(session, expected_version)
    rows = step_rows(session)
    index, row = _game_at(rows, number)
    if row.voided:
        raise errors.chouette_game_voided(number)
    amendments = _later_games(rows, number, later)
    steps = engine_steps(rows)
    lineup = session_replay(session, steps[:index], rows[:index]).lineup
    game = _parse_entry(kind, record, lineup, session_settings(session))
    before = session_replay(session, steps, rows)
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
    club, session = session_locked(club_id, chouette_id, user)
    check_open(session, expected_version)
    rows = step_rows(session)
    index, row = _game_at(rows, number)
    if row.voided:
        return row
    amendments = _later_games(rows, number, later)
    steps = engine_steps(rows)
    before = session_replay(session, steps, rows)
    steps[index] = engine_step(row, void=True)
    correction, applied = _correct(session, rows, steps, changed=index, number=number, later=amendments)
    row.voided = True
    row.save(update_fields=["voided"])
    moved = _save_correction(session, rows, correction, applied, before, user, club)
    audit_record_of_game("chouette.game_voided", user, club, session, row, number,
                         before={"voided": False, "amounts": _amounts(before, index)},
                         after={"voided": True, "moved": moved, "later_amended": sorted(applied)})
    return row
