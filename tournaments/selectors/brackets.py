"""An elimination event's bracket per flight, whole or a page at a time, and the names of its
rounds (the final, the semi-finals ...), also for one of its matches."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from django.core.cache import cache
from django.db.models import Max

from matches.models import Match
from tournaments import formats
from tournaments.draw import BYE
from tournaments.draw import names as round_names
from tournaments.draw.bracket import BYE_STATUS, NOT_NEEDED, PLAYED, READY, WAITING
from tournaments.draw.names import RoundName
from tournaments.models import Entry, Pairing, Tournament
from tournaments.selectors.event import Entrant, entrant_of
from tournaments.selectors.pairings import CONFIRMED, WALKOVER, PairingView, RoundNamed, oriented_score, slot_source, team_status
from tournaments.selectors.standings import STANDINGS_CACHE_SECONDS, standings_cache_key
from tournaments.services import bracket_reads, state

# --- round names -------------------------------------------------------------------------------


def flight_names(flight: str, size: int, rounds: int) -> tuple[RoundName, ...]:
    """Every round's name of a flight of a bracket of ``size`` with ``rounds`` rounds."""
    fed = flight in ("consolation", "last_chance")
    names = round_names.flight_round_names(flight, size, rounds=rounds if fed else None)
    return names[:rounds] if len(names) >= rounds else names + tuple(
        RoundName(round_names.ROUND, number) for number in range(len(names) + 1, rounds + 1))


def _event_rounds(tournament: Tournament) -> tuple[dict[int, tuple[str, int]], dict[str, int]]:
    """An elimination event's matches (match id -> (flight, round)) and each flight's number of
    rounds, kept in the cache under the event's version (one query on a miss)."""
    key = f"{standings_cache_key(tournament)}:rounds"
    kept = cache.get(key)
    if kept is None:
        by_match, counts = {}, {}
        for match_id, flight, number in Pairing.objects.filter(tournament=tournament).values_list(
                "match_id", "flight", "round_number"):
            counts[flight] = max(counts.get(flight, 0), number)
            if match_id is not None:
                by_match[match_id] = (flight, number)
        kept = (by_match, counts)
        cache.set(key, kept, STANDINGS_CACHE_SECONDS)
    return kept


def match_round_name(*, tournament: Tournament, match_id: int) -> RoundName | None:
    """The name of the round an elimination event plays match ``match_id`` in (a board of a team
    match, a Swiss or round-robin match, or a match the event's draw does not hold: None). At most
    one query: the event's rounds are kept in the cache under its version, read afresh when the
    match is not among them."""
    if not formats.format_of(tournament).has_bracket or tournament.drawn_at is None:
        return None
    by_match, counts = _event_rounds(tournament)
    if match_id not in by_match:
        found = Pairing.objects.filter(tournament=tournament, match_id=match_id).values_list(
            "flight", "round_number").first()
        if found is None:
            return None
        by_match, counts = {match_id: found}, dict(
            Pairing.objects.filter(tournament=tournament).values("flight").annotate(last=Max("round_number"))
            .values_list("flight", "last"))
    flight, number = by_match[match_id]
    top = counts.get("winners") or counts.get("main")
    if not top or flight not in counts:
        return None
    names = flight_names(flight, 2 ** top, counts[flight])
    return names[number - 1] if 1 <= number <= len(names) else None


# --- brackets ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundView(RoundNamed):
    """A round of a flight with the matches shown: its number, match length and name
    (``label``, ``short_label``: the reader's language)."""

    number: int
    length: int
    matches: tuple[PairingView, ...]
    name: RoundName | None = None


@dataclass(frozen=True)
class FlightView:
    """A flight (``main``, ``consolation``, ``last_chance``; ``winners``, ``losers``, ``final``)
    with its rounds, the flight whose losers feed it, and its winner once decided."""

    name: str
    rounds: tuple[RoundView, ...]
    source: str | None
    fed_rounds: tuple[int, ...]
    champion: Entrant | None


@dataclass(frozen=True)
class BracketView:
    tournament_id: int
    draw_seed: int | None
    finished: bool
    flights: tuple[FlightView, ...]


def tournament_bracket(*, tournament: Tournament) -> BracketView | None:
    """The bracket of an elimination event, flight by flight and round by round: every match with
    its entrants (names, seeds), where an unknown player comes from, its status, score and winner.
    None before the draw or for a Swiss or round robin. Two queries."""
    read = formats.format_of(tournament).bracket_read(tournament)
    if read is None:
        return None
    loaded, view = read
    entrants = {e.pk: entrant_of(e) for e in loaded.entries}
    flights = []
    for flight in view.bracket.flights:
        rounds = []
        names = flight_names(flight.name, view.bracket.size, flight.rounds)
        for number in range(1, flight.rounds + 1):
            shown = []
            for match_state in view.state.matches:
                m = match_state.match
                if m.flight != flight.name or m.round != number:
                    continue
                shown.append(_bracket_match(match_state, loaded, entrants, view.walkovers))
            rounds.append(RoundView(number, flight.lengths[number - 1], tuple(shown), names[number - 1]))
        champion = view.state.champion(flight.name)
        flights.append(FlightView(flight.name, tuple(rounds), flight.source, flight.fed_rounds,
                                  entrants.get(champion) if champion is not None else None))
    return BracketView(tournament.pk, tournament.draw_seed, view.state.finished, tuple(flights))


def _bracket_match(match_state, loaded: state.Loaded, entrants: dict[int, Entrant], walkovers) -> PairingView:
    m = match_state.match
    pairing = loaded.by_key[m.id]
    top, bottom = match_state.top, match_state.bottom
    if match_state.status == READY:
        status = pairing.match.status if pairing.match is not None else team_status(pairing)
    elif match_state.status == PLAYED:
        status = WALKOVER if m.id in walkovers else CONFIRMED
    else:
        status = {BYE_STATUS: "bye", NOT_NEEDED: "not_needed"}.get(match_state.status, WAITING)
    winner = match_state.winner if match_state.status == PLAYED else None
    return PairingView(
        key=m.id, flight=m.flight, round=m.round, length=m.length,
        top=entrants.get(top) if top is not None and top is not BYE else None,
        bottom=entrants.get(bottom) if bottom is not None and bottom is not BYE else None,
        status=status, match_id=pairing.match_id, score=oriented_score(pairing, loaded.by_id), winner=winner,
        top_bye=top is BYE, bottom_bye=bottom is BYE,
        top_from=slot_source(m.top) if top is None else None, bottom_from=slot_source(m.bottom) if bottom is None else None,
        pairing_id=pairing.pk, handicap=_handicap(pairing, top),
    )


def _handicap(pairing: Pairing, top) -> tuple[int, int]:
    """The pairing's handicap start between divisions, top first: the pairing's are entry0's first."""
    start = (pairing.handicap0, pairing.handicap1)
    return start if top is None or top == pairing.entry0_id or pairing.entry0_id is None else start[::-1]


class _LazyEntrants(dict):
    """Entry id -> :class:`Entrant`, each built on first use from ``by_id`` (the entries)."""

    def __init__(self, by_id: dict[int, Entry]):
        super().__init__()
        self.by_id = by_id

    def __missing__(self, entry_id: int) -> Entrant:
        shown = self[entry_id] = entrant_of(self.by_id[entry_id])
        return shown

    def get(self, entry_id, default=None):
        return self[entry_id] if entry_id in self.by_id else default


@dataclass(frozen=True)
class RoundSummary(RoundNamed):
    """A round of a flight without its matches: its number, match length, number of matches and
    name (``label``, ``short_label``: the reader's language; see :class:`RoundView`)."""

    number: int
    length: int
    match_count: int
    # A default, so that a summary kept in the cache before names were reads as unnamed.
    name: RoundName | None = None


@dataclass(frozen=True)
class FlightSummary:
    """A flight without its matches (:class:`FlightView`): its rounds' summaries."""

    name: str
    rounds: tuple[RoundSummary, ...]
    source: str | None
    fed_rounds: tuple[int, ...]
    champion: Entrant | None


@dataclass(frozen=True)
class FlightWindow:
    """The rounds of one flight shown, each with the matches shown (``RoundView.matches``);
    ``first_index`` is the place of each round's first match shown in its round, from 0."""

    name: str
    rounds: tuple[RoundView, ...]
    first_index: tuple[int, ...]


@dataclass(frozen=True)
class BracketPart:
    """Part of a bracket: every flight summarised, and the windows shown (:class:`FlightWindow`)."""

    tournament_id: int
    draw_seed: int | None
    finished: bool
    flights: tuple[FlightSummary, ...]
    windows: tuple[FlightWindow, ...]


#: A bracket is kept in the cache, under the event's version, in chunks of this many matches of a
#: round: a page reads the chunks it shows.
BRACKET_CHUNK = 32


def _bracket_pieces(tournament: Tournament) -> tuple[tuple, dict[tuple[str, int, int], tuple]]:
    """The whole bracket as kept: ``(draw seed, finished, flight summaries)`` and, by ``(flight,
    round, chunk)``, :data:`BRACKET_CHUNK` matches at a time as ``(PairingView, live)``: ``live``
    when the match is to be played and exists, its status then read afresh whenever shown (a report
    or a dispute does not move the event's version). Two queries."""
    loaded = state.load(tournament)
    view = bracket_reads.bracket_state(loaded)
    by_round: dict[tuple[str, int], list] = {}
    for match_state in view.state.matches:
        by_round.setdefault((match_state.match.flight, match_state.match.round), []).append(match_state)
    entrants = _LazyEntrants(loaded.by_id)
    summaries = []
    for f in view.bracket.flights:
        champion = view.state.champion(f.name)
        names = flight_names(f.name, view.bracket.size, f.rounds)
        summaries.append(FlightSummary(
            f.name, tuple(RoundSummary(n, f.lengths[n - 1], len(by_round.get((f.name, n), ())), names[n - 1])
                          for n in range(1, f.rounds + 1)),
            f.source, tuple(f.fed_rounds), entrants.get(champion) if champion is not None else None))
    chunks = {}
    for (name, number), states in by_round.items():
        shown = [(_bracket_match(s, loaded, entrants, view.walkovers),
                  s.status == READY and loaded.by_key[s.match.id].match is not None) for s in states]
        for start in range(0, len(shown), BRACKET_CHUNK):
            chunks[(name, number, start // BRACKET_CHUNK)] = tuple(shown[start:start + BRACKET_CHUNK])
    return (tournament.draw_seed, view.state.finished, tuple(summaries)), chunks


def tournament_bracket_part(*, tournament: Tournament, flight: str | None = None, every_flight: bool = False,
                            rounds: range | None = None,
                            pick: Callable[[str, int, int], Sequence[int]] | None = None) -> BracketPart | None:
    """Part of an elimination event's bracket: a window on the flight ``flight`` (the first flight
    when None; on every flight with ``every_flight``), its rounds in ``rounds`` (every round when
    None; numbers past the flight's last are left out) and of each round the matches ``pick(flight,
    round number, its number of matches)`` names (places from 0; every match when None; called
    round after round), as :func:`tournament_bracket` shows them; every flight summarised.

    The bracket is computed from the whole event once per version of the event and kept in the
    cache (:data:`STANDINGS_CACHE_SECONDS`, which bounds how long a renamed player shows under his
    old name) in chunks; a read takes the chunks it shows, and the status of the matches to be
    played afresh (one query). A team event's bracket is computed on every read (a team match's
    status comes from its boards). None before the draw or for a Swiss or round robin; raises
    KeyError for a flight the bracket does not have; what ``pick`` raises goes through. At most
    three queries."""
    event_format = formats.format_of(tournament)
    if not event_format.has_bracket or tournament.drawn_at is None:
        return None
    kept = not event_format.has_teams
    prefix = f"{standings_cache_key(tournament)}:bracket"

    def compute():
        summary, chunks = _bracket_pieces(tournament)
        if kept:
            cache.set_many({f"{prefix}:summary": summary,
                            **{f"{prefix}:{name}:{number}:{chunk}": value
                               for (name, number, chunk), value in chunks.items()}}, STANDINGS_CACHE_SECONDS)
        return summary, chunks

    summary = cache.get(f"{prefix}:summary") if kept else None
    chunks = None
    if summary is None:
        summary, chunks = compute()
    draw_seed, finished, summaries = summary
    if every_flight:
        chosen = list(summaries)
    else:
        chosen = [f for f in summaries if flight is None or f.name == flight][:1]
        if not chosen:
            raise KeyError(f"the bracket has no flight {flight}")
    wanted = []
    for f in chosen:
        for number in (rounds if rounds is not None else range(1, len(f.rounds) + 1)):
            if 1 <= number <= len(f.rounds):
                count = f.rounds[number - 1].match_count
                wanted.append((f, number, pick(f.name, number, count) if pick is not None else range(count)))
    needed = {(f.name, number, i // BRACKET_CHUNK) for f, number, places in wanted for i in places}
    if chunks is None:
        found = cache.get_many([f"{prefix}:{name}:{number}:{chunk}" for name, number, chunk in needed])
        chunks = {(name, number, chunk): found.get(f"{prefix}:{name}:{number}:{chunk}")
                  for name, number, chunk in needed}
        if None in chunks.values():  # evicted since the summary was kept
            chunks = compute()[1]
    picked = {(f.name, number): [chunks[(f.name, number, i // BRACKET_CHUNK)][i % BRACKET_CHUNK] for i in places]
              for f, number, places in wanted}
    live = [shown.match_id for shown_round in picked.values() for shown, is_live in shown_round if is_live]
    statuses = dict(Match.objects.filter(pk__in=live).values_list("pk", "status")) if live else {}
    windows = []
    for f in chosen:
        shown_rounds, first_index = [], []
        for g, number, places in wanted:
            if g is not f:
                continue
            matches = tuple(replace(shown, status=statuses.get(shown.match_id, shown.status)) if is_live else shown
                            for shown, is_live in picked[(f.name, number)])
            summary_round = f.rounds[number - 1]
            shown_rounds.append(RoundView(number, summary_round.length, matches, getattr(summary_round, "name", None)))
            first_index.append(places[0] if len(places) else 0)
        windows.append(FlightWindow(f.name, tuple(shown_rounds), tuple(first_index)))
    return BracketPart(tournament.pk, draw_seed, finished, tuple(summaries), tuple(windows))
