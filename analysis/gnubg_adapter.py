"""The one place that imports GNU Backgammon (the PyPI ``gnubg`` package).

Everything gnubg is asked goes through the small functions below, so that the rest of the
service runs (without analysis) where gnubg is not installed: :func:`available` says whether it
is, and every other function raises :class:`GnubgMissing` when it is not.

gnubg keeps global, single-threaded C state (the evaluation cache, the neural nets, the current
match): every call is made under one process-wide lock. Its Python module also crashes the whole
process (a segmentation fault, no traceback) when it evaluates on any thread but the process's
main thread: every function below refuses to call it elsewhere, raising :class:`GnubgOffMainThread`
(an :class:`AnalysisUnavailable`), and the analysis runs only in a worker process's main thread (a
prefork Celery worker's child, or the laptop's local worker: core/local_worker.py), never in a web
request's thread. :func:`available` answers anywhere, without loading gnubg off the main thread.

What is asked of it: its own analysis of a match the engine wrote (:func:`analyse_mat`, game by
game, shared with helper processes), the conversion of its match winning chances to equities
(:func:`mwc2eq`) and its rating words' scales. Conventions (gnubg's): a *cube* is a
:class:`Cube`: the cube's face, its owner (None centred, else the side 0/1), the side on roll,
the match length (0 money), the score (side 0, side 1), whether this is the Crawford game, and
for money play the Jacoby and beaver rules.
Equities are gnubg's normalised, cubeful equities (EMG: +1 = winning the cube's value once), from
the side on roll's point of view.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

_lock = threading.RLock()
_module = None
_loaded = False


class AnalysisUnavailable(RuntimeError):
    """No analysis can be made here (gnubg missing, or asked off the process's main thread)."""

    code = "analysis_unavailable"


class GnubgMissing(AnalysisUnavailable):
    """gnubg is not installed (or failed to load) in this process."""


class GnubgOffMainThread(AnalysisUnavailable):
    """gnubg was asked from a thread other than the process's main thread, where it would crash
    the process: the analysis belongs in a worker process (the module's docstring)."""


def on_main_thread() -> bool:
    """Whether this code runs on its process's main thread, the only one gnubg may be called on."""
    return threading.current_thread() is threading.main_thread()


def _gnubg():
    global _module, _loaded
    if not on_main_thread():
        raise GnubgOffMainThread(
            f"GNU Backgammon is only called on a process's main thread (this is {threading.current_thread().name!r}): "
            "matches are analysed by a worker process, never in a web request's thread")
    with _lock:
        if not _loaded:
            _loaded = True
            try:
                import gnubg  # the only import of gnubg outside tests/ and bench/
            except Exception:  # an ImportError, or a binary that does not load here
                _module = None
            else:
                _module = gnubg
        if _module is None:
            raise GnubgMissing("GNU Backgammon (the gnubg package) is not available")
        return _module


def available() -> bool:
    """True when gnubg is installed here. On the process's main thread it is loaded (once per
    process) and must load; elsewhere (a web request's thread, which never analyses) it is only
    looked for, not loaded: loading it there would tie its state to that thread."""
    if not on_main_thread() and not _loaded:
        return importlib.util.find_spec("gnubg") is not None
    try:
        _gnubg()
    except GnubgOffMainThread:
        return _module is not None
    except GnubgMissing:
        return False
    return True


def engine_name() -> str:
    """The evaluator's name and version, as stored with an analysis."""
    gnubg = _gnubg()
    return f"GNU Backgammon {getattr(gnubg, '__version__', '(version unknown)')}"


@dataclass(frozen=True, slots=True)
class Cube:
    """The cube and match state for one evaluation (see the module docstring)."""

    value: int
    owner: int | None
    on_roll: int
    length: int
    score: tuple[int, int]
    crawford: bool
    jacoby: bool = False
    beavers: bool = False

    def doubled(self) -> Cube:
        """The cube after a take: twice the face, owned by the side not on roll."""
        return Cube(self.value * 2, 1 - self.on_roll, self.on_roll, self.length, self.score, self.crawford,
                    self.jacoby, self.beavers)

    def turned(self) -> Cube:
        """The same cube with the other side on roll."""
        return Cube(self.value, self.owner, 1 - self.on_roll, self.length, self.score, self.crawford,
                    self.jacoby, self.beavers)


@lru_cache(maxsize=4096)
def _cube_info(cube: Cube) -> dict:
    gnubg = _gnubg()
    owner = -1 if cube.owner is None else cube.owner
    # Every argument is given: gnubg.cube_info() falls back on its global match state otherwise.
    info = gnubg.cube_info(cube.value, owner, cube.on_roll, cube.length, tuple(cube.score), int(cube.crawford), 0)
    if not cube.length:
        # gnubg.cube_info() always sets the Jacoby rule for money play; the gammon prices it
        # computes are 0 only under Jacoby with the cube centred, 1 otherwise.
        price = 0.0 if (cube.jacoby and cube.owner is None) else 1.0
        info = dict(info, jacoby=int(cube.jacoby), beavers=int(cube.beavers),
                    gammonprice=((price, price), (price, price)))
    return info


def mwc2eq(mwc: float, cube: Cube) -> float:
    """Normalised equity of the side on roll for a match winning chance (match play only)."""
    gnubg = _gnubg()
    with _lock:
        return float(gnubg.mwc2eq(mwc, _cube_info(cube)))


def error_rating(error_per_decision: float) -> int:
    """The shipped gnubg's rating (0 Beginner .. 5 Super Grandmaster) of an average equity lost per decision."""
    gnubg = _gnubg()
    with _lock:
        return int(gnubg.error_rating(float(error_per_decision)))


def luck_rating(luck_per_roll: float) -> int:
    """gnubg's luck rating (0 Go to bed .. 4 Go to Las Vegas) of an average luck per roll."""
    gnubg = _gnubg()
    with _lock:
        return int(gnubg.luck_rating(float(luck_per_roll)))


# The depths a match is analysed at, by gnubg's names for them; each is gnubg's own analysis
# setting of that depth (pruning nets, its analysis move filters, cubeful, noiseless).
DEPTHS = {0: "0-ply", 1: "1-ply", 2: "2-ply", 3: "3-ply"}


@contextlib.contextmanager
def _quiet():
    """Send what gnubg's commands print (progress lines, notices) to nowhere: they are read back
    from the file it saves, and a worker's own output stays its log."""
    try:
        saved = os.dup(1)
    except OSError:  # no standard output at all: nothing to silence
        yield
        return
    try:
        with open(os.devnull, "wb") as sink:
            os.dup2(sink.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _shares(weights: Sequence[int], processes: int) -> list[range]:
    """The games (0-based) each process analyses: contiguous runs of about equal weight."""
    count = max(1, min(processes, len(weights)))
    total = sum(weights) or len(weights)
    shares, start, done = [], 0, 0
    for number in range(1, count):
        goal = total * number / count
        end = start + 1
        done += weights[start] or 1
        while end < len(weights) - (count - number) and done + (weights[end] or 1) / 2 < goal:
            done += weights[end] or 1
            end += 1
        shares.append(range(start, end))
        start = end
    shares.append(range(start, len(weights)))
    return shares


def _load(gnubg, source: str, plies: int) -> None:
    """gnubg's settings for an analysis at ``plies``, and the match of the file ``source`` loaded."""
    # Both players human (or gnubg waits to play a computer side), no sound, one thread: the
    # module's analysis waits forever on threads it cannot start. Every analysis setting is named
    # each time: gnubg keeps them from one call to the next.
    for command in ("set sound enable off", "set player 0 human", "set player 1 human", "set display off",
                    "set threads 1", "set analysis moves on", "set analysis cube on", "set analysis luck on",
                    f"set analysis chequerplay evaluation plies {plies}",
                    f"set analysis cubedecision evaluation plies {plies}", f'import mat "{source}"'):
        gnubg.command(command)


def _analyse_games(gnubg, share: range, on_game: Callable[[int], None] | None = None) -> None:
    """Analyse the games of ``share`` (0-based) of the loaded match, each from an empty cache."""
    gnubg.command("first game")
    for _ in range(share.start):
        gnubg.command("next game")
    for number in share:
        # Emptied before each game, gnubg's cache holds nothing of another game: a position
        # cached by one evaluation is served to another (the luck's unpruned nets get the plays'
        # pruned figures), so a game's verdict would depend on what was analysed before it.
        gnubg.command("clear cache")
        gnubg.command("analyse game")
        if on_game is not None:
            on_game(number + 1)
        if number + 1 < share.stop:
            gnubg.command("next game")


def _die_with_parent() -> None:
    """Ask Linux to end this process when the one that started it ends (a worker stopped by its
    time limit does not leave its helpers analysing)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class _Helper:
    """A process that analyses a share of a match's games for this one: ``python -m
    analysis.gnubg_helper``, started once and kept (gnubg loaded, its nets read), one request at a
    time on its standard input, "ok" or why not on its standard output. gnubg cannot be forked once
    loaded (its forked copy waits forever on threads it no longer has): a helper is a new process."""

    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "analysis.gnubg_helper"], cwd=_ROOT, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, preexec_fn=_die_with_parent)

    def alive(self) -> bool:
        return self.process.poll() is None

    def ask(self, source: str, plies: int, share: range, saved: str) -> None:
        self.process.stdin.write(json.dumps({"mat": source, "plies": plies, "games": [share.start, share.stop],
                                             "out": saved}) + "\n")
        self.process.stdin.flush()

    def answer(self) -> bool:
        return self.process.stdout.readline().strip() == "ok"

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        self.process.wait()


_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_helpers: list[_Helper] = []


def _helper(index: int) -> _Helper:
    while len(_helpers) <= index:
        _helpers.append(_Helper())
    if not _helpers[index].alive():
        _helpers[index] = _Helper()
    return _helpers[index]


def start_helpers(processes: int) -> None:
    """Have the helpers of an analysis shared by ``processes`` running (started now when they are
    not), so that one just started loads gnubg while the engine writes the match."""
    if on_main_thread():
        for index in range(processes - 1):
            _helper(index)


def serve(requests=None, replies=None) -> None:
    """A helper's loop (``python -m analysis.gnubg_helper``): analyse each share asked for on
    ``requests`` (one JSON object a line: the .mat file, the depth, the games [start, stop), the
    SGF file to save) and answer "ok" or "error: why" on ``replies``, until ``requests`` ends."""
    requests = sys.stdin if requests is None else requests
    replies = sys.stdout if replies is None else replies
    with contextlib.suppress(AnalysisUnavailable), _quiet():
        _gnubg().command("set threads 1")  # gnubg loaded and its nets read before the first request
    for line in requests:
        try:
            request = json.loads(line)
            gnubg = _gnubg()
            with _lock, _quiet():
                _load(gnubg, request["mat"], int(request["plies"]))
                _analyse_games(gnubg, range(*request["games"]))
                gnubg.command(f'save match "{request["out"]}"')
            reply = "ok" if os.path.exists(request["out"]) else "error: nothing was saved"
        except Exception as error:  # told to the process that asked, which analyses the share itself
            reply = f"error: {type(error).__name__}: {error}".replace("\n", " ")
        replies.write(reply + "\n")
        replies.flush()


def _trees(text: str) -> list[str]:
    return ["(;" + tree for tree in text.split("(;")[1:]]


def analyse_mat(mat_text: str, plies: int, *, weights: Sequence[int] = (1,), processes: int = 1,
                on_game: Callable[[int], None] | None = None) -> str:
    """gnubg's own analysis of a .mat file, returned as the SGF gnubg saves it.

    gnubg imports ``mat_text`` (written by the engine) and analyses every checker play, cube
    decision and roll of each game (its ``analyse game``) at ``plies`` (:data:`DEPTHS`) with its
    own analysis settings, each game from an empty evaluation cache; nothing of the service
    changes. ``weights`` are the games' sizes (one per game): with ``processes`` above 1 the
    games are shared out in contiguous runs of about equal weight between this process and
    helper processes (:class:`_Helper`), each game's figures the same however they are shared
    out; a helper that fails has its share analysed here. ``on_game(n)`` is called as the first
    n games are done.

    Raises :class:`GnubgMissing` or :class:`GnubgOffMainThread` as every call here, ValueError for
    a depth gnubg is not asked at, and :class:`AnalysisUnavailable` when gnubg saved nothing (it
    refused the file).
    """
    if plies not in DEPTHS:
        raise ValueError(f"plies must be one of {sorted(DEPTHS)}, not {plies!r}")
    gnubg = _gnubg()
    shares = _shares(weights, processes)
    with _lock, tempfile.TemporaryDirectory(prefix="crawford-gnubg-") as folder:
        source = os.path.join(folder, "match.mat")
        files = [os.path.join(folder, f"part{index}.sgf") for index in range(len(shares))]
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(mat_text)
        asked: list[tuple[_Helper, range, str]] = []
        try:
            for index, (share, saved) in enumerate(zip(shares[1:], files[1:], strict=True)):
                helper = _helper(index)
                helper.ask(source, plies, share, saved)
                asked.append((helper, share, saved))
            with _quiet():
                _load(gnubg, source, plies)
                _analyse_games(gnubg, shares[0], on_game)
                gnubg.command(f'save match "{files[0]}"')
            while asked:
                helper, share, saved = asked[0]
                if not helper.answer():
                    helper.stop()  # started again next time; its share is analysed here
                    with _quiet():
                        _load(gnubg, source, plies)
                        _analyse_games(gnubg, share)
                        gnubg.command(f'save match "{saved}"')
                asked.pop(0)
                if on_game is not None:
                    on_game(share.stop)
        finally:
            for helper, _, _ in asked:  # stopped before its helpers answered: their answers are stale
                helper.stop()
        if not all(os.path.exists(saved) for saved in files):
            raise AnalysisUnavailable("GNU Backgammon could not read the match written for it")
        parts = []
        for saved in files:
            with open(saved, encoding="utf-8") as handle:
                parts.append(_trees(handle.read()))
        if any(len(trees) != len(weights) for trees in parts):
            raise AnalysisUnavailable("GNU Backgammon did not read every game of the match written for it")
        return "".join(parts[index][number] for index, share in enumerate(shares) for number in share)
