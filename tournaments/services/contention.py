"""Issue 17, point 6 (abt17): where an ABT-style modified Swiss stands (reads only; the rule is
:mod:`tournaments.draw.abt`'s, the playoffs' writes are ``advance``'s steps and the director's
service ``playoffs.tournament_playoffs_start``: see the module docstring of :mod:`.playoffs`)."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.draw import advance
from tournaments.draw.abt import Contention, contention, playoff_bracket
from tournaments.models import Tournament

from . import state

__all__ = ["Contention", "EventContention", "contention", "event_contention", "paid_places", "playoffs_started",
           "playoffs_state", "swiss_rounds_played"]


def paid_places(tournament: Tournament) -> int | None:
    """The paid places the move to playoffs counts: the event's own number, else the number of
    its main flight's paid places; None when it has neither."""
    if tournament.abt_paid_places:
        return tournament.abt_paid_places
    main = (tournament.payouts or {}).get("main")
    return len(main["percentages"]) if main and main.get("percentages") else None


def playoffs_started(tournament: Tournament) -> bool:
    return bool(tournament.abt_playoff)


@dataclass(frozen=True)
class EventContention:
    """Where a modified Swiss stands: ``played`` Swiss rounds paired of ``rounds``, whether the
    last one is ``complete``, and the draw's :class:`~tournaments.draw.abt.Contention` (counted
    generously while a round is in play: a player's match still to play counts as one he may
    win, so nobody is put out of the money too soon)."""

    played: int
    rounds: int
    complete: bool
    state: Contention


def swiss_rounds_played(loaded: state.Loaded) -> tuple[int, bool]:
    """The last Swiss round paired (0 before any) and whether every match of it is confirmed."""
    swiss = [p for p in loaded.pairings if p.flight != state.PLAYOFFS]
    current = max((p.round_number for p in swiss), default=0)
    complete = current > 0 and all(state.is_confirmed(p) for p in swiss
                                   if p.round_number == current and state.has_matches(p))
    return current, complete


def event_contention(loaded: state.Loaded) -> EventContention | None:
    """The contention of a modified Swiss (None for any other event, or one without its paid
    places or rounds). Reads nothing more than ``loaded``. Raises nothing: the rules were checked
    when the event was made."""
    tournament = loaded.tournament
    paid = paid_places(tournament)
    if not tournament.abt_playoffs or tournament.format != Tournament.Format.SWISS or not paid \
            or not tournament.swiss_rounds:
        return None
    played, complete = swiss_rounds_played(loaded)
    remaining = max(tournament.swiss_rounds - played, 0) + (0 if complete or played == 0 else 1)
    return EventContention(played, tournament.swiss_rounds, complete,
                           contention(state.swiss_table(loaded), remaining=remaining, paid=paid))


def playoffs_state(loaded: state.Loaded):
    """Where the playoffs stand (the draw's ``BracketState`` of the playoff bracket after its
    confirmed results), or None before they are drawn or when one player alone could cash.
    Reads nothing more than ``loaded``. Raises ``DrawError`` when a confirmed result no longer
    fits its match (the services refuse such a correction first)."""
    seeds = (loaded.tournament.abt_playoff or {}).get("seeds") or []
    if len(seeds) < 2:
        return None
    bracket = playoff_bracket(seeds, lengths=state.schedule(loaded.tournament, "playoffs"), flight=state.PLAYOFFS)
    results = {}
    for pairing in loaded.pairings:
        if pairing.flight == state.PLAYOFFS:
            winner = state.winner_entry(pairing, loaded.by_id, bracket=True)
            if winner is not None:
                results[pairing.key] = winner
    return advance(bracket, results)
