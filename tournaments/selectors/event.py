"""Reads shared by the API and the pages: events (a player's running ones), entrants and the
players still to add, the bracket per flight, Swiss and round-robin rounds, standings, final
placings, a player's next match, and a team event's teams, team match cards and team table.

Every read of one event runs a fixed number of queries whatever its size (the entries with their
players, the pairings with their matches: two queries; see ``tournaments.services.state.load``),
then asks the pure draw where the event stands. Outputs are frozen dataclasses holding what a page
or an API body shows (names, seeds, scores, winners), never model instances to walk further.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from django.core.cache import cache
from django.db import connection
from django.db.models import Max, Q, QuerySet
from django.utils.translation import gettext, pgettext

from matches.models import Match, Player
from tournaments import formats, hosts
from tournaments.draw import BYE, DRAW, LoserOf, WinnerOf
from tournaments.draw import names as round_names
from tournaments.draw.bracket import BYE_STATUS, NOT_NEEDED, PLAYED, READY, WAITING
from tournaments.draw.names import RoundName
from tournaments.models import BoardMatch, Entry, Pairing, Team, TeamMember, Tournament
from tournaments.round_labels import round_label
from tournaments.services import acceptance, bracket_reads, contention, reentry, state

# --- events and entrants -----------------------------------------------------------------------


#: ``viewer`` left out: every event, drafts included (the services' and tests' reads).
EVERYONE = object()


def visible_to(tournaments: QuerySet[Tournament], viewer) -> QuerySet[Tournament]:
    """``tournaments`` without the drafts ``viewer`` may not see: a draft is its organiser's (and
    staff's) alone, everywhere (lists, pages, the API, the front page)."""
    if viewer is EVERYONE or getattr(viewer, "is_staff", False):
        return tournaments
    hidden = Q(status=Tournament.Status.DRAFT)
    if getattr(viewer, "is_authenticated", False):
        hidden &= ~Q(organiser_id=viewer.pk)
    return tournaments.exclude(hidden)


def may_see(tournament: Tournament, viewer) -> bool:
    """Whether ``viewer`` may see ``tournament`` (a draft: its organiser and staff only). No query."""
    if tournament.status != Tournament.Status.DRAFT or getattr(viewer, "is_staff", False):
        return True
    return bool(getattr(viewer, "is_authenticated", False) and tournament.organiser_id == viewer.pk)


def tournament_list(*, status: str | None = None, organiser_id: int | None = None, club_id: int | None = None,
                    viewer=EVERYONE) -> QuerySet[Tournament]:
    """Tournaments, newest start first, with organiser and club joined; those ``viewer`` may see
    (:func:`visible_to`) when given."""
    tournaments = visible_to(Tournament.objects.select_related("organiser__player", *hosts.host_joins()), viewer)
    if status:
        tournaments = tournaments.filter(status=status)
    if organiser_id is not None:
        tournaments = tournaments.filter(organiser_id=organiser_id)
    if club_id is not None:
        tournaments = hosts.host_filter(tournaments, club_id)
    return tournaments


def tournament_get(tournament_id: int) -> Tournament:
    """One tournament with organiser and club; raises Tournament.DoesNotExist."""
    return Tournament.objects.select_related("organiser__player", *hosts.host_joins()).get(pk=tournament_id)


def tournament_named(*, organiser, name: str) -> Tournament | None:
    """The organiser's event called ``name`` (of several, the one starting last), or None."""
    return Tournament.objects.filter(organiser=organiser, name=name).first()


def tournament_match_list(*, tournament: Tournament, status: str | None = None) -> QuerySet[Match]:
    """The event's matches (with ``status``, if given) in the order they were made, with their
    sides' first players and their users joined."""
    matches = Match.objects.filter(event_link__tournament=tournament)
    if status:
        matches = matches.filter(status=status)
    return matches.select_related("side0__player_a__user", "side1__player_a__user").order_by("pk")


def tournament_list_running(*, player: Player) -> QuerySet[Tournament]:
    """The running events ``player`` plays in, by name: alone, as one of a pair, or as a member
    (or reserve) of a team."""
    return (Tournament.objects.filter(status=Tournament.Status.RUNNING)
            .filter(Q(entries__side__player_a=player) | Q(entries__side__player_b=player)
                    | Q(teams__members__player=player))
            .distinct().order_by("name"))


def club_choices(*, user) -> list[tuple[int, str]]:
    """``(id, name)`` of the clubs ``user`` may put a new event on, by name: those he owns or
    organises if he is an organiser (or staff), else those he owns (a club's owner creates his
    club's events without the organiser role)."""
    if getattr(user, "is_authenticated", False) and not user.is_organiser:
        return hosts.host_owned_choices(user)
    return hosts.host_choices(user)


@dataclass(frozen=True)
class Entrant:
    """An entrant as shown: its entry, name (``Alice`` or ``Alice & Bob``), seed in the draw
    (None before it, or when not in it), players ``(id, name)``, status, late entry, and for a
    pair who rolls (``a``, ``b``: always that member; ``alternate``)."""

    entry_id: int
    name: str
    seed: int | None
    players: tuple[tuple[int, str], ...]
    status: str
    late: bool
    roller: str | None = None
    division: str = ""  # the entrant's division; empty in an event without divisions
    reentry_of: int | None = None  # the entry a re-entry (buy-back) re-enters for

    @property
    def reentry(self) -> bool:
        return self.reentry_of is not None

    @property
    def withdrawn(self) -> bool:
        return self.status == Entry.Status.WITHDRAWN


def entrant_of(entry: Entry) -> Entrant:
    """The :class:`Entrant` ``entry`` is, as pages and the API show it: its name, seed, players (a
    side's; none for a team), status, late entry, the roller of a pair, division and the entry it
    re-enters. ``entry`` comes with its side's players (``select_related``)."""
    players = tuple((p.pk, p.display_name) for p in state.entrant_players(entry)) if entry.side_id else ()
    roller = entry.side.roller if entry.side_id and entry.side.is_pair else None
    return Entrant(entry.pk, state.entrant_name(entry), entry.seed, players, entry.status, entry.late, roller,
                   entry.division, entry.reentry_of_id)


def entry_list(*, tournament: Tournament) -> tuple[Entrant, ...]:
    """The event's entrants: by seed once drawn (those not in the draw last), else in entry
    order. One query."""
    entries = (Entry.objects.filter(tournament=tournament).select_related("side__player_a", "side__player_b", "team")
               .order_by("seed", "created_at", "id"))
    return tuple(entrant_of(e) for e in entries)


def entry_queryset(*, tournament: Tournament) -> QuerySet[Entry]:
    """The event's entries in :func:`entry_list`'s order, sides, players and team joined: slice
    it to read one page, and show it with :func:`entrants_of`."""
    return (Entry.objects.filter(tournament=tournament).select_related("side__player_a", "side__player_b", "team")
            .order_by("seed", "created_at", "id"))


def entrants_of(entries) -> tuple[Entrant, ...]:
    """``entries`` (from :func:`entry_queryset`) as shown."""
    return tuple(entrant_of(e) for e in entries)


def reentry_candidates(*, tournament: Tournament) -> frozenset[int]:
    """The entries whose player the director may re-enter into the main now (buy-back,
    ``services.reentry.reentry_candidates``). No query unless the event allows re-entry
    and is running; then two (its entries and pairings)."""
    if not tournament.reentries or tournament.status != Tournament.Status.RUNNING:
        return frozenset()
    return reentry.reentry_candidates(tournament, state.load(tournament))


def entry_candidates(*, entrants: tuple[Entrant, ...]) -> QuerySet[Player]:
    """The players the organiser may still add: every player not among ``entrants``'
    (``entry_list``), by name."""
    entered = {player_id for entrant in entrants for player_id, _ in entrant.players}
    return Player.objects.exclude(pk__in=entered).order_by("display_name")


# --- pairings --------------------------------------------------------------------------------------

#: A pairing's status as shown: its match's (``Match.Status``: scheduled, in_play, reported,
#: disputed, confirmed), or, where there is no match, the bracket's: ``waiting`` (a player is
#: still to be decided), ``bye``, ``walkover`` (the opponent withdrew), ``not_needed`` (a double
#: elimination's decider after the unbeaten player won the final).
WALKOVER = "walkover"
CONFIRMED = Match.Status.CONFIRMED.value


@dataclass(frozen=True)
class PairingView:
    """One match of the draw as shown. ``top``/``bottom`` are None while unknown (then
    ``top_from``/``bottom_from`` say where the player comes from: ``winner of main-1-2``);
    ``top_bye``/``bottom_bye`` mark a bye; ``score`` is the match's score, top first, once reported
    and confirmed; ``winner`` the winning entry id."""

    key: str
    flight: str
    round: int
    length: int
    top: Entrant | None
    bottom: Entrant | None
    status: str
    match_id: int | None = None
    score: tuple[int, int] | None = None
    winner: int | None = None
    top_bye: bool = False
    bottom_bye: bool = False
    top_from: str | None = None
    bottom_from: str | None = None
    pairing_id: int | None = None
    table: str = ""
    # The handicap start between divisions, top first ((0, 0) without one).
    handicap: tuple[int, int] = (0, 0)

    @property
    def handicapped(self) -> bool:
        return self.handicap != (0, 0)


def oriented_score(pairing: Pairing, by_id: dict[int, Entry]) -> tuple[int, int] | None:
    """The pairing's score, its top entrant's points first (``by_id``: the event's entries by id),
    once its result is confirmed; a team match's is the boards each team won, once it is decided.
    None before that, and for a pairing still waiting for its top entrant."""
    if state.is_team_pairing(pairing):
        # A team match's score is boards won, top team first, once the team match is decided.
        result = state.team_result(pairing)
        return (result.top_points, result.bottom_points) if result.winner is not None else None
    match = pairing.match
    if match is None or match.status != Match.Status.CONFIRMED or pairing.entry0_id is None:
        return None
    if by_id[pairing.entry0_id].side_id == match.side0_id:
        return match.score0, match.score1
    return match.score1, match.score0


def _team_status(pairing: Pairing) -> str:
    """A team match's status as shown: confirmed once decided, in play once a board has started,
    scheduled while its boards wait, waiting before its boards exist."""
    if not state.is_team_pairing(pairing):
        return WAITING
    if state.is_confirmed(pairing):
        return CONFIRMED
    return Match.Status.IN_PLAY.value if state.pairing_started(pairing) else Match.Status.SCHEDULED.value


def _match_status(pairing: Pairing) -> str:
    if pairing.match is None and pairing.entry0_id and pairing.entry1_id:
        return _team_status(pairing)
    if pairing.match is None:
        return "bye" if pairing.entry0_id and not pairing.entry1_id else WAITING
    return pairing.match.status


def _source(slot) -> str | None:
    if isinstance(slot, WinnerOf):
        return gettext("winner of %(match)s") % {"match": slot.match}
    if isinstance(slot, LoserOf):
        return gettext("loser of %(match)s") % {"match": slot.match}
    return None


# --- round names -------------------------------------------------------------------------------


def _flight_names(flight: str, size: int, rounds: int) -> tuple[RoundName, ...]:
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
    names = _flight_names(flight, 2 ** top, counts[flight])
    return names[number - 1] if 1 <= number <= len(names) else None


# --- brackets ----------------------------------------------------------------------------------


class _RoundNamed:
    """A round's name in the reader's language: ``label`` and ``short_label`` (the compact form)."""

    @property
    def label(self) -> str:
        return round_label(self.name, number=self.number)

    @property
    def short_label(self) -> str:
        return round_label(self.name, number=self.number, compact=True)


@dataclass(frozen=True)
class RoundView(_RoundNamed):
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
        names = _flight_names(flight.name, view.bracket.size, flight.rounds)
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
        status = pairing.match.status if pairing.match is not None else _team_status(pairing)
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
        top_from=_source(m.top) if top is None else None, bottom_from=_source(m.bottom) if bottom is None else None,
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
class RoundSummary(_RoundNamed):
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
        names = _flight_names(f.name, view.bracket.size, f.rounds)
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


# --- Swiss and round-robin rounds ----------------------------------------------------------------------


class _PairedRound(_RoundNamed):
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
    for pairing in sorted(loaded.pairings, key=_board_order):
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


def _board_order(pairing: Pairing):
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
        top=entrants[pairing.entry0_id], bottom=entrants[pairing.entry1_id], status=_match_status(pairing),
        match_id=pairing.match_id, score=oriented_score(pairing, by_id),
        winner=state.winner_entry(pairing, by_id), pairing_id=pairing.pk,
        table=pairing.match.table if pairing.match_id is not None else "",
        handicap=(pairing.handicap0, pairing.handicap1),
    )


# --- standings and placings ----------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    """One line of a Swiss or round-robin table (round robin: of its group). ``place`` is shared
    (``shared``) by entrants equal on every tie-break; ``score`` is wins (byes included)."""

    place: int
    shared: bool
    entrant: Entrant
    group: str | None
    wins: int
    losses: int
    byes: int
    played: int
    score: float
    buchholz: float
    median_buchholz: float
    points_for: int
    points_against: int
    #: The tie-break that put this entrant ahead of the next line of his table (a name of
    #: ``tournaments.draw.standings``: ``head_to_head``, ``points_difference``...); None when the
    #: next line shares his place or he is last in his table.
    separated_by: str | None = None

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against


def tournament_standings(*, tournament: Tournament) -> tuple[StandingRow, ...]:
    """The table of a Swiss (wins, Buchholz, median-Buchholz, head-to-head) or of each group of a
    round robin (wins, head-to-head, points difference; match points capped at the match
    length), from the confirmed results so far (its format's ``entrant_tables``). Withdrawn
    entrants stay in (their games count for their opponents). Empty for a bracket or before the
    draw. Two queries."""
    event_format = formats.format_of(tournament)
    if event_format.has_bracket or tournament.drawn_at is None:
        return ()
    return _table_rows(state.load(tournament), event_format.entrant_tables)


def _table_rows(loaded: state.Loaded, tables: Callable) -> tuple[StandingRow, ...]:
    """The rows of the tables ``tables(tournament, loaded)`` gives, group after group."""
    entrants = {e.pk: entrant_of(e) for e in loaded.entries}
    rows = []
    for table, group in tables(loaded.tournament, loaded):
        rows += _rows(table, entrants, group)
    return tuple(rows)


def event_standings(*, tournament: Tournament) -> tuple[StandingRow, ...]:
    """The event's table, as its kind ranks its entrants (its format's ``standing_tables``): a
    team event's is :func:`team_standings` (team-match wins, board points, head-to-head), any
    other's :func:`tournament_standings`. A fixed number of queries."""
    event_format = formats.format_of(tournament)
    if event_format.has_bracket or tournament.drawn_at is None:
        return ()
    return _table_rows(state.load(tournament), event_format.standing_tables)


# Bounds how long a renamed player or team shows under its old name in the cached standings (a
# rename does not move the event's version).
STANDINGS_CACHE_SECONDS = 300


def standings_cache_key(tournament: Tournament) -> str:
    """What every cached read computed from the whole event is kept under: it changes with every
    committed change of the event (its ``version``: entries, draw, rounds, confirmed results). The
    event's creation time keeps a restored or recreated database from meeting an old entry."""
    return _event_key(tournament.pk, tournament.created_at, tournament.version)


def _event_key(tournament_id: int, created_at, version: int) -> str:
    return f"tournaments:event:{tournament_id}:{created_at.timestamp()}:{version}"


@functools.cache
def _event_version_sql() -> str:
    meta, qn = Tournament._meta, connection.ops.quote_name
    return (f"SELECT {qn(meta.get_field('created_at').column)}, {qn(meta.get_field('version').column)} "
            f"FROM {qn(meta.db_table)} WHERE {qn(meta.pk.column)} = %s")


def event_cache_key(*, tournament_id: int) -> str:
    """:func:`standings_cache_key` of the event ``tournament_id`` read as two values, not a whole
    event: one small query (on PostgreSQL written once, without the ORM, whose building of it
    costs more than the query: every cached read of an event asks it). Raises
    Tournament.DoesNotExist."""
    if connection.vendor != "postgresql":  # SQLite's times need the ORM's converters
        created_at, version = Tournament.objects.values_list("created_at", "version").get(pk=tournament_id)
        return _event_key(tournament_id, created_at, version)
    with connection.cursor() as cursor:
        cursor.execute(_event_version_sql(), [tournament_id])
        row = cursor.fetchone()
    if row is None:
        raise Tournament.DoesNotExist(f"no event {tournament_id}")
    return _event_key(tournament_id, *row)


def event_standings_cached(*, tournament: Tournament) -> tuple[StandingRow, ...]:
    """:func:`event_standings`, kept in the cache under the event's version (see
    :func:`standings_cache_key`) for :data:`STANDINGS_CACHE_SECONDS`: no query when the cache has
    this version, those of :func:`event_standings` otherwise. ``tournament`` must be freshly read
    (its version is the key)."""
    key = f"{standings_cache_key(tournament)}:standings"
    rows = cache.get(key)
    if not isinstance(rows, tuple):
        rows = event_standings(tournament=tournament)
        cache.set(key, rows, STANDINGS_CACHE_SECONDS)
    return rows


def _rows(table, entrants: dict[int, Entrant], group: str | None) -> list[StandingRow]:
    return [
        StandingRow(
            place=line.place, shared=line.shared, entrant=entrants[line.entrant], group=group, wins=line.record.wins,
            losses=line.record.losses, byes=line.record.byes, played=line.record.played, score=line.score,
            buchholz=line.buchholz, median_buchholz=line.median_buchholz, points_for=line.record.points_for,
            points_against=line.record.points_against, separated_by=line.separated_by,
        )
        for line in table
    ]


@dataclass(frozen=True)
class PlacingRow:
    """A final place: ``place`` to ``last_place`` (``label`` ``5-8`` when shared), and the flight
    it was decided in (brackets) or the group (round robin)."""

    place: int
    last_place: int
    entrant: Entrant
    flight: str | None = None

    @property
    def label(self) -> str:
        return str(self.place) if self.place == self.last_place else f"{self.place}-{self.last_place}"


def tournament_placings(*, tournament: Tournament) -> tuple[PlacingRow, ...]:
    """The final places decided so far, best first.

    Brackets: across flights (main before consolation before last chance; double elimination:
    the final, then the losers' bracket), each loser placed by the round he went out in, the
    places of one round shared. Swiss: the standings' order, equal entrants sharing. Round robin:
    by place in the group, the entrants with the same place in their groups sharing the places
    (the group winners share 1 to the number of groups). A team event ranks by its team table
    (:func:`team_standings`). A fixed number of queries.
    """
    if tournament.drawn_at is None:
        return ()
    event_format = formats.format_of(tournament)
    read = event_format.bracket_read(tournament)
    if read is not None:
        loaded, view = read
        entrants = {e.pk: entrant_of(e) for e in loaded.entries}
        return tuple(PlacingRow(p.place, p.last_place, entrants[p.entrant], p.flight) for p in view.state.placings())
    rows = event_standings(tournament=tournament)
    if (tournament.abt_playoff or {}).get("seeds"):  # a modified Swiss whose playoffs are drawn
        return _modified_swiss_placings(tournament, rows)
    return tuple(PlacingRow(first, last, row.entrant, row.group) for first, last, row in event_format.table_places(rows))


def _modified_swiss_placings(tournament: Tournament, rows: tuple[StandingRow, ...]) -> tuple[PlacingRow, ...]:
    """A modified Swiss whose playoffs are drawn places their players
    by the playoffs (flight ``playoffs``: as a bracket places them, three players by the USBGF's
    contingent bye, so far as decided; a lone player who could cash is first), then everyone else
    by the Swiss table, the places after the playoffs' shared as the table shares them. Two
    queries more than the table."""
    seeds = tournament.abt_playoff["seeds"]
    entrants = {row.entrant.entry_id: row.entrant for row in rows}
    out = []
    out += [PlacingRow(place, last, entrants[entry], state.PLAYOFFS)
            for place, last, entry in contention.playoff_places(state.load(tournament))]
    rest = [row for row in rows if row.entrant.entry_id not in set(seeds)]
    ties: dict[int, int] = {}
    for row in rest:
        ties[row.place] = ties.get(row.place, 0) + 1
    first, seen = len(seeds) + 1, {}
    for row in rest:
        if row.place not in seen:
            seen[row.place] = first
            first += ties[row.place]
        out.append(PlacingRow(seen[row.place], seen[row.place] + ties[row.place] - 1, row.entrant))
    return tuple(out)


# --- a player's next match -----------------------------------------------------------------------


@dataclass(frozen=True)
class NextMatch:
    """Where a player plays next in an event: the pairing, its length, the opponent (None while
    he is still to be decided: ``waiting_for`` says by which match) and the match once created.

    In a team event the entrant and opponent are teams and the pairing is the team's next team
    match (``team_match_id``, the pairing's id: its card). ``board`` is the player's board once
    the board order for that round is known (submitted by the captain, or locked when the round
    started), and ``match_id`` his board's match once the boards exist; ``sits_out`` says the
    known order leaves him (a reserve, say) off every board."""

    tournament_id: int
    entrant: Entrant
    key: str
    flight: str
    round: int
    length: int
    opponent: Entrant | None
    waiting_for: str | None
    match_id: int | None
    status: str
    team_match_id: int | None = None
    board: int | None = None
    sits_out: bool = False
    #: A bracket's round by its name (``tournaments.draw.names``), where the bracket names it.
    round_name: RoundName | None = None

    @property
    def round_text(self) -> str:
        """The round as the reader says it: "Semi-finals", "Losers' round 3", "Grand final" (a
        bracket's main flight and double elimination, as every page names them), "Consolation
        round 2", "Swiss round 4", "Group A round 1"."""
        if self.round_name is not None and self.flight in ("main", "winners", "losers", "final"):
            return round_label(self.round_name)
        names = {
            "main": pgettext("next match", "Main round %(round)d"),
            "swiss": pgettext("next match", "Swiss round %(round)d"),
            "playoffs": pgettext("next match", "Playoffs, in round %(round)d of the event"),  # a modified Swiss's playoffs
            "consolation": pgettext("next match", "Consolation round %(round)d"),
            "last_chance": pgettext("next match", "Last-chance round %(round)d"),
            "winners": pgettext("next match", "Winners' round %(round)d"),
            "losers": pgettext("next match", "Losers' round %(round)d"),
            "final": pgettext("next match", "Grand final, match %(round)d"),
        }
        text = names.get(self.flight) or pgettext("next match", "Group %(group)s round %(round)d")
        return text % {"round": self.round, "group": self.flight.replace("_", " ").capitalize()}


def _my_entry(tournament: Tournament, loaded: state.Loaded, player_id: int) -> tuple[Entry | None, dict]:
    """The player's entry (his side's or pair's; in a team event his team's, captain, member or
    reserve) and, in a team event, his team's board orders by round (``{round: [player ids]}``).
    One query more in a team event (two when he is in a team): its kind's ``player_entry``."""
    return formats.format_of(tournament).player_entry(tournament, loaded, player_id)


def _next(tournament: Tournament, me: Entrant, pairing: Pairing, *, key: str, flight: str, round: int, length: int,
          opponent: Entrant | None, waiting_for: str | None, player_id: int, orders: dict) -> NextMatch:
    if not formats.format_of(tournament).has_teams:
        status = pairing.match.status if pairing.match is not None else WAITING
        return NextMatch(tournament.pk, me, key, flight, round, length, opponent, waiting_for, pairing.match_id,
                         status)
    order = orders.get(round)
    board = order.index(player_id) + 1 if order is not None and player_id in order else None
    mine = next((b for b in getattr(pairing, "board_rows", ()) if b.board == board), None) if board else None
    status = mine.match.status if mine is not None else _team_status(pairing)
    return NextMatch(tournament.pk, me, key, flight, round, length, opponent, waiting_for,
                     mine.match_id if mine is not None else None, status, team_match_id=pairing.pk, board=board,
                     sits_out=order is not None and board is None)


def player_next_match(*, tournament: Tournament, player: Player | int) -> NextMatch | None:
    """The player's (or his pair's, or his team's) next match in ``tournament``: his match still
    to be played, else in a bracket the match he waits in for his opponent. In a team event, a
    member's (captain, member or reserve) next match is his team's next undecided team match,
    with his board once the round's board order is known. None when he is not in the draw, has
    withdrawn or is out, or the event is not running (a Swiss between rounds: until the next
    round is paired). Two queries (a team event: five)."""
    if tournament.status != Tournament.Status.RUNNING:
        return None
    player_id = player.pk if isinstance(player, Player) else player
    loaded = state.load(tournament)
    entry, orders = _my_entry(tournament, loaded, player_id)
    if entry is None or entry.seed is None or entry.status == Entry.Status.WITHDRAWN:
        return None
    entrants = {e.pk: entrant_of(e) for e in loaded.entries}
    me = entrants[entry.pk]
    view = formats.format_of(tournament).bracket_view(loaded)
    if view is not None:
        for match_state in view.state.matches:
            m = match_state.match
            sides = (match_state.top, match_state.bottom)
            if entry.pk not in sides or match_state.status not in (READY, WAITING):
                continue
            pairing = loaded.by_key[m.id]
            mine_top = match_state.top == entry.pk
            other, slot = (match_state.bottom, m.bottom) if mine_top else (match_state.top, m.top)
            found = _next(tournament, me, pairing, key=m.id, flight=m.flight, round=m.round, length=m.length,
                          opponent=entrants.get(other) if other is not None else None,
                          waiting_for=_source(slot) if other is None else None, player_id=player_id, orders=orders)
            flight = view.bracket.flight(m.flight)
            names = _flight_names(m.flight, view.bracket.size, flight.rounds)
            return replace(found, round_name=names[m.round - 1]) if 1 <= m.round <= len(names) else found
        return None
    teams = formats.format_of(tournament).has_teams
    for pairing in sorted(loaded.pairings, key=_board_order):
        if entry.pk not in (pairing.entry0_id, pairing.entry1_id) or state.is_confirmed(pairing):
            continue
        # A team match is the team's next match even before its boards exist (a round robin of
        # teams creates a round's boards when the round before is decided); a bye is not a match.
        if (pairing.entry0_id is None or pairing.entry1_id is None) if teams else pairing.match is None:
            continue
        other = pairing.entry1_id if pairing.entry0_id == entry.pk else pairing.entry0_id
        return _next(tournament, me, pairing, key=pairing.key, flight=pairing.flight, round=pairing.round_number,
                     length=pairing.length, opponent=entrants[other], waiting_for=None, player_id=player_id,
                     orders=orders)
    return None


# --- team events (teams, board orders, team match cards, team tables) -----------------------------
# The section's model and draw imports are local to it.


@dataclass(frozen=True)
class TeamMemberView:
    player_id: int
    name: str
    reserve: bool
    captain: bool


@dataclass(frozen=True)
class BoardOrderView:
    """A team's board order for a round: ``players`` ``(id, name)``, board 1 first."""

    round_number: int
    players: tuple[tuple[int, str], ...]
    locked: bool


@dataclass(frozen=True)
class TeamView:
    team_id: int
    name: str
    entry_id: int | None
    entry_status: str | None
    seed: int | None
    captain_id: int
    captain: str
    members: tuple[TeamMemberView, ...]
    board_orders: tuple[BoardOrderView, ...]


def _team_views(teams) -> tuple[TeamView, ...]:
    teams = list(teams)
    names = dict(
        TeamMember.objects.filter(team__in=teams).values_list("player_id", "player__display_name")
    )
    out = []
    for team in teams:
        members = tuple(
            TeamMemberView(m.player_id, m.player.display_name, m.reserve, m.player_id == team.captain_id)
            for m in sorted(team.members.all(), key=lambda m: (m.reserve, m.pk))
        )
        orders = tuple(
            BoardOrderView(o.round_number, tuple((p, names.get(p) or gettext("player %(id)s") % {"id": p})
                                                 for p in o.players), o.locked)
            for o in sorted(team.board_orders.all(), key=lambda o: o.round_number)
        )
        entry = getattr(team, "entry", None)
        out.append(TeamView(team.pk, team.name, entry.pk if entry else None, entry.status if entry else None,
                            entry.seed if entry else None, team.captain_id, team.captain.display_name, members,
                            orders))
    return tuple(out)


def _teams(tournament: Tournament):
    return (Team.objects.filter(tournament=tournament).select_related("captain", "entry")
            .prefetch_related("members__player", "board_orders").order_by("name"))


def team_list(*, tournament: Tournament) -> tuple[TeamView, ...]:
    """The event's teams by name, each with its captain, members (players before reserves, in
    the order they joined) and board orders. Five queries whatever the number of teams."""
    return _team_views(_teams(tournament))


def team_get(*, tournament: Tournament, team_id: int) -> TeamView:
    """One team of the event (as :func:`team_list`); raises Team.DoesNotExist."""
    views = _team_views(_teams(tournament).filter(pk=team_id))
    if not views:
        raise Team.DoesNotExist(f"team {team_id} is not a team of this tournament")
    return views[0]


def team_member_candidates(*, tournament: Tournament) -> QuerySet[Player]:
    """The players who may still join a team of ``tournament``: every player in none of its
    teams, by name."""
    return (Player.objects.exclude(pk__in=TeamMember.objects.filter(tournament=tournament).values("player_id"))
            .order_by("display_name"))


@dataclass(frozen=True)
class BoardView:
    """One board of a team match: the players (top team's first), the match's status and score
    (top team's player first), and the winning team's entry id once confirmed."""

    board: int
    match_id: int
    top_player: tuple[int, str]
    bottom_player: tuple[int, str]
    status: str
    score: tuple[int, int]
    winner: int | None


@dataclass(frozen=True)
class TeamMatchCard:
    """A team match: the two teams, each board, and the team result (boards won; ``winner`` the
    winning team's entry id, None while undecided; ``drawn`` for a level match of even boards)."""

    pairing_id: int
    key: str
    flight: str
    round: int
    length: int
    top: Entrant | None
    bottom: Entrant | None
    boards: tuple[BoardView, ...]
    top_points: int
    bottom_points: int
    winner: int | None
    drawn: bool
    decided: bool


def team_match_card(*, tournament: Tournament, pairing_id: int) -> TeamMatchCard:
    """The card of the team match ``pairing_id`` of ``tournament`` (before its boards exist:
    no boards, undecided). Raises Pairing.DoesNotExist for a pairing not of this team event."""
    pairing = (Pairing.objects.filter(tournament=tournament, tournament__kind=Tournament.Kind.TEAMS)
               .select_related("entry0__team", "entry1__team").get(pk=pairing_id))
    boards = list(BoardMatch.objects.filter(pairing=pairing).select_related("match__side0__player_a",
                                                                            "match__side1__player_a"))
    pairing.board_rows = boards
    top = entrant_of(pairing.entry0) if pairing.entry0_id else None
    bottom = entrant_of(pairing.entry1) if pairing.entry1_id else None
    views = tuple(
        BoardView(b.board, b.match_id, (b.match.side0.player_a_id, b.match.side0.player_a.display_name),
                  (b.match.side1.player_a_id, b.match.side1.player_a.display_name), b.match.status,
                  (b.match.score0, b.match.score1), state.board_winner(pairing, b))
        for b in boards
    )
    if boards:
        result = state.team_result(pairing)
        winner = formats.format_of(tournament).team_card_winner(pairing, result)
        drawn = winner is DRAW
        winner = None if drawn else winner
        return TeamMatchCard(pairing.pk, pairing.key, pairing.flight, pairing.round_number, pairing.length, top,
                             bottom, views, result.top_points, result.bottom_points, winner, drawn,
                             result.winner is not None)
    return TeamMatchCard(pairing.pk, pairing.key, pairing.flight, pairing.round_number, pairing.length, top, bottom,
                         (), 0, 0, None, False, False)


def team_standings(*, tournament: Tournament) -> tuple[StandingRow, ...]:
    """The team table of a Swiss or round robin of teams (each group of a round robin): team-match
    wins (a level match half), then board points (boards won), then head-to-head. Empty for a
    bracket, another kind of event, or before the draw (its format's ``team_tables``). Three queries."""
    event_format = formats.format_of(tournament)
    if not event_format.has_teams or event_format.has_bracket or tournament.drawn_at is None:
        return ()
    return _table_rows(state.load(tournament), event_format.team_tables)


def acceptance_awaited(tournament: Tournament, player: Player) -> bool:
    """Whether ``player`` (with an account) is in ``tournament`` by someone else's entry and has not
    answered it: the event page asks him to accept it (``services.acceptance.entry_accept``). One
    query; a draft or a cancelled event asks nothing."""
    if player.user_id is None or tournament.status in (Tournament.Status.DRAFT, Tournament.Status.CANCELLED):
        return False
    return Player.objects.filter(acceptance.entered_players(tournament), pk=player.pk).exclude(
        event_acceptances__tournament=tournament).exists()
