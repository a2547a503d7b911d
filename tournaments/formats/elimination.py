"""The knockout formats: a bracket built from the seeding and the published flights
(:class:`SingleElimination`, with its consolation, playoff and last-chance flights, and
:class:`DoubleElimination`), advanced as results are confirmed."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, ngettext

from tournaments import errors
from tournaments.draw import Bracket, add_consolation, double_elimination, names, seed_by_list, single_elimination
from tournaments.draw.errors import DrawError
from tournaments.draw.flights import add_open_last_chance, add_playoff
from tournaments.models import Pairing, Tournament
from tournaments.services import advance, bracket_reads, corrections, draw_sync, life, naming, state

from .base import EventFormat


class Elimination(EventFormat):
    """A bracket: the whole draw is made at once from the seeding, its pairings filled as the
    results they wait for are confirmed; a withdrawn entrant's opponent goes through."""

    # --- the pages ---
    has_bracket = True
    draw_pages = (("tournaments:bracket", gettext_lazy("Bracket")),)

    def bracket_view(self, loaded: state.Loaded) -> bracket_reads.BracketView:
        """Where the bracket stands from the event's confirmed results."""
        return bracket_reads.bracket_state(loaded)

    def bracket_read(self, tournament: Tournament):
        if tournament.drawn_at is None:
            return None
        loaded = state.load(tournament)
        return loaded, self.bracket_view(loaded)

    def team_card_winner(self, pairing, result):
        """A team must go through: a level team match goes to the winner of board 1."""
        return state.team_winner(pairing)

    def desk_round_numbers(self, numbers: tuple[int, ...]) -> tuple[int, ...]:
        """None: a bracket's desk shows its flights' rounds together."""
        return ()

    def check_bracket(self) -> None:
        """An elimination has its bracket."""

    def winner(self, pairing, by_id: dict):
        """A team must go through: a level team match goes to the winner of board 1."""
        return state.winner_entry(pairing, by_id, bracket=True)

    def round_name(self, flight: str, number: int, size: int | None = None, *, rounds: int | None = None):
        """Named from the bracket (``names.round_name``: ``size`` and ``rounds`` as there)."""
        if size is None:
            raise DrawError("a bracket's rounds are named from its size", code="bad_size", size=size)
        return names.round_name(flight, number, size, rounds=rounds)

    def flight_round_names(self, flight: str, size: int, *, rounds: int | None = None) -> tuple:
        return names.flight_round_names(flight, size, rounds=rounds)

    def refuse_unfinished(self, tournament: Tournament, loaded: state.Loaded) -> None:
        """A bracket must be played out: every match decided."""
        view = bracket_reads.bracket_state(loaded)
        if not view.state.finished:
            waiting = [s.match.id for s in view.state.matches if s.status in ("ready", "waiting")]
            raise errors.event_unfinished(
                ngettext("the bracket is not played out: %(count)d match to go, first %(first)s",
                         "the bracket is not played out: %(count)d matches to go, first %(first)s",
                         len(waiting)) % {"count": len(waiting),
                                          "first": naming.match_namer(tournament, loaded)(waiting[0])}
            )

    def correction_plan(self, change: corrections.Change):
        """The round named from the bracket, and the matches the correction resets
        (``corrections.bracket_plan``)."""
        return corrections.bracket_plan(change)

    def new_lengths(self, tournament: Tournament, changed: Tournament, loaded: state.Loaded) -> dict[int, int]:
        """By the bracket match each pairing is (``life.bracket_lengths``)."""
        return life.bracket_lengths(tournament, changed, loaded)

    def entrant_withdrawn(self, tournament: Tournament, refuse) -> None:
        """His opponents go through: the bracket advances from the whole event."""
        draw_sync.bracket_sync(tournament, state.load(tournament), created_by=tournament.organiser, refuse=refuse)

    def late_seed(self, tournament: Tournament) -> int:
        """The next seed, while the bracket has a bye to fill."""
        loaded = state.load(tournament)
        order = loaded.order
        size = self.build_bracket(tournament, order).size
        if len(order) >= size:
            # Translators: %(count)d entrants already fill the %(size)d places of the bracket; a bye is an empty place
            # a late entrant could take (KO 부전승, RO loc liber).
            raise errors.late_entry_closed(gettext("the bracket is full (%(count)d entrants in %(size)d places): no bye to fill")
                                           % {"count": len(order), "size": size})
        return self.next_seed(loaded)

    def place_late(self, tournament: Tournament, user, refuse) -> None:
        """Into the bye his seed fills (the bracket advances from the whole event)."""
        draw_sync.bracket_sync(tournament, state.load(tournament), created_by=user, refuse=refuse)

    def match_result_changed(self, tournament: Tournament, match) -> None:
        """Advance the bracket from what the result feeds (``advance.bracket_confirmed``)."""
        advance.bracket_confirmed(tournament, match)

    def team_match_changed(self, tournament: Tournament, loaded: state.Loaded, pairing) -> None:
        """Advance the bracket from the whole event, refusing to reset a started match."""
        draw_sync.bracket_sync(tournament, loaded, created_by=tournament.organiser,
                               refuse=draw_sync.refuse_for(tournament, pairing))

    def draw(self, tournament: Tournament, order: tuple[int, ...], user, entries: list) -> state.Loaded:
        """A pairing per bracket match; the entries filled and the first matches made as
        advancement does with no results."""
        bracket = self.build_bracket(tournament, order)
        rows = Pairing.objects.bulk_create(
            Pairing(tournament=tournament, key=m.id, flight=m.flight, round_number=m.round, length=m.length)
            for m in bracket.matches
        )
        loaded = self.drawn(tournament, entries, rows)
        draw_sync.bracket_sync(tournament, loaded, created_by=user, refuse=lambda dependent, why: errors.already_drawn(),
                               audit=False)
        return loaded


class SingleElimination(Elimination):
    """Single elimination: one loss and out of the main, with the flights its rules publish (a
    consolation, the playoff for 2nd, a last chance) and re-entry into the main's first round."""

    format = Tournament.Format.SINGLE_ELIMINATION
    length_keys = {"main": None, "consolation": "main", "last_chance": "consolation", "playoff": "main"}

    def payout_flights(self, consolation_rounds: int, last_chance: bool) -> tuple[str, ...]:
        """The main, and the consolation and last chance as the event has them."""
        return ("main",) + (("consolation",) if consolation_rounds else ()) + (("last_chance",) if last_chance else ())

    takes_reentries = True

    def check_consolation(self, consolation_rounds: int) -> None:
        """Any number of consolation rounds (their range is the rules' own check)."""

    def check_last_chance_open(self, last_chance_open: bool) -> None:
        """A last chance open to everyone who has not cashed is a single elimination's flight."""

    def check_reentries(self, reentries: int) -> None:
        """Re-entry is into the main of a single elimination."""

    def build_bracket(self, tournament: Tournament, order) -> Bracket:
        """The main, with the consolation, the playoff for 2nd and the last chance the rules
        publish. Pure: the same order and rules give the same bracket."""
        schedule = state.schedule
        bracket = single_elimination(seed_by_list(order), lengths=schedule(tournament, "main"))
        if tournament.consolation_rounds:
            bracket = add_consolation(bracket, lengths=schedule(tournament, "consolation"),
                                      rounds=tournament.consolation_rounds, shifted=bool(tournament.consolation_shifted))
            # --- the playoff for 2nd ---
            if tournament.playoff_second:
                bracket = add_playoff(bracket, lengths=schedule(tournament, "playoff"))
            if tournament.last_chance:
                bracket = add_consolation(bracket, name="last_chance", source="consolation", rounds=1,
                                          lengths=schedule(tournament, "last_chance"))
        # --- a last chance open to everyone who has not cashed ---
        if tournament.last_chance_open:
            paid = {flight: len(rule["percentages"]) for flight, rule in (tournament.payouts or {}).items()}
            bracket = add_open_last_chance(bracket, lengths=schedule(tournament, "last_chance"), paid=paid)
        return bracket

    def rule_lines(self, tournament: Tournament) -> list[tuple[str, str]]:
        """The consolation flight, then the shifted consolation, the playoff for 2nd, the open last
        chance and the paid places."""
        rounds = tournament.consolation_rounds
        if rounds == 0:
            consolation = gettext("none")
        elif tournament.last_chance:
            consolation = ngettext("losers of the first round, with a last-chance flight",
                                   "losers of the first %(count)d rounds, with a last-chance flight",
                                   rounds) % {"count": rounds}
        else:
            consolation = ngettext("first-round losers", "losers of the first %(count)d rounds",
                                   rounds) % {"count": rounds}
        lines = [(gettext("Consolation flight"), consolation)]
        if tournament.consolation_shifted:
            lines.append((gettext("Shifted progressive consolation"),
                          gettext("losers of later main rounds join it sooner")))
        if tournament.playoff_second:
            lines.append((gettext("Playoff for 2nd"),
                          gettext("the loser of the main final plays the winner of the consolation")))
        if tournament.last_chance_open:
            lines.append((gettext("Last-chance flight"), gettext("open to everyone who goes out without cashing")))
        if tournament.payouts:
            count = sum(len(rule["percentages"]) for rule in tournament.payouts.values())
            lines.append((gettext("Paid places"), ngettext("%(count)d place paid", "%(count)d places paid", count)
                          % {"count": count}))
        return lines


class DoubleElimination(Elimination):
    """Double elimination: a winners' bracket, a losers' bracket and a final (with its reset)."""

    format = Tournament.Format.DOUBLE_ELIMINATION
    length_keys = {"winners": "main", "losers": "winners", "final": None, "main": None}

    def minimum_entries(self, tournament: Tournament) -> int:
        return 3

    def build_bracket(self, tournament: Tournament, order) -> Bracket:
        """The winners' and losers' brackets and the final, at their published lengths."""
        return double_elimination(
            seed_by_list(order), lengths=state.schedule(tournament, "winners"),
            losers_lengths=state.schedule(tournament, "losers"), final_lengths=state.schedule(tournament, "final"),
        )
