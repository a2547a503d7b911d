"""What the fault scenarios share (tests/faults/test_outbox_faults.py, test_input_faults.py): people
and matches made through the services, match files of their own, requests timed and counted, the
figures printed and collected, and the invariants every scenario checks with SQL at its end.

Every scenario makes its own people, matches and files under a tag of its own (``new_tag()``), so
that the scenarios do not depend on each other's order nor on the demo data, and counts only what
is its own (emails to its people's addresses, rating changes of its matches).
"""

from __future__ import annotations

import io
import json
import os
import re
import time
import uuid
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import requests

from engine.formats.mat import read_mat
from tests.faults.stack import BASE_DIR, Browser, Stack, wait_for

MAT_DIR = BASE_DIR.parent / "shared" / "data" / "mat"
PASSWORD = "crawford-demo"


def new_tag() -> str:
    """A short tag unique to one scenario's run: in usernames, emails and imported player names."""
    return uuid.uuid4().hex[:8]


# --- match files -----------------------------------------------------------------------------------


def mat_names() -> list[str]:
    """The real .mat files of /work/shared/data/mat (29), by name."""
    return sorted(path.name for path in MAT_DIR.glob("*.mat"))


def mat_file(name: str, tag: str) -> bytes:
    """The real match file ``name`` with its players renamed ``<name>.<tag>``: another match for the
    importer (its canonical hash names the players), so each scenario's files are new ones."""
    data = (MAT_DIR / name).read_bytes()
    text = data.decode("utf-8")
    # The longer name first: one player's name may hold the other's.
    for player in sorted(set(read_mat(data).games[0].players), key=len, reverse=True):
        text = text.replace(player, f"{player}.{tag}")
    return text.encode("utf-8")


def zip_of(files: list[tuple[str, bytes]]) -> bytes:
    """A zip archive of ``(name, bytes)`` members, in that order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return buffer.getvalue()


# --- people and matches, through the services -------------------------------------------------------


def make(stack: Stack, tag: str, *, people: list[str], matches: list[tuple[str, str, str, int]]) -> dict:
    """Users (``<name>-<tag>``, the demo password, an address ``<name>-<tag>@example.org``) each with
    a player, and matches ``(key, creator, opponent, length)`` created by ``creator`` (a person of
    ``people``, or "organiser": the demo's organiser, playing in none) between the first and second
    players named in ``opponent`` ("a/b" for an organiser's match) — all through the services in
    one ``manage.py shell``. Returns ``{"users": {name: username}, "players": {name: id}, "matches":
    {key: [ids...]}}``; a key may repeat to make several matches alike."""
    code = f"""
import json
from accounts.models import User
from accounts.services import user_create
from engine.match import MatchRules
from matches.services.matches import match_create, player_create
tag = {tag!r}
users, players = {{}}, {{}}
for name in {people!r}:
    user = user_create(username=f"{{name}}-{{tag}}", password={PASSWORD!r}, email=f"{{name}}-{{tag}}@example.org",
                       first_name=name.title())
    users[name] = user
    players[name] = player_create(display_name=f"{{name.title()}} {{tag}}", user=user)
organiser = User.objects.get(username="organiser")
made = {{}}
for key, creator, opponent, length in {matches!r}:
    if creator == "organiser":
        first, second = opponent.split("/")
        match = match_create(created_by=organiser, sides=([players[first]], [players[second]]),
                             rules=MatchRules(length))
    else:
        match = match_create(created_by=users[creator], sides=([players[creator]], [players[opponent]]),
                             rules=MatchRules(length))
    made.setdefault(key, []).append(match.pk)
print(json.dumps({{"users": {{n: u.username for n, u in users.items()}},
                  "players": {{n: p.pk for n, p in players.items()}}, "matches": made}}))
"""
    return json.loads(stack.shell(code).strip().splitlines()[-1])


def outbox_top(stack: Stack) -> int:
    """The newest outbox row's id (0 when none): a scenario's rows are the ones after it."""
    return stack.sql("SELECT coalesce(max(id), 0) FROM core_outboxtask")[0][0]


def emails_to(stack: Stack, tag: str) -> list[tuple[str, str]]:
    """``(recipient, subject)`` of every email sent so far to the scenario's people."""
    return sorted((message["To"], message["Subject"]) for message in stack.emails() if f"-{tag}@" in message["To"])


# --- requests, timed ------------------------------------------------------------------------------


@dataclass
class Answer:
    label: str
    status: int | str  # the status code, or the exception's name when there was no answer
    sent: float
    received: float
    response: requests.Response | None = None
    expected: int | None = None

    @property
    def seconds(self) -> float:
        return self.received - self.sent


@dataclass
class Log:
    """Every request a scenario makes during its fault, with its answer and its times."""

    answers: list[Answer] = field(default_factory=list)

    def call(self, label: str, send, expected: int | None = 200) -> requests.Response | None:
        """Send (``send()``), keep the answer with its times and the status ``expected`` of it
        (None: any); the answer, or None when the connection failed."""
        sent = time.monotonic()
        try:
            response = send()
        except requests.RequestException as error:
            self.answers.append(Answer(label, type(error).__name__, sent, time.monotonic(), expected=expected))
            return None
        self.answers.append(Answer(label, response.status_code, sent, time.monotonic(), response, expected))
        return response

    def unexpected(self) -> list[tuple[str, int | str, str]]:
        """The answers that were not what was expected: label, status and the start of the body."""
        return [(a.label, a.status, a.response.text[:300] if a.response is not None else "")
                for a in self.answers if a.expected is not None and a.status != a.expected]

    def statuses(self) -> dict:
        return dict(Counter(answer.status for answer in self.answers))

    def latencies(self) -> dict:
        seconds = sorted(answer.seconds for answer in self.answers)
        if not seconds:
            return {}
        return {"median_ms": round(seconds[len(seconds) // 2] * 1000), "slowest_ms": round(seconds[-1] * 1000)}


def csrf_of(response: requests.Response) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.text)
    assert found, f"no CSRF token on the page ({response.status_code}): {response.text[:300]}"
    return found.group(1)


def page_post(log: Log, browser: Browser, label: str, page: str, action: str, data: dict | None = None,
              files=None) -> requests.Response | None:
    """What a person does: open ``page``, send its form to ``action`` with the page's CSRF token."""
    form = log.call(f"{label} (page)", lambda: browser.get(page))
    if form is None or form.status_code != 200:
        return form
    body = {**(data or {}), "csrfmiddlewaretoken": csrf_of(form)}
    return log.call(label, lambda: browser.request("POST", action, data=body, files=files), expected=302)


# --- figures --------------------------------------------------------------------------------------


def figures_record(scenario: str, figures: dict) -> None:
    """Print the scenario's figures (``pytest -s`` shows them) and, when CRAWFORD_FAULT_FIGURES names
    a file, append them to it as one JSON line."""
    line = json.dumps({"scenario": scenario, **figures}, sort_keys=True, default=str)
    print(f"\nFIGURES {line}")
    target = os.environ.get("CRAWFORD_FAULT_FIGURES")
    if target:
        with Path(target).open("a", encoding="utf-8") as out:
            out.write(line + "\n")


def poll(what: str, ready, *, timeout: float, interval: float = 0.2, explain=None):
    """``ready()`` until it is true (returned); a failure after ``timeout`` s says ``what`` and what
    ``explain()`` returns. The timeout is a liveness bound, not a measure of speed."""
    try:
        return wait_for(what, ready, timeout=timeout, interval=interval, log=explain)
    except TimeoutError as error:
        raise AssertionError(str(error)) from None


# --- invariants -------------------------------------------------------------------------------------

#: Each query lists what breaks an invariant (no row: it holds). Whatever failed, whenever, the
#: database must never hold a half-written change.
INVARIANTS = {
    "a confirmed match has its score, its winner and exactly one confirmed report": """
        SELECT m.id FROM matches_match m WHERE m.status = 'confirmed' AND (
            m.score0 IS NULL OR m.score1 IS NULL OR (m.length > 0 AND m.winner IS NULL) OR m.confirmed_at IS NULL
            OR (SELECT count(*) FROM matches_report r WHERE r.match_id = m.id AND r.status = 'confirmed') <> 1)""",
    "a match waiting for confirmation has a pending report": """
        SELECT m.id FROM matches_match m WHERE m.status = 'reported' AND NOT EXISTS (
            SELECT 1 FROM matches_report r WHERE r.match_id = m.id AND r.status = 'pending')""",
    "a match not confirmed has no confirmed report and no score": """
        SELECT m.id FROM matches_match m WHERE m.status <> 'confirmed' AND (m.score0 IS NOT NULL OR EXISTS (
            SELECT 1 FROM matches_report r WHERE r.match_id = m.id AND r.status = 'confirmed'))""",
    "a side that reported has consented": """
        SELECT r.id FROM matches_report r JOIN matches_match m ON m.id = r.match_id
        WHERE (r.side = 0 AND m.consent0 <> 'given') OR (r.side = 1 AND m.consent1 <> 'given')""",
    "every report is audited": """
        SELECT r.id FROM matches_report r WHERE r.side IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM rulings_auditentry a WHERE a.action = 'match.reported' AND a.object_id = r.id)""",
    "a rating change belongs to a confirmed rated match both sides consented to": """
        SELECT rc.id FROM matches_ratingchange rc JOIN matches_match m ON m.id = rc.match_id
        WHERE m.status <> 'confirmed' OR NOT m.rated OR m.consent0 <> 'given' OR m.consent1 <> 'given'""",
    "a rated match has a rating change for both players or for none": """
        SELECT match_id FROM matches_ratingchange GROUP BY match_id HAVING count(*) <> 2""",
    "a confirmed match has its result email in the outbox": """
        SELECT m.id FROM matches_match m WHERE m.status = 'confirmed' AND m.source_hash IS NULL
        AND m.created_at > now() - interval '1 hour' AND NOT EXISTS (
            SELECT 1 FROM core_outboxtask o WHERE o.task = 'matches.tasks.match_notify_task'
            AND o.args = jsonb_build_array(m.id, 'confirmed'))""",
    "a confirmed rated match has its rating in the outbox": """
        SELECT m.id FROM matches_match m WHERE m.status = 'confirmed' AND m.rated AND m.source_hash IS NULL
        AND m.created_at > now() - interval '1 hour' AND NOT EXISTS (
            SELECT 1 FROM core_outboxtask o WHERE o.task = 'matches.tasks.match_rating_apply_task'
            AND o.args = jsonb_build_array(m.id))""",
    "an import job's done counts its files no longer pending": """
        SELECT j.id FROM matches_importjob j WHERE j.done <> (
            SELECT count(*) FROM matches_importfile f WHERE f.job_id = j.id AND f.status <> 'pending')""",
    "an import job done has no pending file": """
        SELECT j.id FROM matches_importjob j WHERE j.status = 'done' AND EXISTS (
            SELECT 1 FROM matches_importfile f WHERE f.job_id = j.id AND f.status = 'pending')""",
    "an imported file has its match, a failed one its error": """
        SELECT f.id FROM matches_importfile f WHERE (f.status IN ('imported', 'duplicate') AND f.match_id IS NULL)
            OR (f.status = 'failed' AND (f.error IS NULL OR f.error->>'message' = ''))""",
    "an imported match is imported once": """
        SELECT f.match_id FROM matches_importfile f WHERE f.status = 'imported'
        GROUP BY f.match_id HAVING count(*) > 1""",
    "an imported match has its confirmed report and its games": """
        SELECT m.id FROM matches_match m WHERE m.source_hash IS NOT NULL AND (
            m.status <> 'confirmed' OR NOT EXISTS (SELECT 1 FROM matches_game g WHERE g.match_id = m.id))""",
}


def invariants_broken(stack: Stack) -> dict[str, list]:
    """The invariants that do not hold, each with (up to ten of) the rows that break it."""
    broken = {}
    for name, query in INVARIANTS.items():
        rows = stack.sql(query + " LIMIT 10")
        if rows:
            broken[name] = rows
    return broken
