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

What is asked of it: its own ``analyse match`` of a match the engine wrote (:func:`analyse_mat`),
the conversion of its match winning chances to equities (:func:`mwc2eq`) and its rating words'
scales. Conventions (gnubg's): a *cube* is a :class:`Cube`: the cube's face, its owner (None
centred, else the side 0/1), the side on roll, the match length (0 money), the score (side 0,
side 1), whether this is the Crawford game, and for money play the Jacoby and beaver rules.
Equities are gnubg's normalised, cubeful equities (EMG: +1 = winning the cube's value once), from
the side on roll's point of view.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import tempfile
import threading
from collections.abc import Callable
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
    """gnubg's rating (0 Awful! .. 7 Supernatural) of an average equity lost per decision."""
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


def analyse_mat(mat_text: str, plies: int, *, games: int = 1, on_game: Callable[[int], None] | None = None) -> str:
    """gnubg's own ``analyse match`` of a .mat file, returned as the SGF gnubg saves it.

    gnubg imports ``mat_text`` (written by the engine), analyses every checker play, cube decision
    and roll at ``plies`` (:data:`DEPTHS`) with its own analysis settings, and saves the match with
    its analysis; nothing of the service changes. Raises :class:`GnubgMissing` or
    :class:`GnubgOffMainThread` as every call here, ValueError for a depth gnubg is not asked at,
    and :class:`AnalysisUnavailable` when gnubg saved nothing (it refused the file). The ``games``
    of the match are analysed one by one, ``on_game(n)`` called after the n-th (gnubg's own
    ``analyse game``, which gives the same figures as ``analyse match``).
    """
    if plies not in DEPTHS:
        raise ValueError(f"plies must be one of {sorted(DEPTHS)}, not {plies!r}")
    gnubg = _gnubg()
    with _lock, tempfile.TemporaryDirectory(prefix="crawford-gnubg-") as folder:
        source, saved = os.path.join(folder, "match.mat"), os.path.join(folder, "match.sgf")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(mat_text)
        # Both players human (or gnubg waits to play a computer side), no sound, one thread: the
        # module's analysis waits forever on threads it cannot start. Every analysis setting is
        # named each time: gnubg keeps them from one call to the next. Its evaluation cache is
        # emptied first: a position cached by one evaluation is served to another (the luck's
        # unpruned nets get the plays' pruned figures), so an analysis would depend on what this
        # process analysed before it; emptied, it is what a fresh gnubg says.
        commands = ("clear cache", "set sound enable off", "set player 0 human", "set player 1 human",
                    "set display off", "set threads 1", "set analysis moves on", "set analysis cube on", "set analysis luck on",
                    f"set analysis chequerplay evaluation plies {plies}",
                    f"set analysis cubedecision evaluation plies {plies}",
                    f'import mat "{source}"', "first game")
        with _quiet():
            for command in commands:
                gnubg.command(command)
            for number in range(1, games + 1):
                gnubg.command("analyse game")
                if on_game is not None:
                    on_game(number)
                if number < games:
                    gnubg.command("next game")
            gnubg.command(f'save match "{saved}"')
        if not os.path.exists(saved):
            raise AnalysisUnavailable("GNU Backgammon could not read the match written for it")
        with open(saved, encoding="utf-8") as handle:
            return handle.read()
