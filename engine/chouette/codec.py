"""The JSON form of line-ups, cube moments and game records, for storage.

:func:`lineup_to_json`, :func:`moment_to_json`, :func:`game_to_json` and their inverses. Parsing
raises :class:`~engine.errors.ChouetteError` ``bad_json`` for the wrong shape, or the code of the
rule a value breaks, with ``details['path']`` naming the field (e.g. ``cubes[2].value``). The helpers
that name a field and parse a value (:func:`json_path`, :func:`json_object`...) serve the other JSON
forms of the package too (a full record's, a session step's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from ..actions import LEVEL_NAMES, SINGLE
from ..errors import ChouetteError
from .base import Player, is_int
from .lineup import Lineup
from .record import MOST_AUTOMATIC, Answer, BoxDouble, ChouetteGame, CubeEnd, CubeMoment, MemberCube, Side, TeamDouble

_T = TypeVar("_T")


def json_path(prefix: str, key: str | int) -> str:
    """The path of field ``key`` (a name, or a list index) below ``prefix``: ``cubes[2].value``."""
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


def bad_json(path: str, message: str) -> ChouetteError:
    """The ``bad_json`` error for the field at ``path`` (returned, for the caller to raise)."""
    return ChouetteError(f"{path or 'record'}: {message}", code="bad_json", path=path)


def at_path(path: str, make: Callable[[], _T]) -> _T:
    """Build a value, adding ``path`` to the rule it breaks (the code stays the rule's own)."""
    try:
        return make()
    except ChouetteError as broken:
        details = {**broken.details, "path": path}
        raise ChouetteError(f"{path or 'record'}: {broken.message}", code=broken.code, **details) from None


def json_object(data: object, path: str, required: Iterable[str], optional: Iterable[str] = ()) -> dict:
    """``data`` if it is an object with every ``required`` field and no field outside ``required`` and
    ``optional``; raises ``bad_json`` otherwise."""
    if not isinstance(data, dict):
        raise bad_json(path, f"expected an object, not {type(data).__name__}")
    required = tuple(required)
    unknown = sorted(set(data) - set(required) - set(optional), key=str)
    if unknown:
        raise bad_json(path, f"unknown field(s) {', '.join(map(str, unknown))}")
    for name in required:
        if name not in data:
            raise bad_json(json_path(path, name), "missing")
    return data


def json_list(data: object, path: str) -> list:
    """``data`` if it is a list; raises ``bad_json`` otherwise."""
    if not isinstance(data, list):
        raise bad_json(path, f"expected a list, not {type(data).__name__}")
    return data


def json_int(data: object, path: str, minimum: int = 0) -> int:
    """``data`` if it is a whole number from ``minimum``; raises ``bad_json`` otherwise."""
    if not is_int(data) or data < minimum:
        raise bad_json(path, f"expected a whole number from {minimum}, not {data!r}")
    return data


def json_player(data: object, path: str, lineup: Lineup | None) -> Player:
    """``data`` if it is a player id (a string or an integer), and with ``lineup`` one of its players;
    raises ``bad_player`` or ``unknown_player`` otherwise."""
    if not (isinstance(data, str) or is_int(data)):
        raise ChouetteError(f"{path}: a player id is a string or an integer, not {data!r}", code="bad_player",
                            path=path)
    if lineup is not None and data not in lineup.players:
        raise ChouetteError(f"{path}: {data!r} is not in the line-up", code="unknown_player", path=path, player=data)
    return data


def _json_players(data: object, path: str, lineup: Lineup | None) -> list[Player]:
    return [json_player(item, json_path(path, index), lineup) for index, item in enumerate(json_list(data, path))]


def player_to_json(player: Player) -> Player:
    """A player id as JSON holds it: ``player`` itself if it is a string or an integer; raises
    ``bad_json`` for any other id."""
    if not (isinstance(player, str) or is_int(player)):
        raise ChouetteError(f"player id {player!r} has no JSON form (use strings or integers)", code="bad_json",
                            path="")
    return player


def _ordered(players: frozenset[Player], order: Iterable[Player]) -> list[Player]:
    return [player_to_json(player) for player in order if player in players]


def moment_to_json(moment: CubeMoment) -> dict:
    """The JSON form of a cube moment (see :func:`game_to_json`); sets list players in deciding order."""
    if isinstance(moment, BoxDouble):
        return {
            "type": "box_double",
            "answers": [[player_to_json(player), str(answer)] for player, answer in moment.answers],
            "raccoons": _ordered(moment.raccoons, moment.deciders),
            "redouble_drops": _ordered(moment.redouble_drops, moment.deciders),
        }
    return {
        "type": "team_double",
        "doublers": [player_to_json(player) for player in moment.doublers],
        "box_drops": _ordered(moment.box_drops, moment.doublers),
        "beavers": _ordered(moment.beavers, moment.doublers),
        "raccoons": _ordered(moment.raccoons, moment.doublers),
        "redouble_drops": _ordered(moment.redouble_drops, moment.doublers),
    }


def moment_from_json(data: object, path: str = "", lineup: Lineup | None = None) -> CubeMoment:
    """Parse a cube moment; raises :class:`ChouetteError` (``bad_json`` or the broken rule's code)
    whose ``details['path']`` names the field, below ``path``."""
    if not isinstance(data, dict):
        raise bad_json(path, f"expected an object, not {type(data).__name__}")
    kind = data.get("type")
    if kind == "box_double":
        json_object(data, path, ("type", "answers"), ("raccoons", "redouble_drops"))
        answers = []
        for index, item in enumerate(json_list(data["answers"], json_path(path, "answers"))):
            where = json_path(json_path(path, "answers"), index)
            if not isinstance(item, list) or len(item) != 2:
                raise bad_json(where, f"expected [player, answer], not {item!r}")
            if item[1] not in tuple(Answer):
                raise bad_json(json_path(where, 1), f"expected take, drop or beaver, not {item[1]!r}")
            answers.append((json_player(item[0], json_path(where, 0), lineup), Answer(item[1])))
        sets = {name: _json_players(data.get(name, []), json_path(path, name), lineup)
                for name in ("raccoons", "redouble_drops")}
        return at_path(path, lambda: BoxDouble(tuple(answers), **{name: frozenset(v) for name, v in sets.items()}))
    if kind == "team_double":
        names = ("box_drops", "beavers", "raccoons", "redouble_drops")
        json_object(data, path, ("type", "doublers"), names)
        doublers = _json_players(data["doublers"], json_path(path, "doublers"), lineup)
        sets = {name: _json_players(data.get(name, []), json_path(path, name), lineup) for name in names}
        return at_path(path, lambda: TeamDouble(tuple(doublers), **{name: frozenset(v) for name, v in sets.items()}))
    raise bad_json(json_path(path, "type"), f"expected box_double or team_double, not {kind!r}")


def game_to_json(game: ChouetteGame) -> dict:
    """The JSON form of a game record (a quick result, or the game a full record gives)::

        {"winner": "box" | "team" | null, "level": 1 | 2 | 3, "automatic": 0,
         "cubes": [{"player": 7, "value": 2, "end": "played" | "member_dropped" | "box_dropped"}, ...],
         "box_partner": 9 | null,
         "log": [{"type": "box_double", "answers": [[8, "drop"], [7, "beaver"]],
                  "raccoons": [7], "redouble_drops": []},
                 {"type": "team_double", "doublers": [8, 7], "box_drops": [8], "beavers": [],
                  "raccoons": [], "redouble_drops": []}]}

    Player ids must be strings or integers (``bad_json`` otherwise).
    """
    return {
        "winner": None if game.winner is None else str(game.winner),
        "level": game.level,
        "automatic": game.automatic,
        "cubes": [{"player": player_to_json(cube.player), "value": cube.value, "end": str(cube.end)} for cube in game.cubes],
        "box_partner": None if game.box_partner is None else player_to_json(game.box_partner),
        "log": [moment_to_json(moment) for moment in game.log],
    }


def game_from_json(data: object, lineup: Lineup | None = None, *, path: str = "") -> ChouetteGame:
    """Parse a game record from :func:`game_to_json`'s form. Only ``winner`` is required; ``level``
    defaults to 1, ``automatic`` to 0, the lists to empty, ``box_partner`` to null.

    With ``lineup``, every player named must be in it. Raises :class:`ChouetteError` with
    ``details['path']`` naming the field (``cubes[2].value``): ``bad_json`` for the wrong shape,
    ``bad_player``/``unknown_player`` for a player id, or the code of the rule a value breaks
    (``bad_cube_value``, ``bad_level``...). The game is checked against a line-up and a table only
    when it is settled.
    """
    json_object(data, path, ("winner",), ("level", "automatic", "cubes", "box_partner", "log"))
    winner = data["winner"]
    if winner is not None and winner not in tuple(Side):
        raise bad_json(json_path(path, "winner"), f"expected box, team or null, not {winner!r}")
    level = data.get("level", SINGLE)
    if not is_int(level) or level not in LEVEL_NAMES:
        raise bad_json(json_path(path, "level"), f"expected 1 (single), 2 (gammon) or 3 (backgammon), not {level!r}")
    automatic = json_int(data.get("automatic", 0), json_path(path, "automatic"))
    if automatic > MOST_AUTOMATIC:
        raise ChouetteError(f"{json_path(path, 'automatic')}: {automatic} automatic doubles is not a real count",
                            code="bad_automatic", path=json_path(path, "automatic"))
    cubes = []
    for index, item in enumerate(json_list(data.get("cubes", []), json_path(path, "cubes"))):
        where = json_path(json_path(path, "cubes"), index)
        json_object(item, where, ("player", "value"), ("end",))
        player = json_player(item["player"], json_path(where, "player"), lineup)
        value = json_int(item["value"], json_path(where, "value"), 1)
        end = item.get("end", "played")
        if end not in tuple(CubeEnd):
            raise bad_json(json_path(where, "end"), f"expected played, member_dropped or box_dropped, not {end!r}")
        cubes.append(
            at_path(json_path(where, "value"), lambda player=player, value=value, end=end: MemberCube(player, value, end))
        )
    partner = data.get("box_partner")
    if partner is not None:
        partner = json_player(partner, json_path(path, "box_partner"), lineup)
    log = [moment_from_json(item, json_path(json_path(path, "log"), index), lineup)
           for index, item in enumerate(json_list(data.get("log", []), json_path(path, "log")))]
    return at_path(path, lambda: ChouetteGame(winner, level, tuple(cubes), partner, tuple(log), automatic))


def lineup_to_json(lineup: Lineup) -> dict:
    """``{"box": 1, "captain": 2, "crew": [3, 4]}``."""
    return {"box": player_to_json(lineup.box), "captain": player_to_json(lineup.captain),
            "crew": [player_to_json(player) for player in lineup.crew]}


def lineup_from_json(data: object, *, path: str = "") -> Lineup:
    """Parse :func:`lineup_to_json`'s form; raises :class:`ChouetteError` with ``details['path']``."""
    json_object(data, path, ("box", "captain"), ("crew",))
    box = json_player(data["box"], json_path(path, "box"), None)
    captain = json_player(data["captain"], json_path(path, "captain"), None)
    crew = _json_players(data.get("crew", []), json_path(path, "crew"), None)
    return at_path(path, lambda: Lineup(box, captain, tuple(crew)))


__all__ = [
    "at_path",
    "bad_json",
    "game_from_json",
    "game_to_json",
    "json_int",
    "json_list",
    "json_object",
    "json_path",
    "json_player",
    "lineup_from_json",
    "lineup_to_json",
    "moment_from_json",
    "moment_to_json",
    "player_to_json",
]
