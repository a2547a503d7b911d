"""A match of the draw named as people know it: by its players and its round ("the match Alice
Lambert v Bob Chen (round 2)", "the match Ana v Bob (a semi-final of the consolation flight)"),
never by its key in the draw (``main-2-1``), which only the API's machines and the audit log keep.

A refusal that names another match of the event (the one a correction would reset, the bye a late
entrant would fill) says it so; the key stays in the refusal's details.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext

from core.text import isolate
from tournaments import formats
from tournaments.draw import DrawError
from tournaments.draw import names as round_names
from tournaments.models import Tournament
from tournaments.round_labels import round_phrase

from . import state

__all__ = ["match_namer", "match_phrase"]


def _flight_round(key: str) -> tuple[str, int] | None:
    """The flight and round a draw key names (``main-2-1``: the main's round 2), or None."""
    flight, _sep, _number = key.rpartition("-")
    flight, _sep, number = flight.rpartition("-")
    return (flight, int(number)) if flight and number.isdigit() else None


def _round(tournament: Tournament, flight: str, number: int, counts: dict[str, int]) -> str:
    """Round ``number`` of ``flight`` inside a sentence ("round 2", "a semi-final", "the final of
    the consolation flight"), named as the event's pages name it."""
    name = round_names.RoundName(round_names.ROUND, number)
    top = counts.get("winners") or counts.get("main")
    if top and flight in counts:
        fed = flight in ("consolation", "last_chance")
        try:
            named = formats.format_of(tournament).flight_round_names(flight, 2 ** top,
                                                                    rounds=counts[flight] if fed else None)
            if 1 <= number <= len(named):
                name = named[number - 1]
        except DrawError:
            pass  # a round the names do not know: numbered, as the pages show it
    return round_phrase(name, flight=flight)


def match_phrase(round_text: str, names: list[str]) -> str:
    """A match in a sentence from its round (``round_text``, as :func:`_round` words it) and the
    names of the players known so far."""
    if len(names) == 2:
        return gettext("the match %(a)s v %(b)s (%(round)s)") % {
            "a": isolate(names[0]), "b": isolate(names[1]), "round": round_text}
    if len(names) == 1:
        return gettext("the match of %(a)s (%(round)s)") % {"a": isolate(names[0]), "round": round_text}
    return round_text  # "a semi-final", "round 3": no one is in it yet


def match_namer(tournament: Tournament, loaded: state.Loaded | None = None) -> Callable[[str], str]:
    """A function that names the match of ``tournament``'s draw a key stands for
    (:func:`match_phrase`: its players as they are stored, its round), reading the event once,
    when first asked (``loaded``: the event as already read). A key the draw has not stored yet is
    named by its round alone. Reads only."""
    kept: list[state.Loaded] = [loaded] if loaded is not None else []

    def name(key: str) -> str:
        if not kept:
            kept.append(state.load(tournament))
        event = kept[0]
        counts: dict[str, int] = {}
        for pairing in event.pairings:
            counts[pairing.flight] = max(counts.get(pairing.flight, 0), pairing.round_number)
        pairing = event.by_key.get(key)
        if pairing is not None:
            flight, number = pairing.flight, pairing.round_number
            entries = [event.by_id.get(e) for e in (pairing.entry0_id, pairing.entry1_id) if e is not None]
            names = [state.entrant_name(entry) for entry in entries if entry is not None]
        else:
            found = _flight_round(str(key))
            if found is None:
                return gettext("a later match")
            (flight, number), names = found, []
        return match_phrase(_round(tournament, flight, number, counts), names)

    return name
