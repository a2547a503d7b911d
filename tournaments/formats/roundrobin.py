"""The round robin: every entrant of a group meets every other, the whole schedule drawn at once."""

from __future__ import annotations

from tournaments.models import Pairing, Round, Tournament
from tournaments.services import state, teams

from .base import EventFormat


class RoundRobin(EventFormat):
    """A round robin in groups: its schedule (rounds, byes) is drawn at once and every match of
    an individual or pairs event exists from the draw."""

    format = Tournament.Format.ROUND_ROBIN
    length_keys = {"rounds": "main", "main": None}

    def match_result_changed(self, tournament: Tournament, match) -> None:
        """Its matches all exist from the draw: nothing to do."""

    def team_match_changed(self, tournament: Tournament, loaded: state.Loaded, pairing) -> None:
        """The next round's team matches start once the round before is decided."""
        teams.round_robin_start_next(tournament, loaded, created_by=tournament.organiser)

    def minimum_entries(self, tournament: Tournament) -> int:
        """Two a group."""
        return 2 * tournament.groups

    def draw(self, tournament: Tournament, order: tuple[int, ...], user, entries: list) -> state.Loaded:
        """Its whole schedule: a Round row per round, a pairing per match (:meth:`schedule_write`)."""
        draw = state.build_round_robin(tournament, order)
        rounds = max(len(group.rounds) for group in draw.groups)
        Round.objects.bulk_create(Round(tournament=tournament, number=n) for n in range(1, rounds + 1))
        rows = [
            Pairing(tournament=tournament, key=p.id, flight=p.flight, round_number=p.round, entry0_id=p.top,
                    entry1_id=p.bottom, length=p.length)
            for p in draw.pairings
        ]
        return self.schedule_write(tournament, rows, user, entries)

    def schedule_write(self, tournament: Tournament, rows: list, user, entries: list) -> state.Loaded:
        """Every match of the schedule exists from the draw: the matches first, each pairing then
        inserted with its match."""
        self.pairings_write(tournament, rows, rows, self.drawn(tournament, entries, []), user)
        return self.drawn(tournament, entries, rows)

    def check_groups(self, groups: int) -> None:
        """Any number of groups (their range is the rules' own check)."""

    def check_round_robin_order(self, round_robin_order: str) -> None:
        """Any order of rounds."""
