"""Rows to draw values: where an event stands, rebuilt from the stored draw and CONFIRMED results.

Read-only and shared by the services (which then write what changed) and the selectors (which
render it). Nothing here is cached between calls: the state is recomputed from the rows every
time, so a corrected result simply gives the corrected state (the lila way).

How the rows encode the draw:

- the *entrant* of the pure draw is the ``Entry`` primary key (a player, a consultation pair, and
  later a team: the draw never looks inside);
- ``Entry.seed`` holds the seed number the draw gave (rewritten at the draw, so a bracket is
  rebuilt from the same order even after ratings have moved); entries that did not check in
  keep ``seed = None`` and are not in the draw; late entrants get the next seed;
- a bracket is rebuilt from that order and the published lengths, and is the same value as at
  the draw; every draw match has a ``Pairing`` under the draw's id (``main-2-3``);
- a result is the winner of the pairing's match once it is CONFIRMED (the entry whose side is on
  the match's winning side); a *walkover* is a ready bracket pairing without a match where one
  entrant has withdrawn: the other goes through (both withdrawn: the top side does);
- a Swiss bye is a pairing ``swiss-<round>-bye`` with ``entry0`` only and no match.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef
from django.utils.translation import pgettext

from matches.models import Match, Report
from tournaments import formats, hosts
from tournaments.draw import (
    Bracket,
    Result,
    RoundRobin,
    SwissRound,
    round_robin,
    seed_by_list,
)
from tournaments.draw.lengths import Schedule
from tournaments.draw.standings import SWISS, SWISS_FIDE, standings
from tournaments.draw.swiss_history import unplayed_rounds
from tournaments.draw.teams import team_match
from tournaments.draw.values import DRAW
from tournaments.models import BoardMatch, Entry, Pairing, TeamMember, Tournament

DEFAULT_LENGTH = 5

#: The flight of a modified Swiss's playoffs (``services.playoffs``): its
#: pairings are never Swiss rounds (not in the table, the history or the next round's pairing).
PLAYOFFS = "playoffs"

BRACKET_FORMATS = (Tournament.Format.SINGLE_ELIMINATION, Tournament.Format.DOUBLE_ELIMINATION)


@dataclass
class Loaded:
    """An event's entries and pairings (with their matches), loaded in two queries."""

    tournament: Tournament
    entries: list[Entry]
    pairings: list[Pairing]
    by_id: dict[int, Entry] = field(init=False)
    by_key: dict[str, Pairing] = field(init=False)

    def __post_init__(self):
        self.by_id = {e.pk: e for e in self.entries}
        self.by_key = {p.key: p for p in self.pairings}

    @property
    def order(self) -> tuple[int, ...]:
        """The draw's entrants in seed order (late entrants last)."""
        return seeding_order(self.entries)

    @property
    def withdrawn(self) -> frozenset[int]:
        return frozenset(e.pk for e in self.entries if e.status == Entry.Status.WITHDRAWN)


def load(tournament: Tournament) -> Loaded:
    """The event's entries (sides and players joined) and pairings (matches joined, with
    ``has_reports``): two queries whatever the event's size."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("side__player_a", "side__player_b", "team")
        .order_by("seed", "created_at", "id")
    )
    pairings = list(
        Pairing.objects.filter(tournament=tournament)
        .select_related("match")
        .annotate(has_reports=Exists(Report.objects.filter(match_id=OuterRef("match_id"))))
        .order_by("round_number", "id")
    )
    formats.format_of(tournament).pairings_loaded(pairings)
    return Loaded(tournament, entries, pairings)


def entrant_name(entry: Entry) -> str:
    """The entrant as people read him: a team's name, a side's (``Alice``, ``Alice & Bob``); a
    re-entry says so beside it, as the bracket, rounds and desk show it."""
    name = plain_name(entry)
    if entry.reentry_of_id is not None:
        return pgettext("an entrant", "%(name)s (re-entry)") % {"name": name}
    return name


def plain_name(entry: Entry) -> str:
    """The entrant's name alone, in no language (what the audit log keeps)."""
    return entry.team.name if entry.team_id else entry.side.name


def entrant_players(entry: Entry) -> list:
    """The players who sit at the board for ``entry`` (a side's one or two players; a team's
    members, players before reserves, in the order they joined)."""
    if entry.team_id:
        return team_players(entry.team_id)
    return entry.side.players


def seeding_order(entries) -> tuple[int, ...]:
    drawn = sorted((e for e in entries if e.seed is not None), key=lambda e: (e.seed, e.pk))
    return tuple(e.pk for e in drawn)


def schedule(tournament: Tournament, name: str) -> Schedule | None:
    """The published length schedule ``name``, following the fallbacks of the format's
    ``length_keys`` (``tournaments.formats``);
    :data:`DEFAULT_LENGTH` when nothing is published (None for a double elimination's final,
    which then defaults to the winners' final length)."""
    keys = formats.format_of(tournament).length_keys
    lengths = tournament.lengths or {}
    current: str | None = name
    while current is not None:
        if current in lengths:
            return lengths[current]
        current = keys.get(current)
    return None if name == "final" else DEFAULT_LENGTH


def build_bracket(tournament: Tournament, order) -> Bracket:
    """The bracket of an elimination event for the entrants ``order`` (seed 1 first), with the
    flights the rules publish (its format's ``build_bracket``). Pure: the same order and rules give
    the same bracket, which is how the services find the draw again. Raises ``DrawError``."""
    return formats.format_of(tournament).build_bracket(tournament, order)


def build_round_robin(tournament: Tournament, order) -> RoundRobin:
    return round_robin(seed_by_list(order), lengths=schedule(tournament, "rounds"), groups=tournament.groups,
                       order=tournament.round_robin_order)


def is_confirmed(pairing: Pairing) -> bool:
    if is_team_pairing(pairing):
        return team_result(pairing).winner is not None
    match = pairing.match
    return match is not None and match.status == Match.Status.CONFIRMED and match.winner is not None


def winner_entry(pairing: Pairing, by_id: dict[int, Entry], *, bracket: bool = False) -> int | None:
    """The entry on the winning side of the pairing's CONFIRMED match, else None. A team match:
    the team that won it; a level one (an even number of boards, all done) has no winner in a
    Swiss or round robin (a draw in the table), while in a bracket (``bracket=True``) a team
    must go through: the winner of board 1 (see :func:`team_winner`)."""
    if is_team_pairing(pairing):
        if bracket:
            return team_winner(pairing)
        winner = team_result(pairing).winner
        return None if winner is DRAW else winner
    if not is_confirmed(pairing):
        return None
    match = pairing.match
    side_id = match.side0_id if match.winner == 0 else match.side1_id
    for entry_id in (pairing.entry0_id, pairing.entry1_id):
        if entry_id is not None and by_id[entry_id].side_id == side_id:
            return entry_id
    return None


def points(pairing: Pairing, by_id: dict[int, Entry]) -> tuple[int, int]:
    """(entry0's, entry1's) match points of a confirmed match, each capped at the match length:
    points won past the length only decide the winner (RULES.md §5). A team match: boards won."""
    if is_team_pairing(pairing):
        result = team_result(pairing)
        return result.top_points, result.bottom_points
    match = pairing.match
    if not is_confirmed(pairing):
        return 0, 0
    flipped = by_id[pairing.entry0_id].side_id != match.side0_id
    score0, score1 = (match.score1, match.score0) if flipped else (match.score0, match.score1)
    return min(score0, match.length), min(score1, match.length)


def is_started(match: Match, has_reports: bool) -> bool:
    """A match has started once it left ``scheduled`` or anyone reported on it."""
    return match.status != Match.Status.SCHEDULED or bool(has_reports)


def confirmed_results(loaded: Loaded) -> dict[str, int]:
    out = {}
    winner_of = formats.format_of(loaded.tournament).winner
    for pairing in loaded.pairings:
        winner = winner_of(pairing, loaded.by_id)
        if winner is not None:
            out[pairing.key] = winner
    return out


def result_of(pairing: Pairing, by_id: dict[int, Entry]) -> Result:
    """A Swiss or round-robin pairing as the draw's Result (undecided until confirmed; a team
    match as :func:`team_result`, a level one a DRAW)."""
    if is_team_pairing(pairing):
        return team_result(pairing)
    top_points, bottom_points = points(pairing, by_id)
    return Result(pairing.entry0_id, pairing.entry1_id, winner_entry(pairing, by_id), top_points, bottom_points)


def bye_key(number: int) -> str:
    return f"swiss-{number}-bye"


def swiss_history(loaded: Loaded, *, up_to: int | None = None) -> list[SwissRound]:
    """The Swiss rounds as the draw reads them (results undecided until confirmed), optionally
    only rounds 1..``up_to``."""
    rounds: dict[int, list] = {}
    byes: dict[int, int] = {}
    for pairing in loaded.pairings:
        if up_to is not None and pairing.round_number > up_to:
            continue
        if pairing.flight == PLAYOFFS:
            continue
        rounds.setdefault(pairing.round_number, [])
        if pairing.match_id is None and pairing.entry1_id is None and pairing.entry0_id is not None:
            byes[pairing.round_number] = pairing.entry0_id
        else:
            rounds[pairing.round_number].append(result_of(pairing, loaded.by_id))
    return [SwissRound(n, tuple(rounds[n]), byes.get(n)) for n in sorted(rounds)]


def swiss_table(loaded: Loaded) -> tuple:
    """The Swiss table (``tournaments.draw.standings`` lines, best first) from the confirmed
    results of the Swiss rounds (a modified Swiss's playoffs left out), by the event's tie-breaks
    (FIDE's with its handling of unplayed rounds when it says so)."""
    swiss = [p for p in loaded.pairings if p.flight != PLAYOFFS]
    results = [result_of(p, loaded.by_id) for p in swiss if p.entry1_id is not None]
    byes = [p.entry0_id for p in swiss if p.entry1_id is None and p.entry0_id is not None]
    if loaded.tournament.swiss_tiebreaks == Tournament.SwissTiebreaks.FIDE:
        return standings(loaded.order, results, byes, tiebreaks=SWISS_FIDE,
                         unplayed=unplayed_rounds(loaded.order, swiss_history(loaded)))
    return standings(loaded.order, results, byes, tiebreaks=SWISS)


def entry_clubs(loaded: Loaded) -> dict[int, int | None]:
    """Each entrant's club for the same-club restriction: a player's home club (held by the clubs
    app, asked through tournaments/hosts.py in one query); a pair's club when both belong to the
    same one (a pair of two clubs is restricted by neither)."""
    entries = [entry for entry in loaded.entries if entry.side_id is not None]
    home = hosts.player_clubs({p.pk for entry in entries for p in entry.side.players})
    out = {}
    for entry in entries:
        clubs = {home.get(p.pk) for p in entry.side.players}
        out[entry.pk] = clubs.pop() if len(clubs) == 1 else None
    return out


# --- team events (tournaments.services.teams) ----------------------------------------------------
#
# A team match is a pairing of two team entries without a match of its own: its boards
# (``BoardMatch``) each have one, board k's side0 being entry0's player at board k. In a team event
# :func:`load` attaches ``board_rows`` (the boards, matches joined, each with ``has_reports``) to
# every pairing (``attach_boards``); the helpers above read a team match through :func:`team_result`.


def attach_boards(pairings: list[Pairing]) -> None:
    """One query: the boards of every pairing, as ``pairing.board_rows`` (board 1 first)."""
    by_pairing: dict[int, list[BoardMatch]] = {p.pk: [] for p in pairings}
    boards = (
        BoardMatch.objects.filter(pairing_id__in=list(by_pairing))
        .select_related("match")
        .annotate(has_reports=Exists(Report.objects.filter(match_id=OuterRef("match_id"))))
        .order_by("pairing_id", "board")
    )
    for board in boards:
        by_pairing[board.pairing_id].append(board)
    for pairing in pairings:
        pairing.board_rows = by_pairing[pairing.pk]


def is_team_pairing(pairing: Pairing) -> bool:
    """A pairing of a team event that has its boards (loaded by :func:`load`)."""
    return bool(getattr(pairing, "board_rows", None))


def has_matches(pairing: Pairing) -> bool:
    """Whether the pairing's match (or a team match's boards) exists."""
    return pairing.match_id is not None or is_team_pairing(pairing)


def pairing_started(pairing: Pairing) -> bool:
    """A pairing has started once its match (any board of a team match) has."""
    if is_team_pairing(pairing):
        return any(is_started(b.match, b.has_reports) for b in pairing.board_rows)
    return pairing.match is not None and is_started(pairing.match, pairing.has_reports)


def board_winner(pairing: Pairing, board: BoardMatch):
    """The team entry that won ``board`` (its match CONFIRMED), else None."""
    match = board.match
    if match.status != Match.Status.CONFIRMED or match.winner is None:
        return None
    return pairing.entry0_id if match.winner == 0 else pairing.entry1_id


def team_result(pairing: Pairing) -> Result:
    """The team match as the draw's Result: decided by a majority of boards as soon as a team
    has it (the other boards may still be played, for board points), a DRAW when every board is
    done and the count is level (an even number of boards); points are boards won."""
    return team_match(pairing.entry0_id, pairing.entry1_id, [board_winner(pairing, b) for b in pairing.board_rows])


def team_winner(pairing: Pairing) -> int | None:
    """The team entry that won the team match, else None. A level match (even boards, all done)
    still needs a winner to go on in a bracket: the team that won the top board."""
    result = team_result(pairing)
    if result.winner is DRAW:
        return board_winner(pairing, pairing.board_rows[0])
    return result.winner


def team_players(team_id: int) -> list:
    """The team's players: members before reserves, each in the order they joined."""
    members = TeamMember.objects.filter(team_id=team_id).select_related("player").order_by("reserve", "id")
    return [m.player for m in members]
