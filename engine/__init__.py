"""Crawford's rules engine: backgammon exactly, in pure Python (no Django, ever).

Glossary (RULES.md):

point
    One of the 24 places a checker can stand, numbered 1..24 from each side's own view; a
    side's point ``p`` is the opponent's ``25 - p``. Points 1-6 are the home board.
bar
    Where a hit checker waits; it must enter in the opponent's home board before any other
    checker of that side moves. Index 25 of a side's board.
borne off
    Checkers that have left the board; index 0 of a side's board. Fifteen off wins the game.
blot / made point
    One checker alone on a point (it can be hit) / two or more (the opponent cannot land there).
pip count
    The distance a side still has to travel: each checker counts its point, the bar counts 25.
play
    What a side does with one roll: up to two sub-moves (four with doubles), written
    ``24/18 13/8``, ``bar/22*``, ``6/off``, ``13/7(2)``.
cube
    The doubling cube: its face (1, 2, 4...) multiplies the game's value; centred or owned.
Crawford game
    The game right after a side first reaches one point short of the match length: no doubling.
single, gammon, backgammon
    A game won with the loser having borne off (1x cube), having borne off nothing (2x), or
    also still having a checker on the bar or in the winner's home board (3x).

Where things are: ``board`` (positions), ``ids`` (Position ID, Match ID, XGID), ``moves`` (legal
plays), ``notation`` (plays written and read), ``validation`` (a recorded play checked), ``game``
(one game's state machine: cube, resignations, endings), ``match`` (scores, Crawford), ``scores``
(which final scores can end a match, capped and full), ``chouette`` (a package, one module per
part), ``ratings`` (FIBS), ``formats`` (.mat files: ``mat`` read, ``mat_check``, ``mat_write``),
``cli`` (``python -m engine``). Every error is an :class:`engine.errors.EngineError` with a stable
``code``; the codes of illegal plays are listed in :data:`engine.validation.RULES`.
"""

from .actions import Action, action_from_dict, action_to_dict, actions_from_json
from .board import BAR, CHECKERS, OFF, Position, side_board
from .errors import (
    ChouetteError,
    CubeError,
    EngineError,
    GameLogError,
    IdError,
    IllegalPlay,
    MatchError,
    MatLimitError,
    MatParseError,
    NotationError,
    PositionError,
)
from .game import Game, GameReplay, GameResult, GameRules, check_double, replay_game
from .ids import match_id, match_id_decode, position_from_id, position_id, xgid, xgid_decode
from .match import MatchReplay, MatchRules, MatchState, Penalty, replay_match
from .moves import Play, legal_plays
from .scores import FinalScore, ScoreProblem, capped_score, claim_agrees_with_full, final_score, final_score_problem
from .validation import validate_play

__all__ = [
    "BAR",
    "CHECKERS",
    "OFF",
    "Action",
    "ChouetteError",
    "CubeError",
    "EngineError",
    "FinalScore",
    "Game",
    "GameLogError",
    "GameReplay",
    "GameResult",
    "GameRules",
    "IdError",
    "IllegalPlay",
    "MatLimitError",
    "MatParseError",
    "MatchError",
    "MatchReplay",
    "MatchRules",
    "MatchState",
    "NotationError",
    "Penalty",
    "Play",
    "Position",
    "PositionError",
    "ScoreProblem",
    "action_from_dict",
    "action_to_dict",
    "actions_from_json",
    "capped_score",
    "check_double",
    "claim_agrees_with_full",
    "final_score",
    "final_score_problem",
    "legal_plays",
    "match_id",
    "match_id_decode",
    "position_from_id",
    "position_id",
    "replay_game",
    "replay_match",
    "side_board",
    "validate_play",
    "xgid",
    "xgid_decode",
]
