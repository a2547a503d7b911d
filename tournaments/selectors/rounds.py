"""A Swiss's or round robin's rounds: every round's pairings, or one round a page at a time,
in table order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import QuerySet

from tournaments import formats
from tournaments.draw import names as round_names
from tournaments.draw.names import RoundName
from tournaments.models import Entry, Pairing, Tournament
from tournaments.selectors.event import Entrant, entrant_of
from tournaments.selectors.pairings import PairingView, RoundNamed, match_status, oriented_score
from tournaments.selectors.standings import STANDINGS_CACHE_SECONDS, standings_cache_key
from tournaments.services import state

# --- Swiss and round-robin rounds ----------------------------------------------------------------------


class _PairedRound(RoundNamed):
    """A Swiss's or round robin's round is named by its number (``label``: "Round 3")."""

    @property
    def name(self) -> RoundName | None:
        return round_names.paired_round_name(self.number) if self.number else None


@dataclass(frozen=True)
class RoundPairings(_PairedRound):
    """A round of a Swiss or round robin: its pairings (round robin: every group's), and the
    Swiss bye."""

    number: int
    pairings: tuple[PairingView, ...]
    bye: Entrant | None


def tournament_rounds(*, tournament: Tournament) -> tuple[RoundPairings, ...]:
    """The paired rounds of a Swiss or round robin, first round first, boards in order. Two
    queries; empty for a bracket or before the draw."""
    if formats.format_of(tournament).has_bracket:
        return ()
    loaded = state.load(tournament)
    entrants = {e.pk: entrant_of(e) for e in loaded.entries}
    rounds: dict[int, list[PairingView]] = {}
    byes: dict[int, Entrant] = {}
    for pairing in sorted(loaded.pairings, key=board_order):
        rounds.setdefault(pairing.round_number, [])
        if pairing.match_id is None and pairing.entry1_id is None:
            byes[pairing.round_number] = entrants[pairing.entry0_id]
            continue
        rounds[pairing.round_number].append(_round_pairing(pairing, entrants, loaded.by_id))
    for shown in rounds.values():
        if any(p.table for p in shown):  # by table once the round has tables (a stable sort: then by board)
            shown.sort(key=lambda p: table_order(p.table))
    return tuple(RoundPairings(n, tuple(rounds[n]), byes.get(n)) for n in sorted(rounds))


def table_order(label: str):
    """How tables sort: numbered ones by their number (2 before 10), then named ones by name;
    a match without a table after every table."""
    if not label:
        return (2, 0, "")
    if label.isdigit():
        return (0, int(label), "")
    return (1, 0, label.casefold())


def board_order(pairing: Pairing):
    return board_key(pairing.round_number, pairing.key)


def board_key(round_number: int, key: str):
    """The order of a pairing among a round's boards: (round, the key's head, the board number
    the key ends in, or 10**6 when it ends in none), so swiss-3-10 comes after swiss-3-9 and A-2-1
    before B-2-1. Its last item is the board number the desk shows."""
    head, _, tail = key.rpartition("-")
    return round_number, head, int(tail) if tail.isdigit() else 10**6


def pairing_count(*, tournament: Tournament) -> int:
    """How many pairings the event has (byes and matches still waiting for a player included). One
    query."""
    return Pairing.objects.filter(tournament=tournament).count()


@dataclass(frozen=True)
class RoundPage(_PairedRound):
    """Part of one round of a Swiss or round robin: ``pairings`` are the round's ``start``-th to
    ``stop``-th pairings in board order; ``count`` the round's pairings (its bye not counted);
    ``numbers`` every paired round. ``number`` is None before the first round is paired."""

    number: int | None
    numbers: tuple[int, ...]
    count: int
    pairings: tuple[PairingView, ...]
    bye: Entrant | None


def tournament_round_page(*, tournament: Tournament, number: int | None = None,
                          pick: Callable[[int], Sequence[int]] | None = None) -> RoundPage:
    """Of round ``number`` (the last paired round when None) of a Swiss or round robin, the
    pairings ``pick(the round's number of pairings)`` names (places in board order, as
    :func:`tournament_rounds` orders them, from 0; every pairing when None), with the round's
    bye; only those pairings are read with their entrants and matches, afresh. Which pairings the
    round has is kept in the cache under the event's version. A round not paired gives no pairings
    (``pick`` is not called); nothing for a bracket. What ``pick`` raises goes through. Two
    queries, four when the cache lacks this version (a team event: those of
    :func:`tournament_rounds`, read as a whole: a team match's status comes from its boards)."""
    event_format = formats.format_of(tournament)
    if event_format.has_bracket:
        return RoundPage(None, (), 0, (), None)
    if event_format.has_teams:
        # A team match's status and score come from its boards: read the event as a whole.
        every = tournament_rounds(tournament=tournament)
        numbers = tuple(r.number for r in every)
        number = number if number is not None else (numbers[-1] if numbers else None)
        chosen = next((r for r in every if r.number == number), None)
        if chosen is None:
            return RoundPage(number, numbers, 0, (), None)
        places = pick(len(chosen.pairings)) if pick is not None else range(len(chosen.pairings))
        return RoundPage(number, numbers, len(chosen.pairings), tuple(chosen.pairings[i] for i in places), chosen.bye)
    pairings = Pairing.objects.filter(tournament=tournament).order_by()
    # Which pairings a round has, in board order, moves only with the event's version (a round
    # paired, an entrant withdrawn): kept in the cache; the pairings shown are read afresh.
    index_key = f"{standings_cache_key(tournament)}:round:{number or 'last'}"
    index = cache.get(index_key)
    if not isinstance(index, tuple):
        index = _round_index(pairings, number)
        cache.set(index_key, index, STANDINGS_CACHE_SECONDS)
    number, numbers, boards, byes = index
    if number not in numbers:
        return RoundPage(number, numbers, 0, (), None)
    wanted = [boards[i] for i in (pick(len(boards)) if pick is not None else range(len(boards)))]
    # Two small queries rather than one of a dozen joins: the pairings with their matches, then
    # their entrants with their sides and players.
    loaded = {p.pk: p for p in pairings.filter(pk__in=[*wanted, *byes[-1:]]).select_related("match")}
    entry_ids = {e for p in loaded.values() for e in (p.entry0_id, p.entry1_id) if e is not None}
    by_id = {e.pk: e for e in Entry.objects.filter(pk__in=entry_ids).select_related("side__player_a", "side__player_b",
                                                                                      "team").order_by()}
    entrants = {entry_id: entrant_of(entry) for entry_id, entry in by_id.items()}
    shown = tuple(_round_pairing(loaded[pk], entrants, by_id) for pk in wanted)
    bye = entrants[loaded[byes[-1]].entry0_id] if byes else None
    return RoundPage(number, numbers, len(boards), shown, bye)


def _round_index(pairings: QuerySet[Pairing], number: int | None) -> tuple:
    """``(number, every paired round's number, the round's pairings but its byes in board order,
    its byes)`` as ids, ``number`` the last paired round when None. Two queries."""
    numbers = tuple(pairings.order_by("round_number").values_list("round_number", flat=True).distinct())
    number = number if number is not None else (numbers[-1] if numbers else None)
    if number not in numbers:
        return number, numbers, (), ()
    rows = sorted(pairings.filter(round_number=number).values_list("pk", "key", "entry1_id", "match_id",
                                                                   "match__table"),
                  key=lambda row: board_key(number, row[1]))
    if any(row[4] for row in rows):  # by table once the round has tables, then by board
        rows.sort(key=lambda row: table_order(row[4] or ""))
    byes = tuple(pk for pk, _key, entry1, match, _table in rows if entry1 is None and match is None)
    boards = tuple(pk for pk, _key, entry1, match, _table in rows if not (entry1 is None and match is None))
    return number, numbers, boards, byes


def _round_pairing(pairing: Pairing, entrants: dict[int, Entrant], by_id: dict[int, Entry]) -> PairingView:
    return PairingView(
        key=pairing.key, flight=pairing.flight, round=pairing.round_number, length=pairing.length,
        top=entrants[pairing.entry0_id], bottom=entrants[pairing.entry1_id], status=match_status(pairing),
        match_id=pairing.match_id, score=oriented_score(pairing, by_id),
        winner=state.winner_entry(pairing, by_id), pairing_id=pairing.pk,
        table=pairing.match.table if pairing.match_id is not None else "",
        handicap=(pairing.handicap0, pairing.handicap1),
    )
