"""What accounts offers the apps above it: the hooks that tell them about a person's account,
without importing them (each a :class:`core.hooks.Hook`).

accounts sits below matches: a new account needs a player (``matches.Player``) to enter events
and report results, and a deleted one leaves its player's match records under the player's display
name. matches connects to them in its ``receivers.py``, from its ``AppConfig.ready()``:

- :data:`user_signed_up` (``user``, ``display_name``): sent inside the sign-up's transaction, after
  the user row is saved; the callback makes his player. Its exception rolls the sign-up back.
- :data:`display_name_set` (``user``, ``display_name``): he changed the name others see (the
  API's ``PATCH me/``); the callback renames his player.
- :data:`user_erased` (``user``): sent inside the account deletion's transaction, before the
  user's personal fields are emptied; the callback lets go of his player (the player and its
  matches stay, under the display name).

Callbacks run in the order of their names; connecting a name again replaces it (a ``ready()``
that runs twice connects once).
"""

from __future__ import annotations

from core.hooks import Hook

user_signed_up = Hook("user_signed_up", ("user", "display_name"))
user_erased = Hook("user_erased", ("user",))
display_name_set = Hook("display_name_set", ("user", "display_name"))
