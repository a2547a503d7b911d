"""A match's games shared between the analysing process and its helper processes
(analysis.gnubg_adapter): the same verdict however many share it, a failed helper's share done by
the worker itself, helpers that end with the process that started them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analysis import gnubg_adapter
from analysis.compute import analyse_match
from analysis.gnubg_adapter import _shares
from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat

ROOT = Path(__file__).resolve().parents[2]
MAT_DIR = ROOT.parent / "shared" / "data" / "mat"
if not MAT_DIR.is_dir():
    MAT_DIR = Path("/work/shared/data/mat")
STEM = "galaxy_5pt_match1484923"  # 4 games


def _match(stem: str = STEM):
    checked = check_mat(read_mat((MAT_DIR / f"{stem}.mat").read_bytes()))
    return checked.rules, [list(game.replay.actions) for game in checked.games]


@pytest.mark.parametrize(("weights", "processes", "expected"), [
    ([10], 2, [range(0, 1)]),
    ([10, 10], 2, [range(0, 1), range(1, 2)]),
    ([10, 10, 10, 10], 2, [range(0, 2), range(2, 4)]),
    ([50, 10, 10, 10, 10, 10], 2, [range(0, 1), range(1, 6)]),
    ([10, 10, 10], 5, [range(0, 1), range(1, 2), range(2, 3)]),
    ([1, 1, 1, 100], 2, [range(0, 3), range(3, 4)]),
    ([0, 0, 0, 0], 2, [range(0, 2), range(2, 4)]),
    ([5, 5, 5, 5, 5, 5], 3, [range(0, 2), range(2, 4), range(4, 6)]),
])
def test_the_games_are_shared_in_contiguous_runs_of_about_equal_weight(weights, processes, expected):
    shares = _shares(weights, processes)
    assert shares == expected
    assert [game for share in shares for game in share] == list(range(len(weights)))



@pytest.mark.oracle
def test_the_verdict_is_the_same_however_many_processes_share_the_match():
    rules, games = _match()
    alone = analyse_match(rules, games, plies=0, processes=1)
    assert analyse_match(rules, games, plies=0, processes=2) == alone
    assert analyse_match(rules, games, plies=0, processes=4) == alone


@pytest.mark.oracle
def test_a_helper_that_died_is_replaced_and_one_that_dies_on_its_share_has_it_done_here(monkeypatch):
    rules, games = _match()
    alone = analyse_match(rules, games, plies=0, processes=1)
    analyse_match(rules, games, plies=0, processes=2)
    helper = gnubg_adapter._helpers[0]
    helper.process.kill()
    helper.process.wait()
    # Dead between two analyses: a new one is started and does its share.
    assert analyse_match(rules, games, plies=0, processes=2) == alone
    assert gnubg_adapter._helpers[0] is not helper and gnubg_adapter._helpers[0].alive()

    real_ask = gnubg_adapter._Helper.ask

    def ask_and_die(self, *args):
        real_ask(self, *args)
        self.process.kill()

    monkeypatch.setattr(gnubg_adapter._Helper, "ask", ask_and_die)
    # Dead on its share: the worker analyses that share itself, to the same figures.
    assert analyse_match(rules, games, plies=0, processes=2) == alone


@pytest.mark.oracle
def test_a_run_stopped_while_its_helper_works_leaves_no_stale_answer_behind():
    rules, games = _match()
    alone = analyse_match(rules, games, plies=0, processes=1)

    class Superseded(Exception):
        pass

    def stop(done, total):
        raise Superseded

    with pytest.raises(Superseded):
        analyse_match(rules, games, plies=0, processes=2, progress=stop)
    # The helper that was working is stopped (its answer would have been read as the next one's).
    assert analyse_match(rules, games, plies=0, processes=2) == alone


WORKER = """
import sys, time
sys.path.insert(0, {root!r})
from analysis import gnubg_adapter
from analysis.compute import analyse_match
from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat
checked = check_mat(read_mat(open({path!r}, "rb").read()))
analyse_match(checked.rules, [list(g.replay.actions) for g in checked.games], plies=0, processes=2)
print(gnubg_adapter._helpers[0].process.pid, flush=True)
time.sleep(60)
"""


@pytest.mark.oracle
def test_helpers_end_with_the_worker_that_started_them():
    worker = subprocess.Popen([sys.executable, "-c", WORKER.format(root=str(ROOT), path=str(MAT_DIR / f"{STEM}.mat"))],
                              stdout=subprocess.PIPE, text=True)
    helper = int(worker.stdout.readline())
    os.kill(helper, 0)  # alive while its worker is
    worker.send_signal(signal.SIGKILL)  # a worker killed by its time limit
    worker.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(helper, 0)
        except ProcessLookupError:
            break
        # A zombie is gone for good: reaped by init once its parent is.
        with open(f"/proc/{helper}/stat") as stat:
            if stat.read().split()[2] == "Z":
                break
        time.sleep(0.05)
    else:
        pytest.fail("the helper outlived its worker")
