"""What tournaments announces to the apps above it that only listen (webhooks), without importing
them: each hook is sent by a tournaments service inside the change's transaction, so a listener's
writes commit or roll back with the change (see ``matches.hooks.Hook``).

- :data:`round_paired`: a round's pairings were made. ``tournament`` (locked), ``round_number``
  (the Swiss round; None for a draw that pairs its first matches at once: a bracket or a round
  robin), ``pairings`` (each as ``tournaments.services.audit.pairing_summary`` gives it, with the
  entrants' names) and ``actor``.
"""

from __future__ import annotations

from matches.hooks import Hook

round_paired = Hook("round_paired", ("tournament", "round_number", "pairings", "actor"))
