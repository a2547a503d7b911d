"""A match of an event's draw as shown (``PairingView``: its entrants, status and score), the
statuses and sources a pairing shows, and a round's name in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from matches.models import Match
from tournaments.draw import LoserOf, WinnerOf
from tournaments.draw.bracket import WAITING
from tournaments.models import Entry, Pairing
from tournaments.round_labels import round_label
from tournaments.selectors.event import Entrant
from tournaments.services import state

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


def team_status(pairing: Pairing) -> str:
    """A team match's status as shown: confirmed once decided, in play once a board has started,
    scheduled while its boards wait, waiting before its boards exist."""
    if not state.is_team_pairing(pairing):
        return WAITING
    if state.is_confirmed(pairing):
        return CONFIRMED
    return Match.Status.IN_PLAY.value if state.pairing_started(pairing) else Match.Status.SCHEDULED.value


def match_status(pairing: Pairing) -> str:
    if pairing.match is None and pairing.entry0_id and pairing.entry1_id:
        return team_status(pairing)
    if pairing.match is None:
        return "bye" if pairing.entry0_id and not pairing.entry1_id else WAITING
    return pairing.match.status


def slot_source(slot) -> str | None:
    if isinstance(slot, WinnerOf):
        return gettext("winner of %(match)s") % {"match": slot.match}
    if isinstance(slot, LoserOf):
        return gettext("loser of %(match)s") % {"match": slot.match}
    return None


class RoundNamed:
    """A round's name in the reader's language: ``label`` and ``short_label`` (the compact form)."""

    @property
    def label(self) -> str:
        return round_label(self.name, number=self.number)

    @property
    def short_label(self) -> str:
        return round_label(self.name, number=self.number, compact=True)
