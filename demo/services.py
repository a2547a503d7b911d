"""Demo data: a club, an organiser, ten players, their matches, two tournaments, a club night and a
chouette table, loaded through the apps' own services (``manage.py demo_data``).

The demo stands above every app, one module per part. A load makes, in this order: the organiser
(:mod:`demo.people`), the demo club (:mod:`demo.clubs`), the players who call it home
(:mod:`demo.people`), the friendly matches (:mod:`demo.matches`: real match files replayed, and
three left for alice), the two tournaments (:mod:`demo.tournaments`), the club's members, season
and tonight's night with its matches (:mod:`demo.clubs`), and the chouette table at that night
(:mod:`demo.chouette`).

It writes only through the apps' services (``<entity>_<action>``) and checks what exists through
their selectors: loading is idempotent, so a second run finds everything in place and changes
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from clubs.models import Club
from matches.models import Match, Player
from matches.selectors.match import match_record_counts
from tournaments.models import Tournament

from .chouette import ChouetteDemo, chouette_demo_load
from .clubs import ClubDemo, club_demo_load, demo_club
from .matches import friendly_matches_load, mat_dir
from .people import DEMO_PASSWORD, ORGANISER_USERNAME, PLAYERS, demo_organiser, demo_player, login_lines
from .tournaments import tournaments_load

#: Where the README's run command serves the demo (``runserver 127.0.0.1:8000``).
DEMO_URL = "http://127.0.0.1:8000/"


@dataclass
class DemoSummary:
    """What a load found and did. ``created`` counts the matches this run created (0 on a second
    run); ``notes`` say what was skipped and why."""

    club: Club
    organiser: User
    players: list[Player]
    matches: list[Match] = field(default_factory=list)
    created: int = 0
    tournaments: list[Tournament] = field(default_factory=list)
    created_events: int = 0
    notes: list[str] = field(default_factory=list)
    club_demo: ClubDemo | None = None
    chouette_demo: ChouetteDemo | None = None

    def login(self, url: str = DEMO_URL) -> str:
        """The line that says where the demo is served (``url``) and who to sign in as."""
        player = PLAYERS[0][0]
        return (f"Demo ready: {url}  sign in as {player} / {DEMO_PASSWORD} (player) "
                f"or {ORGANISER_USERNAME} / {DEMO_PASSWORD} (organiser)")

    def logins(self) -> list[str]:
        """Every demo login with its role, and the password they share (see demo.people)."""
        return login_lines([self.organiser, *(player.user for player in self.players)])

    def counts(self) -> dict[str, int]:
        """The demo's rows by kind (the demo players' and matches' rows only)."""
        ids = [m.pk for m in self.matches]
        return {"players": len(self.players), "matches": len(ids), **match_record_counts(ids)}


@transaction.atomic
def demo_data_load(*, folder: Path | None = None, now: datetime | None = None) -> DemoSummary:
    """Create (once) the demo club, organiser, players and matches; return a summary.

    Creates what is missing and leaves what exists alone, so a second run changes nothing. For
    each readable ``.mat`` file in ``folder`` (default :func:`mat_dir`) a confirmed, rated match
    with its games; then a scheduled match, one reported awaiting alice's confirmation and one
    disputed. Then the two demo tournaments, each created once, the club's members, season and
    tonight's night, and the chouette table at that night (see the modules). A missing folder,
    or a file the engine rejects, is skipped with a note in the summary; one transaction, so an
    unexpected error leaves nothing half-loaded. Raises the tournaments' DomainErrors only on a
    bug: the demo events are built from scratch.
    """
    now = now or timezone.now()
    folder = mat_dir() if folder is None else folder
    organiser = demo_organiser()
    club = demo_club(organiser)
    players = [demo_player(username, first, last, country, club.pk) for username, first, last, country in PLAYERS]
    by_name = {username: player for (username, *_), player in zip(PLAYERS, players, strict=True)}
    summary = DemoSummary(club=club, organiser=organiser, players=players)

    friendly = friendly_matches_load(organiser=organiser, players=players, by_name=by_name, folder=folder, now=now)
    summary.matches, summary.created, summary.notes = friendly.matches, friendly.created, friendly.notes
    # The tournaments after the friendly matches: their results move the players' ratings, which
    # the files' matches (rated first, in file order) must not see on a first run either.
    summary.tournaments, summary.created_events = tournaments_load(organiser=organiser, club_id=club.pk,
                                                                   by_name=by_name, today=now.date())
    summary.club_demo = club_demo_load(club=club, organiser=organiser, players=by_name, today=now.date())
    summary.chouette_demo = chouette_demo_load(club=club, night=summary.club_demo.night, organiser=organiser,
                                               players=by_name)
    return summary
