"""The pure analysis (analysis.compute): GNU Backgammon's verdict on recorded matches.

The gnubg tests (marked ``oracle``) run real matches of ../shared/data/mat and crafted games
through the analysis; the others need no gnubg (the JSON form, the totals, the refusal when gnubg
is absent, and that the adapter is the only module that imports gnubg).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from analysis import gnubg_adapter, verdict
from analysis.compute import AnalysisNotWritable, AnalysisUnavailable, analyse_match, decisions_total
from analysis.gnubg_reader import AnalysisMismatch
from analysis.verdict import RATING_WORDS, Decision, GameAnalysis, MatchAnalysis, SideStats, luck_rating, mark, rating
from engine.actions import Accept, Double, Drop, Move, Resign, Roll, Setup, Take
from engine.board import Position, side_board
from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat
from engine.ids import position_id
from engine.match import MatchRules

ROOT = Path(__file__).resolve().parents[2]
MAT_DIR = ROOT.parent / "shared" / "data" / "mat"
if not MAT_DIR.is_dir():
    MAT_DIR = Path("/work/shared/data/mat")


def _match(stem: str):
    checked = check_mat(read_mat((MAT_DIR / f"{stem}.mat").read_bytes()))
    return checked.rules, [list(game.replay.actions) for game in checked.games]


def _opening_game(dice, play):
    """Side 0 opens with ``play``; side 1 then resigns a single game (the log must end)."""
    return [Roll(0, dice=dice), Move(0, play=play), Resign(1, level=1), Accept(0)]


def _early_double(answer):
    """Side 1 opens with 31 (8/5 6/5), side 0 runs 64 (24/14), and side 1 doubles at once (far too
    early: gnubg's verdict is no double, take); side 0 answers with ``answer`` (Take or Drop)."""
    log = [Roll(1, dice=(3, 1)), Move(1, play="8/5 6/5"), Roll(0, dice=(6, 4)), Move(0, play="24/14"), Double(1),
           answer(0)]
    if answer is Take:
        log += [Resign(0, level=1), Accept(1)]
    return log


def _race_from_a_setup():
    mine = side_board({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1})
    theirs = side_board({8: 3, 7: 3, 6: 3, 5: 2, 4: 2, 3: 2})
    setup = position_id(Position.from_sides(mine, theirs, 0))
    return [Setup(None, position=setup), Roll(1, dice=(2, 1)), Move(1, play="8/6 8/7"), Resign(1, level=1),
            Accept(0)]


def _all_decisions(analysis: MatchAnalysis) -> list[Decision]:
    return [decision for game in analysis.games for decision in game.decisions]


# --- without gnubg -----------------------------------------------------------------------------


def test_only_the_adapter_imports_gnubg():
    importers = []
    packages = [path.parent for path in ROOT.glob("*/__init__.py") if path.parent.name not in ("tests", "bench")]
    for path in [*ROOT.glob("*.py"), *(p for package in packages for p in package.rglob("*.py"))]:
        relative = path.relative_to(ROOT)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name == "gnubg" or name.startswith("gnubg.") for name in names):
                importers.append(str(relative))
    assert importers == ["analysis/gnubg_adapter.py"]


def test_it_refuses_with_analysis_unavailable_when_the_adapter_has_no_gnubg(monkeypatch):
    monkeypatch.setattr(gnubg_adapter, "available", lambda: False)
    rules, games = MatchRules(7), [_opening_game((3, 1), "8/5 6/5")]
    with pytest.raises(AnalysisUnavailable) as refused:
        analyse_match(rules, games, plies=0)
    assert refused.value.code == "analysis_unavailable"
    # The total needs no gnubg: the service can show it before the analysis runs.
    assert decisions_total(rules, games) == 1


def test_the_adapter_says_gnubg_is_missing_when_it_cannot_be_imported(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_gnubg(name, *args, **kwargs):
        if name == "gnubg":
            raise ImportError("no gnubg here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_gnubg)
    monkeypatch.setattr(gnubg_adapter, "_loaded", False)
    monkeypatch.setattr(gnubg_adapter, "_module", None)
    assert gnubg_adapter.available() is False
    with pytest.raises(gnubg_adapter.GnubgMissing):
        gnubg_adapter.engine_name()
    monkeypatch.setattr(gnubg_adapter, "_loaded", False)  # the next test loads the real one


def test_the_total_counts_plays_cube_turns_and_answers_but_no_cube_in_the_crawford_game():
    rules = MatchRules(3)
    # Game 1: side 0 doubles at its second turn, side 1 drops: 1-0. Game 2: side 1 wins a gammon
    # by resignation (1-2): side 1 is one short, so game 3 is the Crawford game.
    game1 = [Roll(0, dice=(3, 1)), Move(0, play="8/5 6/5"), Roll(1, dice=(4, 2)), Move(1, play="8/4 6/4"),
             Double(0), Drop(1)]
    game2 = [Roll(1, dice=(3, 1)), Move(1, play="8/5 6/5"), Resign(0, level=2), Accept(1)]
    game3 = [Roll(0, dice=(6, 1)), Move(0, play="13/7 8/7"), Roll(1, dice=(5, 2)), Move(1, play="13/8 13/11"),
             Roll(0, dice=(6, 5)), Move(0, play="24/13"), Resign(1, level=1), Accept(0)]
    # game 1: 2 plays + side 1's cube turn (centred cube, 0-0) + side 0's double + the drop;
    # game 2: 1 play; game 3 (Crawford): 3 plays and no cube turn.
    assert decisions_total(rules, [game1, game2, game3]) == 5 + 1 + 3


def test_json_round_trips_and_holds_only_plain_values():
    side = SideStats(decisions=3, unforced_plays=1, cube_decisions=1, checker_lost=0.2, cube_lost=0.05, doubtful=1,
                     blunders=1, luck=-0.1, rolls=2, plays=2).finish()
    assert (side.unforced, side.equity_lost) == (2, pytest.approx(0.25))
    decision = Decision(index=1, move=1, side=0, kind="play", dice=[3, 1], played="6/3 6/5", best="8/5 6/5",
                        equity_played=-0.3, equity_best=0.1, loss=0.4, mark="blunder", forced=False, luck=0.02,
                        position_id="4HPwATDgc/ABMA", match_id="cAkAAAAAAAAA")
    analysis = MatchAnalysis(plies=2, engine="GNU Backgammon", sides=[side, SideStats().finish()],
                             games=[GameAnalysis(1, [0, 0], False, [side, SideStats().finish()], [decision])],
                             settings={"depth": "2-ply", "plies": 2, "pruning": True})
    data = analysis.to_json()
    assert MatchAnalysis.from_json(data) == analysis
    assert MatchAnalysis.from_json(data).to_json() == data
    assert data["version"] == 2 and data["games"][0]["decisions"][0]["kind"] == "play"
    assert data["settings"]["depth"] == "2-ply"
    assert set(data["sides"][0]) >= {"decisions", "unforced", "equity_lost", "error_rate", "pr", "doubtful",
                                     "errors", "blunders", "luck", "rating", "luck_rating", "unforced_plays",
                                     "cube_decisions", "checker_lost", "cube_lost", "plays"}


def test_an_analysis_stored_on_the_old_scale_is_rated_on_the_shipped_gnubgs():
    # Version 1 rated 0.020 per decision "Casual player" (2 of gnubg 1.08's eight); the shipped
    # gnubg says Intermediate (1 of six). Its other figures are kept as stored.
    old = {"version": 1, "plies": 0, "engine": "GNU Backgammon", "sides": [
        {"decisions": 12, "unforced": 10, "equity_lost": 0.2, "error_rate": 20.0, "pr": 10.0, "rating": 2,
         "luck_rating": 2}] * 2, "games": []}
    analysis = MatchAnalysis.from_json(old)
    assert RATING_WORDS[analysis.sides[0].rating] == "Intermediate"
    assert (analysis.sides[0].pr, analysis.sides[0].unforced, analysis.settings) == (10.0, 10, {})


def test_rates_follow_the_pr_convention():
    side = SideStats(decisions=12, unforced_plays=8, cube_decisions=2, checker_lost=0.15, cube_lost=0.05).finish()
    assert side.error_rate == pytest.approx(20.0)  # millipoints per unforced decision
    assert side.pr == pytest.approx(10.0)  # 500 x equity lost per unforced decision
    assert RATING_WORDS[side.rating] == "Intermediate"  # 0.020 per decision: the shipped gnubg's table
    assert SideStats().finish().pr == 0.0


@pytest.mark.parametrize(("loss", "word"), [
    (0.0, ""), (0.03, ""), (0.0301, "doubtful"), (0.06, "doubtful"), (0.0601, "error"), (0.12, "error"),
    (0.1201, "blunder"), (1.2, "blunder"),
])
def test_marks_use_gnubgs_default_thresholds(loss, word):
    assert mark(loss) == word


@pytest.mark.parametrize(("error", "level"), [
    (0.0, 5), (0.0049, 5), (0.005, 4), (0.0079, 4), (0.008, 3), (0.0129, 3), (0.013, 2), (0.0199, 2), (0.02, 1),
    (0.0319, 1), (0.032, 0), (0.5, 0),
])
def test_the_rating_is_the_shipped_gnubgs_table(error, level):
    assert rating(error) == level


# --- with gnubg (oracle) -----------------------------------------------------------------------

oracle = pytest.mark.oracle


@oracle
def test_the_luck_rating_is_gnubgs():
    for tenth in range(-100, 101, 7):
        luck = tenth / 1000
        assert luck_rating(luck) == gnubg_adapter.luck_rating(luck), luck


@oracle
def test_the_rating_is_the_one_the_shipped_gnubg_gives():
    for step in range(0, 400):
        error = step / 10000 + 0.00005  # between the table's steps, away from float32 rounding
        assert rating(error) == gnubg_adapter.error_rating(error), error


@oracle
@pytest.mark.parametrize("stem", ["gnubg_3pt_test_match01", "galaxy_3pt_match1161689"])
def test_a_real_match_is_analysed_to_the_end_with_losses_never_negative(stem):
    rules, games = _match(stem)
    calls = []
    analysis = analyse_match(rules, games, plies=0, progress=lambda done, total: calls.append((done, total)))
    total = decisions_total(rules, games)
    assert total > 50
    # One call per game as gnubg finishes it, counting the decisions of the games done.
    assert len(calls) == len(games) and calls[-1] == (total, total)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls) and calls[0][0] > 0
    assert len(analysis.games) == len(games)
    decisions = _all_decisions(analysis)
    assert decisions and all(d.loss >= 0.0 for d in decisions)
    for d in decisions:
        assert d.loss == pytest.approx(max(d.equity_best - d.equity_played, 0.0), abs=1e-9)
        if d.played == d.best:
            assert d.loss == 0.0
        if abs(d.loss - 0.03) > 1e-5 and abs(d.loss - 0.06) > 1e-5 and abs(d.loss - 0.12) > 1e-5:
            assert d.mark == mark(d.loss)  # gnubg's own mark: its unrounded figures may fall either side
    # Side figures are the sums of the games' and agree with the decisions listed.
    for side in (0, 1):
        listed = [d for d in decisions if d.side == side]
        plays = [d for d in listed if d.kind == "play"]
        stats = analysis.sides[side]
        assert stats.decisions == len(listed)
        assert stats.equity_lost == pytest.approx(sum(d.loss for d in listed))
        assert stats.unforced == sum(1 for d in listed if not d.forced)
        assert stats.blunders == sum(1 for d in plays if d.mark == "blunder")
        assert stats.pr == pytest.approx(500 * stats.equity_lost / stats.unforced)
    assert MatchAnalysis.from_json(analysis.to_json()) == analysis


@oracle
@pytest.mark.slow
def test_gnubg_playing_gnubg_loses_almost_nothing_at_2_ply():
    # Side 0 of this file is GNU Backgammon itself: judged by gnubg at 2-ply, its plays and cube
    # actions are (nearly) all best; the human opponent's are not.
    rules, games = _match("gnubg_3pt_test_match01")
    analysis = analyse_match(rules, games[:1], plies=2)
    gnubg_side, human = analysis.sides
    assert gnubg_side.unforced > 20 and gnubg_side.pr < 1.0
    assert human.pr > 3.0


@oracle
@pytest.mark.parametrize("plies", [0, 2])
def test_a_blot_left_for_no_reason_is_a_blunder(plies):
    # 31 from the start: 6/3 6/5 leaves two blots in the home board instead of making the 5-point.
    analysis = analyse_match(MatchRules(7), [_opening_game((3, 1), "6/3 6/5")], plies=plies)
    decision = analysis.games[0].decisions[0]
    assert (decision.kind, decision.played, decision.best) == ("play", "6/5 6/3", "8/5 6/5")
    assert analysis.settings["depth"] == f"{plies}-ply" and analysis.settings["evaluated_plies"] == plies
    assert decision.mark == "blunder" and decision.loss > verdict.BLUNDER
    assert analysis.sides[0].blunders == 1 and analysis.sides[0].pr > 50


@oracle
def test_the_best_play_loses_exactly_nothing():
    analysis = analyse_match(MatchRules(7), [_opening_game((3, 1), "8/5 6/5")], plies=2)
    decision = analysis.games[0].decisions[0]
    assert decision.played == decision.best == "8/5 6/5"
    assert decision.loss == 0.0 and decision.mark == "" and decision.equity_played == decision.equity_best
    assert analysis.sides[0].pr == 0.0


@oracle
@pytest.mark.parametrize("length", [7, 0])
def test_a_double_far_too_early_is_a_blunder_and_passing_it_a_worse_one(length):
    analysis = analyse_match(MatchRules(length), [_early_double(Drop)], plies=0)
    double, answer = [d for d in _all_decisions(analysis) if d.kind in ("double", "take")]
    assert (double.side, double.played, double.best, double.mark) == (1, "double", "no double", "blunder")
    assert double.loss == pytest.approx(double.equity_best - double.equity_played) and double.loss > verdict.BLUNDER
    assert (answer.side, answer.played, answer.best, answer.mark) == (0, "drop", "take", "blunder")
    assert answer.equity_played == pytest.approx(-1.0) and answer.loss > 0.5
    stats = analysis.sides
    assert (stats[1].cube_decisions, stats[0].cube_decisions) == (1, 1)
    assert stats[0].cube_lost == pytest.approx(answer.loss) and stats[1].cube_lost == pytest.approx(double.loss)
    taken = analyse_match(MatchRules(length), [_early_double(Take)], plies=0)
    answer = next(d for d in _all_decisions(taken) if d.kind == "take")
    assert (answer.played, answer.best, answer.loss, answer.mark) == ("take", "take", 0.0, "")


def test_a_game_from_a_set_up_cannot_be_given_to_gnubg_and_says_so():
    with pytest.raises(AnalysisNotWritable) as refused:
        analyse_match(MatchRules(7), [_race_from_a_setup()], plies=0)
    assert refused.value.code == "analysis_unwritable" and "set-up" in str(refused.value)


@oracle
def test_a_match_gets_the_same_verdict_whatever_the_process_analysed_before():
    # gnubg's evaluation cache serves one evaluation's figures to another (the luck's nets are
    # not the plays'): emptied before each analysis, the verdict is the one a fresh gnubg gives.
    first = analyse_match(*_match("galaxy_3pt_match1161689"), plies=0)
    analyse_match(*_match("studio_13pt_heretik_llabba"), plies=0)
    analyse_match(*_match("galaxy_3pt_match2561306"), plies=0)
    assert analyse_match(*_match("galaxy_3pt_match1161689"), plies=0) == first


@oracle
@pytest.mark.parametrize(("tamper", "said"), [
    (lambda sgf: sgf.replace(";B[31", ";B[42", 1), "GNU Backgammon rolled (4, 2) where the engine rolled (3, 1)"),
    (lambda sgf: sgf.replace(";B[31qtst]", ";B[31ablo]", 1), "does not give the engine's position"),  # 24/23 13/10
    (lambda sgf: sgf.replace("\n;B[double]", "", 1), "GNU Backgammon has a take by side 0 where the engine has a "
                                                       "double by side 1"),
])
def test_gnubg_reading_a_game_otherwise_than_the_engine_is_refused_with_where(monkeypatch, tamper, said):
    # A verdict is never shown on a position the engine does not hold: each roll, play and cube
    # action of gnubg's is checked against the engine's.
    real = gnubg_adapter.analyse_mat
    monkeypatch.setattr(gnubg_adapter, "analyse_mat", lambda *args, **kwargs: tamper(real(*args, **kwargs)))
    with pytest.raises(AnalysisMismatch) as refused:
        analyse_match(MatchRules(7), [_early_double(Take)], plies=0)
    assert refused.value.code == "analysis_mismatch"
    assert str(refused.value).startswith("game 1, move ") and said in str(refused.value)


@oracle
def test_the_crawford_game_lists_no_double_decision():
    rules, games = _match("galaxy_7pt_match11995639")  # Crawford and post-Crawford games
    analysis = analyse_match(rules, games, plies=0)
    crawford = [game for game in analysis.games if game.crawford]
    others = [game for game in analysis.games if not game.crawford]
    assert len(crawford) == 1 and others
    assert crawford[0].decisions and all(d.kind == "play" for d in crawford[0].decisions)
    # The other games do list cube decisions: the check above can fail.
    assert any(d.kind == "double" for game in others for d in game.decisions)


@oracle
def test_a_money_session_is_analysed():
    rules = MatchRules(0)
    games = [_opening_game((3, 1), "6/3 6/5"), _early_double(Drop)]
    analysis = analyse_match(rules, games, plies=0)
    assert [game.number for game in analysis.games] == [1, 2]
    assert analysis.games[0].decisions[0].mark == "blunder"
    assert all(d.loss >= 0 for d in _all_decisions(analysis))
