"""How accounts tells the apps above it about a person's account without importing them.

accounts sits below matches: a new account needs a player (``matches.Player``) to enter events
and report results, and a deleted one leaves its player's match records under the player's display
name. matches registers here, in its ``AppConfig.ready()``:

- :data:`user_signed_up` (``user``, ``display_name``): sent inside the sign-up's transaction, after
  the user row is saved; the callback makes his player. Its exception rolls the sign-up back.
- :data:`display_name_set` (``user``, ``display_name``): he changed the name others see (the
  API's ``PATCH me/``); the callback renames his player.
- :data:`user_erased` (``user``): sent inside the account deletion's transaction, before the
  user's personal fields are emptied; the callback lets go of his player (the player and its
  matches stay, under the display name).

Callbacks run in the order of their names; registering a name again replaces it (a ``ready()``
that runs twice registers once).
"""

from __future__ import annotations

from collections.abc import Callable


class Hook:
    """Callbacks called one after the other with the same keyword arguments (``payload``)."""

    def __init__(self, name: str, payload: tuple[str, ...]):
        self.name = name
        self.payload = payload
        self._callbacks: dict[str, Callable[..., None]] = {}

    def connect(self, callback: Callable[..., None], *, name: str) -> None:
        self._callbacks[name] = callback

    def disconnect(self, name: str) -> None:
        self._callbacks.pop(name, None)

    def receivers(self) -> list[str]:
        return sorted(self._callbacks)

    def send(self, **payload) -> None:
        """Call every callback with ``payload``, by name. An exception stops the others and
        propagates to the caller (whose transaction then rolls back). Raises TypeError when the
        payload is not exactly the hook's."""
        if set(payload) != set(self.payload):
            raise TypeError(f"{self.name} takes {sorted(self.payload)}, not {sorted(payload)}")
        for name in sorted(self._callbacks):
            self._callbacks[name](**payload)


user_signed_up = Hook("user_signed_up", ("user", "display_name"))
user_erased = Hook("user_erased", ("user",))
display_name_set = Hook("display_name_set", ("user", "display_name"))
