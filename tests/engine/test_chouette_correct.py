"""A correction that really corrects (engine.chouette.session_correct): after a game is voided or
amended, every later game's line-up is recomputed as a replay from scratch gives it; a game still
played by the same Box and Captain is moved to its new line-up, any other is listed to amend."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.chouette import (
    SINGLE,
    BoxDouble,
    ChouetteGame,
    ChouetteSettings,
    CubeEnd,
    GameStep,
    LeaveStep,
    Lineup,
    MemberCube,
    Side,
    StartStep,
    chouette_next_lineup,
    replay_session,
    session_correct,
)
from engine.chouette.record import Answer
from engine.errors import ChouetteError

TABLE = ChouetteSettings(jacoby=True)
BOX, TEAM = ChouetteGame(Side.BOX, SINGLE, ()), ChouetteGame(Side.TEAM, SINGLE, ())


def recorded(start: Lineup, *steps) -> list:
    """A session as the table records it: each game pinned to the line-up it was played with."""
    out, lineup = [StartStep(lineup=start)], start
    for step in steps:
        if isinstance(step, ChouetteGame):
            out.append(GameStep(step, lineup))
            lineup = chouette_next_lineup(lineup, step, TABLE)
        else:
            out.append(step)
            lineup = replay_session(out, TABLE).lineup
    return out


def unpinned(steps) -> list:
    return [replace(step, lineup=None) if isinstance(step, GameStep) else step for step in steps]


def from_scratch(steps) -> dict[int, Lineup]:
    """Each counting game's line-up in a replay of the steps with no line-up pinned."""
    return {game.step: game.lineup for game in replay_session(unpinned(steps), TABLE).games}


def test_voiding_a_middle_game_of_six_recomputes_every_later_line_up_as_a_replay_from_scratch():
    steps = recorded(Lineup(1, 2, (3, 4)), BOX, TEAM, BOX, BOX, TEAM, BOX)
    steps[3] = replace(steps[3], void=True)   # game 3
    correction = session_correct(steps, TABLE)
    later = {index: lineup for index, lineup in correction.lineups.items() if index > 3}
    assert later == {index: lineup for index, lineup in from_scratch(steps).items() if index > 3}
    assert sorted(later) == [4, 5, 6]
    # Game 3 sent its Captain to the bottom: without it, each later game has another Captain or Box.
    assert [(item.step, item.code) for item in correction.to_amend] == [(4, "captain_changed"),
                                                                         (5, "captain_changed"), (6, "box_changed")]
    assert correction.to_amend[0].recorded == Lineup(3, 2, (1, 4))
    assert correction.to_amend[0].lineup == Lineup(3, 4, (2, 1))
    assert not correction.stands
    # Amending them on their new line-ups (as recorded: same winner) gives the replay from scratch.
    for item in correction.to_amend:
        steps[item.step] = GameStep(steps[item.step].record, item.lineup)
    again = session_correct(steps, TABLE)
    assert again.stands and again.moved == ()
    whole = replay_session(unpinned(steps), TABLE)
    assert (again.state.lineup, dict(again.state.ledger), again.games) == (whole.lineup, dict(whole.ledger), whole.games)


def test_a_later_game_that_a_leave_puts_back_in_its_seats_stands_and_one_that_it_does_not_is_listed():
    start = Lineup(1, 2, (3, 4, 5))
    steps = recorded(start, BOX, BOX, LeaveStep(3), BOX)
    steps[2] = replace(steps[2], void=True)          # game 2: Mia captained, lost and went to the bottom; she left
    correction = session_correct(steps, TABLE)
    assert correction.stands and correction.moved == () and correction.lineups[4] == Lineup(1, 4, (5, 2))
    steps = recorded(start, BOX, BOX, LeaveStep(4), BOX)
    steps[2] = replace(steps[2], void=True)          # game 2 again, but another player left
    correction = session_correct(steps, TABLE)
    [item] = correction.to_amend
    assert (item.step, item.code, item.recorded, item.lineup) == (4, "captain_changed", Lineup(1, 5, (2, 3)),
                                                                  Lineup(1, 3, (5, 2)))


def test_a_crew_that_only_changes_order_moves_the_game_and_keeps_its_amounts():
    start = Lineup(1, 2, (3, 4))
    game = ChouetteGame(Side.BOX, SINGLE, ())
    steps = [StartStep(lineup=start), GameStep(game, Lineup(1, 2, (4, 3)))]
    # Recorded with Max before Mia: the steps lead to Mia before Max, same Box and Captain.
    correction = session_correct(steps, TABLE)
    assert correction.stands and correction.moved == (1,)
    assert correction.steps[1].lineup == start and correction.lineups[1] == start
    [played] = correction.games
    assert played.lineup == start and dict(played.settlement.amounts) == {1: 3, 2: -1, 3: -1, 4: -1}


def test_a_cube_log_in_the_old_crew_order_is_listed_to_amend_with_its_code():
    start = Lineup(1, 2, (3, 4))
    crossed = Lineup(1, 2, (4, 3))
    cubes = (MemberCube(3, 2, CubeEnd.PLAYED), MemberCube(4, 2, CubeEnd.PLAYED), MemberCube(2, 2, CubeEnd.PLAYED))
    game = ChouetteGame(Side.BOX, SINGLE, cubes,
                        log=(BoxDouble(((3, Answer.TAKE), (4, Answer.TAKE), (2, Answer.TAKE))),))
    steps = [StartStep(lineup=start), GameStep(game, crossed)]
    with pytest.raises(ChouetteError):
        replay_session(steps, TABLE)
    correction = session_correct(steps, TABLE)
    [item] = correction.to_amend
    assert (item.step, item.recorded, item.lineup, item.code) == (1, crossed, start, "decision_order")


def test_a_session_that_fits_folds_as_the_replay_and_a_refused_step_still_raises():
    steps = recorded(Lineup(1, 2, (3,)), BOX, TEAM, BOX)
    correction = session_correct(steps, TABLE)
    whole = replay_session(steps, TABLE)
    assert correction.stands and correction.moved == ()
    assert (correction.state.lineup, correction.games, correction.steps) == (whole.lineup, whole.games, tuple(steps))
    with pytest.raises(ChouetteError) as caught:
        session_correct([*steps, LeaveStep(99)], TABLE)
    assert caught.value.details["step"] == 4
