"""Builders for the chouette tests: a table started by the club's organiser, quick records in the
engine's JSON form, and a snapshot of every row a chouette service may change.

The usual table (``table(cast)``): Ann rolls 6, Otis 5, Mia 4, Max 3, so Ann is the Box, Otis the
Captain, Mia and Max the crew (Max at the bottom of the line).
"""

from __future__ import annotations

from decimal import Decimal

from audit.models import AuditEntry
from chouette.models import ChouetteSession, ChouetteStep
from chouette.services import SETTING_NAMES, chouette_game_record, chouette_settings, chouette_start
from engine.actions import Accept, Double, Drop, Move, Resign, Roll, action_to_dict
from engine.game import Game, GameRules
from engine.moves import legal_plays
from tests.clubs.factories import ClubCast


def ids(cast: ClubCast) -> dict[str, int]:
    """The cast's player ids by first name: ann, otis, mia, max, pat, ivy, xavier."""
    users = {"ann": cast.owner, "otis": cast.organiser, "mia": cast.members[0], "max": cast.members[1],
             "pat": cast.requester, "ivy": cast.invitee, "xavier": cast.outsider}
    return {name: cast.player(user).pk for name, user in users.items()}


def table(cast: ClubCast, *, dice=(("ann", 6), ("otis", 5), ("mia", 4), ("max", 3)), stake=Decimal("2.50"),
          name="Big table", **arguments) -> ChouetteSession:
    """A table started by Otis (the organiser) from a one-round roll-off; ``arguments`` are the
    table's settings (chouette_settings' options) and chouette_start's other arguments."""
    players = ids(cast)
    options = {key: arguments.pop(key) for key in list(arguments) if key in SETTING_NAMES}
    return chouette_start(club_id=cast.club.pk, user=cast.organiser, name=name, stake=stake,
                          rolloff=[[[players[name], die] for name, die in dice]], settings=chouette_settings(options),
                          **arguments)


def quick(winner, level: int = 1, *, cubes=None, box_partner=None, log=None, amounts=None, automatic: int = 0) -> dict:
    """A quick record: ``cubes`` maps player ids to a face or (face, end)."""
    data: dict = {"winner": winner, "level": level, "automatic": automatic, "cubes": [], "box_partner": box_partner}
    for player, cube in (cubes or {}).items():
        value, end = cube if isinstance(cube, tuple) else (cube, "played")
        data["cubes"].append({"player": player, "value": value, "end": end})
    if log is not None:
        data["log"] = log
    if amounts is not None:
        data["amounts"] = [{"player": player, "points": points} for player, points in amounts.items()]
    return data


def box_double(*answers) -> dict:
    """The Box's double as a cube moment: ``(player, "take" | "drop" | "beaver")`` from the bottom up."""
    return {"type": "box_double", "answers": [list(answer) for answer in answers]}


class Board:
    """A board log in the engine's JSON form, each roll played with its first legal play."""

    def __init__(self) -> None:
        self.log: list[dict] = []
        self.checkers = Game(GameRules())

    def turn(self, side: int, first: int, second: int) -> Board:
        self._add(Roll(side, dice=(first, second)))
        plays = legal_plays(self.checkers.position, (first, second))
        return self._add(Move(side, play=plays[0].notation)) if plays else self

    def cube(self, *moves) -> Board:
        self.log.extend(action_to_dict(move) for move in moves)
        return self

    def _add(self, action) -> Board:
        self.checkers.apply(action)
        self.log.append(action_to_dict(action))
        return self


def full_record(p) -> dict:
    """A full record for the usual table (``p``: the ids): the Box doubles at its second turn, Max and
    Mia take, the Captain drops; Mia captains the rest and the Box resigns a single game."""
    board = Board().turn(0, 3, 1).turn(1, 6, 4)
    at = len(board.log)
    board.cube(Double(0), Drop(1)).turn(0, 5, 2).turn(1, 4, 4).cube(Resign(0, level=1), Accept(1))
    return {"board_log": board.log, "box_partner": None,
            "crew_moments": [{"before": at, "moment": box_double((p["max"], "take"), (p["mia"], "take"))}]}


def play(cast: ClubCast, session: ChouetteSession, record: dict, *, kind: str = "quick") -> ChouetteStep:
    return chouette_game_record(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, kind=kind,
                                record=record)


def chouette_snapshot(session: ChouetteSession) -> dict:
    """The session's row, its steps and the club's audit entries, to assert a refusal changed none."""
    return {
        "session": ChouetteSession.objects.filter(pk=session.pk).values().get(),
        "steps": list(ChouetteStep.objects.filter(session=session).order_by("number").values()),
        "audit": AuditEntry.objects.filter(club_id=session.club_id).count(),
    }
