"""How the audit log says what a chouette table writes: started, joined, left, a game recorded,
corrected or voided, its house rules changed, ended with its settlement, reopened.

Each action has its own sentence (the table :data:`WORDING`), read from the entry's ``after`` as
``chouette.services`` writes it. Registered on ``audit.hooks.sentences`` by
:class:`chouette.apps.ChouetteConfig`.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, ngettext

from audit.describe import Sides, by_who, data, who
from audit.hooks import Wording


def started_sentence(entry, sides: Sides) -> str:
    after = data(entry.after)
    count = len(after.get("lineup") or ())
    return ngettext("%(who)s started the chouette %(name)s with %(n)s player",
                    "%(who)s started the chouette %(name)s with %(n)s players", count) % {
        "who": who(entry), "name": after.get("name") or "", "n": count}


def joined_sentence(entry, sides: Sides) -> str:
    return gettext("%(player)s joined the chouette, by %(who)s") % {
        "who": who(entry), "player": data(entry.after).get("name") or gettext("a player")}


def ended_sentence(entry, sides: Sides) -> str:
    transfers = len(data(entry.after).get("transfers") or ())
    return ngettext("%(who)s ended the chouette: %(n)s payment settles it",
                    "%(who)s ended the chouette: %(n)s payments settle it", transfers) % {"who": who(entry), "n": transfers}


WORDING = Wording("chouette", {
    "chouette.started": (gettext_lazy("Chouette started"), started_sentence),
    "chouette.joined": (gettext_lazy("Player joined the chouette"), joined_sentence),
    "chouette.left": (gettext_lazy("Player left the chouette"),
                      by_who(lambda: gettext("A player left the chouette, by %(who)s"))),
    "chouette.game_recorded": (gettext_lazy("Chouette game recorded"),
                               by_who(lambda: gettext("%(who)s recorded a game of the chouette"))),
    "chouette.game_amended": (gettext_lazy("Chouette game corrected"),
                              by_who(lambda: gettext("%(who)s corrected a game of the chouette"))),
    "chouette.game_voided": (gettext_lazy("Chouette game voided"),
                             by_who(lambda: gettext("%(who)s voided a game of the chouette"))),
    "chouette.ended": (gettext_lazy("Chouette ended"), ended_sentence),
    "chouette.rules_changed": (gettext_lazy("Chouette house rules changed"),
                               by_who(lambda: gettext("%(who)s changed the house rules of the chouette"))),
    "chouette.reopened": (gettext_lazy("Chouette reopened"), by_who(
        lambda: gettext("%(who)s reopened the chouette: its settlement is no longer final until it ends again"))),
})
