"""The README's run command serves on the embedded default (SQLite, tasks in-process): in a fresh
process with no DATABASE_URL or REDIS_URL, the migrations run, the demo data loads (three real match
files) and every kind of page and API list answers — the PostgreSQL-only SQL the suite (on
PostgreSQL) cannot catch fails here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat

BASE_DIR = Path(__file__).resolve().parent.parent
FILES = ["galaxy_1pt_match1501137.mat", "studio_3pt_solnze_lasse.mat", "gnubg_3pt_test_match01.mat"]

WALK = """
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from pathlib import Path
from django.core.management import call_command
from django.test import Client
call_command("migrate", verbosity=0)
from demo.services import demo_data_load
from chouette.models import ChouetteSession
from clubs.models import ClubNight, Season
from rulings.models import Dispute
from tournaments.models import Tournament
summary = demo_data_load(folder=Path(sys.argv[1]))
club = summary.club
night = ClubNight.objects.get(club=club)
chouette = ChouetteSession.objects.get(club=club)
dispute = Dispute.objects.get()
season = Season.objects.get(club=club)
bracket, swiss = (Tournament.objects.get(name=name) for name in ("Crawford Demo Open", "Crawford Demo Swiss"))
pages = {
    "anonymous": ["/events/", f"/events/{bracket.pk}/", f"/events/{bracket.pk}/bracket/",
                  f"/events/{swiss.pk}/standings/", f"/events/{swiss.pk}/rounds/", "/clubs/", f"/clubs/{club.slug}/",
                  f"/clubs/{club.slug}/seasons/", f"/clubs/{club.slug}/seasons/{season.pk}/",
                  f"/clubs/{club.slug}/nights/", f"/api/v1/clubs/{club.pk}/calendar.ics",
                  f"/api/v1/clubs/{club.pk}/seasons/{season.pk}/ladder.csv",
                  f"/rulings/events/{bracket.pk}/", "/api/v1/tournaments/", f"/api/v1/tournaments/{swiss.pk}/standings/",
                  "/api/v1/clubs/", "/api/schema/"],
    "alice": ["/", f"/matches/{dispute.match_id}/", f"/players/{summary.players[0].pk}/",
              f"/clubs/{club.slug}/nights/{night.pk}/",
              f"/clubs/{club.slug}/chouettes/{chouette.pk}/", f"/rulings/disputes/{dispute.pk}/", "/rulings/",
              f"/api/v1/clubs/{club.pk}/chouettes/{chouette.pk}/", "/api/v1/disputes/"],
    "organiser": [f"/events/{bracket.pk}/audit/", f"/rulings/disputes/{dispute.pk}/", "/rulings/",
                  f"/clubs/{club.slug}/members/"],
}
# The director's desk, the screens, paper and the live pages, the webhooks and the front page:
# each kind once, by its route's name.
from django.urls import reverse
first_round = 1
pages["anonymous"] += ["/", "/api/docs/", "/api/redoc/", "/favicon.ico",
                       reverse("tournaments:projector", args=[bracket.pk]),
                       reverse("tournaments:embed_bracket", args=[bracket.pk]),
                       reverse("tournaments:bracket_svg", args=[bracket.pk]),
                       reverse("tournaments:bracket_png", args=[bracket.pk]),
                       reverse("tournaments:paper_draw", args=[bracket.pk]),
                       reverse("tournaments:paper_scoresheets", args=[swiss.pk, first_round]),
                       reverse("tournaments:paper_results", args=[swiss.pk, first_round]),
                       reverse("tournaments:live", args=[swiss.pk]),
                       reverse("matches:scoresheet", args=[dispute.match_id])]
pages["organiser"] += [reverse("tournaments:desk", args=[bracket.pk]), reverse("tournaments:desk", args=[swiss.pk]),
                       reverse("tournaments:edit", args=[swiss.pk]),
                       reverse("webhooks:event", args=[bracket.pk]), reverse("webhooks:club", args=[club.slug])]
from accounts.models import User
answers = {}
for who, paths in pages.items():
    client = Client()
    if who != "anonymous":
        client.force_login(User.objects.get(username=who))
    for path in paths:
        answers[f"{who} {path}"] = client.get(path, follow=True).status_code
print(json.dumps(answers))
"""


def run_fresh(script: str, tmp_path: Path, files: list[str]) -> dict:
    """Run ``script`` in a fresh process on a SQLite file of its own (no DATABASE_URL or REDIS_URL
    of this run), given a folder holding the real match files ``files``; what it printed last, as
    JSON."""
    folder = tmp_path / "mat"
    folder.mkdir()
    for name in files:
        shutil.copy(BASE_DIR.parent / "shared" / "data" / "mat" / name, folder / name)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'crawford.sqlite3'}"}
    result = subprocess.run([sys.executable, "-c", script, str(folder)], cwd=BASE_DIR, env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_the_demo_runs_on_the_embedded_default_and_every_kind_of_page_answers(tmp_path):
    answers = run_fresh(WALK, tmp_path, FILES)
    assert {path: status for path, status in answers.items() if status != 200} == {}


IMPORT = """
import json, os, re, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from pathlib import Path
from django.core.management import call_command
from django.test import Client
call_command("migrate", verbosity=0)
from accounts.models import User
from matches.models import ImportJob
client = Client()
client.force_login(User.objects.create_user(username="organiser", password="x" * 12))
folder = Path(sys.argv[1])
uploads = [open(path, "rb") for path in sorted(folder.glob("*.mat"))]
from core.local_worker import LocalWorker
def work():
    # What the laptop's imports and quick workers do (runserver starts them): run the rows due.
    LocalWorker(["imports", "quick"], poll_seconds=0, max_idle_polls=1).run()
answers = {"upload": client.post("/imports/", {"files": uploads}).status_code}
job = ImportJob.objects.get()
answers["queued"] = job.status
work()
job.refresh_from_db()
answers["checked"] = job.status
def details():
    html = client.get(f"/imports/{job.pk}/").content.decode()
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r'<td class="details">(.*?)</td>', html, re.S)]
answers["checked_details"] = details()
answers["players"] = client.get(f"/imports/{job.pk}/players/").status_code
mapping = {f"choice-{index}": "guest" for index, _entry in enumerate(job.names)}
answers["mapped"] = client.post(f"/imports/{job.pk}/players/", mapping).status_code
work()
job.refresh_from_db()
answers["done"] = job.status
answers["page"] = [client.get(f"/imports/{job.pk}/").status_code for _visit in range(2)]
answers["details"] = details()
api = client.get(f"/api/v1/imports/{job.pk}/")
answers["api"] = api.status_code
answers["api_results"] = [file["result"] for file in api.json()["files"]] if api.status_code == 200 else []
print(json.dumps(answers))
"""


@pytest.mark.slow
def test_an_import_runs_to_its_end_on_the_embedded_default_and_its_page_shows_sentences(tmp_path):
    # Both steps of an import, as an organiser runs them on a laptop: its page and the API answer
    # every time, each file's result a sentence (the games' count read from SQLite's JSON).
    games = {"galaxy_1pt_match1501137.mat": 1, "studio_3pt_solnze_lasse.mat": 2}
    answers = run_fresh(IMPORT, tmp_path, list(games))
    folder = tmp_path / "mat"
    players = [check_mat(read_mat((folder / name).read_bytes())).players for name in games]
    sentences = [f"Accepted: one match of {count} game{'s' if count > 1 else ''}." for count in games.values()]
    assert answers == {"upload": 302, "queued": "queued", "checked": "mapping", "players": 200, "mapped": 302, "done": "done",
                       "checked_details": [f"{first} against {second}" for first, second in players],
                       "page": [200, 200], "details": sentences, "api": 200, "api_results": sentences}
