"""The directory's search on the embedded default (SQLite: the README's no-config run), in a fresh
process as test_embedded_run does: the same stored search key finds the same players as on
PostgreSQL (accents, case, the Romanian comma or cedilla; Korean and Arabic in their own script),
through the selector, the API, the page and the picker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent.parent

WALK = """
import json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.core.management import call_command
from django.db import connection
from django.test import Client
call_command("migrate", verbosity=0)
from matches.models import Player
from matches.pickers import PlayerChoiceField
from matches.selectors.directory import player_directory
from matches.services.matches import player_create
for name in ("Ștefan Popescu", "Ştefan Ionescu", "Stella Pop", "김민준", "مُحَمَّد علي"):
    player_create(display_name=name)
found = {typed: sorted(p.display_name for p in player_directory(q=typed))
         for typed in ("stefan", "ȘTEFAN", "Ştef", "민준", "محمد")}
client = Client()
api = [p["display_name"] for p in client.get("/api/v1/players/", {"q": "STEFAN"}).json()["results"]]
page = client.get("/players/", {"q": "ștefan pop"}).content.decode()
picked = PlayerChoiceField().clean(("stefan popescu", "")).display_name
print(json.dumps({"vendor": connection.vendor, "found": found, "api": api, "picked": picked,
                  "page": ["Ștefan Popescu" in page, "Stella Pop" in page]}))
"""


@pytest.mark.slow
def test_the_search_finds_the_same_players_on_sqlite(tmp_path):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'crawford.sqlite3'}"}
    result = subprocess.run([sys.executable, "-c", WALK], cwd=BASE_DIR, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    assert answer["vendor"] == "sqlite"
    stefans = ["Stefan Ionescu".replace("S", "Ş", 1), "Ștefan Popescu"]
    assert answer["found"] == {"stefan": stefans, "ȘTEFAN": stefans, "Ştef": stefans, "민준": ["김민준"],
                               "محمد": ["مُحَمَّد علي"]}
    assert answer["api"] == sorted(answer["api"]) and set(answer["api"]) == set(stefans)
    assert answer["picked"] == "Ștefan Popescu" and answer["page"] == [True, False]
