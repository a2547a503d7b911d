"""Audit entries as sentences: "Score corrected from 99-0 to 5-0 by Olga, rule 9.3."

A page never shows an entry's action name, object type, id or its before and after as JSON: it
shows what :func:`describe` says. audit words no app's changes: each app registers, on
:data:`audit.hooks.sentences`, a table (:class:`audit.hooks.Wording`) that gives, for every action
it writes, a label (the action as a filter names it: "Result confirmed") and a function that turns
an entry into a translated sentence, and the stored values its sentences name. The tables are read
once, when first needed, into one lookup by action (:func:`lookup`).

An entry whose action has no describer (written by code newer than its describer) still reads as
a sentence: its action's words and who did it. ``tests/audit/test_describe.py`` walks every action
the code writes and holds each to a registered describer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.apps import apps
from django.utils.text import capfirst
from django.utils.translation import get_language_bidi, gettext, gettext_lazy

from core.text import isolate, join_list

from . import hooks
from .hooks import Sentence, Sides

#: The sides' names when the page does not know them.
NO_SIDES = (gettext_lazy("the first side"), gettext_lazy("the second side"))


@dataclass(frozen=True)
class Describer:
    """How one action is said: its label and its sentence (from the table that words it)."""

    action: str
    label: Any
    sentence: Sentence


@dataclass(frozen=True)
class Lookup:
    """Every registered table read into one: the actions by name, the suffixes (``.changed_in_admin``)
    that cover every action ending with them, and the stored values as people say them."""

    actions: dict[str, Describer]
    suffixes: dict[str, Describer]
    values: dict[str, Any]


def _read_tables() -> Lookup:
    found = Lookup({}, {}, {})
    for table in hooks.sentences.entries():  # in order: the first table to word an action words it
        for action, (label, sentence) in table.actions.items():
            if action.startswith("*"):
                found.suffixes.setdefault(action[1:], Describer(action, label, sentence))
            else:
                found.actions.setdefault(action, Describer(action, label, sentence))
        for raw, said in table.values.items():
            found.values.setdefault(raw, said)
    return found


_read_once = cache(_read_tables)


def lookup() -> Lookup:
    """The registered tables as one lookup, read once the apps are ready (they register their
    tables from ``AppConfig.ready()``); read afresh on each call before that."""
    return _read_once() if apps.ready else _read_tables()


def lookup_forget() -> None:
    """Forget the lookup: the next :func:`lookup` reads the tables again (after a table registered
    late, as a test may)."""
    _read_once.cache_clear()


def describer_of(action: str) -> Describer | None:
    """The describer registered for ``action`` (exactly, or by its suffix), or None."""
    tables = lookup()
    found = tables.actions.get(action)
    if found is None:
        found = next((d for suffix, d in tables.suffixes.items() if action.endswith(suffix)), None)
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
            named = tuple(isolate(name) for name in sides) if sides else NO_SIDES
            return as_sentence(found.sentence(NamesIsolated(entry), named))
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            pass
    label = found.label if found is not None else _words(entry.action)
    return as_sentence(gettext("%(what)s, by %(who)s") % {"what": label, "who": who(entry)})


#: The keys of an entry's ``before`` and ``after`` (and of the dicts and lists inside them) whose
#: values are names a sentence places: a person's, a side's, a team's, a club night's, an event's,
#: a division's. Their values reach every describer isolated (:func:`core.text.isolate`), so that
#: two names side by side in a right-to-left sentence stay two runs; no other value is touched
#: (codes such as a format or a status are looked up by their raw value).
NAME_KEYS = frozenset({
    "name", "names", "sides", "user", "player", "team", "claimant", "source", "target", "winner", "bye",
    "seeds", "cash_only", "members", "title", "division", "against", "opponent",
})


def _names_isolated(value, named: bool = False):
    if isinstance(value, dict):
        return {key: _names_isolated(item, key in NAME_KEYS) for key, item in value.items()}
    if isinstance(value, list):
        return [_names_isolated(item, named) for item in value]
    if named and isinstance(value, str):
        return isolate(value)
    return value


class NamesIsolated:
    """An audit entry as its describer reads it: the names in its ``before`` and ``after``
    (:data:`NAME_KEYS`) isolated; everything else read from the entry itself."""

    def __init__(self, entry):
        self._entry = entry
        self.before = _names_isolated(entry.before)
        self.after = _names_isolated(entry.after)

    def __getattr__(self, name):
        return getattr(self._entry, name)


# --- the pieces every describer uses ----------------------------------------------------------------


def who(entry) -> str:
    """Who made the change: the user's name, or "the system" (a task, a ruling's automatic step)."""
    name = getattr(entry, "actor_name", "") or ""
    if getattr(entry, "actor_id", None) is None and name in ("", "system"):
        return gettext("the system")
    return isolate(name)


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
    """The name of side 0 or 1 (isolated, :func:`core.text.isolate`), or "the director"."""
    return isolate(sides[side]) if side in (0, 1) else gettext("the director")


def listing(items: Sequence) -> str:
    """Names joined for a sentence: "Ana, Bob and Carol"."""
    items = [str(item) for item in items if item not in (None, "")]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return gettext("%(first)s and %(last)s") % {"first": join_list(items[:-1]), "last": items[-1]}


def by_who(text: Callable[[], str]) -> Sentence:
    """The sentence of an action said by who did it alone: ``text`` gives the translated
    sentence, its one placeholder ``%(who)s`` ("%(who)s opened the entries")."""

    def sentence(entry, sides: Sides) -> str:
        return text() % {"who": who(entry)}

    return sentence


def value(raw) -> str:
    """A stored value as people say it: a known one translated, any other with its underscores as
    spaces, none as "none"."""
    if raw is None or raw == "":
        return gettext("none")
    if isinstance(raw, bool):
        return gettext("yes") if raw else gettext("no")
    if isinstance(raw, str):
        known = lookup().values.get(raw)
        return str(known) if known is not None else raw.replace("_", " ")
    return str(raw)
