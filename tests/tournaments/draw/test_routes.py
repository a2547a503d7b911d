"""Routes: a bracket's shape depends only on its size and flights, each result's slots are where
the bracket sends it, and a slot is real exactly when a played-out bracket fills it with a player;
and ``advance(lenient=True)`` leaves out the results that do not fit."""

from __future__ import annotations

import random

import pytest

from tournaments.draw import (
    BYE,
    DrawError,
    LoserOf,
    WinnerOf,
    add_consolation,
    advance,
    double_elimination,
    single_elimination,
)
from tournaments.draw.elimination import bracket_size
from tournaments.draw.routes import DECIDER, LOSER, WINNER, Feed, Routes


def build(kind: str, n: int):
    entrants = list(range(1, n + 1))
    if kind == "double":
        return double_elimination(entrants, lengths=5)
    bracket = single_elimination(entrants, lengths=5)
    rounds = bracket.flights[0].rounds
    if kind == "consolation" and rounds > 1:
        bracket = add_consolation(bracket, lengths=3, rounds=min(3, rounds - 1))
        if bracket.flight("consolation").rounds > 1:
            bracket = add_consolation(bracket, name="last_chance", source="consolation", rounds=1, lengths=3)
    return bracket


def shape(bracket):
    def kind(slot):
        if isinstance(slot, WinnerOf | LoserOf):
            return (type(slot).__name__, slot.match)
        return "drawn"  # a seed or a bye: the only difference between two sizes of one bracket

    return [(m.id, kind(m.top), kind(m.bottom), m.decider_of) for m in bracket.matches]


def play_out(bracket, rng):
    results = {}
    while ready := advance(bracket, results).ready():
        for p in ready:
            results[p.id] = rng.choice((p.top, p.bottom))
    return advance(bracket, results)


CASES = [(kind, n) for kind in ("single", "consolation", "double") for n in (3, 5, 8, 11, 16, 23, 33)]


@pytest.mark.parametrize(("kind", "n"), CASES)
def test_the_shape_depends_only_on_the_size_and_each_slot_is_real_when_a_player_fills_it(kind, n):
    bracket = build(kind, n)
    size = bracket_size(n)
    assert shape(bracket) == shape(build(kind, size))
    routes = Routes(build(kind, size))  # the shape, as the services cache it
    final = play_out(bracket, random.Random(n))
    for m in bracket.matches:
        state = final.get(m.id)
        if state.status == "not_needed":
            continue
        for side, slot in (("top", m.top), ("bottom", m.bottom)):
            assert routes.is_real(getattr(routes.match(m.id), side), n) == (getattr(state, side) is not BYE)
            if isinstance(slot, WinnerOf | LoserOf):
                kind_ = WINNER if isinstance(slot, WinnerOf) else LOSER
                assert any(f.target == m.id and f.side == side and f.kind == kind_ for f in routes.feeds[slot.match])
        assert set(routes.sources(m.id)) == {s.match for s in (m.top, m.bottom) if isinstance(s, WinnerOf | LoserOf)} | (
            {m.decider_of} if m.decider_of else set())
    feeds = sum(len(f) for f in routes.feeds.values())
    slots = sum(isinstance(s, WinnerOf | LoserOf) for m in bracket.matches for s in (m.top, m.bottom))
    assert feeds == slots + sum(1 for m in bracket.matches if m.decider_of)
    if kind == "double":
        assert routes.feeds["final-1-1"] == (Feed("final-2-1", None, DECIDER),)


@pytest.mark.parametrize(
    ("results", "left_out"),
    [
        ({"main-1-2": 1, "main-1-4": 3}, "main-1-2"),  # seed 1 does not play 4 v 5
        ({"main-2-1": 1, "main-1-4": 3}, "main-2-1"),  # its players are not known yet
        ({"main-1-1": 1, "main-1-4": 3}, "main-1-1"),  # 1 v bye: nothing to play
    ],
)
def test_a_lenient_advance_leaves_out_the_results_that_do_not_fit(results, left_out):
    bracket = single_elimination(list(range(1, 7)), lengths=5)
    with pytest.raises(DrawError):
        advance(bracket, results)
    fitting = {k: v for k, v in results.items() if k != left_out}
    assert advance(bracket, results, lenient=True) == advance(bracket, fitting)


def test_a_lenient_advance_still_refuses_an_unknown_match():
    with pytest.raises(DrawError) as error:
        advance(single_elimination([1, 2, 3], lengths=5), {"main-9-9": 1}, lenient=True)
    assert error.value.code == "unknown_match"
