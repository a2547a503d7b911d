"""Divisions and handicaps, in pure Python: no Django.

An event may split its entrants into divisions, listed strongest first: by default Open,
Intermediate and Novice, or the event's own. Each division may take a range of ratings.

Rules (each cited by the tests that check it, as "divisions rule N"):

1. *Listed strongest first.* A division has a name (1 to 40 characters, unique in the event, any
   case) and an optional rating range: ``min_rating`` (included) and ``max_rating`` (excluded).
   An event has at most :data:`MAX_DIVISIONS` divisions. An empty range takes every rating.
2. *Eligibility by rating.* A player may play in a division whose range holds his rating
   (``min_rating <= rating < max_rating``, a missing bound being no bound). He may play up (in a
   stronger division he is eligible for), never down.
3. *Placed by rating.* A player who names no division is placed in the last division listed
   (the weakest) whose range holds his rating; if none holds it, he cannot enter by himself.
4. *The director places anyone.* The director may put an entrant in any division of the event,
   whatever his rating (a newcomer without a real rating yet, a strong player with a low one).
5. *Handicap start.* A handicap row says that a player of ``division`` starts a match of
   ``length`` points ``points`` points ahead of a player of ``against`` (``points`` from 1 to
   ``length - 1``: a start never wins a match by itself). A match between entrants of the same
   division, or of divisions (or a length) the table has no row for, starts at 0-0. The two
   divisions of a row differ and both are the event's; a pair of divisions has at most one row
   per length, in one direction only (one of the two starts ahead, never both).
6. *The default table.* The only published figure we go by is the one from the
   Chicago Open: an Intermediate starts 1-0 against an Open player in a match to 7. That row is
   the default table's; the default adds, in our own words and by the same measure of one point a
   division apart at 7 points, a Novice starting 1-0 against an Intermediate and 2-0 against an
   Open player. These two rows are ours, not a published table; any other length starts level
   unless the director adds rows. The default applies to the divisions an event names; a table
   row naming a division the event does not have is dropped from it.

Wrong settings raise :class:`DrawError` (code ``bad_division`` or ``bad_handicap``) whose
``field`` names the value (``divisions.1.max_rating``, ``handicaps.0.points``) and whose
``reason`` is a stable key (:data:`REASONS`) the service layer words for people.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import DrawError

MAX_DIVISIONS = 10
MAX_NAME = 40
MAX_HANDICAP_ROWS = 200
MAX_LENGTH = 99
RATING_BOUNDS = (0.0, 10000.0)

#: reason -> what it means (the service layer words each for people).
REASONS = {
    "not_a_list": "the divisions (or handicaps) are a list",
    "too_many": "more divisions (or handicap rows) than allowed",
    "not_a_mapping": "a division (or handicap row) is a mapping of its fields",
    "unknown_key": "a key the division (or handicap row) does not have",
    "bad_name": "a name of 1 to 40 characters",
    "duplicate_name": "two divisions of the same name",
    "bad_rating": "a rating bound is a number within RATING_BOUNDS",
    "empty_range": "min_rating is not below max_rating",
    "unknown_division": "a division the event does not have",
    "same_division": "a handicap between a division and itself",
    "bad_length": "a length from 1 to MAX_LENGTH",
    "bad_points": "points from 1 to length - 1",
    "duplicate_row": "a second row for the same two divisions and length (either way round)",
}

DIVISION_KEYS = ("name", "min_rating", "max_rating")
HANDICAP_KEYS = ("division", "against", "length", "points")


@dataclass(frozen=True)
class Division:
    """A division (rule 1): its name and rating range (``None``: no bound)."""

    name: str
    min_rating: float | None = None
    max_rating: float | None = None

    def holds(self, rating: float) -> bool:
        """Whether ``rating`` is in the range (rule 2): the minimum included, the maximum excluded."""
        if self.min_rating is not None and rating < self.min_rating:
            return False
        return not (self.max_rating is not None and rating >= self.max_rating)

    def as_dict(self) -> dict:
        return {"name": self.name, "min_rating": self.min_rating, "max_rating": self.max_rating}


@dataclass(frozen=True)
class Handicap:
    """A handicap row (rule 5): ``division`` starts ``points`` ahead of ``against`` at ``length``."""

    division: str
    against: str
    length: int
    points: int

    def as_dict(self) -> dict:
        return {"division": self.division, "against": self.against, "length": self.length, "points": self.points}


#: The default divisions, strongest first (rule 1), without rating ranges: an event sets its own.
DEFAULT_DIVISIONS = (Division("Open"), Division("Intermediate"), Division("Novice"))

#: The default handicap table (rule 6): the Chicago Open's one published figure, and our two rows.
DEFAULT_HANDICAPS = (
    Handicap("Intermediate", "Open", 7, 1),  # the published figure, as at the Chicago Open
    Handicap("Novice", "Intermediate", 7, 1),  # ours: one point a division apart
    Handicap("Novice", "Open", 7, 2),  # ours: two divisions apart
)


def _bad(code: str, field: str, reason: str, **details) -> DrawError:
    return DrawError(f"{field}: {REASONS[reason]}", code=code, field=field, reason=reason, **details)


def _rating(value, field: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _bad("bad_division", field, "bad_rating")
    low, high = RATING_BOUNDS
    if not low <= value <= high:
        raise _bad("bad_division", field, "bad_rating")
    return float(value)


def _mapping(raw, field: str, keys: tuple[str, ...], code: str) -> Mapping:
    if not isinstance(raw, Mapping):
        raise _bad(code, field, "not_a_mapping")
    for key in raw:
        if key not in keys:
            raise _bad(code, f"{field}.{key}", "unknown_key")
    return raw


def parse_divisions(raw) -> tuple[Division, ...]:
    """The divisions as sent (a list of ``{"name", "min_rating", "max_rating"}``, or of names),
    checked (rule 1). ``None`` is no divisions. Raises DrawError ``bad_division``."""
    if raw is None:
        return ()
    if not isinstance(raw, list | tuple):
        raise _bad("bad_division", "divisions", "not_a_list")
    if len(raw) > MAX_DIVISIONS:
        raise _bad("bad_division", "divisions", "too_many", maximum=MAX_DIVISIONS)
    out: list[Division] = []
    seen: set[str] = set()
    for index, item in enumerate(raw):
        field = f"divisions.{index}"
        if isinstance(item, Division):
            item = item.as_dict()
        if isinstance(item, str):
            item = {"name": item}
        item = _mapping(item, field, DIVISION_KEYS, "bad_division")
        name = item.get("name")
        name = name.strip() if isinstance(name, str) else None
        if not name or len(name) > MAX_NAME:
            raise _bad("bad_division", f"{field}.name", "bad_name")
        if name.casefold() in seen:
            raise _bad("bad_division", f"{field}.name", "duplicate_name")
        seen.add(name.casefold())
        low = _rating(item.get("min_rating"), f"{field}.min_rating")
        high = _rating(item.get("max_rating"), f"{field}.max_rating")
        if low is not None and high is not None and low >= high:
            raise _bad("bad_division", f"{field}.max_rating", "empty_range")
        out.append(Division(name, low, high))
    return tuple(out)


def parse_handicaps(raw, divisions: Iterable[Division]) -> tuple[Handicap, ...]:
    """The handicap table as sent (a list of ``{"division", "against", "length", "points"}``),
    checked against ``divisions`` (rule 5). ``None`` is the default table (rule 6) for these
    divisions. Raises DrawError ``bad_handicap``."""
    names = {d.name for d in divisions}
    if raw is None:
        return default_handicaps(names)
    if not isinstance(raw, list | tuple):
        raise _bad("bad_handicap", "handicaps", "not_a_list")
    if len(raw) > MAX_HANDICAP_ROWS:
        raise _bad("bad_handicap", "handicaps", "too_many", maximum=MAX_HANDICAP_ROWS)
    out: list[Handicap] = []
    seen: set[tuple[frozenset, int]] = set()
    for index, item in enumerate(raw):
        field = f"handicaps.{index}"
        if isinstance(item, Handicap):
            item = item.as_dict()
        item = _mapping(item, field, HANDICAP_KEYS, "bad_handicap")
        division, against = item.get("division"), item.get("against")
        for key, value in (("division", division), ("against", against)):
            if value not in names:
                raise _bad("bad_handicap", f"{field}.{key}", "unknown_division")
        if division == against:
            raise _bad("bad_handicap", f"{field}.against", "same_division")
        length = item.get("length")
        if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_LENGTH:
            raise _bad("bad_handicap", f"{field}.length", "bad_length")
        points = item.get("points")
        if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= length - 1:
            raise _bad("bad_handicap", f"{field}.points", "bad_points")
        pair = (frozenset((division, against)), length)
        if pair in seen:
            raise _bad("bad_handicap", field, "duplicate_row")
        seen.add(pair)
        out.append(Handicap(division, against, length, points))
    return tuple(out)


def default_handicaps(names: Iterable[str]) -> tuple[Handicap, ...]:
    """The default table's rows (rule 6) between divisions in ``names``."""
    names = set(names)
    return tuple(row for row in DEFAULT_HANDICAPS if row.division in names and row.against in names)


def eligible(divisions: Iterable[Division], rating: float) -> tuple[str, ...]:
    """The divisions (names, strongest first) a player of ``rating`` may play in (rule 2)."""
    return tuple(d.name for d in divisions if d.holds(rating))


def division_for(divisions: Iterable[Division], rating: float) -> str | None:
    """The division a player of ``rating`` who names none is placed in (rule 3): the weakest
    eligible one; None when no division takes his rating."""
    found = eligible(divisions, rating)
    return found[-1] if found else None


def may_play_in(divisions: Iterable[Division], name: str, rating: float, *, director: bool = False) -> bool:
    """Whether an entrant of ``rating`` may be in division ``name``: one the event has, and (unless
    the director places him, rule 4) one his rating is eligible for (rule 2)."""
    divisions = tuple(divisions)
    if name not in {d.name for d in divisions}:
        return False
    return director or name in eligible(divisions, rating)


def handicap_start(table: Iterable[Handicap], division0: str | None, division1: str | None,
                   length: int) -> tuple[int, int]:
    """The score a match of ``length`` points between a player of ``division0`` (side 0) and
    one of ``division1`` (side 1) starts from (rule 5): 0-0 unless a row says otherwise."""
    if not division0 or not division1 or division0 == division1:
        return (0, 0)
    for row in table:
        if row.length != length:
            continue
        if (row.division, row.against) == (division0, division1):
            return (row.points, 0)
        if (row.division, row.against) == (division1, division0):
            return (0, row.points)
    return (0, 0)
