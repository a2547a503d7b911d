"""What tournaments offers the apps above it, which it never imports (each a
:class:`core.hooks.Hook`; the apps above connect to them in their ``receivers.py``).

- :data:`round_paired`: a round's pairings were made. Sent by a tournaments service inside the
  change's transaction, so a listener's writes (webhooks) commit or roll back with the change.
  ``tournament`` (locked), ``round_number`` (the Swiss round; None for a draw that pairs its first
  matches at once: a bracket or a round robin), ``pairings`` (each as
  ``tournaments.services.audit.pairing_summary`` gives it, with the entrants' names) and ``actor``.
- :data:`event_hosts`: who hosts an event (clubs: an :class:`EventHost`); ``tournaments.hosts``
  asks it.
- :data:`finish_checks`: what else keeps an event from being finished (:class:`FinishCheck`;
  rulings: a dispute still open on one of the event's matches). ``tournament_finish`` asks them
  all (:func:`finish_blockers`), in the order of their names, inside its transaction with the
  event locked, and refuses to finish while any says why.
- :data:`desk_alerts`: what to put first on an event's round desk (:class:`DeskAlert`; rulings: the
  disputes still open on the event's matches, each with a link).

It imports nothing of tournaments (not even its models, which read an event's host through
``tournaments.hosts``), so any module of the app imports it at its top without a cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from core.hooks import Hook

round_paired = Hook("round_paired", ("tournament", "round_number", "pairings", "actor"))


# --- who hosts an event ---------------------------------------------------------------------------
#
# An event may stand on a club's calendar, and its draw may keep two players of one club apart
# (``forbid_same_club``). Clubs stand above tournaments: the link between an event and its club
# (``clubs.ClubEvent``) and a player's home club (``clubs.HomeClub``) are the club's records, and
# tournaments never names them. The clubs app connects an :class:`EventHost`; tournaments asks it
# (``tournaments.hosts``):
#
# - which hosts a user may put a new event on (the new-event form's choices);
# - to check a host for a new event before anything is written (DomainError ``unknown_club``,
#   NotAllowed ``not_club_manager``) and then to link the saved event, in the same transaction;
# - which ``select_related`` path reads an event's host, how to read it and how to filter on it
#   (the events list and API: ``?club=``, the ``club`` brief);
# - the home club of each player, for the same-club rule of the draw;
# - which of some players are members of a host by their own act (their accepted membership): an
#   event on a club's calendar is run for them by its club even when its organiser has not the
#   organiser role (``member_players``: the event vouches for their results, see ``tournaments.receivers``);
# - which hosts a user runs events of without the organiser role (a club's owner, for his club's
#   events: ``owned_choices``): such a user may create an event only on one of them
#   (``tournaments.services.events.may_create_events`` and ``tournament_create``), and then runs it
#   as its organiser like any other.
#
# With no host connected (a project without clubs), no event has a host, the choices are empty and
# a host asked for is refused as unknown.


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


#: The events' host: one :class:`EventHost` at most (connected by name; the first by name answers).
event_hosts = Hook("event_hosts", doc="who hosts an event (EventHost)")


# --- what keeps an event from being finished --------------------------------------------------------


@dataclass(frozen=True)
class FinishCheck:
    """What an app above tournaments says against finishing an event.

    ``blocking(tournament)`` returns one sentence, marked for translation, for each thing that
    keeps the event from being finished (e.g. "the dispute on Ana v Bob, round 2, opened on
    1 Dec is still open"), or an empty list. It only reads: it runs inside
    ``tournament_finish``'s transaction, with the event's row locked."""

    name: str
    blocking: Callable[[Any], list[str]]


#: What keeps an event from being finished: :class:`FinishCheck` objects, asked by name.
finish_checks = Hook("finish_checks", doc="what keeps an event from being finished (FinishCheck)")


def finish_blockers(tournament) -> list[str]:
    """Every check's sentences against finishing ``tournament``, checks in the order of their
    names (never the order the apps happen to be loaded)."""
    return [sentence for check in finish_checks.entries() for sentence in check.blocking(tournament)]


# --- what comes first on an event's round desk ------------------------------------------------------


@dataclass(frozen=True)
class DeskItem:
    """One line of an alert: a sentence for the director and the page that deals with it."""

    text: str
    href: str


@dataclass(frozen=True)
class DeskAlert:
    """``items(tournament)``: the lines to show first on the event's desk (a fixed number of
    queries whatever the event's size), or an empty list. ``title``: the heading they go under."""

    name: str
    title: object
    items: Callable[[Any], list[DeskItem]]


#: What an event's round desk shows first: :class:`DeskAlert` objects, by name.
desk_alerts = Hook("desk_alerts", doc="what an event's round desk shows first (DeskAlert)")


def desk_alerts_of(tournament) -> list[tuple[str, list[DeskItem]]]:
    """Every alert with lines for ``tournament``: ``(title, items)``, in the order of the alerts'
    names."""
    out = []
    for alert in desk_alerts.entries():
        items = alert.items(tournament)
        if items:
            out.append((str(alert.title), items))
    return out
