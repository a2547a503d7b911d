"""The README's run shape under a new organiser's Saturday: SQLite, no REDIS_URL, ``manage.py
runserver`` with its threads and its autoreloader, the local task workers it starts
(core/local_worker.py).

Through HTTP alone: a result reported with a real .mat file and confirmed, "Analyse again", a .zip
imported in two steps. The server answers every request afterwards (GNU Backgammon never runs in
its threads), each analysis completes, and each rating and email is delivered exactly once; then
the server is killed (``kill -9``, its whole process group) right after a confirmation commits and
started again, and the rating, the emails and the analysis are delivered once, within a minute;
then the analysis worker alone is killed in the middle of an analysis, and it is started again and
the analysis completes.

Emails go to files (Django's file-based backend standing in for the console, where the laptop
prints them) so that each can be counted.
"""

from __future__ import annotations

import email
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.faults.scenario import mat_file, zip_of
from tests.faults.stack import BASE_DIR, Process, free_port, wait_for

pytestmark = pytest.mark.slow

PASSWORD = "crawford-demo"
#: The match file the organiser's first crash came with: 3 points, the file's second player wins 3-2.
MAT = "galaxy_3pt_match1161689.mat"
IMPORTED = ["galaxy_1pt_match1501137.mat", "gnubg_3pt_test_match01.mat"]

SETUP = """
import json
from accounts.models import User
from accounts.services import user_create
from engine.match import MatchRules
from matches.services.matches import match_create, player_create
director = user_create(username="director", password={password!r}, email="director@example.org",
                       role=User.Role.ORGANISER)
people = {{}}
for name in ("ann", "ben", "cat", "dan"):
    user = user_create(username=name, password={password!r}, email=f"{{name}}@example.org", first_name=name.title())
    people[name] = player_create(display_name=f"{{name.title()}} Laptop", user=user)
first = match_create(created_by=director, sides=([people["ann"]], [people["ben"]]), rules=MatchRules(3))
second = match_create(created_by=director, sides=([people["cat"]], [people["dan"]]), rules=MatchRules(3))
print(json.dumps({{"first": first.pk, "second": second.pk}}))
"""


class Laptop:
    """The README's run command on a SQLite file of its own: ``manage.py runserver`` (autoreloader
    and all) in a process group of its own, its output in a file."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.database = folder / "laptop.sqlite3"
        (folder / "emails").mkdir()
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.server: Process | None = None
        self.starts = 0

    def env(self, **extra: str) -> dict[str, str]:
        # Nothing of the test run's environment (its PostgreSQL and Redis) leaks in.
        return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
                "PYTHONUNBUFFERED": "1", "DATABASE_URL": f"sqlite:///{self.database}",
                "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
                "DJANGO_EMAIL_FILE_PATH": str(self.folder / "emails"),
                "CRAWFORD_MEDIA_ROOT": str(self.folder / "media"), **extra}

    def manage(self, *args: str) -> str:
        result = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=self.env(), capture_output=True,
                                text=True, timeout=300, stdin=subprocess.DEVNULL)
        assert result.returncode == 0, f"manage.py {' '.join(args)}:\n{result.stdout}\n{result.stderr}"
        return result.stdout

    def start(self, **extra: str) -> None:
        self.starts += 1
        self.server = Process(f"runserver-{self.starts}", [sys.executable, "manage.py", "runserver",
                                                           f"127.0.0.1:{self.port}"],
                              env=self.env(**extra), log_path=self.folder / f"runserver-{self.starts}.log").start()
        wait_for("the laptop's server to answer", self.answers, timeout=120, log=self.server.log)

    def answers(self) -> bool:
        try:
            return requests.get(self.base + "/health/", timeout=5).status_code == 200
        except requests.RequestException:
            return False

    def sql(self, query: str, *params) -> list[tuple]:
        with sqlite3.connect(self.database, timeout=20) as db:
            return db.execute(query, params).fetchall()

    def token(self, username: str) -> dict[str, str]:
        answer = requests.post(self.base + "/api/v1/auth/token/", json={"username": username, "password": PASSWORD},
                               timeout=30)
        assert answer.status_code == 200, answer.text
        return {"Authorization": f"Token {answer.json()['token']}"}

    def post(self, path: str, headers: dict, **kwargs) -> requests.Response:
        return requests.post(self.base + path, headers=headers, timeout=60, **kwargs)

    def get(self, path: str, headers: dict | None = None) -> requests.Response:
        return requests.get(self.base + path, headers=headers or {}, timeout=60)

    def emails(self) -> list[tuple[str, str]]:
        """(recipient, subject) of every email sent so far."""
        sent = []
        for path in sorted((self.folder / "emails").glob("*.log")):
            for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
                if chunk.strip():
                    message = email.message_from_bytes(chunk)
                    sent.append((message["To"], message["Subject"]))
        return sent

    def log(self) -> str:
        return "\n".join((self.folder / f"runserver-{n}.log").read_text(errors="replace")
                         for n in range(1, self.starts + 1))


def report_and_confirm(laptop: Laptop, match_id: int, reporter: dict, confirmer: dict) -> None:
    """The reporter sends the real .mat file (his side is the file's first player), the opponent confirms."""
    data = (BASE_DIR.parent / "shared" / "data" / "mat" / MAT).read_bytes()
    reported = laptop.post(f"/api/v1/matches/{match_id}/report/", reporter,
                           data={"score0": "2", "score1": "3", "file_side": "0"}, files={"file": (MAT, data)})
    assert reported.status_code == 200, reported.text
    confirmed = laptop.post(f"/api/v1/matches/{match_id}/confirm/", confirmer, json={})
    assert confirmed.status_code == 200, confirmed.text


def analysis_states(laptop: Laptop) -> dict[int, tuple[str, int]]:
    return {match: (status, generation)
            for match, status, generation in laptop.sql("SELECT match_id, status, generation FROM analysis_matchanalysis")}


def delivered_once(laptop: Laptop, match_id: int) -> bool:
    """Both players' rating changes of the match applied, and the outbox holds nothing undone."""
    ratings = laptop.sql("SELECT count(*) FROM matches_ratingchange WHERE match_id = ?", match_id)[0][0]
    undone = laptop.sql("SELECT count(*) FROM core_outboxtask WHERE done_at IS NULL")[0][0]
    return ratings == 2 and undone == 0


def assert_each_email_once(laptop: Laptop) -> list[tuple[str, str]]:
    sent = laptop.emails()
    doubled = {message for message in sent if sent.count(message) > 1}
    assert not doubled, f"emails sent twice: {doubled}"
    return sent


@pytest.fixture
def laptop(tmp_path):
    laptop = Laptop(tmp_path)
    laptop.manage("migrate", "--noinput")
    ids = json.loads(laptop.manage("shell", "--verbosity", "0", "-c", SETUP.format(password=PASSWORD))
                     .strip().splitlines()[-1])
    laptop.matches = ids
    yield laptop
    if laptop.server is not None:
        laptop.server.kill()


def test_a_saturday_on_the_laptop_run_never_takes_the_server_down_and_delivers_everything_once(laptop):
    laptop.start()
    server_pid = laptop.server.popen.pid
    ann, ben, director = laptop.token("ann"), laptop.token("ben"), laptop.token("director")
    match_id = laptop.matches["first"]

    started = time.monotonic()
    report_and_confirm(laptop, match_id, ann, ben)
    confirm_seconds = time.monotonic() - started
    wait_for("the confirmed match's analysis", lambda: analysis_states(laptop).get(match_id, ("",))[0] == "done",
             timeout=120, log=laptop.log)
    again = laptop.post(f"/api/v1/matches/{match_id}/analysis/", director, json={"plies": 0})
    assert again.status_code == 202, again.text

    files = [(f"{n}-{name}", mat_file(name, "sat")) for n, name in enumerate(IMPORTED)]
    started_import = laptop.post("/api/v1/imports/", ann, files={"files": ("saturday.zip", zip_of(files))})
    assert started_import.status_code in (201, 202), started_import.text
    job_id = started_import.json()["id"]
    wait_for("the import's mapping step", lambda: laptop.get(f"/api/v1/imports/{job_id}/", ann).json()["status"]
             == "mapping", timeout=120, log=laptop.log)
    names = [entry["name"] for entry in laptop.get(f"/api/v1/imports/{job_id}/", ann).json()["names"]]
    mapped = laptop.post(f"/api/v1/imports/{job_id}/mapping/", ann, json={"mapping": dict.fromkeys(names, "guest")})
    assert mapped.status_code in (200, 202), mapped.text
    wait_for("the import to finish", lambda: laptop.get(f"/api/v1/imports/{job_id}/", ann).json()["status"] == "done",
             timeout=120, log=laptop.log)

    def all_analysed():
        states = analysis_states(laptop)
        return len(states) == 1 + len(IMPORTED) and all(status == "done" for status, _ in states.values())

    wait_for("every analysis (the confirmed match again, the imported ones)", all_analysed, timeout=180,
             log=laptop.log)
    assert analysis_states(laptop)[match_id] == ("done", 2)  # "Analyse again" ran too
    wait_for("the ratings and emails", lambda: delivered_once(laptop, match_id), timeout=60, log=laptop.log)

    # The same server, its process never replaced, still answers every kind of request.
    assert laptop.server.alive and laptop.server.popen.pid == server_pid
    assert "Segmentation fault" not in laptop.log()
    for path in ("/", f"/matches/{match_id}/", f"/api/v1/matches/{match_id}/analysis/", "/health/"):
        assert laptop.get(path, ann).status_code == 200, path
    health = laptop.get("/health/").json()
    assert health["status"] == "ok", health
    assert health["workers"] == "local" and health["outbox"]["sent_not_done"] == 0
    sent = assert_each_email_once(laptop)
    assert {to for to, _subject in sent} >= {"ann@example.org", "ben@example.org"}
    # The confirmation did not wait for the analysis (which had not even begun): under ten seconds
    # is not a timing assertion but a bound far above a request and far below a 2-ply analysis.
    assert confirm_seconds < 10
    print(f"\nlaptop run: report and confirmation answered in {confirm_seconds:.2f} s; "
          f"{len(sent)} emails, each once; {len(analysis_states(laptop))} analyses done")


def test_a_killed_laptop_server_delivers_the_rating_the_emails_and_the_analysis_once_when_started_again(laptop):
    # The workers look for work every ten minutes: what the confirmation writes is still undone
    # when the server is killed, as in a crash right after the commit.
    laptop.start(CRAWFORD_LOCAL_WORKER_POLL_MS="600000")
    ann, ben = laptop.token("ann"), laptop.token("ben")
    match_id = laptop.matches["first"]
    report_and_confirm(laptop, match_id, ann, ben)
    laptop.server.kill()  # kill -9 of the whole group: the server, its autoreloader, its workers
    assert laptop.sql("SELECT status FROM matches_match WHERE id = ?", match_id) == [("confirmed",)]
    assert laptop.sql("SELECT count(*) FROM matches_ratingchange WHERE match_id = ?", match_id) == [(0,)]
    undone = laptop.sql("SELECT count(*) FROM core_outboxtask WHERE done_at IS NULL")[0][0]
    assert undone >= 3  # the rating, the players' emails, the analysis
    emails_before = len(laptop.emails())

    restarted = time.monotonic()
    laptop.start(CRAWFORD_ANALYSIS_MAX_PLIES="1")
    wait_for("the rating and emails after the restart", lambda: delivered_once(laptop, match_id), timeout=60,
             log=laptop.log)
    assert analysis_states(laptop)[match_id][0] == "done"
    recovered = time.monotonic() - restarted
    assert recovered < 60
    sent = assert_each_email_once(laptop)
    assert len(sent) > emails_before

    # Now the analysis worker alone dies in the middle of an analysis (as a crash in gnubg would):
    # the server goes on answering, the worker is started again and the analysis completes.
    second = laptop.matches["second"]
    cat, dan = laptop.token("cat"), laptop.token("dan")
    report_and_confirm(laptop, second, cat, dan)
    wait_for("the second match's analysis to run", lambda: analysis_states(laptop).get(second, ("",))[0] == "running",
             timeout=60, interval=0.05, log=laptop.log)
    [(worker,)] = laptop.sql("SELECT worker FROM core_workerheartbeat WHERE queue = 'analysis'")
    pid = int(worker.rsplit(":", 1)[1])
    os.kill(pid, 9)
    assert laptop.get("/health/").status_code == 200
    wait_for("the analysis after its worker died", lambda: analysis_states(laptop)[second][0] == "done", timeout=90,
             log=laptop.log)
    assert laptop.sql("SELECT attempt FROM analysis_matchanalysis WHERE match_id = ?", second)[0][0] >= 2
    assert re.search(r"local analysis worker ended \(exit status -9\)", laptop.log())
    assert laptop.server.alive
    wait_for("the second match's rating", lambda: delivered_once(laptop, second), timeout=60, log=laptop.log)
    assert_each_email_once(laptop)
    print(f"\nlaptop killed after a confirmation: delivered {recovered:.1f} s after the restart")
