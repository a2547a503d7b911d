"""Where a player plays next in an event: the pairing, its length, the opponent or the match
that decides him, and in a team event the team match card and his board."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.utils.translation import pgettext

from matches.models import Player
from tournaments import formats
from tournaments.draw.bracket import READY, WAITING
from tournaments.draw.names import RoundName
from tournaments.models import Entry, Pairing, Tournament
from tournaments.round_labels import round_label
from tournaments.selectors.brackets import flight_names
from tournaments.selectors.event import Entrant, entrant_of
from tournaments.selectors.pairings import slot_source, team_status
from tournaments.selectors.rounds import board_order
from tournaments.services import state

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
    status = mine.match.status if mine is not None else team_status(pairing)
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
                          waiting_for=slot_source(slot) if other is None else None, player_id=player_id, orders=orders)
            flight = view.bracket.flight(m.flight)
            names = flight_names(m.flight, view.bracket.size, flight.rounds)
            return replace(found, round_name=names[m.round - 1]) if 1 <= m.round <= len(names) else found
        return None
    teams = formats.format_of(tournament).has_teams
    for pairing in sorted(loaded.pairings, key=board_order):
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
