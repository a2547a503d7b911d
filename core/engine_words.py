"""The engine's actions, game endings, resignation levels and sides in the reader's language.

The engine (``engine/``) is pure Python and speaks codes: an action's ``type`` ("roll", "move",
"double", "take", "drop", "beaver", "raccoon", "resign", "accept", "decline", "opening_tie",
"setup"), a game's ending ("single", "gammon", "backgammon", "drop", "resign"), a resignation's
level (1 single, 2 gammon, 3 backgammon) and the sides 0 and 1. Its ``Action.describe()`` is English
for its own errors and logs; what a person reads (a match's move log and games, a dispute's log, a
chouette board's log) is worded here, one translatable phrase per code, with ``msgctxt`` where the
English word says two things ("take" a double, "accept" a resignation). The data inside a phrase
stays as written: the dice ("52"), a play ("13/10 13/11"), a cube's face and a Position ID, isolated
left to right in a right-to-left sentence so that "13/10 13/11" never reads backwards.

A test (tests/test_i18n_engine_words.py) fails when the engine gains an action type, an ending or a
level that has no phrase here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.translation import get_language_bidi, gettext, pgettext, pgettext_lazy

from engine.actions import BACKGAMMON, GAMMON, SINGLE, Action, action_from_dict
from engine.errors import EngineError

from .text import isolate

__all__ = ["ACTION_WORDS", "ENDING_CHOICES", "ENDING_LABELS", "LEVEL_LABELS", "action_text", "ending_text",
           "level_text", "logged_action_text", "side_text"]


def _ltr(value) -> str:
    """``value`` between Unicode's left-to-right isolates in a right-to-left language (the phrase is
    plain text: a page escapes it, an email sends it as it is); unchanged otherwise."""
    text = str(value)
    return f"\u2066{text}\u2069" if get_language_bidi() else text


#: A game's ending (``engine.game.ENDINGS``, ``matches.models.Game.ending``) as a short label, as
#: the match page shows it after the points won: "(gammon, cube 2)".
ENDING_LABELS = {
    "single": pgettext_lazy("game ending", "single game"),
    "gammon": pgettext_lazy("game ending", "gammon"),
    "backgammon": pgettext_lazy("game ending", "backgammon"),
    "drop": pgettext_lazy("game ending", "double dropped"),
    "resign": pgettext_lazy("game ending", "resignation"),
}
#: The choices of a model field that keeps an ending code.
ENDING_CHOICES = list(ENDING_LABELS.items())

#: A resignation's level (``engine.actions.LEVEL_NAMES``): what the resigning side gives away.
LEVEL_LABELS = {
    SINGLE: pgettext_lazy("resignation level", "a single game"),
    GAMMON: pgettext_lazy("resignation level", "a gammon"),
    BACKGAMMON: pgettext_lazy("resignation level", "a backgammon"),
}


def ending_text(ending: str) -> str:
    """A game's ending code in the reader's language; an unknown code as it is."""
    label = ENDING_LABELS.get(ending)
    return str(label) if label is not None else str(ending)


def level_text(level: int) -> str:
    """A resignation level (1, 2, 3) in the reader's language; another value as a number."""
    label = LEVEL_LABELS.get(level)
    return str(label) if label is not None else _ltr(level)


def side_text(side: int | None, names: Sequence[str] | None = None) -> str:
    """A side as a person says it: by its name when ``names`` (side 0's first) are known, else
    "the first side" or "the second side"; never "side 0". A name is isolated (core.text.isolate)
    so that it stays one run in a right-to-left sentence."""
    if side not in (0, 1):
        return pgettext("side", "nobody")
    if names is not None:
        return isolate(names[side])
    return gettext("the first side") if side == 0 else gettext("the second side")


def _roll(action) -> str:
    return pgettext("game log", "roll %(dice)s") % {"dice": _ltr(f"{action.dice[0]}{action.dice[1]}")}


def _move(action) -> str:
    play = action.play.strip()
    if not play:
        return pgettext("game log", "cannot move")
    return pgettext("game log", "play %(play)s") % {"play": _ltr(play)}


def _double(action) -> str:
    if action.value:
        return pgettext("game log", "double to %(value)s") % {"value": _ltr(action.value)}
    return pgettext("game log", "double")


def _beaver(action) -> str:
    if action.value:
        return pgettext("game log", "beaver to %(value)s") % {"value": _ltr(action.value)}
    return pgettext("cube action", "beaver")


def _raccoon(action) -> str:
    if action.value:
        return pgettext("game log", "raccoon to %(value)s") % {"value": _ltr(action.value)}
    return pgettext("cube action", "raccoon")


def _resign(action) -> str:
    phrases = {
        SINGLE: pgettext("game log", "resign a single game"),
        GAMMON: pgettext("game log", "resign a gammon"),
        BACKGAMMON: pgettext("game log", "resign a backgammon"),
    }
    return phrases.get(action.level) or pgettext("game log", "resign")


#: One phrase per action type of ``engine.actions.ACTION_TYPES``, as a move log shows it after the
#: mover's name: "move 3, Ana: play 13/10 13/11".
ACTION_WORDS: dict[str, Callable[[Action], str]] = {
    "setup": lambda action: pgettext("game log", "set up from Position ID %(position)s") % {
        "position": _ltr(action.position)},
    "opening_tie": lambda action: pgettext("game log", "opening roll %(dice)s, a tie") % {
        "dice": _ltr(f"{action.die}{action.die}")},
    "roll": _roll,
    "move": _move,
    "double": _double,
    "take": lambda action: pgettext("cube action", "take"),
    "drop": lambda action: pgettext("cube action", "drop"),
    "beaver": _beaver,
    "raccoon": _raccoon,
    "resign": _resign,
    "accept": lambda action: pgettext("resignation", "accept the resignation"),
    "decline": lambda action: pgettext("resignation", "decline the resignation"),
}


def action_text(action: Action) -> str:
    """An engine action as a phrase in the reader's language ("play 13/10 13/11", "take")."""
    wording = ACTION_WORDS.get(action.type)
    return wording(action) if wording is not None else gettext("an action the service does not know")


def logged_action_text(raw, names: Sequence[str] | None = None) -> str:
    """An action of a stored game log (its JSON form) as a line of a log: "Ana: roll 52" (the
    mover by ``names``, side 0's first; no name for an action of nobody, the opening tie and the
    set-up). An action that cannot be read is said so, never shown as its JSON."""
    try:
        action = action_from_dict(raw)
    except (EngineError, KeyError, TypeError, ValueError):
        return gettext("an action that cannot be read")
    if action.side is None:
        return action_text(action)
    return gettext("%(name)s: %(action)s") % {"name": side_text(action.side, names), "action": action_text(action)}
