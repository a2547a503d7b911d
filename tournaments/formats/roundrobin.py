"""The round robin: every entrant of a group meets every other, the whole schedule drawn at once."""

from __future__ import annotations

from django.utils.translation import gettext

from tournaments.draw import ROUND_ROBIN, standings
from tournaments.draw.standings import TEAM
from tournaments.models import Tournament
from tournaments.services import state

from .base import EventFormat


class RoundRobin(EventFormat):
    """A round robin in groups: its schedule (rounds, byes) is drawn at once and every match of
    an individual or pairs event exists from the draw."""

    format = Tournament.Format.ROUND_ROBIN
    length_keys = {"rounds": "main", "main": None}

    def check_groups(self, groups: int) -> None:
        """Any number of groups (their range is the rules' own check)."""

    def check_round_robin_order(self, round_robin_order: str) -> None:
        """Any order of rounds."""

    # --- the pages ---
    has_crosstables = True
    takes_late_entries = False

    def entrant_tables(self, tournament: Tournament, loaded: state.Loaded) -> list[tuple[tuple, str | None]]:
        """A table a group: wins, head-to-head, points difference (match points capped at the
        match length)."""
        tables = []
        for group in state.build_round_robin(tournament, loaded.order).groups:
            results = [state.result_of(p, loaded.by_id) for p in loaded.pairings if p.flight == group.name]
            tables.append((standings(group.entrants, results, tiebreaks=ROUND_ROBIN), group.name))
        return tables

    def team_tables(self, tournament: Tournament, loaded: state.Loaded) -> list[tuple[tuple, str | None]]:
        """A table of teams a group: team-match wins, board points, head-to-head."""
        played = [p for p in loaded.pairings if p.entry1_id is not None and state.has_matches(p)]
        tables = []
        for group in state.build_round_robin(tournament, loaded.order).groups:
            results = [state.result_of(p, loaded.by_id) for p in played if p.flight == group.name]
            tables.append((standings(group.entrants, results, tiebreaks=TEAM), group.name))
        return tables

    def table_places(self, rows: tuple) -> list[tuple[int, int, object]]:
        """By place in the group: the entrants with the same place in their groups share the
        places (the group winners share 1 to the number of groups)."""
        by_place: dict[int, list] = {}
        for row in rows:
            by_place.setdefault(row.place, []).append(row)
        out, first = [], 1
        for place in sorted(by_place):
            tied = by_place[place]
            out += [(first, first + len(tied) - 1, row) for row in tied]
            first += len(tied)
        return out

    def rule_lines(self, tournament: Tournament) -> list[tuple[str, str]]:
        """The number of groups."""
        return [(gettext("Groups"), str(tournament.groups))]

    def round_title(self, flight: str, number: int) -> str:
        """A round of the round robin is its number."""
        if flight in ("swiss", "main"):
            return gettext("Round %(number)d") % {"number": number}
        return super().round_title(flight, number)
