"""GNU Backgammon only on a process's main thread: its Python module kills the whole process (a
segmentation fault, no traceback) when it evaluates on any other thread, so the adapter refuses to
call it there with a clear AnalysisUnavailable, and an analysis asked from a web request's thread
fails with a reason instead of taking the server down.

Each case runs in a child process: the one that shows the crash must die alone, and the others
must show that the same call, refused, leaves the process alive."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent.parent

THE_CRASH = """
import threading, gnubg
board = gnubg.position_from_id("4HPwATDgc/ABMA")
def go():
    gnubg.find_best_moves(board, gnubg.cube_info(), gnubg.eval_context(1, 0, 1, 1, 0.0), (3, 1))
thread = threading.Thread(target=go)
thread.start()
thread.join()
print("alive")
"""

REFUSED = r"""
import json, sys, threading
from analysis import gnubg_adapter as adapter
cube = adapter.Cube(1, None, 0, 3, (0, 0), False)
MAT = " 1 point match\n\n Game 1\n Alice : 0                           Bob : 0\n  1) 31: 8/5 6/5\n"
seen = {}
def off_the_main_thread():
    seen["available"] = adapter.available()
    seen["loaded"] = "gnubg" in sys.modules
    for name, call in (("analyse_mat", lambda: adapter.analyse_mat(MAT, 0)),
                       ("mwc2eq", lambda: adapter.mwc2eq(0.5, cube)),
                       ("engine_name", adapter.engine_name)):
        try:
            call()
        except adapter.AnalysisUnavailable as error:
            seen[name] = [type(error).__name__, error.code, str(error)]
thread = threading.Thread(target=off_the_main_thread, name="request-thread")
thread.start()
thread.join()
seen["main_thread_analysis"] = adapter.analyse_mat(MAT, 0).count("W[31")
print(json.dumps(seen))
"""


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, capture_output=True, text=True, timeout=120)


def test_gnubg_itself_kills_the_process_that_calls_it_off_the_main_thread():
    # Why the adapter refuses: this is what a web server's request thread did to the server.
    crashed = run(THE_CRASH)
    assert crashed.returncode == -signal.SIGSEGV and "alive" not in crashed.stdout


def test_the_adapter_refuses_off_the_main_thread_with_a_clear_error_and_the_process_lives_on():
    result = run(REFUSED)
    assert result.returncode == 0, result.stderr[-2000:]
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    # Looked for, not loaded, off the main thread: loading it there would tie it to that thread.
    assert seen["available"] is True and seen["loaded"] is False
    for name in ("analyse_mat", "mwc2eq", "engine_name"):
        kind, code, message = seen[name]
        assert (kind, code) == ("GnubgOffMainThread", "analysis_unavailable")
        assert "main thread" in message and "request-thread" in message
    assert seen["main_thread_analysis"] == 1  # the same process, on its main thread, analyses


@pytest.mark.django_db(transaction=True)  # the thread's own connection sees what the test wrote
def test_an_analysis_run_from_a_request_thread_fails_with_its_reason_instead_of_crashing(played):
    from analysis.models import MatchAnalysis
    from analysis.services import match_analysis_run

    outcome = {}

    def request_thread():
        from django.db import connection

        try:
            outcome["row"] = match_analysis_run(played.match.pk)
        except BaseException as error:  # what a request thread would have died of
            outcome["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=request_thread, name="request-thread")
    thread.start()
    thread.join()
    assert "error" not in outcome
    row = MatchAnalysis.objects.get(pk=played.match.pk)
    assert (row.status, row.failure_code) == ("failed", "analysis_unavailable")
    assert "main thread" in row.failure
