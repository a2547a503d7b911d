"""Reads of the director's round desk: the matches of the event's current round(s), each with its
table, players, state and score in the match's own side order (the grid's two inputs are the
match's two sides), a pending report's score and whether it waits for a side nobody can confirm
for but the director (a walk-in without an account), and the entrants before the draw. A fixed
number of queries whatever the event's size (the entries and the pairings with their matches:
``state.load``; the pending reports of the matches shown)."""

from __future__ import annotations

from dataclasses import dataclass

from matches.models import Match, Report
from matches.services.reporting import side_cannot_answer
from tournaments.models import Tournament
from tournaments.services import state

from .event import Entrant, entry_list
from .rounds import board_key, table_order


@dataclass(frozen=True)
class DeskRow:
    """One match of the grid: ``name0``/``name1`` are the match's sides (``score0``/``score1`` in
    that order, None while it has no confirmed result); ``reported`` the score a side reported and
    waits to have confirmed (not shown as the result), by ``reporter`` (a side's name); ``waiting``
    the name of the side it waits for when none of its players has an account (only the director
    can confirm it: ``match_confirm``), else ""; ``board`` its number in the draw's order."""

    match_id: int
    pairing_id: int
    key: str
    flight: str
    round: int
    board: int
    length: int
    table: str
    name0: str
    name1: str
    status: str
    score0: int | None
    score1: int | None
    reported: tuple[int, int] | None = None
    reporter: str = ""
    waiting: str = ""

    @property
    def confirmed(self) -> bool:
        return self.status == Match.Status.CONFIRMED

    @property
    def disputed(self) -> bool:
        return self.status == Match.Status.DISPUTED


@dataclass(frozen=True)
class DeskRound:
    flight: str
    number: int
    rows: tuple[DeskRow, ...]
    byes: tuple[str, ...]

    @property
    def open(self) -> int:
        """How many of its matches still lack a confirmed result."""
        return sum(1 for row in self.rows if not row.confirmed)


@dataclass(frozen=True)
class Desk:
    """The desk of an event: its ``rounds`` shown (the current one of each flight, or the round
    asked for), every paired round's number (``numbers``), and before the draw its entrants."""

    rounds: tuple[DeskRound, ...]
    numbers: tuple[int, ...]
    entrants: tuple[Entrant, ...]

    @property
    def rows(self) -> tuple[DeskRow, ...]:
        return tuple(row for rnd in self.rounds for row in rnd.rows)

    @property
    def complete(self) -> bool:
        """Every match shown has its confirmed result."""
        return all(row.confirmed for row in self.rows)


def desk_view(*, tournament: Tournament, number: int | None = None) -> Desk:
    """The round desk of ``tournament``: before the draw its entrants (one query); after it the
    matches of round ``number`` (every flight's), or of each flight's current round: the first
    round with a match still to be confirmed, else its last round. Rows by table when the round
    has tables, else by board. Two queries (three when a match shown is reported)."""
    if tournament.drawn_at is None:
        return Desk((), (), entry_list(tournament=tournament))
    loaded = state.load(tournament)
    by_side = {e.side_id: e for e in loaded.entries if e.side_id is not None}
    by_id = loaded.by_id
    flights: dict[str, dict[int, list]] = {}
    for pairing in loaded.pairings:
        flights.setdefault(pairing.flight, {}).setdefault(pairing.round_number, []).append(pairing)
    numbers = tuple(sorted({p.round_number for p in loaded.pairings}))
    rounds = []
    reported = [p.match_id for p in loaded.pairings if p.match is not None and p.match.status == Match.Status.REPORTED]
    pending = {report.match_id: report for report in Report.objects.filter(
        match_id__in=reported, status=Report.Status.PENDING, side__isnull=False).only(
        "match_id", "side", "score0", "score1")} if reported else {}
    for flight in sorted(flights, key=lambda f: (f not in ("main", "swiss", "winners"), f)):
        by_round = flights[flight]
        if number is not None:
            chosen = number if number in by_round else None
        else:
            open_rounds = [n for n, pairings in by_round.items()
                           if any(p.match is not None and p.match.status != Match.Status.CONFIRMED for p in pairings)]
            played = [n for n, pairings in by_round.items() if any(p.match is not None for p in pairings)]
            chosen = min(open_rounds) if open_rounds else (max(played) if played else None)
        if chosen is None:
            continue
        rows, byes = [], []
        for pairing in by_round[chosen]:
            match = pairing.match
            if match is None:
                if pairing.entry0_id is not None and pairing.entry1_id is None:
                    byes.append(state.entrant_name(by_id[pairing.entry0_id]))
                continue
            # The pairing's own entries first: a player who re-entered has two entries of one side.
            mine = {by_id[e].side_id: by_id[e] for e in (pairing.entry0_id, pairing.entry1_id) if e in by_id}
            entrants = [mine.get(s) or by_side.get(s) for s in (match.side0_id, match.side1_id)]
            names = [state.entrant_name(entrant) if entrant is not None else "?" for entrant in entrants]
            confirmed = match.status == Match.Status.CONFIRMED
            rows.append(DeskRow(
                match_id=match.pk, pairing_id=pairing.pk, key=pairing.key, flight=flight, round=chosen,
                board=board_key(chosen, pairing.key)[2], length=pairing.length, table=match.table,
                name0=names[0], name1=names[1], status=match.status,
                score0=match.score0 if confirmed else None, score1=match.score1 if confirmed else None,
                **_pending(pending.get(match.pk), names, entrants)))
        tabled = any(row.table for row in rows)
        rows.sort(key=lambda row: ((table_order(row.table) if tabled else ()), board_key(chosen, row.key)))
        rounds.append(DeskRound(flight, chosen, tuple(rows), tuple(byes)))
    return Desk(tuple(rounds), numbers, ())


def _pending(report: Report | None, names: list[str], entrants: list) -> dict:
    """A reported match's row fields (see :class:`DeskRow`): the score ``report`` claims, who
    reported it, and the side it waits for when that side cannot confirm (no player of it has an
    account)."""
    if report is None:
        return {}
    waits = 1 - report.side
    entrant = entrants[waits]
    guest = entrant is not None and entrant.side_id is not None and side_cannot_answer(entrant.side.players)
    return {"reported": (report.score0, report.score1), "reporter": names[report.side],
            "waiting": names[waits] if guest else ""}
