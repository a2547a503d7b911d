"""What audit offers the apps above it: the hook by which each app says its own audit actions.

audit knows no app, so it words none of their changes. Each app that writes to the log registers,
from its ``AppConfig.ready()``, one :class:`Wording` (in its ``wording.py``): for every action it
writes, the action's label ("Result confirmed") and the function that turns an entry of it into a
translated sentence, and the stored values its sentences name, as people say them.
:mod:`audit.describe` finds an entry's sentence by its action in these tables, read once into one
lookup, and says an action no table words by its own words and who did it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.hooks import Hook

#: The names of an entry's match's sides, in order ("the first side" when the page does not know them).
Sides = Sequence[str]
#: A sentence from an entry (an ``AuditEntry``, or anything with its ``action``, ``actor_name``,
#: ``before``, ``after`` and ``note``) and its match's sides.
Sentence = Callable[[Any, Sides], str]


@dataclass(frozen=True, eq=False)
class Wording:
    """An app's audit actions as the log says them.

    ``actions`` maps an action (``"match.reported"``) to its label and its sentence; a key starting
    with ``*`` (``"*.changed_in_admin"``) covers every action ending with the rest. ``values``: the
    stored values the app's sentences name (statuses, roles, formats), as people say them
    (``audit.describe.value``). ``order`` decides, should two tables word the same action, which
    one is read (the lower; then by ``name``).
    """

    name: str
    actions: Mapping[str, tuple[Any, Sentence]]
    values: Mapping[str, Any] = field(default_factory=dict)
    order: int = 0


sentences = Hook("sentences", doc="The audit actions' labels and sentences, one table (Wording) per app.")
