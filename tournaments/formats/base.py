"""What every event format answers, whatever its kind and format (:class:`EventFormat`).

An event's behaviour is chosen once, by :func:`tournaments.formats.format_of`, from the table
``FORMATS[(kind, format)]``: one class per kind of entrant (a player, a consultation pair, a team:
:mod:`.kinds`) and format (single or double elimination, round robin, Swiss), built from a kind
mixin and a format class. The instances are stateless and shared: every method takes the
tournament (or the rules) it is about.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext

from tournaments import errors, labels
from tournaments.draw import names
from tournaments.hooks import round_paired
from tournaments.models import Pairing, Tournament
from tournaments.services import audit, corrections, draw_sync, life, naming, state


class EventFormat(ABC):
    """One (kind, format) of event. Subclasses set :attr:`kind` and :attr:`format` (the
    ``Tournament.Kind`` and ``Tournament.Format`` values) and override what their kind or format
    does its own way; the base says what most events do. What every format must say for itself
    (its draw, what a changed result moves) is abstract: a class in the table that leaves one out
    cannot be made, so the table itself fails at import."""

    #: The event's ``Tournament.Format`` value.
    format: str = ""
    #: The event's ``Tournament.Kind`` value.
    kind: str = ""

    #: Whether a first-round loser may re-enter the main while its first round is open
    #: (``tournaments.services.reentry``), when the rules allow re-entries.
    takes_reentries: bool = False

    #: The length schedules the format reads from ``Tournament.lengths``, and where a missing one
    #: falls back (``tournaments.services.state.schedule``).
    length_keys: dict[str, str | None] = {}

    def minimum_entries(self, tournament: Tournament) -> int:
        """How many checked-in entrants the draw needs."""
        return 2

    @abstractmethod
    def draw(self, tournament: Tournament, order: tuple[int, ...], user, entries: list):
        """Write the draw of ``tournament`` for the entrants ``order`` (seed 1 first; ``entries``
        every entry, their seeds written): its pairings and first matches. Returns what
        ``state.load`` would read now. Raises ``DrawError``."""

    def drawn(self, tournament: Tournament, entries: list, pairings: list) -> state.Loaded:
        """What :func:`state.load` would read right after the draw wrote ``entries`` (their seeds)
        and ``pairings`` (none has a report or a board yet), built from those rows without reading
        them again: entries in seed order (the others last), pairings by round then id."""
        self.pairings_fresh(pairings)
        return state.Loaded(
            tournament, sorted(entries, key=lambda e: (e.seed is None, e.seed or 0, e.created_at, e.pk)),
            sorted(pairings, key=lambda p: (p.round_number, p.pk)),
        )

    def pairings_fresh(self, pairings: list) -> None:
        """Mark pairings just written as ``state.load`` would read them: no reports yet."""
        for pairing in pairings:
            pairing.has_reports = False

    def pairings_write(self, tournament: Tournament, rows: list, matched: list, loaded: state.Loaded, created_by) -> None:
        """Write the pairings ``rows`` and the matches of those of them in ``matched``: the matches
        first, each pairing then inserted with its match."""
        draw_sync.pairing_matches_create(tournament, matched, loaded, created_by)
        Pairing.objects.bulk_create(rows)

    def announce_draw(self, tournament: Tournament, loaded: state.Loaded, names: dict, user) -> None:
        """Tell the apps above the pairings the draw made (those with a match)."""
        round_paired.send(tournament=tournament, round_number=None, actor=user, pairings=[
            audit.pairing_summary(p, names) for p in loaded.pairings if p.match_id is not None])

    def pair_next_round(self, tournament: Tournament, user):
        """Pair the next round (``draw.tournament_pair_next_round``): only a Swiss is paired round
        by round. Raises Conflict ``not_swiss``."""
        raise errors.not_swiss()

    def result_confirmed(self, tournament: Tournament, match) -> None:
        """Move the event's draw on after ``match``'s confirmed result changed (first confirmed,
        corrected or reopened), under the event's lock (``advance.tournament_result_confirmed``):
        the match is a pairing's own (:meth:`match_result_changed`)."""
        self.match_result_changed(tournament, match)

    @abstractmethod
    def match_result_changed(self, tournament: Tournament, match) -> None:
        """What the changed result of a pairing's own ``match`` moves."""

    @abstractmethod
    def team_match_changed(self, tournament: Tournament, loaded: state.Loaded, pairing) -> None:
        """What a team match ``pairing`` moves when the result of one of its boards changed."""

    # --- the rules it accepts (``tournaments.services.events.EventRules``): each check refuses, with
    # DomainError ``bad_rules`` naming the field, a rule this event does not read ---
    def payout_flights(self, consolation_rounds: int, last_chance: bool) -> tuple[str, ...]:
        """The flights the event may pay: its overall placings, as ``main``."""
        return ("main",)

    def check_consolation(self, consolation_rounds: int) -> None:
        if consolation_rounds:
            # Translators: a consolation flight is the bracket of the main's early losers (KO 패자전, AR دورة الترضية).
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
        return None

    def check_divisions(self, divisions: list) -> None:
        if divisions:
            raise errors.bad_rules("divisions", gettext("divisions are for events of single players"))

    # --- the draw ---
    def build_bracket(self, tournament: Tournament, order):
        """The bracket of an elimination event; an event without one refuses (Conflict
        ``not_a_bracket``)."""
        raise errors.not_a_bracket()

    def pairings_loaded(self, pairings: list) -> None:
        """What ``state.load`` adds to the event's pairings it read (nothing but their matches)."""
        return None

    def winner(self, pairing, by_id: dict):
        """The entry that won ``pairing`` (its CONFIRMED match; a team match as its format counts
        a level one), else None."""
        return state.winner_entry(pairing, by_id)

    # --- entries ---
    def refuse_sides(self) -> None:
        """DomainError ``team_event`` when the event's entrants are not sides (players, pairs)."""
        return None

    def require_teams(self) -> None:
        """DomainError ``not_team_event`` unless the event's entrants are teams."""
        raise errors.not_team_event()

    def check_side_size(self, count: int) -> None:
        """DomainError ``bad_entrant`` unless ``count`` players make one entrant of the event."""
        raise errors.team_event()

    def sign_up_ids(self, player_id: int, partner_id: int | None) -> list[int]:
        """The players of the side a player signs up with ``partner_id`` (or without one)."""
        raise errors.team_event()

    def entrant_withdrawn(self, tournament: Tournament, refuse) -> None:
        """What the draw does once a withdrawn entrant's open matches are forfeited: nothing
        (``refuse(dependent key, why)`` is the refusal of a change that would reset a started match)."""
        return None

    def unstarted_boards_create(self, tournament: Tournament, entry) -> list:
        """The boards of a withdrawn team's team matches that have none yet, created to be
        forfeited at once: none, when every team match has its boards once it is paired."""
        return []

    def late_seed(self, tournament: Tournament) -> int:
        """The seed a late entrant takes (the next one). Raises Conflict ``late_entry_closed``
        when the format takes none now."""
        return self.next_seed(state.load(tournament))

    def next_seed(self, loaded: state.Loaded) -> int:
        return max((e.seed for e in loaded.entries if e.seed is not None), default=0) + 1

    def place_late(self, tournament: Tournament, user, refuse) -> None:
        """Where a late entrant goes once entered: nowhere yet (the next round pairs him)."""
        return None

    def refuse_walk_ins(self) -> None:
        """DomainError ``walk_in_singles_only``: walk-ins (names pasted at the desk, a player
        invited at the door) are single players."""
        raise errors.walk_in_singles_only()

    # --- a running event ---
    def refuse_match_correction(self) -> None:
        """DomainError ``team_correction`` when a match of the draw is not corrected as a whole."""
        return None

    def correction_plan(self, change: corrections.Change):
        """What correcting a match does (``corrections.paired_plan``: its result alone)."""
        return corrections.paired_plan(change)

    def new_lengths(self, tournament: Tournament, changed: Tournament, loaded: state.Loaded) -> dict[int, int]:
        """Pairing id -> its length under ``changed``'s lengths, by round (``life.rounds_lengths``)."""
        return life.rounds_lengths(tournament, changed, loaded)

    def contention(self, loaded: state.Loaded):
        """Who can still cash and win (``contention.EventContention``): only a modified Swiss counts."""
        return None

    def playoffs_start(self, tournament: Tournament, user) -> None:
        """The director stops the event for its playoffs: Conflict ``not_swiss``."""
        raise errors.not_swiss()

    # --- naming rounds ---
    def round_name(self, flight: str, number: int, size: int | None = None, *, rounds: int | None = None):
        """The name of round ``number`` (``tournaments.draw.names``): numbered, whatever the
        flight (a round robin's groups play the same rounds). Raises ``DrawError``."""
        return names.paired_round_name(number)

    def flight_round_names(self, flight: str, size: int, *, rounds: int | None = None) -> tuple:
        """Every round's name of a bracket's flight, first round first: none, when its rounds are
        numbered."""
        return ()

    # --- finishing ---
    def refuse_unfinished(self, tournament: Tournament, loaded: state.Loaded) -> None:
        """Conflict ``event_unfinished`` while a match has no confirmed result (a team match: no
        team match undecided by its boards; and what the kind adds:
        :meth:`refuse_unstarted`). A Swiss may stop after any complete round."""
        # A team match has no match of its own (its boards do): ``has_matches`` sees both, and
        # ``is_confirmed`` reads a team match as decided once a team has the majority of boards.
        open_ = [p.key for p in loaded.pairings if state.has_matches(p) and not state.is_confirmed(p)]
        if open_:
            raise errors.event_unfinished(
                ngettext("%(count)d match without a confirmed result, first %(first)s",
                         "%(count)d matches without a confirmed result, first %(first)s",
                         len(open_)) % {"count": len(open_), "first": naming.match_namer(tournament, loaded)(open_[0])}
            )
        self.refuse_unstarted(tournament, loaded)

    def refuse_unstarted(self, tournament: Tournament, loaded: state.Loaded) -> None:
        """Conflict ``event_unfinished`` for a match of the draw not started yet (every match of a
        side's event exists once its entrants are known)."""
        return None

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
                         # Translators: the event's table of places (KO 순위, AR الترتيب, never التصنيف = the rating).
                         ("tournaments:standings", gettext_lazy("Standings")))

    def bracket_view(self, loaded: state.Loaded):
        """Where the bracket of the event ``loaded`` stands (``bracket_reads.bracket_state``), or None:
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
        # Translators: %(flight)s is the flight's name (Main, Consolation, Last chance), %(number)d the round's number.
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
