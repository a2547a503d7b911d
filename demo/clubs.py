"""The demo club, through the clubs services: owned by the demo organiser, the ten demo players as
its members, this year's ladder season, and tonight's club night with check-ins and two club
matches reported and confirmed by their players. The chouette table played at that night is
demo.chouette.

Idempotent: the club is known by its slug (``club_get``); the night by its title in the club
(``night_list``), and when it exists, nothing more is done.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

from clubs.models import Club, ClubNight
from clubs.selectors import club_get, membership_of, night_list, season_list
from clubs.services import club_create, membership_accept, membership_invite, night_check_in, night_open, season_create
from engine.actions import action_to_dict
from engine.match import MatchRules
from engine.randomgame import random_match_games
from matches.models import Player
from matches.services.logs import log_from_json
from matches.services.matches import match_create
from matches.services.reporting import claim_make, match_confirm, match_report

CLUB_NAME = "Crawford Demo Club"
CLUB_SLUG = "crawford-demo-club"
CLUB_CITY = "London"
NIGHT_TITLE = "Demo club night"
#: Tonight's club matches: (side 0, side 1, length, seed of the random game logs).
NIGHT_MATCHES = [("alice", "erin", 3, 20261129), ("bob", "frank", 3, 20261130)]
#: Who checks in at tonight's night.
CHECK_INS = ("alice", "bob", "carol", "dave", "erin", "frank")


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


def demo_club(organiser) -> Club:
    """The demo club, created by the organiser (its owner) the first time."""
    try:
        return club_get(slug=CLUB_SLUG)
    except Club.DoesNotExist:
        return club_create(user=organiser, name=CLUB_NAME, city=CLUB_CITY,
                           description="The demo club: weekly nights, a ladder and a chouette table.")


def _members(club: Club) -> int:
    return club_get(club_id=club.pk).member_count


def club_demo_load(*, club: Club, organiser, players: dict[str, Player], today: date) -> ClubDemo:
    """Members, season, tonight's night with its matches (see the module)."""
    night = next((night for night in night_list(club=club) if night.title == NIGHT_TITLE), None)
    if night is not None:
        return ClubDemo(club, _members(club), night, False)
    for player in players.values():
        if membership_of(club=club, user=player.user) is None:
            membership_invite(club_id=club.pk, user=organiser, username=player.user.get_username())
            membership_accept(club_id=club.pk, user=player.user)
    if not season_list(club=club).exists():
        season_create(club_id=club.pk, user=organiser, name=f"Season {today.year}", starts_on=date(today.year, 1, 1),
                      ends_on=date(today.year, 12, 31))
    night = night_open(club_id=club.pk, user=organiser, date=today, title=NIGHT_TITLE)
    for username in CHECK_INS:
        night_check_in(club_id=club.pk, night_id=night.pk, user=players[username].user)
    for side0, side1, length, seed in NIGHT_MATCHES:
        a, b = players[side0], players[side1]
        match = match_create(created_by=a.user, sides=([a], [b]), rules=MatchRules(length),
                             context={"club": club, "club_night": night})
        games = [[action_to_dict(action) for action in game] for game in random_match_games(random.Random(seed), length)]
        log = log_from_json(games, match.rules())
        match_report(match_id=match.pk, user=a.user, claim=claim_make(match, log.final_score, log))
        match_confirm(match_id=match.pk, user=b.user)
    return ClubDemo(club, _members(club), night, True)
