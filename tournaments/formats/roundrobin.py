"""The round robin: every entrant of a group meets every other, the whole schedule drawn at once."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext

from matches.models import Player
from matches.services.matches import match_create, match_rules
from tournaments import errors
from tournaments.draw import ROUND_ROBIN, standings
from tournaments.draw.standings import TEAM
from tournaments.models import BoardMatch, Pairing, Round, Tournament
from tournaments.services import clocks, state, teams

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

    def late_seed(self, tournament: Tournament) -> int:
        """None: its schedule is fixed at the draw."""
        raise errors.late_entry_closed(gettext("a round robin's schedule is fixed at the draw"))

    def unstarted_boards_create(self, tournament: Tournament, entry) -> list[BoardMatch]:
        """The boards of the withdrawn team's round-robin team matches that have none yet, created
        now so they can be forfeited at once. Unlike a round starting (``teams.team_matches_create``)
        this neither locks a board order nor marks the round started: the round has not started
        for the other teams, and the opponent plays no board of it."""
        pending = (
            Pairing.objects.filter(tournament=tournament, entry0__isnull=False, entry1__isnull=False)
            .filter(Q(entry0=entry) | Q(entry1=entry))
            .filter(~Exists(BoardMatch.objects.filter(pairing_id=OuterRef("pk"))))
            .select_related("entry0", "entry1")
            .order_by("round_number", "key")
        )
        boards = []
        for pairing in pending:
            orders = [teams.order_for(tournament, e.team_id, pairing.round_number) for e in (pairing.entry0, pairing.entry1)]
            found = Player.objects.in_bulk(orders[0] + orders[1])
            for number, (top, bottom) in enumerate(zip(*orders, strict=True), start=1):
                match = match_create(
                    created_by=tournament.organiser, sides=([found[top]], [found[bottom]]),
                    rules=match_rules(length=pairing.length, crawford=tournament.crawford,
                                      move_policy=tournament.move_policy),
                    context={"event": tournament}, clock=clocks.event_match_clock(tournament),
                )
                boards.append(BoardMatch.objects.create(pairing=pairing, board=number, match=match))
        return boards

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
