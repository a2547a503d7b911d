"""The pure analysis (analysis.compute): GNU Backgammon's verdict on recorded matches.

The gnubg tests (marked ``oracle``) run real matches of ../shared/data/mat and crafted games
through the analysis; the others need no gnubg (the JSON form, the totals, the refusal when gnubg
is absent, and that the adapter is the only module that imports gnubg).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from analysis import compute, gnubg_adapter
from analysis.compute import (
    RATING_WORDS,
    AnalysisUnavailable,
    Decision,
    GameAnalysis,
    MatchAnalysis,
    SideStats,
    analyse_match,
    decisions_total,
    luck_rating,
    mark,
    rating,
)
from engine.actions import Accept, Double, Drop, Move, Resign, Roll, Setup, Take
from engine.board import Position, side_board
from engine.formats.mat import check_mat, read_mat
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


def _race_double(answer):
    """A race from a set-up: side 1 opens with 21, then side 0 (62 pips against 79) doubles and
    side 1 answers with ``answer`` (Take or Drop); after a take side 1 resigns."""
    mine = side_board({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1})
    theirs = side_board({8: 3, 7: 3, 6: 3, 5: 2, 4: 2, 3: 2})
    setup = position_id(Position.from_sides(mine, theirs, 0))
    log = [Setup(None, position=setup), Roll(1, dice=(2, 1)), Move(1, play="8/6 8/7"), Double(0), answer(1)]
    if answer is Take:
        log += [Resign(1, level=1), Accept(0)]
    return log


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
    side = SideStats(decisions=3, unforced=2, equity_lost=0.25, doubtful=1, blunders=1, luck=-0.1, rolls=2).finish()
    decision = Decision(index=1, move=1, side=0, kind="play", dice=[3, 1], played="6/3 6/5", best="8/5 6/5",
                        equity_played=-0.3, equity_best=0.1, loss=0.4, mark="blunder", forced=False, luck=0.02,
                        position_id="4HPwATDgc/ABMA", match_id="cAkAAAAAAAAA")
    analysis = MatchAnalysis(plies=2, engine="GNU Backgammon", sides=[side, SideStats().finish()],
                             games=[GameAnalysis(1, [0, 0], False, [side, SideStats().finish()], [decision])])
    data = analysis.to_json()
    assert MatchAnalysis.from_json(data) == analysis
    assert MatchAnalysis.from_json(data).to_json() == data
    assert data["version"] == 1 and data["games"][0]["decisions"][0]["kind"] == "play"
    assert set(data["sides"][0]) >= {"decisions", "unforced", "equity_lost", "error_rate", "pr", "doubtful",
                                     "errors", "blunders", "luck", "rating", "luck_rating"}


def test_rates_follow_the_pr_convention():
    side = SideStats(decisions=12, unforced=10, equity_lost=0.2).finish()
    assert side.error_rate == pytest.approx(20.0)  # millipoints per unforced decision
    assert side.pr == pytest.approx(10.0)  # 500 x equity lost per unforced decision
    assert RATING_WORDS[side.rating] == "Casual player"  # 0.020 per decision: gnubg 1.08's table
    assert SideStats().finish().pr == 0.0


@pytest.mark.parametrize(("loss", "word"), [
    (0.0, ""), (0.03, ""), (0.0301, "doubtful"), (0.06, "doubtful"), (0.0601, "error"), (0.12, "error"),
    (0.1201, "blunder"), (1.2, "blunder"),
])
def test_marks_use_gnubgs_default_thresholds(loss, word):
    assert mark(loss) == word


@pytest.mark.parametrize(("error", "level"), [
    (0.0, 7), (0.0019, 7), (0.002, 6), (0.0049, 6), (0.005, 5), (0.011, 4), (0.017, 3), (0.025, 2), (0.034, 1),
    (0.035, 0), (0.5, 0),
])
def test_the_rating_is_gnubg_108s_table(error, level):
    assert rating(error) == level


# --- with gnubg (oracle) -----------------------------------------------------------------------

oracle = pytest.mark.oracle


@oracle
def test_the_luck_rating_is_gnubgs():
    for tenth in range(-100, 101, 7):
        luck = tenth / 1000
        assert luck_rating(luck) == gnubg_adapter.luck_rating(luck), luck


@oracle
@pytest.mark.parametrize("stem", ["gnubg_3pt_test_match01", "galaxy_3pt_match1161689"])
def test_a_real_match_is_analysed_to_the_end_with_losses_never_negative(stem):
    rules, games = _match(stem)
    calls = []
    analysis = analyse_match(rules, games, plies=0, progress=lambda done, total: calls.append((done, total)))
    total = decisions_total(rules, games)
    assert total > 50
    assert calls[-1] == (total, total) and len(calls) == total
    assert [done for done, _ in calls] == list(range(1, total + 1))
    assert len(analysis.games) == len(games)
    decisions = _all_decisions(analysis)
    assert decisions and all(d.loss >= 0.0 for d in decisions)
    for d in decisions:
        if d.played == d.best:
            assert d.loss == 0.0 and d.equity_played == d.equity_best
        else:
            assert d.loss == pytest.approx(d.equity_best - d.equity_played, abs=1e-9) or d.loss == 0.0
        assert d.mark == mark(d.loss)
    # Side figures are the sums of the games' and agree with the decisions listed.
    for side in (0, 1):
        listed = [d for d in decisions if d.side == side]
        assert analysis.sides[side].decisions == len(listed)
        assert analysis.sides[side].equity_lost == pytest.approx(sum(d.loss for d in listed))
        assert analysis.sides[side].unforced == sum(1 for d in listed if not d.forced)
        assert analysis.sides[side].blunders == sum(1 for d in listed if d.mark == "blunder")
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
    assert decision.mark == "blunder" and decision.loss > compute.BLUNDER
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
def test_taking_a_clear_double_pass_is_a_blunder_and_the_double_is_right(length):
    analysis = analyse_match(MatchRules(length), [_race_double(Take)], plies=0)
    cube = [d for d in _all_decisions(analysis) if d.kind in ("double", "take")]
    double, take = cube
    assert (double.side, double.played, double.best, double.loss) == (0, "double", "double", 0.0)
    assert (take.side, take.played, take.best) == (1, "take", "drop")
    assert take.mark == "blunder" and take.equity_best == pytest.approx(-1.0)
    dropped = analyse_match(MatchRules(length), [_race_double(Drop)], plies=0)
    answer = next(d for d in _all_decisions(dropped) if d.kind == "take")
    assert (answer.played, answer.best, answer.loss, answer.mark) == ("drop", "drop", 0.0, "")


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
    games = [_opening_game((3, 1), "6/3 6/5"), _race_double(Drop)]
    analysis = analyse_match(rules, games, plies=0)
    assert [game.number for game in analysis.games] == [1, 2]
    assert analysis.games[0].decisions[0].mark == "blunder"
    assert all(d.loss >= 0 for d in _all_decisions(analysis))


@oracle
@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(MAT_DIR.glob("*.mat")), ids=lambda p: p.stem)
def test_every_real_match_is_analysed_at_0_ply(path):
    rules, games = _match(path.stem)
    calls = []
    analysis = analyse_match(rules, games, plies=0, progress=lambda done, total: calls.append((done, total)))
    total = decisions_total(rules, games)
    assert (calls[-1] if calls else (0, 0)) == (total, total)
    decisions = _all_decisions(analysis)
    assert all(d.loss >= 0.0 for d in decisions)
    assert all(d.loss == 0.0 for d in decisions if d.played == d.best)
    assert not any(d.kind == "double" for game in analysis.games if game.crawford for d in game.decisions)
