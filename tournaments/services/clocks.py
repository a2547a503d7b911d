"""An event's clocks: what its matches record when they are made."""

from __future__ import annotations

from django.utils.translation import gettext

from engine import clocks
from matches.clocks import MatchClock, clock_rules_text, overtime_text
from tournaments.models import Tournament


def event_match_clock(tournament: Tournament) -> MatchClock | None:
    """The clock the event's matches record when they are made (the doubling variant's longer
    reserve and delay when the event says so), or None for an event without clocks. Reads only
    the event's row."""
    if tournament.clock_policy == Tournament.ClockPolicy.NONE or tournament.clock_seconds_per_point is None:
        return None
    return MatchClock(tournament.clock_policy, clocks.event_clock(
        seconds_per_point=tournament.clock_seconds_per_point, delay_seconds=tournament.clock_delay_seconds,
        doubling=tournament.clock_doubling, doubling_seconds_per_point=tournament.clock_doubling_seconds_per_point,
        doubling_delay_seconds=tournament.clock_doubling_delay_seconds,
        overtime_seconds=tournament.clock_overtime_seconds))


def event_clock_text(tournament: Tournament) -> str:
    """The event's clocks as its rules list shows them: "no clock", or the policy, the reserve per
    point and delay, the doubling variant's when on, and the overtime."""
    if tournament.clock_policy == Tournament.ClockPolicy.NONE or tournament.clock_seconds_per_point is None:
        return gettext("no clock")
    text = gettext("%(policy)s: %(rules)s") % {
        "policy": tournament.get_clock_policy_display(),
        "rules": clock_rules_text(tournament.clock_seconds_per_point, tournament.clock_delay_seconds)}
    if tournament.clock_doubling:
        text = gettext("%(text)s; when doubling is in play, %(rules)s") % {
            "text": text, "rules": clock_rules_text(tournament.clock_doubling_seconds_per_point,
                                                    tournament.clock_doubling_delay_seconds)}
    return gettext("%(text)s; %(overtime)s") % {"text": text, "overtime": overtime_text(tournament.clock_overtime_seconds)}
