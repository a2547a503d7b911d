"""How the audit log says what an event writes: the event itself, its entries, teams, board
orders, draw, pairings and rounds, a corrected result, a match removed with its pairing, and what
the round desk writes (a seed, a match's table).

Each action has its own sentence (the table :data:`WORDING`), read from the entry's ``before``,
``after`` and ``note`` as ``tournaments.services.audit`` and the services write them. Registered on
``audit.hooks.sentences`` by :class:`tournaments.apps.TournamentsConfig`.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.dateparse import parse_date
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy, ngettext

from audit.describe import Sentence, Sides, by_who, data, listing, ltr, need, score, who
from audit.describe import value as said
from audit.hooks import Wording
from core.text import join_clauses, join_list
from matches.wording import length_said, match_named, with_note


def draw_place(key) -> str:
    """A pairing's draw key as words: "main-2-3" -> "main, round 2, match 3"; "swiss-4-7" ->
    "round 4, match 7"."""
    parts = str(key or "").split("-")
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        where = {"round": parts[1], "number": parts[2]}
        if parts[0] in ("swiss", "rr", "rounds", "robin", "round_robin"):
            return gettext("round %(round)s, match %(number)s") % where
        return gettext("%(flight)s, round %(round)s, match %(number)s") % {**where, "flight": said(parts[0])}
    return said(key)


def _counted(singular_plural: Callable[[int], str], items) -> str:
    count = len(items or ())
    return singular_plural(count) % {"n": count}


def _pairings(count: int) -> str:
    return ngettext("%(n)s pairing", "%(n)s pairings", count)


# --- the event ---------------------------------------------------------------------------------------


#: An event's settings as the audit log names them (``tournament.updated``).
SETTINGS = {
    "name": gettext_lazy("the name"), "starts_on": gettext_lazy("the first day"), "ends_on": gettext_lazy("the last day"),
    "lengths": gettext_lazy("the match lengths"), "format": gettext_lazy("the format"),
    "kind": gettext_lazy("the entrants"), "consolation_rounds": gettext_lazy("the consolation flight"),
    "last_chance": gettext_lazy("the last-chance flight"), "swiss_rounds": gettext_lazy("the Swiss rounds"),
    "max_losses": gettext_lazy("the losses that eliminate"), "groups": gettext_lazy("the groups"),
    "forbid_same_club": gettext_lazy("the same-club rule"), "crawford": gettext_lazy("the Crawford rule"),
    "move_policy": gettext_lazy("the moves"), "premature_roll": gettext_lazy("the premature roll"),
    "clock_seconds_per_point": gettext_lazy("the clock"), "penalty_minutes_per_point": gettext_lazy("the late arrival"),
    "seeding": gettext_lazy("the seeding"), "board_count": gettext_lazy("the boards"),
    # divisions and the handicap starts between them
    "divisions": gettext_lazy("the divisions"), "handicaps": gettext_lazy("the handicap starts"),
    # the clock
    "clock_policy": gettext_lazy("the clock policy"), "clock_delay_seconds": gettext_lazy("the clock's delay"),
    "clock_doubling": gettext_lazy("the clock with doubling in play"),
    "clock_doubling_seconds_per_point": gettext_lazy("the clock's reserve with doubling in play"),
    "clock_doubling_delay_seconds": gettext_lazy("the clock's delay with doubling in play"),
    "clock_overtime_seconds": gettext_lazy("the clock's overtime"),
    # re-entry into the main after a first-round loss
    "reentries": gettext_lazy("the re-entries allowed"),
    # paid places, Swiss pairing and tie-breaks, round-robin order, the modified Swiss's playoffs
    "payouts": gettext_lazy("the paid places"), "swiss_pairing": gettext_lazy("the Swiss pairing"),
    "swiss_tiebreaks": gettext_lazy("the Swiss tie-breaks"), "round_robin_order": gettext_lazy("the round-robin order"),
    "abt_playoffs": gettext_lazy("the modified Swiss's playoffs"),
    "abt_paid_places": gettext_lazy("the paid places the playoffs count"),
}


def _division_row(row) -> str:
    if not isinstance(row, dict):
        return str(row)
    if "against" in row:
        return gettext("%(division)s starts %(points)s-0 against %(against)s at %(length)s points") % {
            "division": row.get("division"), "against": row.get("against"), "points": row.get("points"),
            "length": row.get("length")}
    return str(row.get("name"))


def _division_rows(raw: list) -> str:
    """Divisions or handicap rows as people say them."""
    if not raw:
        return gettext("none")
    return listing([_division_row(row) for row in raw])


def _setting_map(raw: dict) -> str:
    """A setting by flight or by round ("main: 5, 7; consolation: 3")."""
    return join_clauses(f"{said(name)}: {join_list(v) if isinstance(v, list) else v}" for name, v in raw.items())


def _setting(raw) -> str:
    if isinstance(raw, list) and all(isinstance(row, dict) for row in raw):  # divisions, handicaps
        return _division_rows(raw)
    if isinstance(raw, dict):
        return _setting_map(raw)
    day = parse_date(raw) if isinstance(raw, str) and len(raw) == 10 else None
    return date_format(day) if day else said(raw)


def created_sentence(entry, sides: Sides) -> str:
    after = data(entry.after)
    return gettext("%(who)s created the event %(name)s (%(format)s, %(kind)s)") % {
        "who": who(entry), "name": after.get("name") or gettext("without a name"), "format": said(after.get("format")),
        "kind": said(after.get("kind"))}


def playoffs_started_sentence(entry, sides: Sides) -> str:
    """The modified Swiss stopped for its playoffs."""
    after = data(entry.after)
    seeds = [str(name) for name in after.get("seeds") or ()]
    sentence = gettext("%(who)s stopped the Swiss after round %(round)s: %(seeds)s play the playoffs") % {
        "who": who(entry), "round": need(after, "round"), "seeds": listing(seeds) if seeds else gettext("nobody")}
    if after.get("cash_only"):
        sentence = gettext("%(sentence)s (%(names)s could still cash but no longer win)") % {
            "sentence": sentence, "names": listing([str(name) for name in after["cash_only"]])}
    return sentence


def updated_sentence(entry, sides: Sides) -> str:
    before, after = data(entry.before), data(entry.after)
    changes = [gettext("%(setting)s from %(before)s to %(after)s") % {
        "setting": SETTINGS.get(name, name.replace("_", " ")), "before": _setting(before.get(name)),
        "after": _setting(after.get(name))} for name in after]
    return gettext("%(who)s changed the event's settings: %(changes)s") % {"who": who(entry), "changes": listing(changes)}


def cancelled_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s cancelled the event, saying: %(reason)s") % {
        "who": who(entry), "reason": data(entry.after).get("reason") or gettext("no reason given")}


def deleted_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s deleted the draft event %(name)s") % {
        "who": who(entry), "name": data(entry.before).get("name") or gettext("without a name")}


def drawn_sentence(entry, sides: Sides) -> str:
    after = data(entry.after)
    return gettext("%(who)s made the draw: %(entrants)s, %(matches)s") % {
        "who": who(entry), "entrants": _counted(lambda n: ngettext("%(n)s entrant", "%(n)s entrants", n), after.get("seeds")),
        "matches": _counted(_pairings, after.get("pairings"))}


# --- its entries -------------------------------------------------------------------------------------


def _entry_values(entry) -> dict:
    before, after = data(entry.before), data(entry.after)
    return {"who": who(entry), "entrant": (after or before).get("name") or gettext("an entrant")}


def by_entrant(text: Callable[[], str]) -> Sentence:
    """The sentence of an entry's action said by who did it and the entrant's name."""

    def sentence(entry, sides: Sides) -> str:
        return text() % _entry_values(entry)

    return sentence


def division_set_sentence(entry, sides: Sides) -> str:
    """The entrant's division set."""
    before, after = data(entry.before), data(entry.after)
    values = {**_entry_values(entry), "division": after.get("division") or "", "before": before.get("division") or ""}
    if not values["before"]:
        return gettext("%(who)s put %(entrant)s in the %(division)s division") % values
    return gettext("%(who)s moved %(entrant)s from the %(before)s division to the %(division)s division") % values


def withdrawn_sentence(entry, sides: Sides) -> str:
    if not data(entry.after):
        return gettext("%(who)s removed the entry of %(entrant)s before the draw") % _entry_values(entry)
    return gettext("%(who)s withdrew %(entrant)s") % _entry_values(entry)


def seeded_sentence(entry, sides: Sides) -> str:
    """A seed set at the round desk before the draw (``tournaments.services.desk``)."""
    before, after = data(entry.before), data(entry.after)
    values = {"who": who(entry), "entrant": after.get("name") or before.get("name") or gettext("an entrant")}
    if after.get("seed") is None:
        return gettext("%(who)s left %(entrant)s unseeded") % values
    return gettext("%(who)s seeded %(entrant)s number %(seed)s") % {**values, "seed": ltr(after["seed"])}


# --- its teams and their board orders -------------------------------------------------------------------


def _team_values(entry) -> dict:
    shown = data(entry.after) or data(entry.before)
    return {"who": who(entry), "team": shown.get("team") if isinstance(shown.get("team"), str) else need(shown, "name"),
            "player": shown.get("name") or gettext("a player")}


def _team_players(entry) -> str:
    after = data(entry.after)
    count = len(after.get("members") or ()) + len(after.get("reserves") or ())
    return ngettext("%(n)s player", "%(n)s players", count) % {"n": count}


def team_created_sentence(entry, sides: Sides) -> str:
    values = {**_team_values(entry), "players": _team_players(entry)}
    return gettext("%(who)s entered the team %(team)s, %(players)s") % values


def team_added_late_sentence(entry, sides: Sides) -> str:
    values = {**_team_values(entry), "players": _team_players(entry)}
    return gettext("%(who)s added the team %(team)s late, after the draw, %(players)s") % values


def member_added_sentence(entry, sides: Sides) -> str:
    if data(entry.after).get("reserve"):
        return gettext("%(who)s added %(player)s to the team %(team)s as a reserve") % _team_values(entry)
    return gettext("%(who)s added %(player)s to the team %(team)s") % _team_values(entry)


def member_removed_sentence(entry, sides: Sides) -> str:
    values = {**_team_values(entry), "player": data(entry.before).get("name") or gettext("a player")}
    dropped = data(entry.after).get("board_orders_dropped") or []
    if dropped:
        return ngettext("%(who)s removed %(player)s from the team %(team)s; its board order for round "
                        "%(rounds)s was dropped",
                        "%(who)s removed %(player)s from the team %(team)s; its board orders for rounds "
                        "%(rounds)s were dropped", len(dropped)) % {**values, "rounds": listing(dropped)}
    return gettext("%(who)s removed %(player)s from the team %(team)s") % values


def board_order_sentence(entry, sides: Sides) -> str:
    after = data(entry.after)
    values = {"who": who(entry), "team": need(after, "team"), "round": need(after, "round")}
    if entry.before:
        return gettext("%(who)s changed the board order of %(team)s for round %(round)s") % values
    return gettext("%(who)s set the board order of %(team)s for round %(round)s") % values


# --- its draw: pairings, rounds, corrected results, its matches ------------------------------------------


def entrants_set_sentence(entry, sides: Sides) -> str:
    after = data(entry.after)
    place = draw_place(need(after, "key"))
    names = [name or gettext("a bye") for name in (after.get("names") or [None, None])]
    return gettext("%(place)s: %(first)s v %(second)s") % {
        "who": who(entry), "place": place, "first": names[0], "second": names[1]}


def entrants_cleared_sentence(entry, sides: Sides) -> str:
    return gettext("%(place)s: waiting for its players again") % {
        "who": who(entry), "place": draw_place(need(data(entry.after), "key"))}


def pairing_reset_sentence(entry, sides: Sides) -> str:
    return gettext("%(place)s was reset, by %(who)s: a result it was built on changed") % {
        "who": who(entry), "place": draw_place(need(data(entry.before), "key"))}


def result_corrected_sentence(entry, sides: Sides) -> str:
    before, after = data(entry.before), data(entry.after)
    values = {"who": who(entry), "place": draw_place(need(after, "key")), "score": score(after.get("score")),
              "winner": after.get("winner") or gettext("nobody"), "was": before.get("winner"),
              "resets": _counted(lambda n: ngettext("%(n)s later match reset", "%(n)s later matches reset", n),
                                 after.get("resets"))}
    if values["was"] and values["was"] != values["winner"]:
        sentence = gettext("%(who)s corrected the result of %(place)s to %(score)s: %(winner)s wins instead of "
                           "%(was)s; %(resets)s") % values
    else:
        sentence = gettext("%(who)s corrected the result of %(place)s to %(score)s; %(resets)s") % values
    return with_note(sentence, entry)


def round_paired_sentence(entry, sides: Sides) -> str:
    after = data(entry.after)
    values = {"who": who(entry), "round": need(after, "round"), "matches": _counted(_pairings, after.get("pairings"))}
    if after.get("bye"):
        return gettext("%(who)s paired round %(round)s: %(matches)s, a bye to %(bye)s") % {**values, "bye": after["bye"]}
    return gettext("%(who)s paired round %(round)s: %(matches)s") % values


def round_reset_sentence(entry, sides: Sides) -> str:
    return gettext("Round %(round)s was unpaired: a corrected result pairs it differently") % {
        "round": need(data(entry.before), "round")}


def match_deleted_sentence(entry, sides: Sides) -> str:
    """A match removed with its pairing, its place in the draw reset (``tournaments.services.draw_sync``)."""
    before = data(entry.before)
    return gettext("%(who)s removed the match %(match)s: its place in the draw (%(place)s) was reset") % {
        "who": who(entry), "match": match_named(before), "length": length_said(before),
        "place": draw_place(before.get("pairing"))}


def table_sentence(entry, sides: Sides) -> str:
    """A match put at a table, or taken off it, at the round desk."""
    after = data(entry.after)
    values = {"who": who(entry), "match": match_named(after)}
    if not after.get("table"):
        return gettext("%(who)s took %(match)s off its table") % values
    return gettext("%(who)s put %(match)s at table %(table)s") % {**values, "table": ltr(after["table"])}


WORDING = Wording("tournaments", {
    "tournament.created": (gettext_lazy("Event created"), created_sentence),
    "tournament.entries_opened": (gettext_lazy("Entries opened"), by_who(lambda: gettext("%(who)s opened the entries"))),
    "tournament.entries_closed": (gettext_lazy("Entries closed"),
                                  by_who(lambda: gettext("%(who)s closed the entries: check-in is open"))),
    "tournament.drawn": (gettext_lazy("Draw made"), drawn_sentence),
    "tournament.finished": (gettext_lazy("Event finished"),
                            by_who(lambda: gettext("%(who)s finished the event: its placings are final"))),
    "tournament.reopened": (gettext_lazy("Event reopened"), by_who(lambda: gettext("%(who)s reopened the event"))),
    "tournament.playoffs_started": (gettext_lazy("Playoffs started"), playoffs_started_sentence),
    "tournament.updated": (gettext_lazy("Event settings changed"), updated_sentence),
    "tournament.cancelled": (gettext_lazy("Event cancelled"), cancelled_sentence),
    "tournament.deleted": (gettext_lazy("Draft event deleted"), deleted_sentence),
    "entry.added": (gettext_lazy("Entrant added"), by_entrant(lambda: gettext("%(who)s entered %(entrant)s"))),
    "entry.signed_up": (gettext_lazy("Entrant signed up"), by_entrant(lambda: gettext("%(entrant)s signed up, by %(who)s"))),
    "entry.added_late": (gettext_lazy("Entrant added late"),
                         by_entrant(lambda: gettext("%(who)s added %(entrant)s late, after the draw"))),
    "entry.checked_in": (gettext_lazy("Entrant checked in"), by_entrant(lambda: gettext("%(who)s checked %(entrant)s in"))),
    "entry.accepted": (gettext_lazy("Entry accepted"), by_entrant(
        lambda: gettext("%(who)s accepted the entry: the event's results count on the record"))),
    "entry.withdrawn": (gettext_lazy("Entrant withdrawn"), withdrawn_sentence),
    "entry.reinstated": (gettext_lazy("Entrant reinstated"), by_entrant(
        lambda: gettext("%(who)s reinstated %(entrant)s: the disqualification was undone"))),
    "entry.division_set": (gettext_lazy("Entrant's division set"), division_set_sentence),
    # a buy-back into the main
    "entry.reentered": (gettext_lazy("Entrant re-entered"), by_entrant(
        lambda: gettext("%(who)s re-entered %(entrant)s into the main, after a first-round loss"))),
    "entry.seeded": (gettext_lazy("Entrant seeded"), seeded_sentence),
    "team.created": (gettext_lazy("Team entered"), team_created_sentence),
    "team.added_late": (gettext_lazy("Team added late"), team_added_late_sentence),
    "team.member_added": (gettext_lazy("Team member added"), member_added_sentence),
    "team.member_removed": (gettext_lazy("Team member removed"), member_removed_sentence),
    "board_order.submitted": (gettext_lazy("Board order set"), board_order_sentence),
    "pairing.entrants_set": (gettext_lazy("Pairing filled"), entrants_set_sentence),
    "pairing.entrants_cleared": (gettext_lazy("Pairing emptied"), entrants_cleared_sentence),
    "pairing.reset": (gettext_lazy("Pairing reset"), pairing_reset_sentence),
    "round.paired": (gettext_lazy("Round paired"), round_paired_sentence),
    "round.reset": (gettext_lazy("Round unpaired"), round_reset_sentence),
    "result.corrected": (gettext_lazy("Result corrected"), result_corrected_sentence),
    "match.deleted": (gettext_lazy("Match removed with its pairing"), match_deleted_sentence),
    "match.unrated": (gettext_lazy("Match made unrated"),
                      by_who(lambda: gettext("%(who)s made the match unrated: it was a forfeit"))),
    "match.table_set": (gettext_lazy("Table assigned"), table_sentence),
}, values={
    "single_elimination": gettext_lazy("single elimination"), "double_elimination": gettext_lazy("double elimination"),
    "round_robin": gettext_lazy("round robin"), "swiss": gettext_lazy("Swiss"),
    "individual": gettext_lazy("individual"), "pairs": gettext_lazy("consultation pairs"),
    "teams": gettext_lazy("teams"), "draft": gettext_lazy("draft"), "open": gettext_lazy("open"),
    "closed": gettext_lazy("closed"), "running": gettext_lazy("running"), "finished": gettext_lazy("finished"),
    "entered": gettext_lazy("entered"), "checked_in": gettext_lazy("checked in"), "withdrawn": gettext_lazy("withdrawn"),
    "main": gettext_lazy("main"), "consolation": gettext_lazy("consolation"), "last_chance": gettext_lazy("last chance"),
})
