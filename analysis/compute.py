"""GNU Backgammon's verdict on a recorded match: every checker play and cube decision, judged.

PURE: no Django. The engine replays the games (it owns the rules: legal plays, the cube, the
Crawford game, every position); gnubg, through :mod:`analysis.gnubg_adapter` only, runs its own
analysis (``analyse game``, each game from an empty evaluation cache) on the match the engine
writes as .mat, and :mod:`analysis.gnubg_sgf` reads back what gnubg saved. Entry points:
:func:`analyse_match`, :func:`decisions_total`; what it returns is :mod:`analysis.verdict`'s
:class:`~analysis.verdict.MatchAnalysis` with its JSON form (``to_json`` / ``from_json``; (e)
below), and gnubg's records are read beside the engine's actions by :mod:`analysis.gnubg_reader`
((a) to (d) below).

Every figure is gnubg's: its cubeful equities at the depth asked (EMG, "equivalent to money
game": +1.0 = winning the cube's value once), its ranking of the plays with its own move
filters, its cube figures, its luck. What this module adds is the engine's word on each of them:

(a) **The same game, decision by decision.** gnubg's records are walked beside the engine's
    actions: each roll is one of gnubg's turns (same side, same dice), and gnubg's play applied
    to the engine's position must give the engine's next position; each double, take and pass
    is gnubg's. Anything else raises :class:`AnalysisMismatch`: a verdict is never shown on
    a position the engine does not hold.

(b) **Checker play.** gnubg's ranked plays (best first, full plays: a bear-off names every
    checker) give the best play and the played one, each named in the engine's notation; loss =
    equity of the best - equity of the played (gnubg's ``rChequerSkill``), marked with gnubg's
    thresholds (gnubg.c ``arSkillLevel``: doubtful above 0.03, bad above 0.06, very bad above
    0.12). A play with one legal result is forced.

(c) **Cube decisions** (eval.c ``FindCubeDecision``): gnubg's no-double and double/take figures
    (match winning chances at match play, turned into EMG with gnubg's match equity table),
    double/pass +1.0; optimal = double/take or double/pass, whichever is lower, when both beat
    no double and the cube may be turned (``GetDPEq``), else no double. A no-double is listed
    when it was close (doubling within 0.16 of optimal: ``isCloseCubedecision``); every double,
    take and pass is. The taker's decision is seen from his side: take = -(double/take), pass =
    -1.0.

(d) **Figures** (analysis.c ``updateStatcontext``, ``getMWCFromError``): per side, the checker
    error over unforced plays (more than one legal result, dances and forced plays excluded),
    the cube error over the close or actual cube decisions (missed doubles, wrong doubles, wrong
    takes, wrong passes), ``equity_lost`` their sum; error rate = 1000 x lost / (unforced plays
    + close cube decisions), PR = half of it (the eXtreme Gammon and Galaxy convention); the
    rating word is the shipped gnubg's (``gnubg.error_rating``: Beginner .. Super Grandmaster)
    of the lost per decision; luck the sum of gnubg's luck per roll, its word gnubg's
    ``getLuckRating`` of luck per turn (10 x luck / turns against 0.6 and 0.3).

(e) **JSON** (stored, exported and served by the API): ``{"version", "plies", "engine",
    "settings", "sides": [SideStats, SideStats], "games": [{"number", "score": [s0, s1],
    "crawford", "sides": [SideStats, SideStats], "decisions": [Decision...]}]}``, with the fields
    of :class:`SideStats` and :class:`Decision` (index: the action judged in the game's log;
    move, side, kind "play" | "double" | "take", dice, played, best, equity_played,
    equity_best, loss, mark "" | "doubtful" | "error" | "blunder", forced, luck, position_id,
    match_id), in log order. ``settings`` says how gnubg evaluated: the depth by gnubg's name,
    pruning, cubeful, noise, as gnubg reported them.

Checked against gnubg's own ``analyse match`` of every real file (tests/analysis/
test_against_gnubg.py): per side, the PR within 0.01 and the counts equal; per decision, the
played and best plays and the loss within 0.001 of gnubg's own export.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from engine.actions import Action, Beaver, Double, Drop, Move, Roll, Take
from engine.errors import CubeError, MatchError
from engine.formats.mat_check import MatGameCheck, match_from_actions
from engine.formats.mat_write import write_mat
from engine.game import DOUBLED, TO_ROLL, GameRules, check_double
from engine.match import MatchGame, MatchRules, Penalty, PenaltyAt, replay_match

from . import gnubg_adapter as adapter
from . import gnubg_sgf
from .gnubg_adapter import AnalysisUnavailable
from .gnubg_reader import AnalysisMismatch, game_read
from .verdict import MatchAnalysis, SideStats

ProgressCallback = Callable[[int, int], None]


class AnalysisNotWritable(AnalysisUnavailable):
    """The match holds what a .mat file cannot (a game from a set-up, a condoned play), so gnubg
    cannot be given it."""

    code = "analysis_unwritable"


# --- what gets examined ------------------------------------------------------------------------


class _Step(NamedTuple):
    """One decision to examine: the action's index, its kind and the side deciding."""

    index: int
    kind: str  # "play", "cube" (the roller's no-double / double), "take"
    side: int


def _cube_available(game: MatchGame | MatGameCheck, rules: MatchRules, game_rules: GameRules, cube: int, owner: int | None,
                    side: int) -> bool:
    """May ``side`` (on roll, before rolling) double, and does doubling mean anything (GetDPEq)?"""
    try:
        check_double(game_rules, cube, owner, side, on_roll=side)
    except CubeError:
        return False
    # At match play a side whose score plus the cube already reaches the length gains nothing.
    return rules.is_money or game.score[side] + cube < rules.length


def _steps(game: MatchGame | MatGameCheck, rules: MatchRules) -> Iterator[_Step]:
    """Every decision of ``game`` that the analysis examines, in log order (no gnubg needed)."""
    replay = game.replay
    game_rules = rules.game_rules(crawford_game=game.crawford)
    for index, action in enumerate(replay.actions):
        frame = replay.frames[index]
        if isinstance(action, Move):
            if replay.plays[index] is not None:  # an illegal play that stood is not judged
                yield _Step(index, "play", action.side)
        elif isinstance(action, (Roll, Double)) and frame.phase == TO_ROLL:
            if isinstance(action, Double) or _cube_available(game, rules, game_rules, frame.cube, frame.owner,
                                                             action.side):
                yield _Step(index, "cube", action.side)
        elif isinstance(action, (Take, Drop, Beaver)) and frame.phase == DOUBLED:
            yield _Step(index, "take", action.side)


def decisions_total(rules: MatchRules, games: list[list[Action]], *, start: tuple[int, int] = (0, 0),
                    penalties: Sequence[Penalty | PenaltyAt] = ()) -> int:
    """How many decisions :func:`analyse_match` examines (the ``total`` of its progress calls).

    Replays the match with the engine only (no gnubg). Counts every legal checker play, every turn
    on which the cube was available to the side on roll (doubled or not), and every answer to a
    double; the analysis lists fewer (a no-double that was not close is examined, not listed).
    Raises the engine's errors (GameLogError, MatchError) for a log that breaks the rules.
    """
    replay = replay_match(rules, games, start=start, penalties=penalties)
    return sum(1 for game in replay.games for _ in _steps(game, rules))


def _settings(games: list[gnubg_sgf.Game], plies: int) -> dict:
    """How gnubg evaluated, as it reported it with its figures (depth, pruning, noise)."""
    settings = {"depth": adapter.DEPTHS[plies], "plies": plies}
    for game in games:
        for record in game.records:
            if record.context:
                settings.update(record.context)
                return settings
    return settings


def analyse_match(rules: MatchRules, games: list[list[Action]], *, start: tuple[int, int] = (0, 0),
                  penalties: Sequence[Penalty | PenaltyAt] = (), plies: int = 2,
                  progress: ProgressCallback | None = None, processes: int = 1) -> MatchAnalysis:
    """GNU Backgammon's own analysis of every game of a match at ``plies`` (0 fast .. 2 default).

    Changes nothing; returns a :class:`MatchAnalysis`. ``rules``, ``games``, ``start`` and
    ``penalties`` are those of :func:`engine.match.replay_match`. ``progress(done, total)`` is
    called as gnubg finishes each game, ``total`` being :func:`decisions_total` and ``done`` the
    decisions of the games analysed so far, the last call (total, total) (once with (0, 0) for a
    match without decisions). With ``processes`` above 1 the games are analysed by that many
    processes at once (:func:`analysis.gnubg_adapter.analyse_mat`), to the same figures.

    Raises :class:`AnalysisUnavailable` when gnubg is not installed, when called off the
    process's main thread (where gnubg would crash the process); :class:`AnalysisNotWritable`
    when the match cannot be written for gnubg (a game from a set-up, a condoned play) and
    :class:`AnalysisMismatch` when gnubg reads a game differently from the engine; the engine's
    errors (GameLogError, MatchError) for a log that breaks the rules propagate unchanged;
    ValueError for ``plies`` outside 0..3.
    """
    if plies not in adapter.DEPTHS:
        raise ValueError(f"plies must be 0 to 3, not {plies!r}")
    if not adapter.available():
        raise AnalysisUnavailable("GNU Backgammon is not installed: matches cannot be analysed here")
    adapter.start_helpers(processes)
    # The engine's replay of the match, as the .mat file gnubg reads is written from it.
    written = match_from_actions(("Side 0", "Side 1"), rules, games, start=start, penalties=penalties)
    try:
        mat_text = write_mat(written)
    except MatchError as error:
        if error.code != "not_writable":
            raise
        raise AnalysisNotWritable(f"the match cannot be written for GNU Backgammon: {error}") from error
    per_game = [sum(1 for _ in _steps(game, rules)) for game in written.games]
    total = sum(per_game)

    def on_game(number: int) -> None:
        if progress is not None:
            progress(sum(per_game[:number]), total)

    # Each game's size weighs the sharing out among processes: a turn is a decision or two.
    weights = [len(game.replay.actions) for game in written.games]
    theirs = gnubg_sgf.read_sgf(adapter.analyse_mat(mat_text, plies, weights=weights, processes=processes,
                                                    on_game=on_game))
    if progress is not None and total == 0:
        progress(0, 0)
    if len(theirs) != len(written.games):
        raise AnalysisMismatch(f"GNU Backgammon read {len(theirs)} games where the engine has {len(written.games)}")
    analysed = [game_read(game, their_game, rules)
                for game, their_game in zip(written.games, theirs, strict=True)]
    sides = [SideStats(), SideStats()]
    for game in analysed:
        for side in (0, 1):
            sides[side].add(game.sides[side])
    for stats in sides:
        stats.finish()
    return MatchAnalysis(plies=plies, engine=adapter.engine_name(), sides=sides, games=analysed,
                         settings=_settings(theirs, plies))


__all__ = [
    "AnalysisNotWritable",
    "AnalysisUnavailable",
    "ProgressCallback",
    "analyse_match",
    "decisions_total",
]
