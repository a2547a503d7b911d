"""A Swiss's rounds and answers as values: the rounds as played (:class:`SwissRound`), checked
against the entrants, and the records, standings and unplayed rounds they give; a round's pairing
(:class:`SwissPairing`) or why there is none (:class:`NoPairing`). Pure, like :mod:`.swiss`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .errors import DrawError
from .seeding import Seeding, as_order
from .standings import SWISS, Record, Standing, records, standings
from .values import DRAW, Entrant, Pairing, Result


@dataclass(frozen=True)
class SwissRound:
    """A round as played: its results (all decided before the next round can be paired) and the
    player who had the bye, if any."""

    number: int
    results: tuple[Result, ...]
    bye: Entrant | None = None


@dataclass(frozen=True)
class SwissPairing:
    """The pairings of round ``round``, top board first, and the bye (None with an even count)."""

    round: int
    pairings: tuple[Pairing, ...]
    bye: Entrant | None = None
    ok: bool = field(default=True, init=False)


@dataclass(frozen=True)
class NoPairing:
    """Round ``round`` cannot be paired: ``code`` (stable, one of :data:`NO_PAIRING`),
    ``message`` (for people), and the players a best attempt left unpaired."""

    round: int
    code: str
    message: str
    unpaired: tuple[Entrant, ...] = ()
    ok: bool = field(default=False, init=False)


def check_history(order: Sequence[Entrant], history: Iterable[SwissRound]) -> tuple[SwissRound, ...]:
    """The rounds, checked: known entrants only, each at most once per round, every result
    decided. Raises ``DrawError``: ``unknown_entrant``, ``bad_history``, ``round_not_complete``."""
    known = set(order)
    rounds = tuple(history)
    for played in rounds:
        seen: set = set()
        people = [e for r in played.results for e in (r.top, r.bottom)]
        if played.bye is not None:
            people.append(played.bye)
        for entrant in people:
            if entrant not in known:
                raise DrawError(f"{entrant!r} is not an entrant", code="unknown_entrant", entrant=entrant)
            if entrant in seen:
                raise DrawError(
                    f"{entrant!r} appears twice in round {played.number}", code="bad_history", entrant=entrant,
                    round=played.number,
                )
            seen.add(entrant)
        for result in played.results:
            if result.winner is None:
                raise DrawError(
                    f"round {played.number} is not complete: {result.top!r} v {result.bottom!r} has no result",
                    code="round_not_complete", round=played.number,
                )
    return rounds


def swiss_records(entrants: Seeding | Iterable[Entrant], history: Iterable[SwissRound]) -> dict[Entrant, Record]:
    """Each entrant's record after ``history`` (byes count as wins)."""
    order = as_order(entrants)
    rounds = check_history(order, history)
    return records(order, (r for p in rounds for r in p.results), (p.bye for p in rounds if p.bye is not None))


def swiss_standings(
    entrants: Seeding | Iterable[Entrant], history: Iterable[SwissRound], *, tiebreaks: Sequence[str] = SWISS
) -> tuple[Standing, ...]:
    """The Swiss table after ``history``: wins, Buchholz, median-Buchholz, head-to-head."""
    order = as_order(entrants)
    rounds = check_history(order, history)
    return standings(
        order, [r for p in rounds for r in p.results], [p.bye for p in rounds if p.bye is not None], tiebreaks=tiebreaks,
        unplayed=unplayed_rounds(order, rounds) if "fide_buchholz" in tiebreaks else None,
    )


def unplayed_rounds(
    entrants: Seeding | Iterable[Entrant], history: Iterable[SwissRound]
) -> dict[Entrant, list[tuple[float, float, int]]]:
    """Each entrant's unplayed rounds, for FIDE's Buchholz (tournaments.draw.standings): a bye
    (it gave him 1) or a round he was not in (withdrawn, not yet entered: 0), each as (his score
    before that round, the points it gave him, the rounds played after it)."""
    order = as_order(entrants)
    rounds = sorted(history, key=lambda p: p.number)
    score = dict.fromkeys(order, 0.0)
    out: dict[Entrant, list[tuple[float, float, int]]] = {}
    for index, played in enumerate(rounds):
        after = len(rounds) - index - 1
        gained = dict.fromkeys(order, None)
        for r in played.results:  # an undecided game (a round in play) is played, for nothing yet
            for e in (r.top, r.bottom):
                gained[e] = 0.0 if r.winner is None else 0.5 if r.winner is DRAW else float(r.winner == e)
        if played.bye is not None:
            out.setdefault(played.bye, []).append((score[played.bye], 1.0, after))
            gained[played.bye] = 1.0
        for e in order:
            if gained[e] is None:
                out.setdefault(e, []).append((score[e], 0.0, after))
                gained[e] = 0.0
            score[e] += gained[e]
    return out
