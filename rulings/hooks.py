"""What rulings offers the apps above it that only listen (webhooks), without importing them
(a :class:`core.hooks.Hook`): sent by ``rulings.services.rulings.ruling_apply`` inside the ruling's
transaction, so a listener's writes commit or roll back with the ruling.

- :data:`ruling_made`: a director's or a committee's ruling was applied. ``ruling`` (saved) and
  ``match`` (the dispute's match, locked).
"""

from __future__ import annotations

from core.hooks import Hook

ruling_made = Hook("ruling_made", ("ruling", "match"))
