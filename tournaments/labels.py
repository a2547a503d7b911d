"""The names people read for an event's settings and flights (core.labels).

A refusal of a setting keeps the setting's name in its ``field`` detail (``ends_on``,
``lengths.consolation``, ``payouts.main.percentages[1]``: the API's names) and names it in its
message by the event form's label, with the part of it that is wrong: "Paid places (Main flight,
place 2): a place is paid more than the place before it". The labels are the event form's own
words (a test keeps them so); the flights are named as every page names them.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from core.labels import field_label

__all__ = ["FLIGHT_NAMES", "RULE_LABELS", "TEAM_LABELS", "flight_title", "rule_label", "rule_parts"]

#: A flight as the pages name it (a round-robin group keeps its own name: :func:`flight_title`).
FLIGHT_NAMES = {"main": gettext_lazy("Main flight"), "consolation": gettext_lazy("Consolation flight"),
                "last_chance": gettext_lazy("Last-chance flight"), "winners": gettext_lazy("Winners' bracket"),
                "losers": gettext_lazy("Losers' bracket"), "final": pgettext_lazy("flight", "Final"),
                "swiss": gettext_lazy("Swiss"), "rounds": gettext_lazy("Every round"),
                "playoff": gettext_lazy("Playoff for 2nd"), "playoffs": gettext_lazy("Playoffs")}

#: Each setting of an event (``EventRules``' fields, the API's names) -> its label on the event form.
RULE_LABELS = {
    "name": gettext_lazy("Name"),
    "format": gettext_lazy("Format"),
    "kind": gettext_lazy("Entrants"),
    "club": gettext_lazy("Club"),
    "club_id": gettext_lazy("Club"),
    "starts_on": gettext_lazy("Starts on"),
    "ends_on": gettext_lazy("Ends on"),
    "lengths": gettext_lazy("Match lengths"),
    "consolation_rounds": gettext_lazy("Consolation flight"),
    "last_chance": gettext_lazy("Last-chance flight for consolation losers"),
    "consolation_shifted": gettext_lazy("Shifted progressive consolation"),
    "playoff_second": gettext_lazy("Playoff for 2nd"),
    "last_chance_open": gettext_lazy("Last chance open to everyone who has not cashed"),
    "payouts": gettext_lazy("Paid places"),
    "reentries": gettext_lazy("Re-entry (buy-back)"),
    "swiss_rounds": gettext_lazy("Swiss rounds"),
    "max_losses": gettext_lazy("Elimination Swiss: out at this many losses"),
    "groups": gettext_lazy("Round-robin groups"),
    "forbid_same_club": gettext_lazy("Never pair two players of one club (Swiss)"),
    "crawford": gettext_lazy("Crawford rule"),
    "move_policy": gettext_lazy("Moves"),
    "premature_roll": gettext_lazy("Premature roll"),
    "clock_seconds_per_point": gettext_lazy("Clock: seconds of reserve per match point"),
    "clock_policy": gettext_lazy("Clocks"),
    "clock_delay_seconds": gettext_lazy("Clock: delay per move in seconds"),
    "clock_doubling": gettext_lazy("Clock: the longer reserve and delay when doubling is in play"),
    "clock_doubling_seconds_per_point": gettext_lazy("Doubling in play: seconds of reserve per point"),
    "clock_doubling_delay_seconds": gettext_lazy("Doubling in play: delay per move in seconds"),
    "clock_overtime_seconds": gettext_lazy("Clock: overtime in seconds (0: no overtime)"),
    "penalty_minutes_per_point": gettext_lazy("Late arrival: one penalty point per N minutes"),
    "seeding": gettext_lazy("Seeding"),
    "board_count": gettext_lazy("Boards per team match"),
    "divisions": gettext_lazy("Divisions"),
    "handicaps": gettext_lazy("Handicap starts"),
    "swiss_pairing": gettext_lazy("Swiss pairing"),
    "swiss_tiebreaks": gettext_lazy("Swiss tie-breaks"),
    "round_robin_order": gettext_lazy("Round-robin order"),
    "abt_playoffs": gettext_lazy("Modified Swiss: playoffs once no more players can still cash than there are paid "
                                 "places"),
    "abt_paid_places": gettext_lazy("Modified Swiss: paid places"),
    "analysis_plies": gettext_lazy("Depth of GNU Backgammon's analysis"),
}

#: A team's fields (the API's names) -> their labels on the team form.
TEAM_LABELS = {
    "name": gettext_lazy("Team name"),
    "captain_id": gettext_lazy("Captain"),
    "member_ids": gettext_lazy("Other members"),
    "reserve_ids": gettext_lazy("Reserves"),
}

_PARTS = re.compile(r"[^.\[\]]+")


def flight_title(name: str) -> str:
    """A flight's name in the reader's language; a round-robin group keeps its own name."""
    if name in FLIGHT_NAMES:
        return str(FLIGHT_NAMES[name])
    return name.replace("_", " ").capitalize()


def rule_label(path: str) -> str:
    """The setting ``path`` names (a refusal's ``field``: ``ends_on``, ``lengths.main``,
    ``payouts.main.pool``, ``payouts.main.percentages[1]``, ``divisions.2.name``) as people read
    it: the form's label, and the flight, the place or the line it concerns ("Paid places (Main
    flight, place 2)"). A name no setting has is quoted as sent. Raises nothing."""
    label, part = rule_parts(path)
    return _("%(field)s (%(part)s)") % {"field": label, "part": part} if part else label


def rule_parts(path: str) -> tuple[str, str]:
    """The setting ``path`` names as its form label and the part of it concerned ("Main flight,
    place 2"; "" for the whole setting): :func:`rule_label` in two, for a page that shows a
    refusal beside the setting's field, under its label."""
    parts = _PARTS.findall(path or "")
    if not parts:
        return field_label(RULE_LABELS, str(path)), ""
    head, rest = parts[0], parts[1:]
    label = field_label(RULE_LABELS, head)
    details = []
    if head in ("lengths", "payouts") and rest:
        details.append(flight_title(rest[0]))
        if head == "payouts" and rest[1:2] == ["pool"]:
            details.append(_("prize pool"))
        elif head == "payouts" and rest[1:2] == ["percentages"] and rest[2:3] and rest[2].isdigit():
            details.append(_("place %(number)s") % {"number": int(rest[2]) + 1})
    elif head in ("divisions", "handicaps") and rest and rest[0].isdigit():
        details.append(_("line %(line)s") % {"line": int(rest[0]) + 1})
    return label, _(", ").join(details)
