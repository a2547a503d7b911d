"""What every event format answers, whatever its kind and format (:class:`EventFormat`).

An event's behaviour is chosen once, by :func:`tournaments.formats.format_of`, from the table
``FORMATS[(kind, format)]``: one class per kind of entrant (a player, a consultation pair, a team:
:mod:`.kinds`) and format (single or double elimination, round robin, Swiss), built from a kind
mixin and a format class. The instances are stateless and shared: every method takes the
tournament (or the rules) it is about.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from tournaments import errors, labels
from tournaments.models import Tournament
from tournaments.services import state


class EventFormat:
    """One (kind, format) of event. Subclasses set :attr:`kind` and :attr:`format` (the
    ``Tournament.Kind`` and ``Tournament.Format`` values) and override what their kind or format
    does its own way; the base says what most events do."""

    #: The event's ``Tournament.Format`` value.
    format: str = ""
    #: The event's ``Tournament.Kind`` value.
    kind: str = ""

    #: The length schedules the format reads from ``Tournament.lengths``, and where a missing one
    #: falls back (``tournaments.services.state.schedule``).
    length_keys: dict[str, str | None] = {}

    def minimum_entries(self, tournament: Tournament) -> int:
        """How many checked-in entrants the draw needs."""
        return 2

    def draw(self, tournament: Tournament, order: tuple[int, ...], user, entries: list):
        """Write the draw of ``tournament`` for the entrants ``order`` (seed 1 first; ``entries``
        every entry, their seeds written): its pairings and first matches. Returns what
        ``state.load`` would read now. Raises ``DrawError``."""
        raise NotImplementedError

    def result_confirmed(self, tournament: Tournament, match) -> None:
        """Move the event's draw on after ``match``'s confirmed result changed (first confirmed,
        corrected or reopened), under the event's lock."""
        raise NotImplementedError

    # --- the rules it accepts (``tournaments.services.events.EventRules``): each check refuses, with
    # DomainError ``bad_rules`` naming the field, a rule this event does not read ---
    def payout_flights(self, consolation_rounds: int, last_chance: bool) -> tuple[str, ...]:
        """The flights the event may pay: its overall placings, as ``main``."""
        return ("main",)

    def check_consolation(self, consolation_rounds: int) -> None:
        if consolation_rounds:
            raise errors.bad_rules("consolation_rounds", gettext("consolation flights are for single elimination"))

    def check_last_chance_open(self, last_chance_open: bool) -> None:
        if last_chance_open:
            raise errors.bad_rules("last_chance_open", gettext("last-chance flights are for single elimination"))

    def check_reentries(self, reentries: int) -> None:
        if reentries:
            raise errors.bad_rules("reentries", gettext("re-entry is into the main of a single elimination"))

    def check_counted_rounds(self, swiss_rounds: int | None, max_losses: int | None) -> None:
        if swiss_rounds is not None or max_losses is not None:
            field = "swiss_rounds" if swiss_rounds is not None else "max_losses"
            raise errors.bad_rules(field, gettext("only a Swiss has rounds to count"))

    def check_groups(self, groups: int) -> None:
        if groups != 1:
            raise errors.bad_rules("groups", gettext("only a round robin plays in groups"))

    def check_swiss_rules(self, swiss_pairing: str, swiss_tiebreaks: str) -> None:
        for field, value, default in (("swiss_pairing", swiss_pairing, Tournament.SwissPairing.FAIR),
                                      ("swiss_tiebreaks", swiss_tiebreaks, Tournament.SwissTiebreaks.STANDARD)):
            if value != default:
                raise errors.bad_rules(field, gettext("only a Swiss is paired and ranked this way"))

    def check_round_robin_order(self, round_robin_order: str) -> None:
        if round_robin_order != Tournament.RoundRobinOrder.CIRCLE:
            raise errors.bad_rules("round_robin_order", gettext("only a round robin has an order of rounds"))

    def check_playoffs(self) -> None:
        """The ABT-style playoffs asked for (``abt_playoffs``): only a Swiss has them."""
        raise errors.bad_rules("abt_playoffs", gettext("only a Swiss moves to playoffs"))

    def check_modified_swiss_entrants(self) -> None:
        """Whether the playoffs of a modified Swiss take this kind's entrants (players or pairs do)."""

    def check_divisions(self, divisions: list) -> None:
        if divisions:
            raise errors.bad_rules("divisions", gettext("divisions are for events of single players"))

    # --- the draw ---
    def build_bracket(self, tournament: Tournament, order):
        """The bracket of an elimination event (only a bracket format has one)."""
        raise NotImplementedError(f"{self!r} has no bracket")

    def pairings_loaded(self, pairings: list) -> None:
        """What ``state.load`` adds to the event's pairings it read (nothing but their matches)."""

    def winner(self, pairing, by_id: dict):
        """The entry that won ``pairing`` (its CONFIRMED match; a team match as its format counts
        a level one), else None."""
        return state.winner_entry(pairing, by_id)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.kind} {self.format}>"

    @property
    def label(self) -> str:
        """The format's name as people read it (``Swiss``)."""
        return str(Tournament.Format(self.format).label)

    # --- what the event's pages read and show (``tournaments.selectors``, the views, the templates) ---
    #: A rule the pages follow: the whole draw is one bracket of flights made at once (an
    #: elimination), where the other formats are paired in rounds and ranked in tables.
    has_bracket: bool = False
    #: The pages of the event's draw, linked after its own page: ``(URL name, title)``.
    draw_pages: tuple = (("tournaments:rounds", gettext_lazy("Rounds")),
                         ("tournaments:standings", gettext_lazy("Standings")))

    def bracket_view(self, loaded: state.Loaded):
        """Where the bracket of the event ``loaded`` stands (``state.bracket_state``), or None:
        this format has no bracket. No query."""
        return None

    def bracket_read(self, tournament: Tournament):
        """``(loaded, bracket view)`` of the event once drawn, or None before the draw or for a
        format without a bracket (then no query; two otherwise)."""
        return None

    def standing_tables(self, tournament: Tournament, loaded: state.Loaded) -> list[tuple[tuple, str | None]]:
        """The event's tables (``tournaments.draw.standings`` lines, best first), each with its
        group (None for a single table), as its kind ranks its entrants: a player's or pair's
        match wins (:meth:`entrant_tables`)."""
        return self.entrant_tables(tournament, loaded)

    def entrant_tables(self, tournament: Tournament, loaded: state.Loaded) -> list[tuple[tuple, str | None]]:
        """The tables of players or pairs, as the format ranks them (none for a bracket)."""
        return []

    def team_tables(self, tournament: Tournament, loaded: state.Loaded) -> list[tuple[tuple, str | None]]:
        """The tables of teams, as the format ranks them (none for a bracket)."""
        return []

    def table_places(self, rows: tuple) -> list[tuple[int, int, object]]:
        """``(first place, last place, row)`` of the standing ``rows`` (best first) as final
        places: a place the table shares is shared."""
        ties: dict[int, int] = {}
        for row in rows:
            ties[row.place] = ties.get(row.place, 0) + 1
        return [(row.place, row.place + ties[row.place] - 1, row) for row in rows]

    def team_card_winner(self, pairing, result):
        """The winner of the team match ``pairing`` whose boards count ``result`` (``DRAW`` when
        level)."""
        return result.winner

    def rule_lines(self, tournament: Tournament) -> list[tuple[str, str]]:
        """The rules the format publishes of its own, as (term, description) lines."""
        return []

    def round_title(self, flight: str, number: int) -> str:
        """A round's title on the round desk: its flight's and its number."""
        return gettext("%(flight)s, round %(number)d") % {"flight": labels.flight_title(flight), "number": number}

    def desk_round_numbers(self, numbers: tuple[int, ...]) -> tuple[int, ...]:
        """The rounds the round desk links to one by one: every round, when there are several."""
        return numbers if len(numbers) > 1 else ()

    # --- what the event's pages show of its kind of entrant ---
    #: A rule: the entrants are teams (rosters, board orders, team matches played on boards).
    has_teams: bool = False
    #: A rule: an entrant is one player (a walk-in is entered at once, a list of names pasted).
    single_players: bool = False
    #: A rule: an entrant is a consultation pair (a player signs up with his partner).
    has_pairs: bool = False
    #: What the rounds page calls a pairing.
    pairing_title = gettext_lazy("Match")

    def player_entry(self, tournament: Tournament, loaded: state.Loaded, player_id: int) -> tuple:
        """``(the player's entry, his team's board orders by round)`` in the event ``loaded``: his
        side's or pair's entry (a player who re-entered plays on under his re-entry), no board
        orders; ``(None, {})`` when he has none. No query."""
        mine = [e for e in loaded.entries if e.side_id and player_id in (e.side.player_a_id, e.side.player_b_id)]
        entry = min(mine, key=lambda e: e.reentry_of_id is None, default=None)
        return entry, {}

    def draw_match_href(self, tournament: Tournament, match) -> str | None:
        """Where a match of the draw (a ``PairingView``) links: its match page once the match exists."""
        return reverse("matches:detail", args=[match.match_id]) if match.match_id else None

    #: A rule: every entrant of a group meets every other, so each group has its crosstable and
    #: its table (the table's rows name their group).
    has_crosstables: bool = False
    #: A rule: the organiser pairs the next round once a round is decided (a Swiss); its table
    #: counts byes (and an entrant's, Buchholz).
    pairs_round_by_round: bool = False
    #: A rule: after the draw a late entrant may still join (as the last seed).
    takes_late_entries: bool = True

    def modified_swiss(self, tournament: Tournament) -> bool:
        """Whether the event is a modified Swiss, stopping for playoffs (only a Swiss may be)."""
        return False

    def check_bracket(self) -> None:
        """Refuse to show a bracket the event does not have (Conflict ``not_a_bracket``)."""
        raise errors.not_a_bracket()
