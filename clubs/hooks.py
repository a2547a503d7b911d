"""What clubs asks of the apps standing on it, which it never imports (STYLE.md §3.0): the chouette
tables answer from their AppConfig.ready() (chouette/apps.py). With nothing registered (the app is
not installed), there is nothing to show: no link, no tables at a night.

- **club links**: the links an app adds to every club page's navigation (clubs/_nav.html), such as
  the club's chouette tables for its members;
- **night chouettes**: the chouette tables played at a club night and each player's net result over
  them, which the night's summary shows its members (clubs.selectors.night_summary).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from .models import ClubNight


@dataclass(frozen=True)
class ClubLink:
    """A link of the club's navigation: ``url_name`` is reversed with the club's slug."""

    label: str
    url_name: str
    members_only: bool = False


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


NightChouettesProvider = Callable[[ClubNight], NightChouettes]

_club_links: list[ClubLink] = []
_night_chouettes: NightChouettesProvider | None = None


def register_club_link(link: ClubLink) -> None:
    """Add ``link`` to every club page's navigation (once, however often the app starts)."""
    if link not in _club_links:
        _club_links.append(link)


def club_links() -> tuple[ClubLink, ...]:
    """The links the apps on clubs added, in the order they registered them."""
    return tuple(_club_links)


def register_night_chouettes(provider: NightChouettesProvider | None) -> NightChouettesProvider | None:
    """Let ``provider`` answer what chouette tables a night had (None: nobody answers). Returns the
    provider it replaces, for a test that stands in for the chouette app to put it back."""
    global _night_chouettes
    previous, _night_chouettes = _night_chouettes, provider
    return previous


def night_chouettes(night: ClubNight) -> NightChouettes | None:
    """The night's chouette tables and totals, or None when no app keeps chouette tables."""
    return None if _night_chouettes is None else _night_chouettes(night)
