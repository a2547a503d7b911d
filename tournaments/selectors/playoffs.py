"""Who is still in contention in an ABT-style modified Swiss, and its
playoffs once they start (``tournaments.services.playoffs``). Reads only: the event's entries and
pairings (two queries), kept in the cache under the event's version like the standings."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache

from tournaments import formats
from tournaments.draw import BYE
from tournaments.draw.bracket import PLAYED
from tournaments.models import Tournament
from tournaments.services import contention, state

from .event import Entrant, entrant_of
from .standings import STANDINGS_CACHE_SECONDS, standings_cache_key


@dataclass(frozen=True)
class PlayoffMatch:
    """A match of the playoffs: its bracket ``round`` of ``rounds``, its players (None while one
    is still to be decided; ``bye`` when the top player goes through without playing), the
    ``winner`` once decided, its ``length`` and its match once made."""

    key: str
    round: int
    rounds: int
    top: Entrant | None
    bottom: Entrant | None
    bye: bool
    winner: Entrant | None
    length: int
    match_id: int | None


@dataclass(frozen=True)
class Contention:
    """Where a modified Swiss stands. While the Swiss goes on: ``played`` of ``rounds`` Swiss
    rounds (the last ``complete`` or in play), the ``paid`` places, who ``can_win``, who can cash
    but no longer win (``cash_only``), how many are ``out`` of the money, and whether the playoffs
    are ``due`` (the round is over and no more can cash than are paid). Once they start:
    ``stopped_after`` (the last Swiss round), the ``seeds`` (best first), who could cash but no
    longer win then (``stopped_cash_only``), the playoff ``matches`` and the ``champion``."""

    played: int
    rounds: int
    complete: bool
    paid: int
    can_win: tuple[Entrant, ...]
    cash_only: tuple[Entrant, ...]
    out: int
    due: bool
    stopped_after: int | None
    seeds: tuple[Entrant, ...]
    stopped_cash_only: tuple[Entrant, ...]
    matches: tuple[PlayoffMatch, ...]
    champion: Entrant | None

    @property
    def started(self) -> bool:
        return self.stopped_after is not None


def tournament_contention(*, tournament: Tournament) -> Contention | None:
    """The contention of a modified Swiss (``abt_playoffs``) once drawn, else None. Kept in the
    cache under the event's version (``tournament`` freshly read): no query when the cache has it,
    two otherwise."""
    if not formats.format_of(tournament).modified_swiss(tournament) or tournament.drawn_at is None:
        return None
    key = f"{standings_cache_key(tournament)}:contention"
    found = cache.get(key)
    if not isinstance(found, Contention):
        found = _contention(state.load(tournament))
        if found is None:
            return None
        cache.set(key, found, STANDINGS_CACHE_SECONDS)
    return found


def _contention(loaded: state.Loaded) -> Contention | None:
    counted = contention.event_contention(loaded)
    if counted is None:
        return None
    entrants = {e.pk: entrant_of(e) for e in loaded.entries}
    now = counted.state
    stopped = loaded.tournament.abt_playoff or {}
    matches: list[PlayoffMatch] = []
    champion = None
    if stopped.get("seeds"):
        seeds = stopped["seeds"]
        view = contention.playoffs_state(loaded)
        if view is None:
            champion = entrants[seeds[0]]  # the only player who could cash
        else:
            rounds = max(m.match.round for m in view.matches)
            stored = loaded.by_key
            for m in view.matches:
                top = entrants.get(m.top) if m.top not in (None, BYE) else None
                bottom = entrants.get(m.bottom) if m.bottom not in (None, BYE) else None
                bye = BYE in (m.top, m.bottom)
                winner = entrants.get(m.winner) if m.status == PLAYED and m.winner not in (None, BYE) else None
                pairing = stored.get(m.match.id)
                matches.append(PlayoffMatch(m.match.id, m.match.round, rounds, top or bottom if bye else top,
                                            None if bye else bottom, bye, winner, m.match.length,
                                            pairing.match_id if pairing is not None else None))
            final = next(m for m in matches if m.round == rounds)
            champion = final.winner
    return Contention(
        played=counted.played, rounds=counted.rounds, complete=counted.complete, paid=now.paid,
        can_win=tuple(entrants[e] for e in now.can_win), cash_only=tuple(entrants[e] for e in now.cash_only),
        out=len(now.out_of_the_money), due=bool(counted.complete and now.to_playoffs and not stopped),
        stopped_after=stopped.get("after_round"),
        seeds=tuple(entrants[e] for e in stopped.get("seeds", ())),
        stopped_cash_only=tuple(entrants[e] for e in stopped.get("cash_only", ())),
        matches=tuple(matches), champion=champion,
    )
