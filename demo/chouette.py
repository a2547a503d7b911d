"""The demo's chouette table, through the chouette services: a table of four at tonight's demo club
night (demo.clubs), with three games (a crew member drops the Box's double; the Box changes twice).

Idempotent: when the night has a table already (``chouette_night_sessions``), nothing is done.
"""

from __future__ import annotations

from dataclasses import dataclass

from chouette.models import ChouetteSession
from chouette.selectors import chouette_night_sessions, chouette_state
from chouette.services import chouette_game_record, chouette_start
from clubs.models import Club, ClubNight
from matches.models import Player

#: The roll-off of the chouette table: Alice is the Box, Bob the Captain, Carol and Dave the crew.
ROLLOFF = [("alice", 6), ("bob", 5), ("carol", 4), ("dave", 3)]


@dataclass
class ChouetteDemo:
    session: ChouetteSession
    created: bool
    games: int

    @property
    def line(self) -> str:
        return f"{self.session.club.name}: a chouette table of {len(ROLLOFF)} at the club night ({self.games} games)"


def _quick(winner: str, level: int, cubes: dict[int, tuple[int, str]]) -> dict:
    return {"winner": winner, "level": level,
            "cubes": [{"player": player, "value": value, "end": end} for player, (value, end) in cubes.items()]}


def _demo(session: ChouetteSession, created: bool) -> ChouetteDemo:
    return ChouetteDemo(session, created, chouette_state(session=session).game_count)


def chouette_demo_load(*, club: Club, night: ClubNight, organiser, players: dict[str, Player]) -> ChouetteDemo:
    """The demo table at ``night``, started by the organiser, and its three games (see the module)."""
    sessions = chouette_night_sessions(night)
    if sessions:
        return _demo(sessions[0], False)
    ids = {name: players[name].pk for name, _ in ROLLOFF}
    session = chouette_start(club_id=club.pk, user=organiser, name="The big table", night_id=night.pk,
                             rolloff=[[[ids[name], die] for name, die in ROLLOFF]], stake="2.00")
    alice, carol, dave = ids["alice"], ids["carol"], ids["dave"]
    games = [
        # The team wins a single game: Bob, the Captain, becomes the Box.
        _quick("team", 1, {}),
        # Bob doubles; Alice (at the bottom) drops, Dave and Carol take; Bob wins a gammon.
        _quick("box", 2, {alice: (1, "member_dropped"), dave: (2, "played"), carol: (2, "played")}),
        # The team wins again: Dave, the Captain now, becomes the Box.
        _quick("team", 1, {}),
    ]
    for record in games:
        chouette_game_record(club_id=club.pk, chouette_id=session.pk, user=organiser, kind="quick", record=record)
    return _demo(session, True)
