"""The clubs' part of the demo data, through the real services: the demo club owned by the demo
organiser, the ten demo players as its members, this year's ladder season, and tonight's club
night with check-ins and two club matches reported and confirmed by their players. The chouette
table played at that night is the chouette app's part (chouette/demo.py).

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

from ..models import Club, ClubNight, Membership, Season
from .clubs import club_create
from .members import membership_accept, membership_invite
from .nights import night_check_in, night_open
from .seasons import season_create

NIGHT_TITLE = "Demo club night"
#: Tonight's club matches: (side 0, side 1, length, seed of the random game logs).
NIGHT_MATCHES = [("alice", "erin", 3, 20261129), ("bob", "frank", 3, 20261130)]


@dataclass
class ClubDemo:
    club: Club
    members: int
    night: ClubNight | None
    created: bool

    @property
    def line(self) -> str:
        if self.night is None:
            return f"{self.club.name}: {self.members} members"
        return f"{self.club.name}: {self.members} members, a club night on {self.night.date} with its matches"


def demo_club(organiser, name: str, slug: str, city: str) -> Club:
    """The demo club, created by the organiser (its owner) the first time."""
    club = Club.objects.filter(slug=slug).first()
    return club or club_create(user=organiser, name=name, city=city,
                               description="The demo club: weekly nights, a ladder and a chouette table.")


def club_demo_load(*, club: Club, organiser, players: dict[str, Player], today: date) -> ClubDemo:
    """Members, season, tonight's night with its matches (see the module)."""
    night = ClubNight.objects.filter(club=club, title=NIGHT_TITLE).first()
    if night is not None:
        return ClubDemo(club, club.memberships.filter(status=Membership.Status.ACTIVE).count(), night, False)
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
    return ClubDemo(club, club.memberships.filter(status=Membership.Status.ACTIVE).count(), night, True)
