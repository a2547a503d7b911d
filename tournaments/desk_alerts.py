"""What the apps above tournaments put first on an event's round desk: the registry of desk
alerts (rulings: the disputes still open on the event's matches, each with a link). Like
:mod:`tournaments.finish_checks`, it imports nothing of the project but the event's model, and
tournaments imports none of the apps that register."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .models import Tournament


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
    items: Callable[[Tournament], list[DeskItem]]


_alerts: dict[str, DeskAlert] = {}


def desk_alert_register(alert: DeskAlert) -> None:
    """Register (or, under the same name, replace) an alert: ``ready()`` may run twice."""
    _alerts[alert.name] = alert


def desk_alert_unregister(name: str) -> None:
    _alerts.pop(name, None)


def desk_alerts(tournament: Tournament) -> list[tuple[str, list[DeskItem]]]:
    """Every registered alert with lines for ``tournament``: ``(title, items)``, in the order of
    the alerts' names."""
    out = []
    for name in sorted(_alerts):
        items = _alerts[name].items(tournament)
        if items:
            out.append((str(_alerts[name].title), items))
    return out
