"""The names of a bracket's rounds, as values (pure: the words are the display layer's).

One place decides what every elimination round is called; the pages, the SVG drawing, the match
page and the API all ask :func:`round_name` and render its :class:`RoundName` in the reader's
language (``tournaments.round_labels.round_label``).

- ``main`` (single elimination) and the fed flights (``consolation``, ``last_chance``): named from
  the flight's last round backwards, ``final``, ``semi_final``, ``quarter_final``, ``round_of``
  (16); rounds before those are numbered from the start (``round`` 1, 2...). The main flight's
  number of rounds follows from the bracket size (a bracket of 16 has 4 rounds); a fed flight's is
  its own (``rounds``), since its entry rounds do not halve the field.
- ``winners``: the winners' bracket of a double elimination, named from its last round backwards
  as the main flight is (``winners_final``, ``winners_semi_final``, ``winners_quarter_final``),
  its earlier rounds ``winners_round`` 1, 2...;
- ``losers``: its losers' bracket, ``losers_round`` 1, 2..., its last round ``losers_final``;
- ``final``: the grand final (round 1, ``grand_final``) and its reset (round 2, ``reset``: the
  second match, played only if the losers' bracket winner wins the first);
- ``playoff``: the playoff for 2nd (its one round, ``playoff_second``: the main final's loser
  against the consolation's winner).

A Swiss or a round robin has no bracket: its rounds are numbered (``round`` 1, 2...), by
:func:`paired_round_name`; an event's format (``tournaments.formats``) says which of the two
names its rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import DrawError

FINAL, SEMI_FINAL, QUARTER_FINAL, ROUND_OF, ROUND = "final", "semi_final", "quarter_final", "round_of", "round"
WINNERS_ROUND, LOSERS_ROUND, GRAND_FINAL, RESET = "winners_round", "losers_round", "grand_final", "reset"
WINNERS_FINAL, WINNERS_SEMI_FINAL, WINNERS_QUARTER_FINAL = "winners_final", "winners_semi_final", "winners_quarter_final"
LOSERS_FINAL = "losers_final"
PLAYOFF_SECOND = "playoff_second"  # the playoff for 2nd (flight ``playoff``, one round)
KINDS = (FINAL, SEMI_FINAL, QUARTER_FINAL, ROUND_OF, ROUND, WINNERS_ROUND, LOSERS_ROUND, GRAND_FINAL, RESET,
         WINNERS_FINAL, WINNERS_SEMI_FINAL, WINNERS_QUARTER_FINAL, LOSERS_FINAL, PLAYOFF_SECOND)
#: The winners' bracket's last rounds, by their distance from its final.
WINNERS_FROM_THE_END = (WINNERS_FINAL, WINNERS_SEMI_FINAL, WINNERS_QUARTER_FINAL)
#: The last rounds of a knockout by their distance from its final (0: the final itself).
FROM_THE_END = ((FINAL, 0), (SEMI_FINAL, 0), (QUARTER_FINAL, 0), (ROUND_OF, 16))


@dataclass(frozen=True, slots=True)
class RoundName:
    """A round's name as a value: its ``kind`` (one of :data:`KINDS`) and a ``number`` where the
    kind carries one (``round`` 3, ``losers_round`` 2, ``round_of`` 16; 0 otherwise)."""

    kind: str
    number: int = 0


def _rounds_of(size: int) -> int:
    if not isinstance(size, int) or isinstance(size, bool) or size < 2 or size & (size - 1):
        raise DrawError(f"a bracket's size is a power of two from 2, not {size!r}", code="bad_size", size=size)
    return size.bit_length() - 1


def round_name(flight: str, number: int, size: int, *, rounds: int | None = None) -> RoundName:
    """The name of round ``number`` (from 1) of the flight ``flight`` of a bracket of ``size``
    (the main or winners' bracket's size, a power of two); ``rounds`` is the flight's own number
    of rounds, needed for a fed flight (``consolation``, ``last_chance``) and checked when given.

    Raises :class:`DrawError` ``bad_size`` (not a power of two from 2) or ``bad_round`` (a round
    the flight does not have, or a fed flight without ``rounds``).
    """
    count = _rounds_of(size)
    if flight in ("consolation", "last_chance"):
        if rounds is None:
            raise DrawError(f"the rounds of the {flight} flight are named from its number of rounds",
                            code="bad_round", flight=flight)
        count = rounds
    elif rounds is not None and flight in ("main", "winners") and rounds != count:
        raise DrawError(f"a bracket of {size} has {count} rounds, not {rounds}", code="bad_round", flight=flight)
    if flight == "final":
        count = 2
    if flight == "playoff":
        count = 1
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise DrawError(f"round {number!r} is not a round", code="bad_round", flight=flight, round=number)
    if flight == "losers":
        # Two losers' rounds for every winners' round after the first: one among themselves, one
        # against the players dropping from the winners' bracket.
        if number > 2 * (count - 1):
            raise DrawError(f"the losers' bracket of {size} has {2 * (count - 1)} rounds", code="bad_round",
                            flight=flight, round=number)
        return RoundName(LOSERS_FINAL) if number == 2 * (count - 1) else RoundName(LOSERS_ROUND, number)
    if number > count:
        raise DrawError(f"the {flight} flight has {count} rounds", code="bad_round", flight=flight, round=number)
    if flight == "final":
        return RoundName(GRAND_FINAL if number == 1 else RESET)
    if flight == "playoff":
        return RoundName(PLAYOFF_SECOND)
    if flight == "winners":
        back = count - number
        return RoundName(WINNERS_FROM_THE_END[back]) if back < len(WINNERS_FROM_THE_END) else RoundName(WINNERS_ROUND, number)
    if flight not in ("main", "consolation", "last_chance"):
        raise DrawError(f"no flight is called {flight!r}", code="bad_round", flight=flight)
    back = count - number
    if back < len(FROM_THE_END):
        return RoundName(*FROM_THE_END[back])
    return RoundName(ROUND, number)


def flight_round_names(flight: str, size: int, *, rounds: int | None = None) -> tuple[RoundName, ...]:
    """Every round's name of a flight, first round first (see :func:`round_name`)."""
    fixed = {"playoff": 1, "final": 2}
    count = rounds if rounds is not None else fixed.get(flight) or (
        2 * (_rounds_of(size) - 1) if flight == "losers" else _rounds_of(size))
    return tuple(round_name(flight, number, size, rounds=rounds) for number in range(1, count + 1))


def paired_round_name(number: int) -> RoundName:
    """Round ``number`` (from 1) of a Swiss or a round robin: ``round`` ``number``. Raises
    :class:`DrawError` ``bad_round`` for a number that is not a round."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise DrawError(f"round {number!r} is not a round", code="bad_round", round=number)
    return RoundName(ROUND, number)


__all__ = ["KINDS", "RoundName", "flight_round_names", "paired_round_name", "round_name"]
