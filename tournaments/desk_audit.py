"""How the audit log says what the round desk writes (tournaments.services.desk) beyond the event's
usual actions: a seed set before the draw, a match's table. Registered by
:class:`tournaments.apps.TournamentsConfig` when the app is ready."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from audit.describe import data, describer_register, ltr, who


def seeded_sentence(entry, sides) -> str:
    before, after = data(entry.before), data(entry.after)
    values = {"who": who(entry), "entrant": after.get("name") or before.get("name") or gettext("an entrant")}
    if after.get("seed") is None:
        return gettext("%(who)s left %(entrant)s unseeded") % values
    return gettext("%(who)s seeded %(entrant)s number %(seed)s") % {**values, "seed": ltr(after["seed"])}


def table_sentence(entry, sides) -> str:
    after = data(entry.after)
    shown = after.get("sides")
    match = (gettext("%(side0)s v %(side1)s") % {"side0": shown[0], "side1": shown[1]}
             if isinstance(shown, list) and len(shown) == 2 else gettext("the match"))
    values = {"who": who(entry), "match": match}
    if not after.get("table"):
        return gettext("%(who)s took %(match)s off its table") % values
    return gettext("%(who)s put %(match)s at table %(table)s") % {**values, "table": ltr(after["table"])}


def register() -> None:
    describer_register("entry.seeded", gettext_lazy("Entrant seeded"), seeded_sentence)
    describer_register("match.table_set", gettext_lazy("Table assigned"), table_sentence)
