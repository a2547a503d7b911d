"""The one way an app lower in the house works with the apps above it without importing them.

An app offers a :class:`Hook` (in its ``hooks.py``); the apps above connect to it (in their
``receivers.py``, from ``AppConfig.ready()``). A hook holds named entries, each with an order:

- callbacks, which :meth:`Hook.send` calls one after the other with the hook's payload (a result
  was confirmed: settle its disputes, then advance its event's draw), or whose answers
  :meth:`Hook.collect` gathers (the sections of a player's page);
- or described objects (a match context, a player section), which :meth:`Hook.entries` lists for
  the offering app to read.

Entries run in a fixed order: by ``order``, then by name, never by the order the apps happen to be
installed or imported. Everything runs in the caller's transaction and nothing is caught: an
exception stops the others and propagates to the service, whose change then rolls back whole.
Connecting a name again replaces its entry, so a ``ready()`` that runs twice connects once.

Every hook is known to :func:`hook_map`, which says who offers what and who listens, in order.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Entry:
    """One connected callback or object: ``name`` (its key in the hook), ``order`` and ``module``
    (the module that connected it, for the hook map)."""

    order: int
    name: str
    item: Any
    module: str


class Hook:
    """An extension point offered by one app: named, ordered entries (see the module docstring).

    ``payload`` names the keyword arguments :meth:`send` and :meth:`collect` must be given, exactly;
    a hook of described objects has none. ``module`` is where the hook is offered (read off the
    caller when not given).
    """

    def __init__(self, name: str, payload: tuple[str, ...] = (), *, doc: str = "", module: str | None = None):
        self.name = name
        self.payload = payload
        self.doc = doc
        self.module = module or sys._getframe(1).f_globals.get("__name__", "?")
        self._entries: dict[str, Entry] = {}
        HOOKS.append(self)

    def connect(self, item: Any, *, name: str, order: int = 0) -> None:
        """Add ``item`` (a callback or an object) under ``name``, replacing what had that name."""
        module = sys._getframe(1).f_globals.get("__name__", "?")
        self._entries[name] = Entry(order, name, item, module)

    def register(self, item: Any) -> None:
        """Add a described object under its own ``name`` and ``order`` (0 when it has none)."""
        module = sys._getframe(1).f_globals.get("__name__", "?")
        self._entries[item.name] = Entry(getattr(item, "order", 0), item.name, item, module)

    def disconnect(self, name: str) -> None:
        self._entries.pop(name, None)

    def ordered(self) -> list[Entry]:
        return sorted(self._entries.values(), key=lambda entry: (entry.order, entry.name))

    def entries(self) -> list[Any]:
        """The connected callbacks or objects, in order."""
        return [entry.item for entry in self.ordered()]

    def get(self, name: str) -> Any | None:
        entry = self._entries.get(name)
        return entry.item if entry else None

    def receivers(self) -> list[str]:
        """The connected entries' names, in order."""
        return [entry.name for entry in self.ordered()]

    def _check(self, payload: dict) -> None:
        if set(payload) != set(self.payload):
            raise TypeError(f"{self.name} is sent with {', '.join(self.payload) or 'nothing'}, "
                            f"not {', '.join(sorted(payload)) or 'nothing'}")

    def send(self, **payload) -> None:
        """Call every callback with ``payload``, in order. An exception stops the others and
        propagates to the caller. Raises TypeError when the payload is not exactly the hook's."""
        self._check(payload)
        for entry in self.ordered():
            entry.item(**payload)

    def collect(self, **payload) -> list[Any]:
        """Every callback's answer to ``payload``, in order, leaving out those that answer None."""
        self._check(payload)
        return [answer for entry in self.ordered() if (answer := entry.item(**payload)) is not None]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.entries())

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {', '.join(self.receivers()) or 'no receivers'}>"


#: Every hook made, in the order their modules were imported (read by :func:`hook_map`).
HOOKS: list[Hook] = []


def hook_map(app_of: Callable[[str], str] = lambda module: module.split(".")[0]) -> str:
    """The whole map, as text: for each hook (by offering app, then name), who offers it and who
    listens, in the order they are called. What the README shows."""
    lines = []
    for hook in sorted(HOOKS, key=lambda h: (h.module, h.name)):
        lines.append(f"{hook.module}.{hook.name}")
        for entry in hook.ordered():
            lines.append(f"    {entry.order:>3}  {entry.name}  <- {entry.module}")
        if not hook.ordered():
            lines.append("    (nobody listens)")
    return "\n".join(lines) + "\n"


# --- what core itself offers ------------------------------------------------------------------------

#: The sections the apps above add to ``GET /health/`` (core.health), each connected under the name
#: its JSON is answered under: called with ``now``, a callback returns its JSON and a list of what is
#: degraded in it (each answered as ``<name>:<what>``).
health_sections = Hook("health_sections", ("now",), doc="sections of /health/")
