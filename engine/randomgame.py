"""Random games: a seeded source of realistic positions for tests, benchmarks and demo data.

Both sides play uniformly random legal plays from the starting position. Such games pass through
every kind of position a test needs (contact with hits and the bar, primes, races, bear-offs,
re-entry during a bear-off) without any hand-built board.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .actions import Double, Drop, Move, Roll, Take
from .board import Position
from .errors import CubeError
from .game import TO_ROLL, Game, check_double
from .match import MatchRules, MatchState
from .moves import legal_plays


def _sensible(play_position: Position, mover: int) -> int:
    """A crude score of a play for ``mover``: made points, fewer blots, pips to the opponent."""
    board = play_position.boards[mover]
    made = sum(1 for p in range(1, 25) if board[p] >= 2)
    blots = sum(1 for p in range(1, 25) if board[p] == 1)
    return 3 * made - 2 * blots + play_position.pips(1 - mover) // 8 + 4 * board[0]


def random_game(
    rng: random.Random, *, sensible: bool = False, max_turns: int = 400
) -> Iterator[tuple[Position, tuple[int, int]]]:
    """Yield ``(position, dice)`` before every turn of one random game, until it ends.

    Plays are drawn uniformly, or with ``sensible`` mostly the best by a crude score (points
    made, blots avoided): such games build primes and reach races and bear-offs more often.
    """
    first = rng.choice((0, 1))
    position = Position.start(first)
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    while dice[0] == dice[1]:  # the opening roll is never a double
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    for _ in range(max_turns):
        yield position, dice
        plays = legal_plays(position, dice)
        if not plays:
            position = position.passed()
        elif sensible and rng.random() < 0.85:
            mover = position.turn
            position = max(plays, key=lambda p: (_sensible(p.position, mover), rng.random())).position
        else:
            position = rng.choice(plays).position
        if position.is_over():
            return
        dice = (rng.randint(1, 6), rng.randint(1, 6))


def random_positions(seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` (position, dice) pairs from consecutive games seeded with ``seed``; every other
    game is played sensibly, so that primes, races and bear-offs are well represented."""
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    games = 0
    while len(out) < count:
        games += 1
        for item in random_game(rng, sensible=games % 2 == 0):
            out.append(item)
            if len(out) == count:
                break
    return out


def random_match_games(rng: random.Random, length: int, *, double_chance: float = 0.05) -> list[list]:
    """The game logs (lists of actions) of one random match to ``length`` points.

    Checker plays are sensible-random as in :func:`random_game`; a side on roll doubles now and
    then when the rules let it (never in the Crawford game) and the other side takes three times
    in four. Every log replays cleanly: it is built by the engine's own state machine.
    """
    state = MatchState(MatchRules(length))
    games: list[list] = []
    while not state.is_over:
        game = Game(state.next_game_rules(), number=len(games) + 1)
        side = rng.choice((0, 1))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        game.apply(Roll(side, dice=dice))
        while game.result is None:
            if game.phase == TO_ROLL:
                side = game.to_act
                if rng.random() < double_chance:
                    try:
                        check_double(game.rules, game.cube, game.owner, side, on_roll=side)
                    except CubeError:
                        pass
                    else:
                        game.apply(Double(side, value=game.cube * 2))
                        game.apply((Take if rng.random() < 0.75 else Drop)(1 - side))
                        continue
                game.apply(Roll(side, dice=(rng.randint(1, 6), rng.randint(1, 6))))
            position = game.position
            plays = legal_plays(position, game.dice)
            if plays:
                mover = position.turn
                if rng.random() < 0.85:
                    play = max(plays, key=lambda p: (_sensible(p.position, mover), rng.random()))
                else:
                    play = rng.choice(plays)
                game.apply(Move(mover, play=play.notation))
            else:
                game.apply(Roll(1 - position.turn, dice=(rng.randint(1, 6), rng.randint(1, 6))))
        games.append(game.actions)
        state = state.after(game.result)
    return games
