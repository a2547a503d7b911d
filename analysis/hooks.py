"""How the apps above analysis tell it what only they know (analysis imports none of them).

- The depth of a match's analysis: an event sets its own (``Tournament.analysis_plies``). An app
  registers a *plies source* from its ``AppConfig.ready()``: ``source(match)`` gives the depth for
  a match it holds (read through the joins ``Match.objects.with_side_ids()`` makes, so no query),
  or None for a match it knows nothing of. The first source (by name) that answers decides; a
  match no source answers for (a club night's, a match outside any event) takes the settings'
  ``CRAWFORD_ANALYSIS_PLIES`` (2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings

_plies_sources: dict[str, Callable[[Any], int | None]] = {}


def plies_source_register(name: str, source: Callable[[Any], int | None]) -> None:
    """Register (or, under the same name, replace) a plies source."""
    _plies_sources[name] = source


def plies_source_unregister(name: str) -> None:
    _plies_sources.pop(name, None)


def plies_for(match) -> int:
    """The depth ``match`` is analysed at: its event's (or another registered source's), else the
    settings' ``ANALYSIS_PLIES``."""
    for name in sorted(_plies_sources):
        plies = _plies_sources[name](match)
        if plies is not None:
            return int(plies)
    return settings.ANALYSIS_PLIES
