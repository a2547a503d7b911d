"""Audit entries as sentences: "Score corrected from 99-0 to 5-0 by Olga, rule 9.3."

A page never shows an entry's action name, object type, id or its before and after as JSON: it
shows what :func:`describe` says. Each domain registers, for every action it writes, a label (the
action as a filter names it: "Result confirmed") and a function that turns an entry into a
translated sentence (:func:`describer_register`). The domains below audit (none) and the apps
above it that cannot be asked from here register theirs when they are ready: rulings from
``rulings.hooks``; the match, event, club and chouette describers live in
:mod:`audit.describers`, which reads only the plain JSON those apps write (no import of theirs).

An entry whose action has no describer (written by code newer than its describer) still reads as
a sentence: its action's words and who did it. ``tests/audit/test_describe.py`` walks every action
the code writes and holds each to a registered describer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.text import capfirst
from django.utils.translation import get_language_bidi, gettext, gettext_lazy

Sides = Sequence[str]
#: A sentence from an entry and the names of its match's sides (when the page knows them).
Sentence = Callable[["object", Sides], str]

#: The sides' names when the page does not know them.
NO_SIDES = (gettext_lazy("the first side"), gettext_lazy("the second side"))


@dataclass(frozen=True)
class Describer:
    action: str
    label: str
    sentence: Sentence


_describers: dict[str, Describer] = {}
#: Describers of every action ending with a suffix (the admin's ``<model>.changed_in_admin``).
_suffixes: dict[str, Describer] = {}


def describer_register(action: str, label, sentence: Sentence) -> None:
    """Register (or, for the same action, replace: ``ready()`` may run twice) how ``action`` is
    said. ``action`` starting with ``*`` (``*.changed_in_admin``) covers every action ending
    with the rest."""
    if action.startswith("*"):
        _suffixes[action[1:]] = Describer(action, label, sentence)
    else:
        _describers[action] = Describer(action, label, sentence)


def describers_register(table: dict[str, tuple[object, Sentence]]) -> None:
    """Register a domain's describers at once: ``{action: (label, sentence)}``."""
    for action, (label, sentence) in table.items():
        describer_register(action, label, sentence)


def describer_of(action: str) -> Describer | None:
    """The describer registered for ``action`` (exactly, or by its suffix), or None."""
    found = _describers.get(action)
    if found is None:
        found = next((d for suffix, d in _suffixes.items() if action.endswith(suffix)), None)
    return found


def _words(action: str) -> str:
    # The action's own words, for an action nobody described yet: "entry.checked_in" -> "entry checked in".
    return action.replace(".", " ").replace("_", " ")


def action_label(action: str) -> str:
    """The action as a filter or a heading names it ("Result confirmed")."""
    found = describer_of(action)
    return str(found.label) if found is not None else capfirst(_words(action))


def as_sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    text = capfirst(str(text).strip())
    return text if text.endswith((".", "!", "?")) else f"{text}."


def describe(entry, sides: Sides | None = None) -> str:
    """``entry`` (an ``AuditEntry`` or anything with its ``action``, ``actor_name``, ``before``,
    ``after`` and ``note``) as one translated sentence. ``sides``: the names of the entry's
    match's sides, when the caller has them. Raises nothing: an entry whose data its describer
    cannot read (an older shape) is said by its label and who did it."""
    found = describer_of(entry.action)
    if found is not None:
        try:
            return as_sentence(found.sentence(entry, tuple(sides) if sides else NO_SIDES))
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            pass
    label = found.label if found is not None else _words(entry.action)
    return as_sentence(gettext("%(what)s, by %(who)s") % {"what": label, "who": who(entry)})


# --- the pieces every describer uses ----------------------------------------------------------------


def who(entry) -> str:
    """Who made the change: the user's name, or "the system" (a task, a ruling's automatic step)."""
    name = getattr(entry, "actor_name", "") or ""
    if getattr(entry, "actor_id", None) is None and name in ("", "system"):
        return gettext("the system")
    return name


def need(values: dict, key: str):
    """``values[key]``, which the sentence cannot do without: missing or empty, a KeyError, and
    :func:`describe` says the entry by its label instead."""
    found = values.get(key)
    if found is None or found == "":
        raise KeyError(key)
    return found


def data(value) -> dict:
    """``before`` or ``after`` as a dict (an empty one for none)."""
    return value if isinstance(value, dict) else {}


def ltr(value) -> str:
    """``value`` as text that reads left to right inside a sentence of any direction: in a
    right-to-left language, between Unicode's left-to-right isolate marks (a sentence is plain
    text: a page escapes it, an email sends it as it is), so "5-3" does not show as "3-5";
    unchanged otherwise."""
    text = str(value)
    return f"\u2066{text}\u2069" if get_language_bidi() else text


def score(value) -> str:
    """A score in the sides' order ("5-3"), or "no result"."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and None not in value:
        return ltr(f"{value[0]}-{value[1]}")
    return gettext("no result")


def side_name(side, sides: Sides) -> str:
    return str(sides[side]) if side in (0, 1) else gettext("the director")


def listing(items: Sequence) -> str:
    """Names joined for a sentence: "Ana, Bob and Carol"."""
    items = [str(item) for item in items if item not in (None, "")]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


#: The stored values the sentences name (statuses, roles, formats, categories...), as people say them.
VALUES = {
    # matches
    "scheduled": gettext_lazy("scheduled"), "in_play": gettext_lazy("in play"), "reported": gettext_lazy("reported"),
    "confirmed": gettext_lazy("confirmed"), "disputed": gettext_lazy("disputed"),
    "pending": gettext_lazy("pending"), "given": gettext_lazy("given"), "declined": gettext_lazy("declined"),
    "agreed": gettext_lazy("agreed"), "contested": gettext_lazy("contested"), "superseded": gettext_lazy("superseded"),
    # events
    "single_elimination": gettext_lazy("single elimination"), "double_elimination": gettext_lazy("double elimination"),
    "round_robin": gettext_lazy("round robin"), "swiss": gettext_lazy("Swiss"),
    "individual": gettext_lazy("individual"), "pairs": gettext_lazy("consultation pairs"),
    "teams": gettext_lazy("teams"), "draft": gettext_lazy("draft"), "open": gettext_lazy("open"),
    "closed": gettext_lazy("closed"), "running": gettext_lazy("running"), "finished": gettext_lazy("finished"),
    "entered": gettext_lazy("entered"), "checked_in": gettext_lazy("checked in"), "withdrawn": gettext_lazy("withdrawn"),
    "main": gettext_lazy("main"), "consolation": gettext_lazy("consolation"), "last_chance": gettext_lazy("last chance"),
    # clubs
    "owner": gettext_lazy("owner"), "organiser": gettext_lazy("organiser"), "member": gettext_lazy("member"),
    "requested": gettext_lazy("asked to join"), "invited": gettext_lazy("invited"), "active": gettext_lazy("active"),
    "ended": gettext_lazy("ended"),
    # rulings
    "ruled": gettext_lazy("ruled"), "appealed": gettext_lazy("under appeal"), "decided": gettext_lazy("decided"),
    "settled": gettext_lazy("settled"), "in_force": gettext_lazy("in force"), "overturned": gettext_lazy("overturned"),
    "replaced": gettext_lazy("replaced"), "uphold": gettext_lazy("upheld"), "overturn": gettext_lazy("overturned"),
    "replace": gettext_lazy("replaced"),
    "illegal_move": gettext_lazy("an illegal move"), "cocked_dice": gettext_lazy("cocked dice"),
    "premature_roll": gettext_lazy("a premature roll"), "crawford_double": gettext_lazy("a double in the Crawford game"),
    "cube_or_setup": gettext_lazy("a misplaced cube or a wrong setup"), "late_arrival": gettext_lazy("a late arrival"),
    "slow_play": gettext_lazy("slow play"), "score_disagreement": gettext_lazy("a score disagreement"),
    "flag_fall": gettext_lazy("a flag fall"),
    "no_show": gettext_lazy("a no-show"), "conduct": gettext_lazy("conduct"), "other": gettext_lazy("another matter"),
}


def value(raw) -> str:
    """A stored value as people say it: a known one translated, any other with its underscores as
    spaces, none as "none"."""
    if raw is None or raw == "":
        return gettext("none")
    if isinstance(raw, bool):
        return gettext("yes") if raw else gettext("no")
    if isinstance(raw, str):
        known = VALUES.get(raw)
        return str(known) if known is not None else raw.replace("_", " ")
    return str(raw)


def draw_place(key) -> str:
    """A pairing's draw key as words: "main-2-3" -> "main, round 2, match 3"; "swiss-4-7" ->
    "round 4, match 7"."""
    parts = str(key or "").split("-")
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        where = {"round": parts[1], "number": parts[2]}
        if parts[0] in ("swiss", "rr", "rounds", "robin", "round_robin"):
            return gettext("round %(round)s, match %(number)s") % where
        return gettext("%(flight)s, round %(round)s, match %(number)s") % {**where, "flight": value(parts[0])}
    return value(key)
