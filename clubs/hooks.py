"""What clubs offers the apps standing on it (STYLE.md §3.0), which it never imports (each a
:class:`core.hooks.Hook`; the chouette tables connect to them from chouette/receivers.py). With
nothing connected (the app is not installed), there is nothing to show: no link, no tables at a
night.

- :data:`club_links`: the links an app adds to every club page's navigation (clubs/_nav.html),
  such as the club's chouette tables for its members (:class:`ClubLink`, by name);
- :data:`night_chouettes`: the chouette tables played at a club night and each player's net result
  over them, which the night's summary shows its members (clubs.selectors.night_summary;
  :func:`night_chouettes_of`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from core.hooks import Hook


@dataclass(frozen=True)
class ClubLink:
    """A link of the club's navigation: ``url_name`` is reversed with the club's slug."""

    label: str
    url_name: str
    members_only: bool = False


#: The links of every club page's navigation: :class:`ClubLink` objects, by name.
club_links = Hook("club_links", doc="links of a club page's navigation (ClubLink)")


@dataclass(frozen=True)
class NightChouette:
    """A chouette table played at a night, as the night's summary lists it (``url``: its page)."""

    id: int
    name: str
    title: str
    status: str
    status_label: str
    stake: Decimal
    currency: str
    started_at: dt.datetime
    ended_at: dt.datetime | None
    url: str


@dataclass(frozen=True)
class NightChouettes:
    """The night's tables in the order they started, and each player's net money over them by
    player id (everyone who sat at one of them, at 0 if he broke even)."""

    tables: tuple[NightChouette, ...]
    totals: Mapping[int, Decimal]


#: What chouette tables a night had. Payload: ``night`` (a ``ClubNight``); a callback answers
#: :class:`NightChouettes`, or None.
night_chouettes = Hook("night_chouettes", ("night",))


def night_chouettes_of(night) -> NightChouettes | None:
    """The night's chouette tables and totals (the first answer, by name), or None when no app
    keeps chouette tables."""
    answers = night_chouettes.collect(night=night)
    return answers[0] if answers else None
