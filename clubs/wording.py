"""How the audit log says what a club writes: the club, its memberships, nights and seasons.

Each action has its own sentence (the table :data:`WORDING`), read from the entry's ``before`` and
``after`` as the clubs' services write them. Registered on ``audit.hooks.sentences`` by
:class:`clubs.apps.ClubsConfig`.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.dateparse import parse_date
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy

from audit.describe import Sentence, Sides, data, listing, need, who
from audit.describe import value as said
from audit.hooks import Wording


def _day(raw) -> str:
    parsed = parse_date(raw) if isinstance(raw, str) else None
    return date_format(parsed, "DATE_FORMAT") if parsed else said(raw)


#: The club's own fields, as its page names them (the ones club.updated may change).
CLUB_FIELDS = {"name": gettext_lazy("name"), "slug": gettext_lazy("address"), "city": gettext_lazy("city"),
               "description": gettext_lazy("description"), "open_to_requests": gettext_lazy("open to requests")}


def club_created_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s founded the club %(name)s") % {"who": who(entry), "name": need(data(entry.after), "name")}


def club_updated_sentence(entry, sides: Sides) -> str:
    before, after = data(entry.before), data(entry.after)
    changed = [str(CLUB_FIELDS.get(key, said(key))) for key in after if before.get(key) != after.get(key)]
    return gettext("%(who)s changed the club's %(fields)s") % {"who": who(entry), "fields": listing(changed) or
                                                              gettext("details")}


# --- its memberships -----------------------------------------------------------------------------------


def by_member(text: Callable[[], str]) -> Sentence:
    """The sentence of a membership's action, said by who did it, the member, his role and the one
    he had."""

    def sentence(entry, sides: Sides) -> str:
        before, after = data(entry.before), data(entry.after)
        shown = after or before
        return text() % {"who": who(entry), "user": shown.get("user") or gettext("a user"),
                         "role": said(shown.get("role")), "was": said(before.get("role"))}

    return sentence


# --- its nights and seasons ------------------------------------------------------------------------------


def night_checked_in_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s checked %(player)s in to the club night") % {
        "who": who(entry), "player": data(entry.after).get("name") or gettext("a player")}


def _night_values(entry) -> dict:
    shown = data(entry.after) or data(entry.before)
    return {"who": who(entry), "title": shown.get("title") or gettext("the club night"), "day": _day(shown.get("date"))}


def night_opened_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s opened %(title)s on %(day)s") % _night_values(entry)


def night_closed_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s closed %(title)s of %(day)s") % _night_values(entry)


def _season_values(entry) -> dict:
    shown = data(entry.after) or data(entry.before)
    return {"who": who(entry), "name": need(shown, "name"), "starts": _day(shown.get("starts_on")),
            "ends": _day(shown.get("ends_on"))}


def season_created_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s created the season %(name)s, %(starts)s to %(ends)s") % _season_values(entry)


def season_updated_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s changed the season %(name)s: %(starts)s to %(ends)s") % _season_values(entry)


def season_deleted_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s deleted the season %(name)s") % _season_values(entry)


WORDING = Wording("clubs", {
    "club.created": (gettext_lazy("Club founded"), club_created_sentence),
    "club.updated": (gettext_lazy("Club details changed"), club_updated_sentence),
    "membership.created": (gettext_lazy("Member joined"), by_member(lambda: gettext("%(user)s joined as %(role)s, by %(who)s"))),
    "membership.requested": (gettext_lazy("Asked to join"), by_member(lambda: gettext("%(user)s asked to join"))),
    "membership.invited": (gettext_lazy("Member invited"), by_member(lambda: gettext("%(who)s invited %(user)s as %(role)s"))),
    "membership.accepted": (gettext_lazy("Invitation accepted"),
                            by_member(lambda: gettext("%(user)s accepted the invitation"))),
    "membership.approved": (gettext_lazy("Request approved"),
                            by_member(lambda: gettext("%(who)s approved %(user)s's request to join"))),
    "membership.declined": (gettext_lazy("Membership declined"),
                            by_member(lambda: gettext("%(who)s declined %(user)s's membership"))),
    "membership.role_changed": (gettext_lazy("Role changed"),
                                by_member(lambda: gettext("%(who)s made %(user)s %(role)s instead of %(was)s"))),
    "membership.removed": (gettext_lazy("Member removed"), by_member(lambda: gettext("%(who)s removed %(user)s from the club"))),
    "membership.left": (gettext_lazy("Member left"), by_member(lambda: gettext("%(user)s left the club"))),
    "membership.walk_in": (gettext_lazy("Walk-in member added"), by_member(
        lambda: gettext("%(who)s added %(user)s, a player without an account, as a member"))),
    "membership.claimed": (gettext_lazy("Walk-in membership claimed"),
                           by_member(lambda: gettext("%(user)s claimed his walk-in membership"))),
    "night.opened": (gettext_lazy("Club night opened"), night_opened_sentence),
    "night.checked_in": (gettext_lazy("Checked in to a club night"), night_checked_in_sentence),
    "night.closed": (gettext_lazy("Club night closed"), night_closed_sentence),
    "season.created": (gettext_lazy("Season created"), season_created_sentence),
    "season.updated": (gettext_lazy("Season changed"), season_updated_sentence),
    "season.deleted": (gettext_lazy("Season deleted"), season_deleted_sentence),
}, values={
    "owner": gettext_lazy("owner"), "organiser": gettext_lazy("organiser"), "member": gettext_lazy("member"),
    "requested": gettext_lazy("asked to join"), "invited": gettext_lazy("invited"), "active": gettext_lazy("active"),
    "ended": gettext_lazy("ended"),
})
