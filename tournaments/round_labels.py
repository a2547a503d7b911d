"""A round's name (``tournaments.draw.names``: the one place that decides what a round is called)
in the reader's language: as a heading or a column's head (:func:`round_label`: "Semi-finals",
"Winners' final", "Round 3"), compact ("SF", "WF", "Rd 3"), or inside a sentence
(:func:`round_phrase`: "a semi-final", "the winners' final", "a quarter-final of the consolation
flight"). Every page, the API, the drawing and the corrections' sentences name rounds through
these two functions."""

from __future__ import annotations

from django.utils.translation import gettext, pgettext

from tournaments.draw import names as round_names
from tournaments.draw.names import RoundName


def round_label(name: RoundName | None, *, number: int = 0, compact: bool = False) -> str:
    """A round's name in the reader's language: "Final", "Semi-finals", "Losers' round 2", "Grand
    final"...; ``compact`` for tight places (a column of the drawing, a list): "F", "SF", "L2",
    "GF". None (a name not known, e.g. kept before names were): "Round ``number``"."""
    kind, count = (name.kind, name.number) if name is not None else (round_names.ROUND, number)
    if compact:
        return {
            round_names.FINAL: pgettext("round, compact", "F"),
            round_names.SEMI_FINAL: pgettext("round, compact", "SF"),
            round_names.QUARTER_FINAL: pgettext("round, compact", "QF"),
            round_names.ROUND_OF: pgettext("round, compact", "R%(count)d"),
            round_names.ROUND: pgettext("round, compact", "Rd %(count)d"),
            round_names.WINNERS_ROUND: pgettext("round, compact", "W%(count)d"),
            round_names.LOSERS_ROUND: pgettext("round, compact", "L%(count)d"),
            # Translators: the grand final of a double elimination, in a bracket's narrow column: as short as the
            # other compact round names (KO 최종결).
            round_names.GRAND_FINAL: pgettext("round, compact", "GF"),
            round_names.RESET: pgettext("round, compact", "GF reset"),
            round_names.WINNERS_FINAL: pgettext("round, compact", "WF"),
            round_names.WINNERS_SEMI_FINAL: pgettext("round, compact", "WSF"),
            round_names.WINNERS_QUARTER_FINAL: pgettext("round, compact", "WQF"),
            round_names.LOSERS_FINAL: pgettext("round, compact", "LF"),
            round_names.PLAYOFF_SECOND: pgettext("round, compact", "P2"),
        }[kind] % {"count": count}
    return {
        round_names.FINAL: gettext("Final"),
        round_names.SEMI_FINAL: gettext("Semi-finals"),
        round_names.QUARTER_FINAL: gettext("Quarter-finals"),
        round_names.ROUND_OF: gettext("Round of %(count)d"),
        round_names.ROUND: gettext("Round %(count)d"),
        round_names.WINNERS_ROUND: gettext("Winners' round %(count)d"),
        round_names.LOSERS_ROUND: gettext("Losers' round %(count)d"),
        round_names.GRAND_FINAL: gettext("Grand final"),
        round_names.RESET: gettext("Grand final reset"),
        round_names.WINNERS_FINAL: gettext("Winners' final"),
        round_names.WINNERS_SEMI_FINAL: gettext("Winners' semi-finals"),
        round_names.WINNERS_QUARTER_FINAL: gettext("Winners' quarter-finals"),
        round_names.LOSERS_FINAL: gettext("Losers' final"),
        round_names.PLAYOFF_SECOND: gettext("Playoff for 2nd"),
    }[kind] % {"count": count}


def round_phrase(name: RoundName, *, flight: str = "main") -> str:
    """A match's round as a sentence names it ("Alice wins a semi-final, ..."): "the final", "a
    semi-final", "losers' round 2", "the grand final"; a fed flight's round says its flight ("the
    final of the consolation flight")."""
    kind, count = name.kind, name.number
    phrase = {
        round_names.FINAL: gettext("the final"),
        round_names.SEMI_FINAL: gettext("a semi-final"),
        round_names.QUARTER_FINAL: gettext("a quarter-final"),
        round_names.ROUND_OF: gettext("a round-of-%(count)d match"),
        round_names.ROUND: gettext("round %(number)s"),
        round_names.WINNERS_ROUND: gettext("winners' round %(count)d"),
        round_names.LOSERS_ROUND: gettext("losers' round %(count)d"),
        round_names.GRAND_FINAL: gettext("the grand final"),
        round_names.RESET: gettext("the deciding grand final"),
        round_names.WINNERS_FINAL: gettext("the winners' final"),
        round_names.WINNERS_SEMI_FINAL: gettext("a winners' semi-final"),
        round_names.WINNERS_QUARTER_FINAL: gettext("a winners' quarter-final"),
        round_names.LOSERS_FINAL: gettext("the losers' final"),
        round_names.PLAYOFF_SECOND: gettext("the playoff for 2nd"),
    }[kind] % {"count": count, "number": count}
    flights = {"consolation": gettext("the consolation flight"), "last_chance": gettext("the last-chance flight")}
    if flight in flights:
        return gettext("%(round)s of %(flight)s") % {"round": phrase, "flight": flights[flight]}
    return phrase
