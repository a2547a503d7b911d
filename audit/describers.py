"""How the audit log says the changes of matches, events, clubs and chouettes, one function per
domain (:func:`match_sentence`, :func:`event_sentence`, :func:`club_sentence`,
:func:`chouette_sentence`) and the Django admin's (:func:`admin_sentence`).

They read only what those apps write into an entry (``before``, ``after``, ``note``: plain JSON
whose shapes are the apps' summaries: ``matches.services.matches.match_summary``,
``matches.selectors.match_snapshot``, ``tournaments.services.audit``, the clubs' and chouette's
summaries), so they live here, below the apps, and import none of them. rulings, above, registers
its own (``rulings.hooks``). Registered by :class:`audit.apps.AuditConfig` when it is ready.
"""

from __future__ import annotations

from django.utils.dateparse import parse_date
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy, ngettext

from .describe import Sides, data, describer_register, describers_register, draw_place, listing, need, score, side_name, who
from .describe import value as said


def _match(entry_data: dict) -> str:
    sides = entry_data.get("sides")
    if isinstance(sides, list) and len(sides) == 2:
        return gettext("%(side0)s v %(side1)s") % {"side0": sides[0], "side1": sides[1]}
    return gettext("the match")


def _length(entry_data: dict) -> str:
    length = entry_data.get("length")
    if not length:
        return gettext("a money session")
    return ngettext("to %(length)s point", "to %(length)s points", length) % {"length": length}


# --- matches ---------------------------------------------------------------------------------------


def match_sentence(entry, sides: Sides) -> str:
    """A match's change: created, imported, reported, confirmed, overridden, reopened, consent,
    deleted with its pairing, made unrated."""
    before, after = data(entry.before), data(entry.after)
    action = entry.action.split(".", 1)[1]
    values = {"who": who(entry)}
    if action in ("created", "imported", "deleted"):
        shown = after if action != "deleted" else before
        values.update(match=_match(shown), length=_length(shown))
        if action == "created":
            return gettext("%(who)s created the match %(match)s, %(length)s") % values
        if action == "imported":
            games = after.get("games") or 0
            return ngettext("%(who)s imported the match %(match)s, %(length)s, with %(games)s game",
                            "%(who)s imported the match %(match)s, %(length)s, with %(games)s games", games) % {
                **values, "games": games}
        values["place"] = draw_place(before.get("pairing"))
        return gettext("%(who)s removed the match %(match)s: its place in the draw (%(place)s) was reset") % values
    if action == "reported":
        values.update(side=side_name(after.get("side"), sides), score=score(after.get("score")))
        if before.get("score"):
            values["before"] = score(before["score"])
            return gettext("%(who)s changed the report of %(side)s from %(before)s to %(score)s") % values
        games = after.get("games") or 0
        if games:
            return ngettext("%(who)s reported %(score)s for %(side)s, with %(games)s game",
                            "%(who)s reported %(score)s for %(side)s, with %(games)s games", games) % {
                **values, "games": games}
        return gettext("%(who)s reported %(score)s for %(side)s") % values
    if action in ("result_confirmed", "result_overridden"):
        values.update(score=score(after.get("score")), before=score(before.get("score")))
        if action == "result_confirmed":
            if before.get("status") == "confirmed" and before.get("score") != after.get("score"):
                return gettext("Score corrected from %(before)s to %(score)s by %(who)s") % values
            return gettext("The result %(score)s was confirmed, by %(who)s") % values
        origin = after.get("origin") if isinstance(after.get("origin"), dict) else {}
        if origin.get("code") == "forfeit":
            sentence = gettext("%(who)s set the result %(score)s: a forfeit, %(name)s withdrew") % {
                **values, "name": origin.get("name") or gettext("an entrant")}
        elif origin.get("code") == "flag_fall":  # the director recorded a flag fall
            sentence = gettext("%(who)s set the result %(score)s: a flag fall, %(name)s ran out of time") % {
                **values, "name": origin.get("name") or gettext("a player")}
        elif before.get("status") == "confirmed" and before.get("score") != after.get("score"):
            sentence = gettext("Score corrected from %(before)s to %(score)s by %(who)s") % values
        else:
            sentence = gettext("%(who)s set the result: %(score)s") % values
        if entry.note:
            sentence = gettext("%(sentence)s, saying: %(note)s") % {"sentence": sentence, "note": entry.note}
        return sentence
    if action == "reopened":
        values["before"] = score(before.get("score"))
        if before.get("status") == "confirmed":
            return gettext("%(who)s reopened the match: the result %(before)s no longer stands") % values
        return gettext("%(who)s reopened the match") % values
    if action in ("consent_given", "consent_declined", "consent_reset"):
        values["side"] = side_name(after.get("side"), sides)
        if action == "consent_given":
            return gettext("%(who)s confirmed, for %(side)s, that the match counts on the record") % values
        if action == "consent_reset":
            return gettext("The result %(who)s set waits for %(side)s to confirm it before it counts on the record") % values
        return gettext("%(who)s declined, for %(side)s, to have the match on the record") % values
    if action == "unrated":
        return gettext("%(who)s made the match unrated: it was a forfeit") % values
    # The match's clock: a flag fall recorded, a clock introduced mid-match.
    if action == "flag_fell":
        values["side"] = after.get("name") or side_name(after.get("side"), sides)
        return gettext("%(who)s recorded a flag fall: %(side)s ran out of time and loses the match") % values
    if action == "clock_introduced":
        values.update(score=score(after.get("score")), reserve=_minutes(after.get("reserve_seconds")))
        return gettext("%(who)s introduced a clock at %(score)s: %(reserve)s for each side") % values
    if action == "penalty_given":
        return _penalty_sentence(after, sides, values)
    if action == "analysis_requested":  # GNU Backgammon asked to analyse the match
        values["plies"] = after.get("plies")
        return gettext("%(who)s asked GNU Backgammon to analyse the match at %(plies)s-ply") % values
    return gettext("%(who)s changed the match") % values


def _minutes(seconds) -> str:
    """Seconds of a clock, as minutes when whole."""
    if not isinstance(seconds, int):
        return gettext("an unknown time")
    if seconds % 60 == 0:
        return ngettext("%(count)d minute", "%(count)d minutes", seconds // 60) % {"count": seconds // 60}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


def _penalty_sentence(after: dict, sides: Sides, values: dict) -> str:
    """Penalty points given mid-match (``matches.services.penalties``)."""
    side = after.get("side")
    points = after.get("points") or 0
    values.update(side=side_name(side, sides), opponent=side_name(1 - side if side in (0, 1) else None, sides),
                  points=points, before=score(after.get("before")), after=score(after.get("after")))
    sentence = ngettext("%(who)s gave %(side)s %(points)s penalty point at %(before)s: the score is %(after)s",
                        "%(who)s gave %(side)s %(points)s penalty points at %(before)s: the score is %(after)s",
                        points) % values
    if after.get("ended_match"):
        return gettext("%(sentence)s, and %(opponent)s wins the match") % {"sentence": sentence, **values}
    if after.get("crawford_next"):
        return gettext("%(sentence)s, and the next game is the Crawford game") % {"sentence": sentence}
    return sentence


# --- events ----------------------------------------------------------------------------------------


def _entrant(entry_data: dict) -> str:
    return entry_data.get("name") or gettext("an entrant")


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


def _division_rows(raw: list) -> str:
    """Divisions or handicap rows as people say them."""
    if not raw:
        return gettext("none")
    said_rows = []
    for row in raw:
        if not isinstance(row, dict):
            said_rows.append(str(row))
        elif "against" in row:
            said_rows.append(gettext("%(division)s starts %(points)s-0 against %(against)s at %(length)s points") % {
                "division": row.get("division"), "against": row.get("against"), "points": row.get("points"),
                "length": row.get("length")})
        else:
            said_rows.append(str(row.get("name")))
    return listing(said_rows)


def _setting(raw) -> str:
    if isinstance(raw, list) and all(isinstance(row, dict) for row in raw):  # divisions, handicaps
        return _division_rows(raw)
    if isinstance(raw, dict):
        return "; ".join(f"{said(name)}: {', '.join(map(str, v)) if isinstance(v, list) else v}" for name, v in raw.items())
    day = parse_date(raw) if isinstance(raw, str) and len(raw) == 10 else None
    return date_format(day) if day else said(raw)


def event_sentence(entry, sides: Sides) -> str:
    """An event's change: the event itself, its entries, teams, board orders, pairings and rounds."""
    before, after = data(entry.before), data(entry.after)
    values = {"who": who(entry)}
    action = entry.action
    if action == "tournament.created":
        return gettext("%(who)s created the event %(name)s (%(format)s, %(kind)s)") % {
            **values, "name": after.get("name") or gettext("without a name"), "format": said(after.get("format")),
            "kind": said(after.get("kind"))}
    if action == "tournament.entries_opened":
        return gettext("%(who)s opened the entries") % values
    if action == "tournament.entries_closed":
        return gettext("%(who)s closed the entries: check-in is open") % values
    if action == "tournament.finished":
        return gettext("%(who)s finished the event: its placings are final") % values
    if action == "tournament.reopened":
        return gettext("%(who)s reopened the event") % values
    if action == "tournament.playoffs_started":  # the modified Swiss stopped for its playoffs
        seeds = [str(name) for name in after.get("seeds") or ()]
        sentence = gettext("%(who)s stopped the Swiss after round %(round)s: %(seeds)s play the playoffs") % {
            **values, "round": need(after, "round"), "seeds": listing(seeds) if seeds else gettext("nobody")}
        if after.get("cash_only"):
            sentence = gettext("%(sentence)s (%(names)s could still cash but no longer win)") % {
                "sentence": sentence, "names": listing([str(name) for name in after["cash_only"]])}
        return sentence
    if action == "tournament.updated":
        changes = [gettext("%(setting)s from %(before)s to %(after)s") % {
            "setting": SETTINGS.get(name, name.replace("_", " ")), "before": _setting(before.get(name)),
            "after": _setting(after.get(name))} for name in after]
        return gettext("%(who)s changed the event's settings: %(changes)s") % {**values, "changes": listing(changes)}
    if action == "tournament.cancelled":
        return gettext("%(who)s cancelled the event, saying: %(reason)s") % {
            **values, "reason": after.get("reason") or gettext("no reason given")}
    if action == "tournament.deleted":
        return gettext("%(who)s deleted the draft event %(name)s") % {
            **values, "name": before.get("name") or gettext("without a name")}
    if action == "tournament.drawn":
        seeds, pairings = len(after.get("seeds") or ()), len(after.get("pairings") or ())
        return gettext("%(who)s made the draw: %(entrants)s, %(matches)s") % {
            **values, "entrants": ngettext("%(n)s entrant", "%(n)s entrants", seeds) % {"n": seeds},
            "matches": ngettext("%(n)s pairing", "%(n)s pairings", pairings) % {"n": pairings}}
    if action.startswith("entry."):
        values["entrant"] = _entrant(after or before)
        sentences = {
            "entry.added": gettext("%(who)s entered %(entrant)s"),
            "entry.signed_up": gettext("%(entrant)s signed up, by %(who)s"),
            "entry.added_late": gettext("%(who)s added %(entrant)s late, after the draw"),
            "entry.checked_in": gettext("%(who)s checked %(entrant)s in"),
            "entry.accepted": gettext("%(who)s accepted the entry: the event's results count on the record"),
            "entry.reinstated": gettext("%(who)s reinstated %(entrant)s: the disqualification was undone"),
            # a buy-back into the main
            "entry.reentered": gettext("%(who)s re-entered %(entrant)s into the main, after a first-round loss"),
        }
        if action == "entry.division_set":  # the entrant's division
            values.update(division=after.get("division") or "", before=before.get("division") or "")
            if not values["before"]:
                return gettext("%(who)s put %(entrant)s in the %(division)s division") % values
            return gettext("%(who)s moved %(entrant)s from the %(before)s division to the %(division)s division") % values
        if action == "entry.withdrawn":
            if not after:
                return gettext("%(who)s removed the entry of %(entrant)s before the draw") % values
            return gettext("%(who)s withdrew %(entrant)s") % values
        return sentences.get(action, gettext("%(who)s changed the entry of %(entrant)s")) % values
    if action.startswith("team."):
        shown = after or before
        values.update(team=shown.get("team") if isinstance(shown.get("team"), str) else need(shown, "name"),
                      player=shown.get("name") or gettext("a player"))
        if action in ("team.created", "team.added_late"):
            count = len(after.get("members") or ()) + len(after.get("reserves") or ())
            values["players"] = ngettext("%(n)s player", "%(n)s players", count) % {"n": count}
            if action == "team.created":
                return gettext("%(who)s entered the team %(team)s, %(players)s") % values
            return gettext("%(who)s added the team %(team)s late, after the draw, %(players)s") % values
        if action == "team.member_added":
            if after.get("reserve"):
                return gettext("%(who)s added %(player)s to the team %(team)s as a reserve") % values
            return gettext("%(who)s added %(player)s to the team %(team)s") % values
        if action == "team.member_removed":
            values["player"] = before.get("name") or gettext("a player")
            dropped = after.get("board_orders_dropped") or []
            if dropped:
                return ngettext("%(who)s removed %(player)s from the team %(team)s; its board order for round "
                                "%(rounds)s was dropped",
                                "%(who)s removed %(player)s from the team %(team)s; its board orders for rounds "
                                "%(rounds)s were dropped", len(dropped)) % {**values, "rounds": listing(dropped)}
            return gettext("%(who)s removed %(player)s from the team %(team)s") % values
        return gettext("%(who)s changed the team %(team)s") % values
    if action == "board_order.submitted":
        values.update(team=need(after, "team"), round=need(after, "round"))
        if entry.before:
            return gettext("%(who)s changed the board order of %(team)s for round %(round)s") % values
        return gettext("%(who)s set the board order of %(team)s for round %(round)s") % values
    if action.startswith("pairing."):
        shown = after if action != "pairing.reset" else before
        values["place"] = draw_place(need(shown, "key"))
        if action == "pairing.entrants_set":
            names = [name or gettext("a bye") for name in (after.get("names") or [None, None])]
            return gettext("%(place)s: %(first)s v %(second)s") % {**values, "first": names[0], "second": names[1]}
        if action == "pairing.entrants_cleared":
            return gettext("%(place)s: waiting for its players again") % values
        return gettext("%(place)s was reset, by %(who)s: a result it was built on changed") % values
    if action == "result.corrected":
        resets = len(after.get("resets") or ())
        values.update(place=draw_place(need(after, "key")), score=score(after.get("score")),
                      winner=after.get("winner") or gettext("nobody"), was=before.get("winner"),
                      resets=ngettext("%(n)s later match reset", "%(n)s later matches reset", resets) % {"n": resets})
        if values["was"] and values["was"] != values["winner"]:
            sentence = gettext("%(who)s corrected the result of %(place)s to %(score)s: %(winner)s wins instead of "
                               "%(was)s; %(resets)s") % values
        else:
            sentence = gettext("%(who)s corrected the result of %(place)s to %(score)s; %(resets)s") % values
        if entry.note:
            sentence = gettext("%(sentence)s, saying: %(note)s") % {"sentence": sentence, "note": entry.note}
        return sentence
    if action == "round.paired":
        count = len(after.get("pairings") or ())
        values.update(round=need(after, "round"), matches=ngettext("%(n)s pairing", "%(n)s pairings", count) % {"n": count})
        if after.get("bye"):
            return gettext("%(who)s paired round %(round)s: %(matches)s, a bye to %(bye)s") % {**values, "bye": after["bye"]}
        return gettext("%(who)s paired round %(round)s: %(matches)s") % values
    if action == "round.reset":
        return gettext("Round %(round)s was unpaired: a corrected result pairs it differently") % {
            "round": need(before, "round")}
    return gettext("%(who)s changed the event") % values


# --- clubs -----------------------------------------------------------------------------------------


def _day(raw) -> str:
    parsed = parse_date(raw) if isinstance(raw, str) else None
    return date_format(parsed, "DATE_FORMAT") if parsed else said(raw)


#: The club's own fields, as its page names them (the ones club.updated may change).
CLUB_FIELDS = {"name": gettext_lazy("name"), "slug": gettext_lazy("address"), "city": gettext_lazy("city"),
               "description": gettext_lazy("description"), "open_to_requests": gettext_lazy("open to requests")}


def player_sentence(entry, sides: Sides) -> str:
    """A guest player's change: entered as a walk-in, invited to be claimed, claimed by a user."""
    before, after = data(entry.before), data(entry.after)
    values = {"who": who(entry), "player": (after or before).get("name") or gettext("a player")}
    if entry.action == "player.guest_created":
        if after.get("invited"):
            return gettext("%(who)s entered %(player)s, a player without an account, and invited him by email") % values
        return gettext("%(who)s entered %(player)s, a player without an account") % values
    if entry.action == "player.invited":
        return gettext("%(who)s invited %(player)s by email to claim his player") % values
    if entry.action == "player.claimed":
        values["user"] = after.get("user") or gettext("a user")
        return gettext("%(user)s claimed the player %(player)s") % values
    return gettext("%(who)s changed the player %(player)s") % values


def club_sentence(entry, sides: Sides) -> str:
    """A club's change: the club, its memberships, nights and seasons."""
    before, after = data(entry.before), data(entry.after)
    values = {"who": who(entry)}
    action = entry.action
    if action == "club.created":
        return gettext("%(who)s founded the club %(name)s") % {**values, "name": need(after, "name")}
    if action == "club.updated":
        changed = [str(CLUB_FIELDS.get(key, said(key))) for key in after if before.get(key) != after.get(key)]
        return gettext("%(who)s changed the club's %(fields)s") % {**values, "fields": listing(changed) or
                                                                  gettext("details")}
    if action.startswith("membership."):
        shown = after or before
        values.update(user=shown.get("user") or gettext("a user"), role=said(shown.get("role")),
                      was=said(before.get("role")))
        sentences = {
            "membership.created": gettext("%(user)s joined as %(role)s, by %(who)s"),
            "membership.requested": gettext("%(user)s asked to join"),
            "membership.invited": gettext("%(who)s invited %(user)s as %(role)s"),
            "membership.accepted": gettext("%(user)s accepted the invitation"),
            "membership.approved": gettext("%(who)s approved %(user)s's request to join"),
            "membership.declined": gettext("%(who)s declined %(user)s's membership"),
            "membership.role_changed": gettext("%(who)s made %(user)s %(role)s instead of %(was)s"),
            "membership.removed": gettext("%(who)s removed %(user)s from the club"),
            "membership.left": gettext("%(user)s left the club"),
            "membership.walk_in": gettext("%(who)s added %(user)s, a player without an account, as a member"),
            "membership.claimed": gettext("%(user)s claimed his walk-in membership"),
        }
        return sentences.get(action, gettext("%(who)s changed the membership of %(user)s")) % values
    if action.startswith("night."):
        if action == "night.checked_in":
            return gettext("%(who)s checked %(player)s in to the club night") % {
                **values, "player": after.get("name") or gettext("a player")}
        shown = after or before
        values.update(title=shown.get("title") or gettext("the club night"), day=_day(shown.get("date")))
        if action == "night.opened":
            return gettext("%(who)s opened %(title)s on %(day)s") % values
        return gettext("%(who)s closed %(title)s of %(day)s") % values
    if action.startswith("season."):
        shown = after or before
        values.update(name=need(shown, "name"), starts=_day(shown.get("starts_on")), ends=_day(shown.get("ends_on")))
        if action == "season.created":
            return gettext("%(who)s created the season %(name)s, %(starts)s to %(ends)s") % values
        if action == "season.updated":
            return gettext("%(who)s changed the season %(name)s: %(starts)s to %(ends)s") % values
        return gettext("%(who)s deleted the season %(name)s") % values
    return gettext("%(who)s changed the club") % values


# --- chouette --------------------------------------------------------------------------------------


def chouette_sentence(entry, sides: Sides) -> str:
    """A chouette table's change: started, joined, left, a game recorded, amended or voided, ended,
    reopened."""
    after = data(entry.after)
    values = {"who": who(entry)}
    action = entry.action
    if action == "chouette.started":
        count = len(after.get("lineup") or ())
        return ngettext("%(who)s started the chouette %(name)s with %(n)s player",
                        "%(who)s started the chouette %(name)s with %(n)s players", count) % {
            **values, "name": after.get("name") or "", "n": count}
    if action == "chouette.joined":
        return gettext("%(player)s joined the chouette, by %(who)s") % {**values, "player": after.get("name") or
                                                                         gettext("a player")}
    if action == "chouette.left":
        return gettext("A player left the chouette, by %(who)s") % values
    if action == "chouette.game_recorded":
        return gettext("%(who)s recorded a game of the chouette") % values
    if action == "chouette.game_amended":
        return gettext("%(who)s corrected a game of the chouette") % values
    if action == "chouette.game_voided":
        return gettext("%(who)s voided a game of the chouette") % values
    if action == "chouette.rules_changed":
        return gettext("%(who)s changed the house rules of the chouette") % values
    if action == "chouette.ended":
        transfers = len(after.get("transfers") or ())
        return ngettext("%(who)s ended the chouette: %(n)s payment settles it",
                        "%(who)s ended the chouette: %(n)s payments settle it", transfers) % {**values, "n": transfers}
    if action == "chouette.reopened":
        return gettext("%(who)s reopened the chouette: its settlement is no longer final until it ends again") % values
    return gettext("%(who)s changed the chouette") % values


# --- a player's profile ---------------------------------------------------------------------------


PROFILE_FIELDS = {
    "display_name": gettext_lazy("display name"),
    "country": gettext_lazy("country"),
    "preferred_language": gettext_lazy("preferred language"),
    "email_public": gettext_lazy("whether the email address is shown"),
    "real_name_public": gettext_lazy("whether the real name is shown"),
}


def profile_sentence(entry, sides: Sides) -> str:
    """A player changed his own profile (``player.profile_updated``): which parts, by name."""
    fields = [PROFILE_FIELDS[key] for key in PROFILE_FIELDS if key in data(entry.after)]
    values = {"who": who(entry), "fields": listing(fields)}
    if fields:
        return gettext("%(who)s changed his profile: %(fields)s") % values
    return gettext("%(who)s changed his profile") % values


# --- the Django admin ------------------------------------------------------------------------------


def import_sentence(entry, sides: Sides) -> str:
    """An import's names said to be players: how many mapped to players, made guests, skipped."""
    mapping = data(entry.after).get("mapping") or {}
    values = {"who": who(entry),
              "players": sum(isinstance(choice, int) for choice in mapping.values()),
              "guests": sum(choice == "guest" for choice in mapping.values()),
              "skipped": sum(choice == "skip" for choice in mapping.values())}
    return gettext("%(who)s said who the players of an import are: %(players)s known players, "
                   "%(guests)s new guests, %(skipped)s names skipped") % values


def admin_sentence(entry, sides: Sides) -> str:
    """A row staff added or changed in the Django admin (``<model>.added_in_admin``,
    ``<model>.changed_in_admin``): the fields changed, by their own words."""
    model, _, verb = entry.action.partition(".")
    fields = [said(key) for key in data(entry.after) if key not in ("id", "parent")]
    values = {"who": who(entry), "what": said(model), "fields": listing(fields)}
    if verb.startswith("added"):
        return gettext("%(who)s added a %(what)s in the admin") % values
    if fields:
        return gettext("%(who)s changed the %(what)s's %(fields)s in the admin") % values
    return gettext("%(who)s changed a %(what)s in the admin") % values


MATCH_ACTIONS = {
    "match.created": gettext_lazy("Match created"),
    "match.imported": gettext_lazy("Match imported"),
    "match.reported": gettext_lazy("Result reported"),
    "match.result_confirmed": gettext_lazy("Result confirmed"),
    "match.result_overridden": gettext_lazy("Result set by the director"),
    "match.reopened": gettext_lazy("Match reopened"),
    "match.consent_given": gettext_lazy("Consent to the record given"),
    "match.consent_declined": gettext_lazy("Consent to the record declined"),
    "match.consent_reset": gettext_lazy("Consent to the record asked again"),
    "match.deleted": gettext_lazy("Match removed with its pairing"),
    "match.unrated": gettext_lazy("Match made unrated"),
    "match.flag_fell": gettext_lazy("Flag fall recorded"),
    "match.clock_introduced": gettext_lazy("Clock introduced"),
    "match.penalty_given": gettext_lazy("Penalty points given"),
    "match.analysis_requested": gettext_lazy("Analysis asked for"),
}
EVENT_ACTIONS = {
    "tournament.created": gettext_lazy("Event created"),
    "tournament.entries_opened": gettext_lazy("Entries opened"),
    "tournament.entries_closed": gettext_lazy("Entries closed"),
    "tournament.drawn": gettext_lazy("Draw made"),
    "tournament.finished": gettext_lazy("Event finished"),
    "tournament.reopened": gettext_lazy("Event reopened"),
    "tournament.playoffs_started": gettext_lazy("Playoffs started"),
    "tournament.updated": gettext_lazy("Event settings changed"),
    "tournament.cancelled": gettext_lazy("Event cancelled"),
    "tournament.deleted": gettext_lazy("Draft event deleted"),
    "entry.added": gettext_lazy("Entrant added"),
    "entry.signed_up": gettext_lazy("Entrant signed up"),
    "entry.added_late": gettext_lazy("Entrant added late"),
    "entry.checked_in": gettext_lazy("Entrant checked in"),
    "entry.accepted": gettext_lazy("Entry accepted"),
    "entry.withdrawn": gettext_lazy("Entrant withdrawn"),
    "entry.reinstated": gettext_lazy("Entrant reinstated"),
    "entry.division_set": gettext_lazy("Entrant's division set"),
    "entry.reentered": gettext_lazy("Entrant re-entered"),
    "team.created": gettext_lazy("Team entered"),
    "team.added_late": gettext_lazy("Team added late"),
    "team.member_added": gettext_lazy("Team member added"),
    "team.member_removed": gettext_lazy("Team member removed"),
    "board_order.submitted": gettext_lazy("Board order set"),
    "pairing.entrants_set": gettext_lazy("Pairing filled"),
    "pairing.entrants_cleared": gettext_lazy("Pairing emptied"),
    "pairing.reset": gettext_lazy("Pairing reset"),
    "round.paired": gettext_lazy("Round paired"),
    "round.reset": gettext_lazy("Round unpaired"),
    "result.corrected": gettext_lazy("Result corrected"),
}
CLUB_ACTIONS = {
    "club.created": gettext_lazy("Club founded"),
    "club.updated": gettext_lazy("Club details changed"),
    "membership.created": gettext_lazy("Member joined"),
    "membership.requested": gettext_lazy("Asked to join"),
    "membership.invited": gettext_lazy("Member invited"),
    "membership.accepted": gettext_lazy("Invitation accepted"),
    "membership.approved": gettext_lazy("Request approved"),
    "membership.declined": gettext_lazy("Membership declined"),
    "membership.role_changed": gettext_lazy("Role changed"),
    "membership.removed": gettext_lazy("Member removed"),
    "membership.left": gettext_lazy("Member left"),
    "membership.walk_in": gettext_lazy("Walk-in member added"),
    "membership.claimed": gettext_lazy("Walk-in membership claimed"),
    "night.opened": gettext_lazy("Club night opened"),
    "night.checked_in": gettext_lazy("Checked in to a club night"),
    "night.closed": gettext_lazy("Club night closed"),
    "season.created": gettext_lazy("Season created"),
    "season.updated": gettext_lazy("Season changed"),
    "season.deleted": gettext_lazy("Season deleted"),
}
PLAYER_ACTIONS = {
    "player.guest_created": gettext_lazy("Walk-in player entered"),
    "player.invited": gettext_lazy("Player invited to claim"),
    "player.claimed": gettext_lazy("Player claimed"),
}
CHOUETTE_ACTIONS = {
    "chouette.started": gettext_lazy("Chouette started"),
    "chouette.joined": gettext_lazy("Player joined the chouette"),
    "chouette.left": gettext_lazy("Player left the chouette"),
    "chouette.game_recorded": gettext_lazy("Chouette game recorded"),
    "chouette.game_amended": gettext_lazy("Chouette game corrected"),
    "chouette.game_voided": gettext_lazy("Chouette game voided"),
    "chouette.ended": gettext_lazy("Chouette ended"),
    "chouette.rules_changed": gettext_lazy("Chouette house rules changed"),
    "chouette.reopened": gettext_lazy("Chouette reopened"),
}


# --- the organiser role ----------------------------------------------------------------------------


def organiser_sentence(entry, sides: Sides) -> str:
    """The organiser role: asked for, approved, refused (with the reason), withdrawn (with the reason)."""
    before, after = data(entry.before), data(entry.after)
    values = {"who": who(entry), "user": (after or before).get("user") or gettext("a player")}
    action = entry.action
    if action == "organiser.requested":
        return gettext("%(user)s asked to become an organiser") % values
    if action == "organiser.approved":
        return gettext("%(who)s approved %(user)s's request to become an organiser") % values
    if action == "organiser.refused":
        reason = after.get("reason")
        if reason:
            return gettext("%(who)s refused %(user)s's request to become an organiser, saying: %(reason)s") % {
                **values, "reason": reason}
        return gettext("%(who)s refused %(user)s's request to become an organiser") % values
    if action == "organiser.revoked":
        if entry.note:
            return gettext("%(who)s withdrew %(user)s's organiser role, saying: %(reason)s") % {
                **values, "reason": entry.note}
        return gettext("%(who)s withdrew %(user)s's organiser role") % values
    return gettext("%(who)s changed %(user)s's organiser role") % values


ORGANISER_ACTIONS = {
    "organiser.requested": gettext_lazy("Asked to become an organiser"),
    "organiser.approved": gettext_lazy("Organiser request approved"),
    "organiser.refused": gettext_lazy("Organiser request refused"),
    "organiser.revoked": gettext_lazy("Organiser role withdrawn"),
}


# --- claims of players and merges (matches.services.claims) ---------------------------------------


#: The refusals the application makes itself (``matches.models.PlayerClaim.Reason``), by code; an
#: older entry kept the English text as its reason, read as the code it was.
CLAIM_REASONS = {"given_to_another": gettext_lazy("The player was given to another user's claim.")}
CLAIM_REASONS_STORED = {"The player was given to another user's claim.": "given_to_another"}


def claim_reason(after: dict) -> str:
    """A claim's refusal reason as the reader reads it: the application's in his language, a
    director's as he wrote it."""
    reason = after.get("reason") or ""
    code = after.get("reason_code") or CLAIM_REASONS_STORED.get(reason)
    if code in CLAIM_REASONS:
        return str(CLAIM_REASONS[code])
    return reason


def claim_sentence(entry, sides: Sides) -> str:
    """A claim to be a player known from imported files: asked, approved, refused, withdrawn."""
    after = data(entry.after)
    action = entry.action.split(".", 1)[1]
    values = {"who": who(entry), "player": after.get("player") or gettext("a player"),
              "claimant": after.get("claimant") or gettext("a user")}
    if action == "requested":
        return gettext("%(who)s claimed to be %(player)s") % values
    if action == "approved":
        sentence = gettext("%(who)s approved the claim of %(claimant)s to be %(player)s") % values
        removed = entry.note.partition("removed:")[2] if entry.note.startswith("removed:") else ""
        if removed:
            sentence = gettext("%(sentence)s; his own empty player %(removed)s was removed") % {
                "sentence": sentence, "removed": removed}
        return sentence
    if action == "refused":
        values["reason"] = claim_reason(after) or gettext("no reason given")
        return gettext("%(who)s refused the claim of %(claimant)s to be %(player)s: %(reason)s") % values
    return gettext("%(who)s withdrew the claim to be %(player)s") % values


def merge_sentence(entry, sides: Sides) -> str:
    """Two players merged into one by staff: the matches kept and the rating rated again."""
    before, after = data(entry.before), data(entry.after)
    matches = after.get("matches") or 0
    values = {"who": who(entry), "source": before.get("source") or gettext("a player"),
              "target": before.get("target") or gettext("another player"), "matches": matches}
    sentence = ngettext("%(who)s merged %(source)s into %(target)s: %(matches)s match moved",
                        "%(who)s merged %(source)s into %(target)s: %(matches)s matches moved", matches) % values
    rating = after.get("rating")
    if isinstance(rating, (int, float)):
        sentence = gettext("%(sentence)s, rating now %(rating)s") % {"sentence": sentence,
                                                                      "rating": f"{rating:.2f}"}
    return sentence


# --- an account's credentials (accounts.services) ----------------------------------------------


def account_sentence(entry, sides: Sides) -> str:
    """Every token and session of an account ended (and why), or one API token revoked."""
    after = data(entry.after)
    values = {"who": who(entry)}
    if entry.action == "account.token_revoked":
        name = after.get("name")
        if name:
            return gettext("%(who)s revoked his API token “%(name)s”") % {**values, "name": name}
        return gettext("%(who)s revoked one of his API tokens") % values
    sentences = {
        "password_reset": gettext("%(who)s reset his password: every session of his ended and his API tokens "
                                  "were revoked"),
        "password_changed": gettext("%(who)s changed his password: his other sessions ended and his API tokens "
                                    "were revoked"),
        "password_set": gettext("%(who)s changed his password: his other sessions ended and his API tokens "
                                "were revoked"),
        "email_changed": gettext("%(who)s's email address changed: his sessions ended and his API tokens were "
                                 "revoked"),
        "signed_out_everywhere": gettext("%(who)s signed out everywhere: his other sessions ended and his API "
                                         "tokens were revoked"),
    }
    return sentences.get(after.get("reason"), gettext("%(who)s's sessions ended and his API tokens were "
                                                      "revoked")) % values


ACCOUNT_ACTIONS = {
    "account.credentials_revoked": gettext_lazy("Signed out everywhere"),
    "account.token_revoked": gettext_lazy("API token revoked"),
}


CLAIM_ACTIONS = {
    "claim.requested": gettext_lazy("Player claimed"),
    "claim.approved": gettext_lazy("Claim approved"),
    "claim.refused": gettext_lazy("Claim refused"),
    "claim.withdrawn": gettext_lazy("Claim withdrawn"),
}


def register() -> None:
    """Register the match, event, club, chouette and admin describers."""
    for table, sentence in ((MATCH_ACTIONS, match_sentence), (EVENT_ACTIONS, event_sentence),
                            (CLUB_ACTIONS, club_sentence), (CHOUETTE_ACTIONS, chouette_sentence),
                            (ORGANISER_ACTIONS, organiser_sentence), (PLAYER_ACTIONS, player_sentence),
                            (ACCOUNT_ACTIONS, account_sentence)):
        describers_register({action: (label, sentence) for action, label in table.items()})
    describer_register("player.profile_updated", gettext_lazy("Profile changed"), profile_sentence)
    describers_register({action: (label, claim_sentence) for action, label in CLAIM_ACTIONS.items()})
    describer_register("player.merged", gettext_lazy("Players merged"), merge_sentence)
    describer_register("import.mapped", gettext_lazy("Import's players named"), import_sentence)
    describer_register("*.added_in_admin", gettext_lazy("Added in the admin"), admin_sentence)
    describer_register("*.changed_in_admin", gettext_lazy("Changed in the admin"), admin_sentence)
