"""JSON read within bounds: the API's JSON body parser, and the loader for JSON typed into a page.

Two bounds, both checked before the text is parsed:

- **size**: at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes of a body are read, the cap Django puts
  on a form's fields; a larger body is the one 413 (``RequestDataTooBig``, answered by
  core.api.exception_handler), whatever its ``Content-Length`` said;
- **depth**: arrays and objects nested more than :data:`MAX_JSON_DEPTH` levels are refused with a
  400 (code ``too_deep``). Python's json module recurses once per level and about a thousand levels
  down raises RecursionError, a server error; nothing the API takes is nested more than a handful of
  levels (a game log inside a list of games inside a ruling's params is five).
"""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_JSON_DEPTH = 32

# A JSON string (escapes included); unrolled so that it runs in linear time.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class JSONTooDeep(ValueError):
    def __init__(self, limit: int):
        super().__init__(_("the JSON is nested more than %(limit)d levels deep") % {"limit": limit})


def json_depth_check(text: str, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise :class:`JSONTooDeep` when arrays and objects in ``text`` nest more than ``limit``
    levels, without parsing it (brackets inside strings do not count). Text that is not JSON
    passes or not; the parser that follows refuses it either way."""
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub("", text)):
        if bracket.group() in "[{":
            depth += 1
            if depth > limit:
                raise JSONTooDeep(limit)
        else:
            depth -= 1


def json_loads(text: str, *, limit: int = MAX_JSON_DEPTH):
    """``json.loads`` that refuses text nested more than ``limit`` levels (:class:`JSONTooDeep`,
    a ValueError like every other refusal of the text) and the non-standard constants NaN and
    Infinity."""
    json_depth_check(text, limit)
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:  # a depth the check let through cannot recurse that far; kept as a guard
        raise JSONTooDeep(limit) from None


def _refuse_constant(name: str):
    raise ValueError(_("%(name)s is not valid JSON") % {"name": name})


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser within the bounds above (REST_FRAMEWORK's DEFAULT_PARSER_CLASSES, and
    every view that names its parsers)."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise RequestDataTooBig(f"the request body is over the limit of {limit} bytes")
        encoding = parsers.get_encoding(parser_context or {})
        try:
            return json_loads(raw.decode(encoding))
        except JSONTooDeep as error:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": error}, code="too_deep") from None
        except ValueError as error:  # UnicodeDecodeError too
            raise ParseError(_("JSON parse error - %(error)s") % {"error": error}) from None
