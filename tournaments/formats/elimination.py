"""The knockout formats: a bracket built from the seeding and the published flights
(:class:`SingleElimination`, with its consolation, playoff and last-chance flights, and
:class:`DoubleElimination`), advanced as results are confirmed."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, ngettext

from tournaments.draw import Bracket, add_consolation, double_elimination, seed_by_list, single_elimination
from tournaments.draw.flights import add_open_last_chance, add_playoff
from tournaments.models import Tournament
from tournaments.services import state

from .base import EventFormat


class Elimination(EventFormat):
    """A bracket: the whole draw is made at once from the seeding, its pairings filled as the
    results they wait for are confirmed; a withdrawn entrant's opponent goes through."""

    # --- the pages ---
    has_bracket = True
    draw_pages = (("tournaments:bracket", gettext_lazy("Bracket")),)

    def bracket_view(self, loaded: state.Loaded) -> state.BracketView:
        """Where the bracket stands from the event's confirmed results."""
        return state.bracket_state(loaded)

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


class SingleElimination(Elimination):
    """Single elimination: one loss and out of the main, with the flights its rules publish (a
    consolation, the playoff for 2nd, a last chance) and re-entry into the main's first round."""

    format = Tournament.Format.SINGLE_ELIMINATION
    length_keys = {"main": None, "consolation": "main", "last_chance": "consolation", "playoff": "main"}

    def payout_flights(self, consolation_rounds: int, last_chance: bool) -> tuple[str, ...]:
        """The main, and the consolation and last chance as the event has them."""
        return ("main",) + (("consolation",) if consolation_rounds else ()) + (("last_chance",) if last_chance else ())

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

    def build_bracket(self, tournament: Tournament, order) -> Bracket:
        """The winners' and losers' brackets and the final, at their published lengths."""
        return double_elimination(
            seed_by_list(order), lengths=state.schedule(tournament, "winners"),
            losers_lengths=state.schedule(tournament, "losers"), final_lengths=state.schedule(tournament, "final"),
        )
