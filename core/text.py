"""Text as PostgreSQL can store it.

PostgreSQL's ``text`` and ``jsonb`` refuse the NUL character (``\\u0000 cannot be converted to
text``), and a lone surrogate (``\\ud800``: half of a UTF-16 pair, which a JSON body or a decoder
can produce) cannot be encoded in UTF-8 at all. Either one in a message built from an upload (a
parser quoting the line it refused, a file's name) made the whole row fail to save.
"""

from __future__ import annotations

import re

_REFUSED = re.compile("[\x00\ud800-\udfff]")


def _quoted(found: re.Match) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def db_safe(text: str) -> str:
    """``text`` with each character PostgreSQL refuses (NUL, lone surrogates) written out as its
    escape (``\\x00``, ``\\ud800``), so that a person still sees it was there. Changes nothing
    else; raises nothing."""
    return _REFUSED.sub(_quoted, text)
