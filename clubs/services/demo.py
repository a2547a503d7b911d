"""The clubs' part of the demo data, through the real services: the demo club owned by the demo
organiser, the ten demo players as its members, this year's ladder season, and tonight's club
night with check-ins, two club matches reported and confirmed by their players, and a chouette
table of four with three games (a crew member drops the Box's double; the Box changes twice).

Idempotent: the night is known by its title in the club; when it exists, nothing is done.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

from engine.actions import action_to_dict
from engine.randomgame import random_match_games
from matches.models import Player
from matches.services.logs import log_from_json
from matches.services.matches import match_create
from matches.services.reporting import claim_make, match_confirm, match_report

from ..models import ChouetteSession, Club, ClubNight, Membership, Season
from .chouette import chouette_game_record, chouette_start
from .clubs import club_create
from .members import membership_accept, membership_invite
from .nights import night_check_in, night_open
from .seasons import season_create

NIGHT_TITLE = "Demo club night"
#: Tonight's club matches: (side 0, side 1, length, seed of the random game logs).
NIGHT_MATCHES = [("alice", "erin", 3, 20261129), ("bob", "frank", 3, 20261130)]
#: The roll-off of the chouette table: Alice is the Box, Bob the Captain, Carol and Dave the crew.
ROLLOFF = [("alice", 6), ("bob", 5), ("carol", 4), ("dave", 3)]


@dataclass
class ClubDemo:
    club: Club
    members: int
    night: ClubNight | None
    chouette: ChouetteSession | None
    created: bool

    @property
    def line(self) -> str:
        if self.night is None:
            return f"{self.club.name}: {self.members} members"
        return (f"{self.club.name}: {self.members} members, a club night on {self.night.date} with its matches "
                f"and a chouette table of {len(ROLLOFF)} ({self.chouette.steps.filter(kind='game').count()} games)")


def demo_club(organiser, name: str, slug: str, city: str) -> Club:
    """The demo club, created by the organiser (its owner) the first time."""
    club = Club.objects.filter(slug=slug).first()
    return club or club_create(user=organiser, name=name, city=city,
                               description="The demo club: weekly nights, a ladder and a chouette table.")


def _quick(winner: str, level: int, cubes: dict[int, tuple[int, str]]) -> dict:
    return {"winner": winner, "level": level,
            "cubes": [{"player": player, "value": value, "end": end} for player, (value, end) in cubes.items()]}


def club_demo_load(*, club: Club, organiser, players: dict[str, Player], today: date) -> ClubDemo:
    """Members, season, tonight's night with its matches and chouette (see the module)."""
    night = ClubNight.objects.filter(club=club, title=NIGHT_TITLE).first()
    if night is not None:
        return ClubDemo(club, club.memberships.filter(status=Membership.Status.ACTIVE).count(), night,
                        club.chouettes.filter(night=night).first(), False)
    for player in players.values():
        if not Membership.objects.filter(club=club, user=player.user).exists():
            membership_invite(club_id=club.pk, user=organiser, username=player.user.get_username())
            membership_accept(club_id=club.pk, user=player.user)
    if not Season.objects.filter(club=club).exists():
        season_create(club_id=club.pk, user=organiser, name=f"Season {today.year}", starts_on=date(today.year, 1, 1),
                      ends_on=date(today.year, 12, 31))
    night = night_open(club_id=club.pk, user=organiser, date=today, title=NIGHT_TITLE)
    for username in ("alice", "bob", "carol", "dave", "erin", "frank"):
        night_check_in(club_id=club.pk, night_id=night.pk, user=players[username].user)
    for side0, side1, length, seed in NIGHT_MATCHES:
        a, b = players[side0], players[side1]
        match = match_create(created_by=a.user, side0=[a], side1=[b], length=length,
                             context={"club": club, "club_night": night})
        games = [[action_to_dict(action) for action in game] for game in random_match_games(random.Random(seed), length)]
        log = log_from_json(games, match.rules())
        match_report(match_id=match.pk, user=a.user, claim=claim_make(match, log.final_score, log))
        match_confirm(match_id=match.pk, user=b.user)
    ids = {name: players[name].pk for name, _ in ROLLOFF}
    chouette = chouette_start(club_id=club.pk, user=organiser, name="The big table", night_id=night.pk,
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
        chouette_game_record(club_id=club.pk, chouette_id=chouette.pk, user=organiser, kind="quick", record=record)
    return ClubDemo(club, club.memberships.filter(status=Membership.Status.ACTIVE).count(), night, chouette, True)
