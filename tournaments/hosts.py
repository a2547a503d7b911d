"""Who hosts an event, asked of the app above tournaments that holds the link
(``tournaments.hooks.event_hosts``: what it answers, and why tournaments never names a club).

With no host connected (a project without clubs), no event has a host, the choices are empty and
a host asked for is refused as unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db.models import QuerySet

from . import errors
from .hooks import EventHost, event_hosts


def _host() -> EventHost | None:
    """The connected host (one at most: the first by name), or None."""
    hosts = event_hosts.entries()
    return hosts[0] if hosts else None


def host_joins() -> tuple[str, ...]:
    return host.joins if (host := _host()) else ()


def host_choices(user) -> list[tuple[int, str]]:
    return host.choices(user) if (host := _host()) else []


def host_owned_choices(user) -> list[tuple[int, str]]:
    """``(id, name)`` of the hosts whose events ``user`` creates and runs without the organiser
    role (a club's owner: his clubs); empty with no host connected."""
    return host.owned_choices(user) if (host := _host()) else []


def host_prepare(user, host_id: int) -> Callable[[Any], None]:
    """The link of a new event to ``host_id``, checked for ``user``; raises DomainError
    ``unknown_club`` (no such host) or NotAllowed (``user`` may not put an event there)."""
    host = _host()
    if host is None:
        raise errors.unknown_club(host_id)
    return host.prepare(user, host_id)


def host_of(tournament) -> Any:
    return host.host_of(tournament) if (host := _host()) else None


def host_filter(tournaments: QuerySet, host_id: int) -> QuerySet:
    return host.filter(tournaments, host_id) if (host := _host()) else tournaments.none()


def player_clubs(player_ids: Iterable[int]) -> dict[int, int]:
    return host.player_clubs(player_ids) if (host := _host()) else {}


def member_players(host_id: int, player_ids: Iterable[int]) -> set[int]:
    """Those of ``player_ids`` who are members of the host ``host_id`` by their own act (an
    accepted membership of their account); empty with no host connected."""
    return host.member_players(host_id, player_ids) if (host := _host()) else set()
