"""A ruling's input checked: its context, the details each outcome reads (a bad one is refused by
name, as the ruling form names it), and the refusals of the services and the engine it goes
through, raised as the ruling's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from core.bounds import INT_MAX
from core.engine_messages import name_sides, refusal_text
from core.errors import Conflict, DomainError
from core.labels import field_label
from engine.errors import EngineError
from matches.models import Match
from matches.services.logs import CheckedLog
from matches.services.reporting import (
    Claim,
    claim_make,
)
from rulings import errors
from rulings.labels import RULING_LABELS
from rulings.models import Dispute

#: Which ruling parameter an engine refusal is about: those are bad input (400); any other engine
#: refusal means the match's games no longer hold with the ruling (409).
ENGINE_FIELDS = {
    "no_such_game": "game", "match_over": "game", "not_crawford_game": "game",
    "no_such_action": "move", "not_a_move": "move", "nothing_to_correct": "move", "nothing_to_condone": "move",
    "already_condoned": "move", "cannot_condone": "move", "correction_illegal": "play",
    "no_double": "log", "double_unanswered": "log", "bad_action": "log",
}


# --- input --------------------------------------------------------------------------------------


@dataclass
class RulingContext:
    dispute: Dispute
    match: Match
    director: Any
    params: dict
    note: str

    def take(self, *allowed: str) -> dict:
        """The params, refusing any this outcome does not read (a typo must not pass silently)."""
        unknown = sorted(set(self.params) - set(allowed))
        if unknown:
            known = _(", ").join(ruling_label(name) for name in allowed) or _("none")
            raise errors.bad_ruling(unknown[0], _("not a detail of this outcome (it takes: %(known)s)") % {
                "known": known})
        return self.params


def ruling_label(field: str) -> str:
    """A ruling's field or detail as the ruling form names it (core.labels)."""
    return field_label(RULING_LABELS, field)


def ruling_text(field: str, value, limit: int) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise errors.bad_ruling(field, _("required: a ruling names the rule it applies and says why"))
    if len(text) > limit:
        raise errors.bad_ruling(field, _("%(length)s characters; the limit is %(limit)s") % {
            "length": len(text), "limit": limit})
    return text


def param_whole(params: dict, field: str, minimum: int, default=None, *, maximum: int = INT_MAX) -> int:
    value = params.get(field, default)
    if value is None:
        raise errors.bad_ruling(field, _("required: give a whole number"))
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise errors.bad_ruling(field, _("a whole number from %(minimum)s to %(maximum)s") % {
            "minimum": minimum, "maximum": maximum})
    return value


def param_flag(params: dict, field: str, default: bool | None = None) -> bool:
    value = params.get(field, default)
    if not isinstance(value, bool):
        # The page asks yes or no; the API takes true or false.
        raise errors.bad_ruling(field, _("answer yes or no (true or false)") if field in params
                                else _("required: answer yes or no (true or false)"))
    return value


def param_side(params: dict) -> int:
    side = params.get("side")
    if side not in (0, 1) or isinstance(side, bool):
        raise errors.bad_ruling("side", _("one of the match's two sides (0 or 1)") if "side" in params
                                else _("required: choose one of the match's two sides"))
    return side


def param_score(match: Match, params: dict, log: CheckedLog | None = None) -> Claim:
    value = params.get("score")
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise errors.bad_ruling("score", _("give the final score: both sides' points, the first side's first"))
    try:
        return claim_make(match, (value[0], value[1]), log)
    except DomainError as error:
        raise errors.bad_ruling("score", error.message) from None


def error_scalars(details: dict) -> dict:
    return {k: v for k, v in details.items() if k not in ("field", "code") and isinstance(v, str | int | float | bool)}


def engine_refusal(error: EngineError, match: Match) -> DomainError:
    """The engine's refusal of a ruling on ``match``, its sides named by their players."""
    where = {"reason": error.code, **error_scalars(error.details)}
    field = ENGINE_FIELDS.get(error.code) or error.details.get("field")
    error.message = name_sides(error.message, (match.side0.name, match.side1.name))
    if field:
        return errors.bad_ruling(field, refusal_text(error), **where)
    return errors.ruling_refused(refusal_text(error), **where)


def refused(error: Conflict) -> Conflict:
    return errors.ruling_refused(error.message, reason=error.code, **error_scalars(error.details))
