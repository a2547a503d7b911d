"""Text as PostgreSQL can store it.

PostgreSQL's ``text`` and ``jsonb`` refuse the NUL character (``\\u0000 cannot be converted to
text``), and a lone surrogate (``\\ud800``: half of a UTF-16 pair, which a JSON body or a decoder
can produce) cannot be encoded in UTF-8 at all. Either one in a message built from an upload (a
parser quoting the line it refused, a file's name) made the whole row fail to save.
"""

from __future__ import annotations

import re
import unicodedata

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
