"""The chouette part of the demo data, through the real services: a table of four at tonight's demo
club night (clubs.services.demo), with three games (a crew member drops the Box's double; the Box
changes twice).

Idempotent: when the night has a table already, nothing is done. The demo app (demo.services) calls
this after the clubs' part.
"""

from __future__ import annotations

from dataclasses import dataclass

from clubs.models import Club, ClubNight
from matches.models import Player

from .models import ChouetteSession
from .services import chouette_game_record, chouette_start

#: The roll-off of the chouette table: Alice is the Box, Bob the Captain, Carol and Dave the crew.
ROLLOFF = [("alice", 6), ("bob", 5), ("carol", 4), ("dave", 3)]


@dataclass
class ChouetteDemo:
    session: ChouetteSession
    created: bool

    @property
    def line(self) -> str:
        games = self.session.steps.filter(kind="game").count()
        return f"{self.session.club.name}: a chouette table of {len(ROLLOFF)} at the club night ({games} games)"


def _quick(winner: str, level: int, cubes: dict[int, tuple[int, str]]) -> dict:
    return {"winner": winner, "level": level,
            "cubes": [{"player": player, "value": value, "end": end} for player, (value, end) in cubes.items()]}


def chouette_demo_load(*, club: Club, night: ClubNight, organiser, players: dict[str, Player]) -> ChouetteDemo:
    """The demo table at ``night``, started by the organiser, and its three games (see the module)."""
    session = ChouetteSession.objects.filter(club=club, night=night).order_by("started_at", "id").first()
    if session is not None:
        return ChouetteDemo(session, False)
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
    return ChouetteDemo(session, True)
