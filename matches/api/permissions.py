"""Who may call which write endpoint of the matches API.

The reporting services check the same rules again under the match's row lock and stay the
authority. These checks run first so that an outsider gets a 403 before the API reads and replays
an upload for him, and they hold the one rule no service holds: who may create a match.
Each function returns nothing and raises :class:`core.errors.NotAllowed` (HTTP 403).
"""

from __future__ import annotations

from django.utils.translation import gettext

from core.errors import NotAllowed

from .. import errors, hooks
from ..models import Match, Player
from ..services.consent import consent_sides
from ..services.matches import player_for_user
from ..services.reporting import side_of_user, user_runs_match


def check_may_create(user, players: list[Player], contexts: dict) -> None:
    """A player may create a match only where he plays on one side; organisers and staff any
    match. What the match is to belong to (``contexts``: the create body's context fields) is
    checked first by its context (``may_create``): only the event's organiser (or staff) may add
    a match to an event (NotAllowed ``not_event_organiser``)."""
    for context in hooks.match_contexts.entries():
        given = {name: contexts.get(name) for name in context.inputs}
        if context.may_create is not None and any(value is not None for value in given.values()):
            context.may_create(user, given)
    if user.is_organiser:
        return
    player = player_for_user(user)
    if player is None or player.pk not in {p.pk for p in players}:
        raise NotAllowed(gettext("a player may only create a match he plays in"), code="not_a_party")


def check_may_report(match: Match, user) -> None:
    """The match's players report; its organiser (event organiser, staff) may too (an override)."""
    if side_of_user(match, user) is None and not user_runs_match(match, user):
        raise errors.not_a_party()


def check_may_answer(match: Match, user) -> None:
    """Only a player of the match confirms or contests the other side's report."""
    if side_of_user(match, user) is None:
        raise NotAllowed(gettext("only the match's players may confirm or contest a report"), code="not_a_party")


def check_may_override(match: Match, user) -> None:
    """The organiser, the event's organiser or staff override; a player of the match never does
    (unless staff): see :func:`matches.services.reporting.user_runs_match`."""
    if not user_runs_match(match, user):
        raise errors.not_organiser()


def check_may_consent(match: Match, user) -> None:
    """The match's players, a director of an event or club one of them plays in, and staff answer
    for a side's consent (see :func:`matches.services.consent.consent_sides`)."""
    if not consent_sides(match, user):
        raise errors.may_not_consent()
