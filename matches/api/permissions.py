"""Who may call which write endpoint of the matches API.

The reporting services check the same rules again under the match's row lock and stay the
authority. These checks run first so that an outsider gets a 403 before the API reads and replays
an upload for him, and they hold the two rules no service holds yet: who may create a match, and
that a player of a match never overrides its result (see :func:`check_may_override`).
Each function returns nothing and raises :class:`config.errors.NotAllowed` (HTTP 403).
"""

from __future__ import annotations

from config.errors import NotAllowed

from .. import errors
from ..models import Match, Player
from ..services.matches import player_for_user
from ..services.reporting import side_of_user, user_runs_match


def check_may_create(user, players: list[Player], event) -> None:
    """A player may create a match only where he plays on one side; organisers and staff any
    match. Only the event's organiser (or staff) may attach a match to an event."""
    if event is not None and not (user.is_staff or event.organiser_id == user.pk):
        raise NotAllowed("only the event's organiser may add a match to it", code="not_event_organiser")
    if user.is_organiser:
        return
    player = player_for_user(user)
    if player is None or player.pk not in {p.pk for p in players}:
        raise NotAllowed("a player may only create a match he plays in", code="not_a_party")


def check_may_report(match: Match, user) -> None:
    """The match's players report; its organiser (event organiser, staff) may too (an override)."""
    if side_of_user(match, user) is None and not user_runs_match(match, user):
        raise errors.not_a_party()


def check_may_answer(match: Match, user) -> None:
    """Only a player of the match confirms or contests the other side's report."""
    if side_of_user(match, user) is None:
        raise NotAllowed("only the match's players may confirm or contest a report", code="not_a_party")


def check_may_override(match: Match, user) -> None:
    """The organiser overrides; a player of the match never does, unless staff or the event's organiser.

    ``match_create`` makes the creator the organiser of a match without an event, so a player
    who created his own match is its organiser: without this rule he could confirm his own
    result over his opponent's head.
    """
    if not user_runs_match(match, user):
        raise errors.not_organiser()
    if side_of_user(match, user) is not None and not user.is_staff and not (
        match.event_id is not None and match.event.organiser_id == user.pk
    ):
        raise errors.not_organiser()
