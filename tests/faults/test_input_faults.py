"""Bad input on the production shape: gunicorn with DEBUG off and a real
imports worker (tests/faults/stack.py).

- A .mat file with a NUL byte in a batch (a zip and a file beside it, through the API): that file
  fails alone with a readable stored error, the files before and after it are imported. Before the
  fix the error could not be saved (``\\u0000 cannot be converted to text``) and the job abandoned
  every file after it.
- JSON nested 100,000 levels deep, to the JSON endpoints, anonymous and signed in: 400 (401 where
  signing in comes first), never a 500 (it was a RecursionError); a score of 2^31 in a report: 400
  naming the field, nothing saved (it was ``integer out of range``).

Each test prints its figures (``pytest -s``) and appends them to CRAWFORD_FAULT_FIGURES when set.
"""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest

from tests.faults.scenario import PASSWORD, figures_record, make, mat_file, new_tag, poll, zip_of

pytestmark = pytest.mark.slow

FILES = ["galaxy_1pt_match1501137.mat", "galaxy_3pt_match1161689.mat", "galaxy_3pt_match2561306.mat",
         "galaxy_5pt_match1484923.mat", "galaxy_5pt_match9012369.mat"]


def auth(stack, username: str) -> dict:
    return {"Authorization": f"Token {stack.token(username, PASSWORD)}"}


def test_a_file_with_a_nul_byte_fails_alone_with_a_readable_error_and_the_others_are_imported(stack):
    tag = new_tag()
    users = make(stack, tag, people=["importer"], matches=[])["users"]
    headers = auth(stack, users["importer"])
    one, two, three, four, five = (mat_file(name, tag) for name in FILES)
    # A NUL in a play the parser quotes in its message (line 16), and one in a player's name (the
    # score line of game 1; the first one of the file that starts with a space and the name).
    in_a_play = two.replace(b"42: 8/4 6/4", b"42: 8/4\x00 6/4", 1)
    in_a_name = four.replace(b" klara.", b" kl\x00ara.", 1)
    assert in_a_play != two and in_a_name != four
    files = [("files", ("batch.zip", zip_of([("one.mat", one), ("nul-in-a-play.mat", in_a_play), ("three.mat", three)]),
                        "application/zip")),
             ("files", ("nul-in-a-name.mat", in_a_name, "application/octet-stream")),
             ("files", ("five.mat", five, "application/octet-stream"))]
    stack.worker(queues="imports", name="imports")

    started = stack.post("/api/v1/imports/", files=files, headers=headers)
    assert started.status_code == 202, started.text[:500]
    job_id = started.json()["id"]
    poll("the files checked",
         lambda: stack.get(f"/api/v1/imports/{job_id}/", headers=headers).json()["status"] == "mapping", timeout=60)
    names = [entry["name"] for entry in stack.get(f"/api/v1/imports/{job_id}/", headers=headers).json()["names"]]
    mapped = stack.post(f"/api/v1/imports/{job_id}/mapping/", json={"mapping": dict.fromkeys(names, "guest")}, headers=headers)
    assert mapped.status_code == 202, mapped.text[:500]
    poll("the import done", lambda: stack.get(f"/api/v1/imports/{job_id}/", headers=headers).json()["status"] == "done",
         timeout=60)
    job = stack.get(f"/api/v1/imports/{job_id}/", headers=headers).json()

    outcome = {file["name"]: (file["status"], file["error"]) for file in job["files"]}
    assert [name for name, (status, _) in outcome.items() if status == "imported"] == [
        "batch.zip/one.mat", "batch.zip/three.mat", "five.mat"], outcome
    play_status, play_error = outcome["batch.zip/nul-in-a-play.mat"]
    assert play_status == "failed" and play_error["line"] == 16, play_error
    assert "cannot read the play" in play_error["message"] and "8/4\\x00 6/4" in play_error["message"], play_error
    name_status, name_error = outcome["nul-in-a-name.mat"]
    assert name_status == "failed" and isinstance(name_error["line"], int), name_error
    assert "holds a control character" in name_error["message"] and "\\x00" in name_error["message"], name_error
    assert (job["done"], job["total"]) == (5, 5)
    # The page shows the same, readable.
    page = stack.browser()
    assert page.sign_in(users["importer"], PASSWORD).status_code == 302
    text = page.get(f"/imports/{job_id}/").text
    assert "cannot read the play" in text and "\x00" not in text
    stored = stack.sql("SELECT count(*) FROM matches_importfile WHERE job_id = %s AND position('\\u0000' in "
                       "error->>'message') > 0", job_id)
    assert stored == [(0,)]

    figures_record("nul_byte_in_a_batch", {
        "files": job["total"], "files_by_status": dict(Counter(status for status, _ in outcome.values())),
        "errors": {name: error["message"] for name, (_, error) in outcome.items() if error},
    })


# --- nested JSON and 2^31: the input bounds --------------------------------------------------------------


def nested(depth: int) -> list[tuple[str, bytes]]:
    return [("array", ("[" * depth + "]" * depth).encode()), ("object", ('{"a":' * depth + "1" + "}" * depth).encode())]


def test_json_nested_too_deep_is_refused_with_a_400_never_a_500(stack):
    tag = new_tag()
    made = make(stack, tag, people=["kim", "lee"], matches=[("match", "kim", "lee", 3)])
    [match_id] = made["matches"]["match"]
    club_id = stack.sql("SELECT min(id) FROM clubs_club")[0][0]
    kim, organiser = auth(stack, made["users"]["kim"]), auth(stack, "organiser")
    # Each endpoint with whoever may use it (a tournament is an organiser's to create).
    endpoints = [("/api/v1/auth/token/", kim), ("/api/v1/matches/", kim), (f"/api/v1/matches/{match_id}/report/", kim),
                 (f"/api/v1/matches/{match_id}/confirm/", kim), (f"/api/v1/matches/{match_id}/consent/", kim),
                 (f"/api/v1/clubs/{club_id}/memberships/request/", kim), ("/api/v1/tournaments/", organiser)]
    answers = []
    for path, headers in endpoints:
        for shape, body in nested(100_000):
            for who, extra in (("anonymous", {}), ("signed in", headers)):
                started = time.monotonic()
                response = stack.post(path, data=body, headers={**extra, "Content-Type": "application/json"})
                answers.append((path, shape, who, response.status_code, response.text[:200],
                                time.monotonic() - started))
    # Anonymous, an endpoint that needs a sign-in may refuse before it reads the body (401).
    wrong = [(path, shape, who, status, text) for path, shape, who, status, text, _ in answers
             if status != 400 and not (status == 401 and who == "anonymous" and path != "/api/v1/auth/token/")]
    assert not wrong, wrong
    refused = [json.loads(text) for path, shape, who, status, text, _ in answers if status == 400]
    assert all(body.get("code") for body in refused)
    assert stack.sql("SELECT count(*) FROM matches_report WHERE match_id = %s", match_id) == [(0,)]

    figures_record("nested_json", {
        "requests": len(answers), "answers": dict(Counter(status for *_, status, _, _ in answers)),
        "codes": dict(Counter(body.get("code") for body in refused)),
        "slowest_ms": round(max(seconds for *_, seconds in answers) * 1000),
    })


def test_a_score_of_2_to_the_31_is_refused_naming_the_field_and_nothing_is_saved(stack):
    tag = new_tag()
    made = make(stack, tag, people=["kim", "lee"], matches=[("match", "kim", "lee", 3)])
    [match_id] = made["matches"]["match"]
    headers = auth(stack, made["users"]["kim"])
    answers = []
    for score in ([2**31, 0], [3, 2**31], [2**63, 0], [10**30, 0]):
        response = stack.post(f"/api/v1/matches/{match_id}/report/", json={"score": score}, headers=headers)
        answers.append((score, response.status_code, response.text[:300]))
    wrong = [answer for answer in answers if answer[1] != 400 or "score" not in json.loads(answer[2]).get("errors", {})]
    assert not wrong, wrong
    assert stack.sql("SELECT count(*) FROM matches_report WHERE match_id = %s", match_id) == [(0,)]
    assert stack.sql("SELECT status, consent1 FROM matches_match WHERE id = %s", match_id) == [("scheduled", "pending")]
    # The match still takes a good report.
    good = stack.post(f"/api/v1/matches/{match_id}/report/", json={"score": [3, 1]}, headers=headers)
    assert good.status_code == 200, good.text[:300]

    figures_record("score_2_to_the_31", {"requests": len(answers) + 1,
                                         "answers": dict(Counter(status for _, status, _ in answers))})
