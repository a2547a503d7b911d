"""What analysis offers the apps above it, which it never imports (each a :class:`core.hooks.Hook`).

- :data:`plies_sources`, the depth of a match's analysis: an event sets its own
  (``Tournament.analysis_plies``). An app connects a callback from its ``receivers.py``: called
  with ``match``, it gives the depth for a match it holds (read through the joins
  ``Match.objects.with_side_ids()`` makes, so no query), or None for a match it knows nothing of.
  The first source (by name) that answers decides; a match no source answers for (a club night's, a
  match outside any event) takes the settings' ``CRAWFORD_ANALYSIS_PLIES`` (2).
"""

from __future__ import annotations

from django.conf import settings

from core.hooks import Hook

#: The depth a match is analysed at, by the app that holds it. Payload: ``match``.
plies_sources = Hook("plies_sources", ("match",))


def plies_for(match) -> int:
    """The depth ``match`` is analysed at: its event's (or another source's), else the settings'
    ``ANALYSIS_PLIES``. The sources are asked by name; the first that answers decides."""
    for source in plies_sources.entries():
        plies = source(match=match)
        if plies is not None:
            return int(plies)
    return settings.ANALYSIS_PLIES
