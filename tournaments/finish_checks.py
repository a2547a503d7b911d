"""What the apps above tournaments say against finishing an event: the registry of finish checks
that ``tournament_finish`` asks (named with the other hooks in ``tournaments.hooks``, where the
apps above find it). It imports nothing of the project but the event's model, so the services
import it at their top without a cycle (``tournaments.hooks`` imports the services)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .models import Tournament


@dataclass(frozen=True)
class FinishCheck:
    """What an app above tournaments says against finishing an event.

    ``blocking(tournament)`` returns one sentence, marked for translation, for each thing that
    keeps the event from being finished (e.g. "the dispute on Ana v Bob, round 2, opened on
    1 Dec is still open"), or an empty list. It only reads: it runs inside
    ``tournament_finish``'s transaction, with the event's row locked."""

    name: str
    blocking: Callable[[Tournament], list[str]]


_finish_checks: dict[str, FinishCheck] = {}


def finish_check_register(check: FinishCheck) -> None:
    """Register (or, under the same name, replace) a finish check: ``ready()`` may run twice."""
    _finish_checks[check.name] = check


def finish_check_unregister(name: str) -> None:
    _finish_checks.pop(name, None)


def finish_checks() -> list[str]:
    """The registered checks' names, in the order they are asked."""
    return sorted(_finish_checks)


def finish_blockers(tournament: Tournament) -> list[str]:
    """Every registered check's sentences against finishing ``tournament``, checks in the order
    of their names (never the order the apps happen to be loaded)."""
    return [sentence for name in sorted(_finish_checks) for sentence in _finish_checks[name].blocking(tournament)]
