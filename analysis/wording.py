"""How the audit log says what analysis writes: GNU Backgammon asked to analyse a match
(``analysis.services``). Registered on ``audit.hooks.sentences`` by
:class:`analysis.apps.AnalysisConfig`.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from audit.describe import Sides, data, who
from audit.hooks import Wording


def requested_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s asked GNU Backgammon to analyse the match at %(plies)s-ply") % {
        "who": who(entry), "plies": data(entry.after).get("plies")}


WORDING = Wording("analysis", {
    "match.analysis_requested": (gettext_lazy("Analysis asked for"), requested_sentence),
})
