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

Conventions (gnubg's): a *board* is ``Position.to_gnubg()`` — the side not on roll first, the
side on roll second, each 25 counts (points 1..24 in its own numbering, then the bar). A *cube*
is a :class:`Cube`: the cube's face, its owner (None centred, else the side 0/1), the side on
roll, the match length (0 money), the score (side 0, side 1), whether this is the Crawford game,
and for money play the Jacoby and beaver rules. Equities are gnubg's normalised, cubeful
equities (EMG: +1 = winning the cube's value once), from the side on roll's point of view.
"""

from __future__ import annotations

import importlib.util
import threading
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


@lru_cache(maxsize=8)
def _eval_context(plies: int) -> dict:
    return _gnubg().eval_context(1, plies, 1, 1, 0.0)


def _filter(ply: int, level: int, accept: int, extra: int, threshold: float) -> dict:
    return {"ply": ply, "level": level, "acceptmoves": accept, "extramoves": extra, "threshold": threshold}


# gnubg's analysis move filter (gnubg.c aamfAnalysis = movefilters.inc MOVEFILTER_LARGE): at
# each depth the plays are screened at 0-ply and only the best (up to 16 more within 0.32 of it)
# go on; at 3-ply a 2-ply pass keeps up to 4 more within 0.08. The binding's own default differs.
_ANALYSIS = (
    (),
    (_filter(1, 0, 0, 16, 0.32),),
    (_filter(2, 0, 0, 16, 0.32), _filter(2, 1, -1, 0, 0.0)),
    (_filter(3, 0, 0, 16, 0.32), _filter(3, 1, -1, 0, 0.0), _filter(3, 2, 0, 4, 0.08)),
)
# For a cube decision gnubg picks each roll's play at 0-ply and evaluates only that one deeper
# (eval.c EvaluatePositionCubeful4): keep exactly one play at every screening level.
_BEST_ONLY = tuple(tuple(_filter(ply, level, 1, 0, 0.0) for level in range(ply)) for ply in range(4))


def best_moves(board, cube: Cube, dice: tuple[int, int], plies: int, *, best_only: bool = False
               ) -> list[tuple[tuple[int, ...], float]]:
    """gnubg's plays of ``dice``, best first: (move tuple, cubeful equity after it) each.

    gnubg lists one entry per distinct resulting position (the unchanged position once when
    nothing can be played). Its move filters (gnubg's analysis filter; with ``best_only``, only the
    0-ply best play goes deeper, as in gnubg's cube evaluations) evaluate only the best plays at
    the full depth; the others keep the 0-ply score that screened them out. A move tuple is
    (from, to) pairs in the mover's numbering (25 the bar); the binding cuts it short at the
    first checker borne off (an odd length: the rest of the play is not said).
    """
    gnubg = _gnubg()
    filters = list((_BEST_ONLY if best_only else _ANALYSIS)[min(plies, 3)])
    with _lock:
        if filters:
            found = gnubg.find_best_moves(board, _cube_info(cube), _eval_context(plies), (dice[0], dice[1]), filters)
        else:
            found = gnubg.find_best_moves(board, _cube_info(cube), _eval_context(plies), (dice[0], dice[1]))
    return [(tuple(entry["move"]), float(entry["score"])) for entry in found]


def cubeless_equity(board, cube: Cube) -> float:
    """The 0-ply cubeless equity of the side on roll (normalised; gnubg's ``evaluate``)."""
    gnubg = _gnubg()
    with _lock:
        return float(gnubg.evaluate(board, _cube_info(cube), _eval_context(0))[5])


def eq2mwc(equity: float, cube: Cube) -> float:
    """Match winning chance of the side on roll for a normalised equity (match play only)."""
    gnubg = _gnubg()
    with _lock:
        return float(gnubg.eq2mwc(equity, _cube_info(cube)))


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
