"""How matches, the kernel, tells the apps above it what happens to a match, without importing them.

matches imports no app above it (tournaments, rulings...). What those apps must do when a
match's result changes (settle its disputes, advance its event's draw) they register here, in
their ``AppConfig.ready()``, and the matches services call it.

The result hooks
----------------
:data:`result_confirmed`, :data:`result_disputed` and :data:`result_reopened` are sent by
``matches.services.reporting`` inside the transaction that changes the match, with the match row
locked and the change saved. A callback runs in that same transaction and its exceptions
propagate to the service: nothing is caught (there is no ``send_robust``), so a change a callback
refuses (an event's bracket built on the result) rolls back whole, the match's change with it.

Callbacks run in a fixed order: by their ``order``, then by their name. Never by the order the
apps happen to be installed or imported. The bands:

- :data:`ORDER_MATCH_RECORDS` (10): what is kept about the match itself (its disputes: rulings);
- :data:`ORDER_BUILT_ON` (20): what other rows build on the result (an event's draw: tournaments).

So a confirmed result first settles the match's automatic dispute, then advances the event's
draw; a refusal from the draw rolls back both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: Callbacks about the match's own records (its disputes) run first...
ORDER_MATCH_RECORDS = 10
#: ...then those that build on the result elsewhere (an event's draw).
ORDER_BUILT_ON = 20


@dataclass(frozen=True)
class _Callback:
    order: int
    name: str
    callback: Callable[..., None]


class Hook:
    """Callbacks called one after the other, in a fixed order, with the same keyword arguments.

    ``payload`` names the keyword arguments every callback receives (and :meth:`send` must be
    given exactly those). A callback is registered under a ``name``: registering the same name
    again replaces it, so an ``AppConfig.ready()`` that runs twice registers once.
    """

    def __init__(self, name: str, payload: tuple[str, ...]):
        self.name = name
        self.payload = payload
        self._callbacks: dict[str, _Callback] = {}

    def connect(self, callback: Callable[..., None], *, name: str, order: int) -> None:
        self._callbacks[name] = _Callback(order, name, callback)

    def disconnect(self, name: str) -> None:
        self._callbacks.pop(name, None)

    def receivers(self) -> list[str]:
        """The registered callbacks' names, in the order they are called."""
        return [c.name for c in self._ordered()]

    def _ordered(self) -> list[_Callback]:
        return sorted(self._callbacks.values(), key=lambda c: (c.order, c.name))

    def send(self, **payload) -> None:
        """Call every callback with ``payload``, in order. An exception stops the others and
        propagates to the caller (whose transaction then rolls back)."""
        if set(payload) != set(self.payload):
            raise TypeError(f"{self.name} is sent with {', '.join(self.payload)}, not {', '.join(sorted(payload))}")
        for entry in self._ordered():
            entry.callback(**payload)

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {', '.join(self.receivers()) or 'no receivers'}>"


#: A match's result is confirmed: agreed by both sides, entered or overridden by its director, or
#: confirmed by a ruling. Payload: ``match`` (the locked ``Match``, saved with its new score,
#: winner, status ``confirmed`` and games), ``actor`` (the user the change is audited under) and
#: ``ruled_dispute`` (the id of the dispute a ruling confirms this result for, which records its
#: own outcome; else None).
result_confirmed = Hook("result_confirmed", ("match", "actor", "ruled_dispute"))

#: A match went to its director: its reports disagree or one was contested (the match is saved
#: with status ``disputed``). Payload: ``match`` (locked), ``user`` (whose report or contest
#: made it disputed) and ``statement`` (why, with the user's own words).
result_disputed = Hook("result_disputed", ("match", "user", "statement"))

#: A match's result was taken back (a ruling had a game replayed, or reverted a result): the
#: match is saved without score or winner. Payload: ``match`` (locked) and ``actor``.
result_reopened = Hook("result_reopened", ("match", "actor"))

