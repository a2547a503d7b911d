"""Where an ABT-style modified Swiss stands (reads only; the rule is
:mod:`tournaments.draw.abt`'s, the playoffs' writes are ``advance``'s steps and the director's
service ``playoffs.tournament_playoffs_start``: see the module docstring of :mod:`.playoffs`)."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments import formats
from tournaments.draw import BYE, advance
from tournaments.draw.abt import Contention, contention, contingent_bye_first, contingent_bye_places, playoff_bracket
from tournaments.draw.bracket import PLAYED
from tournaments.models import Tournament

from . import state

__all__ = ["Contention", "EventContention", "contention", "event_contention", "paid_places", "playoff_places",
           "playoff_seeds", "playoffs_started", "playoffs_state", "swiss_rounds_played"]


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
    places or rounds): the format's (``swiss_contention`` for a Swiss). Reads nothing more than
    ``loaded``. Raises nothing: the rules were checked when the event was made."""
    return formats.format_of(loaded.tournament).contention(loaded)


def swiss_contention(loaded: state.Loaded) -> EventContention | None:
    """The contention of a Swiss with its playoffs option, its paid places and its rounds (else
    None), as :func:`event_contention` says."""
    tournament = loaded.tournament
    paid = paid_places(tournament)
    if not tournament.abt_playoffs or not paid or not tournament.swiss_rounds:
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


def playoff_seeds(table, found: Contention) -> list:
    """The playoffs' seeds in bracket order: the players who can still cash in the order of the
    Swiss ``table``; three of them in the USBGF's order, the contingent bye's player first
    (:func:`tournaments.draw.abt.contingent_bye_first`: the best placed of those with the fewest
    byes)."""
    byes = {line.entrant: line.record.byes for line in table}
    return list(contingent_bye_first(found.can_cash, byes))


def playoff_places(loaded: state.Loaded) -> list[tuple[int, int, int]]:
    """The places the playoffs have decided so far, as (place, last place, entry id), first
    first: a bracket's placings, or with three players the USBGF's contingent bye
    (:func:`tournaments.draw.abt.contingent_bye_places`: nobody placed before the final). One
    player alone who could cash is first. Reads nothing more than ``loaded``."""
    seeds = (loaded.tournament.abt_playoff or {}).get("seeds") or []
    if len(seeds) == 1:
        return [(1, 1, seeds[0])]
    view = playoffs_state(loaded)
    if view is None:
        return []
    if len(seeds) != 3:
        return [(p.place, p.last_place, p.entrant) for p in view.placings()]
    rounds = max(m.match.round for m in view.matches)
    first = next((m for m in view.matches if m.match.round == 1 and m.status == PLAYED and m.loser is not BYE), None)
    final = next(m for m in view.matches if m.match.round == rounds)
    places = contingent_bye_places(seeds, (first.winner, first.loser) if first is not None else None,
                                   final.winner if final.status == PLAYED else None)
    return [(place, place, entrant) for place, entrant in places]
