"""Who hosts an event: the app above tournaments that holds the link registers it here.

An event may stand on a club's calendar, and its draw may keep two players of one club apart
(``forbid_same_club``). Clubs stand above tournaments: the link between an event and its club
(``clubs.ClubEvent``) and a player's home club (``clubs.HomeClub``) are the club's records, and
tournaments never names them. The clubs app registers an :class:`EventHost` in its
``AppConfig.ready()``; tournaments asks it:

- which hosts a user may put a new event on (the new-event form's choices);
- to check a host for a new event before anything is written (DomainError ``unknown_club``,
  NotAllowed ``not_club_manager``) and then to link the saved event, in the same transaction;
- which ``select_related`` path reads an event's host, how to read it and how to filter on it
  (the events list and API: ``?club=``, the ``club`` brief);
- the home club of each player, for the same-club rule of the draw;
- which of some players are members of a host by their own act (their accepted membership): an
  event on a club's calendar is run for them by its club even when its organiser has not the
  organiser role (``member_players``: the event vouches for their results, see ``tournaments.hooks``);
- which hosts a user runs events of without the organiser role (a club's owner, for his club's
  events: ``owned_choices``): such a user may create an event only on one of them
  (``tournaments.services.events.may_create_events`` and ``tournament_create``), and then runs it
  as its organiser like any other.

With no host registered (a project without clubs), no event has a host, the choices are empty and
a host asked for is refused as unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from . import errors


@dataclass(frozen=True)
class EventHost:
    """What the hosting app says about events; every callable is the hosting app's own.

    - ``joins``: the ``select_related`` paths from ``Tournament`` that :attr:`host_of` reads;
    - ``choices(user)``: ``(id, name)`` of the hosts ``user`` may put a new event on;
    - ``prepare(user, host_id)``: checks the host (raises DomainError / NotAllowed) and returns a
      callable that links a saved event to it;
    - ``host_of(tournament)``: the event's host (a row with ``pk`` and ``name``) or None;
    - ``filter(tournaments, host_id)``: the events of that host among ``tournaments``;
    - ``player_clubs(player_ids)``: each player's home club id, for those that have one;
    - ``owned_choices(user)``: ``(id, name)`` of the hosts whose events ``user`` may create and
      run without the organiser role (none unless the host says so);
    - ``member_players(host_id, player_ids)``: those of the players (ids) whose account holds an
      active membership of the host, which they asked for or accepted (none unless the host says so).
    """

    joins: tuple[str, ...]
    choices: Callable[[Any], list[tuple[int, str]]]
    prepare: Callable[[Any, int], Callable[[Any], None]]
    host_of: Callable[[Any], Any]
    filter: Callable[[QuerySet, int], QuerySet]
    player_clubs: Callable[[Iterable[int]], dict[int, int]]
    owned_choices: Callable[[Any], list[tuple[int, str]]] = lambda user: []
    member_players: Callable[[int, Iterable[int]], set[int]] = lambda host_id, player_ids: set()


_registered: list[EventHost] = []


def event_host_register(host: EventHost) -> None:
    """Make ``host`` the events' host (one at most: a second registration replaces the first,
    so an ``AppConfig.ready()`` that runs twice registers once)."""
    _registered[:] = [host]


def host_joins() -> tuple[str, ...]:
    return _registered[0].joins if _registered else ()


def host_choices(user) -> list[tuple[int, str]]:
    return _registered[0].choices(user) if _registered else []


def host_owned_choices(user) -> list[tuple[int, str]]:
    """``(id, name)`` of the hosts whose events ``user`` creates and runs without the organiser
    role (a club's owner: his clubs); empty with no host registered."""
    return _registered[0].owned_choices(user) if _registered else []


def host_prepare(user, host_id: int) -> Callable[[Any], None]:
    """The link of a new event to ``host_id``, checked for ``user``; raises DomainError
    ``unknown_club`` (no such host) or NotAllowed (``user`` may not put an event there)."""
    if not _registered:
        raise errors.unknown_club(host_id)
    return _registered[0].prepare(user, host_id)


def host_of(tournament) -> Any:
    return _registered[0].host_of(tournament) if _registered else None


def host_filter(tournaments: QuerySet, host_id: int) -> QuerySet:
    return _registered[0].filter(tournaments, host_id) if _registered else tournaments.none()


def player_clubs(player_ids: Iterable[int]) -> dict[int, int]:
    return _registered[0].player_clubs(player_ids) if _registered else {}


def member_players(host_id: int, player_ids: Iterable[int]) -> set[int]:
    """Those of ``player_ids`` who are members of the host ``host_id`` by their own act (an
    accepted membership of their account); empty with no host registered."""
    return _registered[0].member_players(host_id, player_ids) if _registered else set()
