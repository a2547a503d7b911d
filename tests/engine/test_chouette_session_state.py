"""A session folded in parts (engine.chouette.session_advance from a kept SessionState) is the
session replayed at once: the same line-up, ledger (in order of arrival) and games, or the same
refusal at the same step; and the kept state survives its JSON form."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.chouette import (
    BACKGAMMON,
    GAMMON,
    SINGLE,
    ChouetteGame,
    ChouetteSettings,
    CubeEnd,
    GameStep,
    JoinStep,
    LeaveStep,
    Lineup,
    MemberCube,
    SessionState,
    Side,
    StartStep,
    chouette_next_lineup,
    lineup_leave,
    replay_session,
    session_advance,
    state_from_json,
    state_to_json,
)
from engine.chouette import session as session_module
from engine.errors import ChouetteError

TABLE = ChouetteSettings(jacoby=True)


@st.composite
def sessions(draw):
    """A start and up to 25 steps: games of the line-up the steps lead to (pinned to it or not),
    joins and leaves, some voided, and now and then a step refused (the refusal is compared too)."""
    players = draw(st.integers(2, 5))
    lineup = Lineup(1, 2, tuple(range(3, players + 1)))
    steps = [StartStep(lineup=lineup)]
    newcomer = players + 1
    for _ in range(draw(st.integers(0, 25))):
        kind = draw(st.sampled_from(("game", "game", "game", "join", "leave")))
        void = draw(st.integers(0, 9)) == 0
        if draw(st.integers(0, 30)) == 0:  # a player already seated joins: refused there
            steps.append(JoinStep(lineup.box))
        if kind == "join":
            steps.append(JoinStep(newcomer, void))
            if not void:
                lineup = lineup.join(newcomer)
            newcomer += 1
        elif kind == "leave" and len(lineup.players) > 2:
            leaving = draw(st.sampled_from(lineup.players))
            steps.append(LeaveStep(leaving, void))
            if not void:
                lineup = lineup_leave(lineup, leaving)
        else:
            cubes = tuple(MemberCube(player, 2 ** draw(st.integers(0, 3)), draw(st.sampled_from(tuple(CubeEnd))))
                          for player in lineup.team)
            winner = draw(st.sampled_from(tuple(Side))) if any(c.end is CubeEnd.PLAYED for c in cubes) else None
            game = ChouetteGame(winner, draw(st.sampled_from((SINGLE, GAMMON, BACKGAMMON))), cubes)
            steps.append(GameStep(game, lineup if draw(st.booleans()) else None, void))
            if not void:
                lineup = chouette_next_lineup(lineup, game, TABLE)
    return steps


def outcome(work):
    try:
        return work()
    except ChouetteError as error:
        return ("refused", error.code, error.details.get("step"))


def in_parts(steps, cuts):
    state, games = SessionState(), ()
    for start, end in zip((0, *cuts), (*cuts, len(steps)), strict=True):
        state, more = session_advance(state, steps[start:end], TABLE)
        state = state_from_json(json.loads(json.dumps(state_to_json(state))))  # as a service keeps it
        games += more
    return state, games


@settings(max_examples=300, deadline=None)
@given(sessions(), st.data())
def test_a_session_folded_in_parts_from_its_kept_state_is_the_session_replayed_at_once(steps, data):
    cuts = sorted(data.draw(st.lists(st.integers(0, len(steps)), max_size=4)))
    whole = outcome(lambda: replay_session(steps, TABLE))
    parts = outcome(lambda: in_parts(steps, cuts))
    if isinstance(whole, tuple):
        assert parts == whole
        return
    state, games = parts
    assert state.steps == len(steps)
    assert state.lineup == whole.lineup
    assert list(state.ledger.items()) == list(whole.ledger.items())
    assert games == whole.games


def test_one_more_game_settles_one_game_whatever_the_length_of_the_session(monkeypatch):
    lineup = Lineup(1, 2, (3, 4))
    steps = [StartStep(lineup=lineup)]
    for number in range(300):
        game = ChouetteGame(Side.BOX if number % 3 else Side.TEAM, SINGLE, ())
        steps.append(GameStep(game, lineup))
        lineup = chouette_next_lineup(lineup, game, TABLE)
    kept, _ = session_advance(SessionState(), steps[:-1], TABLE)
    settled = []
    real = session_module.chouette_settle
    monkeypatch.setattr(session_module, "chouette_settle", lambda *args: settled.append(args) or real(*args))

    state, games = session_advance(kept, steps[-1:], TABLE)

    assert len(settled) == 1 and [game.step for game in games] == [300]
    assert list(state.ledger.items()) == list(replay_session(steps, TABLE).ledger.items())


@pytest.mark.parametrize(("data", "path"), [
    ({"steps": 1, "lineup": None}, "ledger"),
    ({"steps": -1, "lineup": None, "ledger": []}, "steps"),
    ({"steps": 1, "lineup": None, "ledger": [[1, 2]]}, "ledger"),
    ({"steps": 1, "lineup": None, "ledger": [[1, 0], [1, 0]]}, "ledger[1]"),
    ({"steps": 1, "lineup": None, "ledger": [[1, "2"]]}, "ledger[0]"),
    ({"steps": 1, "lineup": {"box": 1}, "ledger": []}, "lineup.captain"),
])
def test_a_kept_state_that_is_not_one_is_refused_with_its_path(data, path):
    with pytest.raises(ChouetteError) as refused:
        state_from_json(data)
    assert refused.value.code == "bad_json" and refused.value.details["path"] == path
