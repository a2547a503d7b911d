"""Text as PostgreSQL can store it, and lists as a reader of each language joins them.

PostgreSQL's ``text`` and ``jsonb`` refuse the NUL character (``\\u0000 cannot be converted to
text``), and a lone surrogate (``\\ud800``: half of a UTF-16 pair, which a JSON body or a decoder
can produce) cannot be encoded in UTF-8 at all. Either one in a message built from an upload (a
parser quoting the line it refused, a file's name) made the whole row fail to save.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from django.utils.translation import get_language_bidi, gettext, pgettext

from .errors import DomainError

_REFUSED = re.compile("[\x00\ud800-\udfff]")


def _quoted(found: re.Match) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def db_safe(text: str) -> str:
    """``text`` with each character PostgreSQL refuses (NUL, lone surrogates) written out as its
    escape (``\\x00``, ``\\ud800``), so that a person still sees it was there. Changes nothing
    else; raises nothing."""
    return _REFUSED.sub(_quoted, text)


# --- a name as a search finds it ------------------------------------------------------------------

#: Letters that carry their mark inside the letter itself (no decomposition in Unicode): written as
#: the letters people type without it, so "Łukasz", "Søren" and "Đorđe" are found as "lukasz",
#: "soren" and "dorde".
_UNMARKED = str.maketrans({
    "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "ħ": "h", "Ħ": "h",
    "\u0131": "i", "ŀ": "l", "Ŀ": "l", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "þ": "th", "Þ": "th",
})

#: The longest key stored (the column's width); a name this long is still found by its start.
SEARCH_KEY_MAX = 255


def search_key(text: str) -> str:
    """``text`` as names are compared by a search: compatibility-decomposed (NFKD), combining marks
    dropped (accents, cedillas, the comma below of Romanian ș and ț: "Ștefan", "Ştefan" and
    "Stefan" give the same key; Arabic vowel signs too), casefolded, and spaces collapsed to one.
    Letters of scripts without case (Hangul, Arabic) are kept, decomposed, so any part of a name
    typed in its own script is found. At most :data:`SEARCH_KEY_MAX` characters. Raises nothing."""
    text = unicodedata.normalize("NFKD", (text or "").translate(_UNMARKED))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    # Casefolding can compose anew ("ǰ" folds to j + a mark): decompose and strip once more.
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(text.split())[:SEARCH_KEY_MAX]


# --- a name a person typed --------------------------------------------------------------------------

#: The characters that embed, override or isolate the direction of text (U+202A to U+202E,
#: U+2066 to U+2069): "\u202eevil" shows as "live"; they have no place in a name, wherever they stand.
_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: Letters that draw nothing: a name of these alone looks empty (the Hangul fillers, the blank
#: braille pattern).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


#: The invisible characters a name may hold: the joiner and non-joiner, between two visible
#: characters (Persian and Arabic words, emoji sequences need them), and the left-to-right and
#: right-to-left marks (a mixed-script name may need one to show its brackets the right way).
_JOINERS = frozenset("\u200c\u200d")
_DIRECTION_MARKS = frozenset("\u200e\u200f")


def _hidden_inside(text: str) -> bool:
    """Whether ``text`` holds an invisible format character where a name has no use for one: a
    zero-width space, a word joiner, a soft hyphen, a byte-order mark... anywhere, or a joiner
    that does not stand between two visible characters ("Al\u200bice" shows as "Alice")."""
    for index, char in enumerate(text):
        if unicodedata.category(char) != "Cf" or char in _DIRECTION_MARKS:
            continue
        if char not in _JOINERS:
            return True
        before, after = text[index - 1:index], text[index + 1:index + 2]
        if not (before and after and _visible(before) and _visible(after)):
            return True
    return False


def _visible(char: str) -> bool:
    # A letter, digit, punctuation or symbol that draws something. Spaces (Z*), format characters
    # (Cf: zero-width space and joiners, word joiner, byte-order mark, direction marks) and
    # combining marks (M*) draw nothing by themselves.
    return unicodedata.category(char)[0] in "LNPS" and char not in _BLANK_LETTERS


def name_problem(text: str) -> str | None:
    """What is wrong with ``text`` as a one-line name (a person's, a club's, an event's, a team's),
    as a sentence for people; None when nothing is. Refused: control characters (a line break, a
    tab, NUL: Unicode's Cc), lone surrogates, the direction controls (:data:`_DIRECTION_CONTROLS`),
    and a name with nothing visible in it (only zero-width characters, marks without a letter,
    direction marks), and an invisible character inside a visible name (a zero-width space, a
    word joiner, a soft hyphen; a joiner not between two visible characters). Zero-width joiners
    and non-joiners between letters, as Persian and Arabic names need them, are fine. An empty or
    blank ``text`` is no problem here: each caller says that its name is missing. Raises nothing."""
    if any(unicodedata.category(char) == "Cc" for char in text):
        return gettext("a name cannot hold control characters such as a line break or a tab")
    if any(unicodedata.category(char) == "Cs" for char in text):
        return gettext("a name cannot hold a lone UTF-16 surrogate")
    if any(char in _DIRECTION_CONTROLS for char in text):
        return gettext("a name cannot hold characters that change the direction of its text "
                       "(U+202A to U+202E, U+2066 to U+2069)")
    if text.strip() and not any(_visible(char) for char in text):
        return gettext("a name needs a visible letter or sign; this one has only invisible characters or marks")
    if _hidden_inside(text):
        return gettext("a name cannot hold invisible characters such as a zero-width space; only a joiner "
                       "between two letters is kept")
    return None


def name_clean(value: str, *, field: str, refuse: Callable[[str, str], DomainError] | None = None) -> str:
    """``value`` as a one-line name is kept: refused as :func:`name_problem` says, then composed
    (NFC: "S" and a combining comma below is stored as the one letter "Ș"), its runs of spaces
    made one and its ends stripped. Returns "" for an empty or blank name (the caller says its
    name is missing, and checks its length).

    Raises DomainError ``bad_name`` naming ``field``, saying what is wrong; or what ``refuse``
    (an app's own refusal of one of its fields) makes of the field and the sentence."""
    problem = name_problem(value)
    if problem and refuse is not None:
        raise refuse(field, problem)
    if problem:
        raise DomainError(gettext("%(field)s: %(message)s") % {"field": field, "message": problem},
                          code="bad_name", field=field)
    return " ".join(unicodedata.normalize("NFC", value).split())


def list_separator() -> str:
    """What separates the items of a list in a sentence, in the active language: ", " in English,
    Korean and Romanian, "، " (the Arabic comma) in Arabic."""
    return pgettext("list separator", ", ")


def clause_separator() -> str:
    """What separates the clauses of a sentence (each a list of its own, a reason after another), in
    the active language: "; " in English, Korean and Romanian, "؛ " (the Arabic semicolon) in Arabic."""
    return pgettext("clause separator", "; ")


def join_list(items) -> str:
    """``items`` (as text) joined for a person to read in the active language: "Ana, Bob" in
    English, "Ana، Bob" in Arabic. Empty items are left out."""
    return list_separator().join(str(item) for item in items if item not in (None, ""))


def join_clauses(items) -> str:
    """``items`` (as text) joined as the clauses of one sentence in the active language: "a; b",
    Arabic "a؛ b". Empty items are left out."""
    return clause_separator().join(str(item) for item in items if item not in (None, ""))
# --- a name inside a sentence -----------------------------------------------------------------------

#: The first-strong isolate and the pop that closes it: what stands between them takes its
#: direction from its own first letter and is laid out apart from the sentence around it.
FSI, PDI = "\u2068", "\u2069"


def _right_to_left(text: str) -> bool:
    return any(unicodedata.bidirectional(char) in ("R", "AL") for char in text)


def isolate(name) -> str:
    """``name`` (a person's, a side's, a club's, an event's, a team's) as it stands inside a
    sentence: between FSI and PDI, so that two Latin names in an Arabic sentence ("سجّل Olga Ana")
    stay two runs and an Arabic name before a number in an English one does not take the number
    with it. Isolated when the active language is written right to left, or when the name holds a
    right-to-left letter; otherwise returned as it is (a Latin name in a left-to-right sentence needs
    nothing, and the text stays as people copy and search it). A name already isolated, or empty,
    is returned unchanged. Works in plain text (emails, messages, the API's sentences) and in a page
    alike. Raises nothing."""
    text = "" if name is None else str(name)
    if not text or (text.startswith(FSI) and text.endswith(PDI)):
        return text
    if get_language_bidi() or _right_to_left(text):
        return f"{FSI}{text}{PDI}"
    return text
