"""Divisions and handicaps in words: the rules lines an event with divisions
publishes and the sentence of a match's handicap start (pages and the bracket drawing's notes)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.text import isolate, join_clauses
from tournaments.models import Tournament


def _rating(value) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def division_said(division: dict) -> str:
    """``Intermediate (ratings below 1650)``: a division and its range as people say it."""
    low, high = division.get("min_rating"), division.get("max_rating")
    name = division["name"]
    if low is not None and high is not None:
        return _("%(name)s (ratings from %(low)s to below %(high)s)") % {
            "name": name, "low": _rating(low), "high": _rating(high)}
    if high is not None:
        return _("%(name)s (ratings below %(high)s)") % {"name": name, "high": _rating(high)}
    if low is not None:
        return _("%(name)s (ratings of %(low)s and above)") % {"name": name, "low": _rating(low)}
    return name


def handicap_row_said(row: dict) -> str:
    # Translators: a handicap between divisions: %(division)s and %(against)s are division names (Intermediate,
    # Open), %(points)d the points it starts ahead with, %(length)d the match length.
    return _("%(division)s starts %(points)d-0 against %(against)s in a match to %(length)d") % row


def division_rules(tournament: Tournament) -> list[tuple[str, str]]:
    """The rules lines of an event with divisions: its divisions and its handicap starts."""
    if not tournament.divisions:
        return []
    lines = [(_("Divisions"), join_clauses(division_said(d) for d in tournament.divisions))]
    if tournament.handicaps:
        lines.append((_("Handicap starts"), join_clauses(handicap_row_said(h) for h in tournament.handicaps)))
    else:
        lines.append((_("Handicap starts"), _("none: every match starts at 0-0")))
    return lines


def handicap_said(pairing) -> str:
    """The handicap start of a shown match (``selectors.PairingView``), or ""."""
    top, bottom = pairing.handicap
    if not (top or bottom) or pairing.top is None or pairing.bottom is None:
        return ""
    ahead, other, points = (pairing.top, pairing.bottom, top) if top else (pairing.bottom, pairing.top, bottom)
    return _("%(ahead)s starts %(points)d-0 against %(other)s (division handicap, a match to %(length)d)") % {
        "ahead": isolate(ahead.name), "other": isolate(other.name), "points": points, "length": pairing.length}
