"""The engine's own exceptions.

Every error the engine raises is an :class:`EngineError` with a stable ``code`` (a short
snake_case string that callers may match on and that never changes meaning) and a message for
people. Subclasses group the codes by area so callers can catch what they expect.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every engine error: ``code`` is stable, ``message`` is for people."""

    code = "engine_error"

    def __init__(self, message: str, *, code: str | None = None, **details):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, **self.details}


class PositionError(EngineError):
    """A position that cannot exist (wrong checker count, both sides on one point...)."""

    code = "invalid_position"


class IdError(EngineError):
    """A Position ID, Match ID or XGID that does not decode."""

    code = "invalid_id"


class IllegalPlay(EngineError):
    """A checker play that breaks a rule of RULES.md §3; ``code`` names the rule."""

    code = "illegal_play"


class NotationError(IllegalPlay):
    """A play written in a way that cannot be read (``24/x``, ``13/7(9)``)."""

    code = "bad_notation"


class CubeError(EngineError):
    """A cube action that is not allowed now (Crawford game, not the owner, cap reached...)."""

    code = "cube_error"


class GameLogError(EngineError):
    """An action in a game log that cannot be replayed.

    ``details`` carries ``game``, ``move`` (the numbered turn line, as in a .mat file), ``side``,
    ``action`` (the action as written) and ``rule`` (the code of the underlying error).
    """

    code = "invalid_game_log"


class MatchError(EngineError):
    """A match-level inconsistency: a score line that does not follow, a game after the end."""

    code = "invalid_match"


class MatParseError(EngineError):
    """A .mat file that cannot be read; ``details['line']`` is the 1-based line number."""

    code = "mat_parse_error"


class ChouetteError(EngineError):
    """A chouette line-up or game record that breaks RULES.md §7."""

    code = "invalid_chouette"


class MatLimitError(MatParseError):
    """A .mat file over a limit its reader was given: reading stopped where the limit was passed.

    ``code`` names the limit (``mat_too_large``: bytes, ``too_many_games``, ``too_many_actions``);
    ``details`` carry ``limit`` (the limit's value) and where reading stopped: ``size`` (bytes,
    counted before decoding: no line yet), or ``line`` and ``game``.
    """

    code = "mat_too_large"
