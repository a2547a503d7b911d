"""What the demo's test modules share: which rows are the demo's, a snapshot of them, the command."""

from __future__ import annotations

import shutil
from io import StringIO
from pathlib import Path

from django.core.management import call_command

from accounts.models import User
from clubs.models import Club
from demo.matches import mat_dir
from demo.people import PLAYERS
from matches.models import Game, Match, Player, RatingChange, Report
from tournaments.models import Entry, Pairing, Round, Tournament

LOGIN = ("Demo ready: http://127.0.0.1:8000/  sign in as alice / crawford-demo (player) "
         "or organiser / crawford-demo (organiser)")
SMALL = ["galaxy_1pt_match1501137.mat", "studio_3pt_solnze_lasse.mat", "gnubg_3pt_test_match01.mat"]


def copy_small(folder: Path) -> Path:
    """Three real match files, copied into ``folder`` (never into the project)."""
    for name in SMALL:
        shutil.copy(mat_dir() / name, folder / name)
    return folder


def demo_matches():
    # Only the demo's rows: the test database is shared, and other suites' committed rows
    # (transactional tests) may sit beside ours. The friendly matches only: the demo
    # tournaments' matches (same organiser) are checked by their own tests.
    return Match.objects.filter(organiser__username="organiser", event_link__isnull=True)


def demo_events():
    return Tournament.objects.filter(organiser__username="organiser")


def demo_event(event) -> Tournament:
    return demo_events().get(name=event[0])


def snapshot() -> dict:
    usernames = ["organiser", *(username for username, *_ in PLAYERS)]
    matches = demo_matches()
    return {
        "users": list(User.objects.filter(username__in=usernames).order_by("pk").values_list("pk", "password")),
        "clubs": list(Club.objects.filter(name="Crawford Demo Club").values_list("pk", flat=True)),
        "players": list(Player.objects.filter(user__username__in=usernames).order_by("pk")
                        .values_list("pk", "rating", "experience")),
        "matches": list(matches.order_by("pk").values_list("pk", "status", "score0", "score1", "winner")),
        "games": Game.objects.filter(match__in=matches).count(),
        "reports": list(Report.objects.filter(match__in=matches).order_by("pk").values_list("pk", "status")),
        "rating_changes": RatingChange.objects.filter(match__in=matches).count(),
        "events": list(demo_events().order_by("pk").values_list("pk", "status", "draw_seed")),
        "event_matches": list(Match.objects.filter(event_link__tournament__in=demo_events()).order_by("pk")
                              .values_list("pk", "status", "score0", "score1", "winner")),
        "event_rows": list(Pairing.objects.filter(tournament__in=demo_events()).order_by("pk")
                           .values_list("pk", "key", "entry0", "entry1", "length", "match")),
        "entries": list(Entry.objects.filter(tournament__in=demo_events()).order_by("pk")
                        .values_list("pk", "status", "seed")),
        "rounds": Round.objects.filter(tournament__in=demo_events()).count(),
    }


def run_command(*args: str) -> str:
    """``manage.py demo_data``'s output (with the command-line arguments ``args``)."""
    out = StringIO()
    call_command("demo_data", *args, stdout=out)
    return out.getvalue()
