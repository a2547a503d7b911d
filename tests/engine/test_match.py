"""Matches to N points and money sessions: scoring, the Crawford game, the end of a match.

RULES.md §5 (Crawford rule, match play) and §6 (the Crawford game is the first game where exactly
one side stands at N-1; a 1-point match has none). Game logs use the compact form of
``tests/engine/test_game.py`` (:func:`log`).
"""

from __future__ import annotations

import random

import pytest

from engine.errors import EngineError, GameLogError, MatchError
from engine.game import GameResult, check_double, game_level
from engine.match import MatchRules, MatchState, crawford_flags, is_crawford_game, replay_match
from engine.randomgame import random_match_games
from tests.engine.test_game import log, random_log


def win(side: int, points: int) -> GameResult:
    """A game result worth ``points`` to ``side`` (only winner and points matter to the score)."""
    return GameResult(side, points, 1, "resign", min(points, 3))


def resigned(winner: int, level: int, *, doubled: bool = False) -> str:
    """A short game log: the loser opens 3-1, then resigns at ``level``; with ``doubled`` the
    winner doubled first and the loser took, so the game is worth 2 x level."""
    loser = 1 - winner
    cube = f" | {winner}:double | {loser}:take" if doubled else ""
    return f"{loser}:31 8/5 6/5{cube} | {winner}:64 24/18 13/9 | {loser}:resign={level} | {winner}:accept"


def dropped(winner: int) -> str:
    """A short game log: the winner doubles on his first turn and the loser drops (1 point)."""
    loser = 1 - winner
    return f"{loser}:31 8/5 6/5 | {winner}:double | {loser}:drop"


def play_out(rules: MatchRules, results: list[GameResult]) -> list[MatchState]:
    """The match state before every game and after the last."""
    states = [MatchState(rules)]
    for result in results:
        states.append(states[-1].after(result))
    return states


# --- the Crawford game ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "score", "crawford"),
    [
        (5, (0, 0), False),
        (5, (3, 0), False),
        (5, (3, 3), False),
        (5, (4, 0), True),
        (5, (0, 4), True),
        (5, (4, 3), True),
        (5, (3, 4), True),
        (5, (4, 4), False),  # both one short: post-Crawford (DMP), never the Crawford game
        (5, (5, 4), False),  # the match is over
        (3, (0, 0), False),
        (3, (1, 0), False),
        (3, (1, 1), False),
        (3, (2, 0), True),
        (3, (0, 2), True),
        (3, (2, 1), True),
        (3, (1, 2), True),
        (3, (2, 2), False),
        (3, (4, 2), False),
        (2, (1, 0), True),
        (2, (0, 0), False),
        (2, (1, 1), False),
        (1, (0, 0), False),  # a 1-point match has no Crawford game
    ],
)
def test_it_makes_the_first_game_with_exactly_one_side_one_point_short_the_crawford_game(length, score, crawford):
    assert is_crawford_game(MatchRules(length), score, False) is crawford
    # once played, there is no other Crawford game
    assert is_crawford_game(MatchRules(length), score, True) is False


@pytest.mark.parametrize("length", [2, 3, 4, 5, 7, 11])
def test_it_finds_the_crawford_game_at_every_score_below_the_length(length):
    rules = MatchRules(length)
    for a in range(length):
        for b in range(length):
            expected = (a == length - 1) != (b == length - 1)
            assert is_crawford_game(rules, (a, b), False) is expected, (a, b)


@pytest.mark.parametrize(
    "rules",
    [MatchRules(5, crawford=False), MatchRules(3, crawford=False), MatchRules(1), MatchRules(0)],
)
def test_it_has_no_crawford_game_without_the_rule_in_a_1_point_match_or_in_money_play(rules):
    for a in range(6):
        for b in range(6):
            assert is_crawford_game(rules, (a, b), False) is False


@pytest.mark.parametrize(
    ("length", "scores", "flags"),
    [
        (5, [(0, 0), (1, 0), (3, 0), (4, 0), (4, 1), (4, 3), (4, 4)], [0, 0, 0, 1, 0, 0, 0]),
        (5, [(0, 0), (0, 2), (2, 2), (2, 4), (4, 4)], [0, 0, 0, 1, 0]),
        (5, [(0, 0), (0, 4), (3, 4), (4, 4)], [0, 1, 0, 0]),
        (5, [(0, 0), (2, 0), (4, 0)], [0, 0, 1]),  # reached N-1 with a gammon
        (3, [(0, 0), (2, 0), (2, 2)], [0, 1, 0]),
        (3, [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)], [0, 0, 0, 1, 0]),
        (3, [(0, 0), (0, 1), (2, 1)], [0, 0, 1]),
        (1, [(0, 0)], [0]),
        (5, [(0, 0), (4, 4)], [0, 0]),  # both at N-1 at once is never the Crawford game
    ],
)
def test_it_flags_exactly_the_crawford_game_in_a_sequence_of_scores(length, scores, flags):
    assert crawford_flags(MatchRules(length), scores) == [bool(f) for f in flags]


def test_it_flags_no_crawford_game_when_the_rule_is_off():
    assert crawford_flags(MatchRules(5, crawford=False), [(0, 0), (4, 0), (4, 1)]) == [False] * 3


@pytest.mark.parametrize(
    ("length", "results", "crawford", "post_crawford"),
    [
        # 5 points: 1-0, 3-0, 4-0 (Crawford next), 4-1, 4-3 (post-Crawford)
        (5, [win(0, 1), win(0, 2), win(0, 1), win(1, 1), win(1, 2)], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 1]),
        # the trailer reaches N-1 second: the Crawford game was already played; 4-4 is post-Crawford
        (5, [win(1, 4), win(0, 3), win(0, 1)], [0, 1, 0, 0], [0, 0, 1, 1]),
        # 3 points: 2-0 with a gammon, the Crawford game, then 2-1, 2-2
        (3, [win(0, 2), win(1, 1), win(1, 1)], [0, 1, 0, 0], [0, 0, 1, 1]),
        # 3 points: 1-1 before anyone is one short
        (3, [win(0, 1), win(1, 1), win(1, 1), win(0, 1)], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]),
        # Crawford rule off: never
        (MatchRules(5, crawford=False), [win(0, 4), win(1, 1)], [0, 0, 0], [0, 0, 0]),
    ],
)
def test_it_plays_the_crawford_game_once_then_post_crawford_games(length, results, crawford, post_crawford):
    rules = length if isinstance(length, MatchRules) else MatchRules(length)
    states = play_out(rules, results)
    assert [s.next_is_crawford for s in states] == [bool(f) for f in crawford]
    assert [s.next_game_rules().crawford_game for s in states] == [bool(f) for f in crawford]
    assert [s.next_is_post_crawford for s in states] == [bool(f) for f in post_crawford]


def test_it_lets_the_cube_be_used_again_after_the_crawford_game():
    states = play_out(MatchRules(5), [win(0, 4), win(1, 1)])
    crawford, post = states[1], states[2]
    with pytest.raises(EngineError) as caught:
        check_double(crawford.next_game_rules(), 1, None, 1, on_roll=1)
    assert caught.value.code == "crawford"
    assert check_double(post.next_game_rules(), 1, None, 1, on_roll=1) == 2
    assert check_double(post.next_game_rules(), 1, None, 0, on_roll=0) == 2


# --- the end of a match -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "results", "score", "winner", "needed"),
    [
        (5, [win(0, 4), win(1, 1), win(0, 1)], (5, 1), 0, (0, 4)),
        (3, [win(1, 2), win(1, 1)], (0, 3), 1, (3, 0)),
        (1, [win(0, 1)], (1, 0), 0, (0, 1)),
        # points beyond the length only decide the winner
        (3, [win(0, 2), win(1, 1), win(1, 4)], (2, 5), 1, (1, 0)),
        (1, [win(1, 3)], (0, 3), 1, (1, 0)),
        (7, [win(0, 6), win(1, 3), win(1, 2), win(0, 16)], (22, 5), 0, (0, 2)),
    ],
)
def test_it_ends_the_match_as_soon_as_a_score_reaches_the_length(length, results, score, winner, needed):
    states = play_out(MatchRules(length), results)
    final = states[-1]
    assert final.score == score
    assert (final.winner, final.is_over) == (winner, True)
    assert (final.points_needed(0), final.points_needed(1)) == needed
    assert not final.next_is_crawford and not final.next_is_post_crawford
    assert all(not s.is_over and s.winner is None for s in states[:-1])
    assert final.games == len(results)


def test_it_refuses_a_game_after_the_match_is_over():
    final = play_out(MatchRules(3), [win(0, 2), win(0, 1)])[-1]
    with pytest.raises(MatchError) as caught:
        final.after(win(1, 1))
    assert caught.value.code == "match_over"
    assert caught.value.details["game"] == 3


# --- money sessions ---------------------------------------------------------------------------


def test_it_never_ends_a_money_session_nor_plays_a_crawford_game():
    rules = MatchRules(0, jacoby=True, beavers=True, raccoons=True, automatic_doubles=2, cube_cap=64)
    states = play_out(rules, [win(0, 1), win(1, 8), win(0, 64), win(0, 3)] * 5)
    assert states[-1].score == (5 * 68, 5 * 8)
    for state in states:
        assert state.winner is None and not state.is_over
        assert not state.next_is_crawford and not state.next_is_post_crawford
        assert state.points_needed(0) is None and state.points_needed(1) is None
    game = states[-1].next_game_rules()
    assert (game.match_length, game.jacoby, game.beavers, game.raccoons) == (0, True, True, True)
    assert (game.automatic_doubles, game.cube_cap, game.crawford_game) == (2, 64, False)


@pytest.mark.parametrize(
    "options",
    [{"jacoby": True}, {"beavers": True}, {"beavers": True, "raccoons": True}, {"automatic_doubles": 1}],
)
def test_it_refuses_money_options_in_a_match(options):
    with pytest.raises(EngineError) as caught:
        MatchRules(5, **options)
    assert caught.value.code == "money_only"
    MatchRules(0, **options)  # allowed in a money session


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"length": -3}, "bad_rules"),
        ({"length": 0, "raccoons": True}, "bad_rules"),
        ({"length": 5, "cube_cap": 6}, "bad_rules"),
    ],
)
def test_it_refuses_bad_match_settings_when_the_match_is_set_up(options, code):
    with pytest.raises(EngineError) as caught:
        MatchRules(**options)
    assert caught.value.code == code


# --- replaying whole matches ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "games", "scores", "crawford", "final", "winner"),
    [
        # 5 points: 2-0, 4-0, Crawford game 4-1, post-Crawford 4-2 (a double dropped), 6-2
        (
            5,
            [resigned(0, 2), resigned(0, 2), resigned(1, 1), dropped(1), resigned(0, 1, doubled=True)],
            [(0, 0), (2, 0), (4, 0), (4, 1), (4, 2)],
            [0, 0, 1, 0, 0],
            (6, 2),
            0,
        ),
        # 3 points: 2-0 by gammon, Crawford game 2-2 by gammon, then double match point 2-3
        (
            3,
            [resigned(0, 2), resigned(1, 2), dropped(1)],
            [(0, 0), (2, 0), (2, 2)],
            [0, 1, 0],
            (2, 3),
            1,
        ),
        # 3 points: 1-0, 1-2, Crawford game 2-2, post-Crawford doubled backgammon
        (
            3,
            [dropped(0), resigned(1, 2), resigned(0, 1), resigned(1, 3, doubled=True)],
            [(0, 0), (1, 0), (1, 2), (2, 2)],
            [0, 0, 1, 0],
            (2, 8),
            1,
        ),
        # 1 point: no Crawford game
        (1, [dropped(1)], [(0, 0)], [0], (0, 1), 1),
        # Crawford rule off: the cube may be turned at 4-0
        (MatchRules(5, crawford=False), [resigned(0, 2, doubled=True), dropped(1), dropped(0)],
         [(0, 0), (4, 0), (4, 1)], [0, 0, 0], (5, 1), 0),
    ],
)
def test_it_replays_a_match_game_by_game(length, games, scores, crawford, final, winner):
    rules = length if isinstance(length, MatchRules) else MatchRules(length)
    match = replay_match(rules, [log(text) for text in games])
    assert [g.number for g in match.games] == list(range(1, len(games) + 1))
    assert [g.score for g in match.games] == scores
    assert [g.crawford for g in match.games] == [bool(f) for f in crawford]
    assert match.final_score == final
    assert match.winner == winner
    assert match.final.games == len(games)


@pytest.mark.parametrize(
    ("length", "games", "number"),
    [
        (5, [resigned(0, 2), resigned(0, 2), dropped(1)], 3),  # the trailer doubles at 4-0
        (3, [resigned(1, 2), dropped(0)], 2),  # the trailer doubles at 0-2
        (3, [resigned(0, 2), dropped(0)], 2),  # the leader doubles at 2-0
        (5, [dropped(0), resigned(1, 2), resigned(0, 3), dropped(1)], 4),  # 4-2 reached in game 3
    ],
)
def test_it_rejects_a_double_in_the_crawford_game_of_a_match(length, games, number):
    with pytest.raises(GameLogError) as caught:
        replay_match(MatchRules(length), [log(text) for text in games])
    error = caught.value
    assert (error.details["game"], error.details["rule"]) == (number, "crawford")
    assert "crawford" in error.message.lower()


def test_it_rejects_a_game_played_after_the_match_was_won():
    games = [resigned(0, 2), resigned(0, 1), dropped(1)]
    with pytest.raises(MatchError) as caught:
        replay_match(MatchRules(3), [log(text) for text in games])
    assert caught.value.code == "match_over"
    assert caught.value.details["game"] == 3


def test_it_names_the_game_of_an_invalid_log_in_a_match():
    games = [resigned(0, 1), "0:52 13/11 6/1"]
    with pytest.raises(GameLogError) as caught:
        replay_match(MatchRules(5), [log(text) for text in games])
    assert (caught.value.details["game"], caught.value.details["rule"]) == (2, "blocked")
    assert "game 2" in caught.value.message


def test_it_rejects_an_unfinished_game_in_a_match():
    games = [resigned(0, 1), "0:31 8/5 6/5"]
    with pytest.raises(GameLogError) as caught:
        replay_match(MatchRules(5), [log(text) for text in games])
    assert (caught.value.details["game"], caught.value.details["rule"]) == (2, "unfinished")


def random_games(rng: random.Random, count: int) -> list[tuple[list, int, int]]:
    """``count`` random legal games: (log, winner, points with the cube at 1)."""
    games = []
    for _ in range(count):
        actions, position, winner = random_log(rng)
        games.append((actions, winner, game_level(position, winner)))
    return games


def test_it_replays_a_money_session_of_random_games():
    games = random_games(random.Random(7), 4)
    session = replay_match(MatchRules(0, jacoby=False), [actions for actions, _, _ in games])
    expected = [0, 0]
    for (_, winner, points), game in zip(games, session.games, strict=True):
        assert game.score == tuple(expected)
        assert (game.result.winner, game.result.points) == (winner, points)
        expected[winner] += points
    assert session.final_score == tuple(expected)
    assert session.winner is None and not any(g.crawford for g in session.games)


def test_it_counts_random_money_games_as_singles_under_jacoby():
    games = random_games(random.Random(7), 4)
    session = replay_match(MatchRules(0, jacoby=True), [actions for actions, _, _ in games])
    assert all(g.result.points == 1 for g in session.games)
    assert sum(session.final_score) == 4


def test_it_replays_a_match_of_random_games_to_its_winner():
    rng = random.Random(11)
    rules = MatchRules(3)
    state, logs = MatchState(rules), []
    while not state.is_over:
        actions, position, winner = random_log(rng)
        level = game_level(position, winner)
        logs.append(actions)
        state = state.after(win(winner, level))
    match = replay_match(rules, logs)
    assert match.final_score == state.score
    assert match.winner == state.winner
    assert [g.crawford for g in match.games] == crawford_flags(rules, [g.score for g in match.games])


@pytest.mark.parametrize(("seed", "length"), [(1, 3), (2, 5), (3, 7)])
def test_it_replays_random_matches_with_cube_actions(seed, length):
    rules = MatchRules(length)
    games = random_match_games(random.Random(seed), length, double_chance=0.2)
    match = replay_match(rules, games)
    assert match.winner is not None
    assert [g.crawford for g in match.games] == crawford_flags(rules, [g.score for g in match.games])
    assert sum(g.crawford for g in match.games) <= 1
    for game in match.games:
        if game.crawford:
            assert game.replay.final.cube == 1
            assert not any(a.type == "double" for a in game.replay.actions)
    loser = 1 - match.winner
    assert match.final_score[match.winner] >= length > match.final_score[loser]
