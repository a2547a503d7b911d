"""The clubs app's error catalogue: every message its services and permission checks raise.

Each function returns a :class:`core.errors.DomainError` (400: the input is wrong),
:class:`~core.errors.Conflict` (409: the club's state forbids it now) or
:class:`~core.errors.NotAllowed` (403) with a stable ``code``.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import Conflict, DomainError, NotAllowed
from core.labels import field_label, field_refusal
from core.text import isolate

from .labels import CLUB_LABELS, NIGHT_LABELS, SEASON_LABELS

# --- who may act -------------------------------------------------------------------------------


def not_logged_in() -> NotAllowed:
    return NotAllowed(_("log in first"), code="not_authenticated")


def not_club_member() -> NotAllowed:
    return NotAllowed(_("only the club's members may see or do this"), code="not_club_member")


def not_club_manager() -> NotAllowed:
    return NotAllowed(_("only the club's owners and organisers may do this"), code="not_club_manager")


def not_club_owner() -> NotAllowed:
    return NotAllowed(_("only the club's owners may do this"), code="not_club_owner")


def not_your_invitation() -> NotAllowed:
    return NotAllowed(_("only the invited user may accept or decline an invitation"), code="not_your_invitation")


# --- bad input ---------------------------------------------------------------------------------


def bad_club(field: str, message: str) -> DomainError:
    return DomainError(field_refusal(field_label(CLUB_LABELS, field), message), code="bad_club", field=field,
                       sentence=message)


def bad_role(role) -> DomainError:
    # Translators: owner, organiser and member are the API's role codes: keep them in English;
    # %(role)r is what was sent, quoted.
    return DomainError(_("%(role)r is not a role: owner, organiser or member") % {"role": role}, code="bad_role", field="role")


def unknown_user(username) -> DomainError:
    return DomainError(_("there is no user %(username)r") % {"username": username}, code="unknown_user", field="username")


def unknown_membership(membership_id) -> DomainError:
    return DomainError(_("membership %(id)s is not one of this club's") % {"id": membership_id}, code="unknown_membership",
                       field="membership")


def unknown_player(player_id) -> DomainError:
    return DomainError(_("player %(id)s is not an active member of this club") % {"id": player_id}, code="unknown_player",
                       field="player")


def bad_season(field: str, message: str) -> DomainError:
    return DomainError(field_refusal(field_label(SEASON_LABELS, field), message), code="bad_season", field=field,
                       sentence=message)


def bad_night(field: str, message: str) -> DomainError:
    return DomainError(field_refusal(field_label(NIGHT_LABELS, field), message), code="bad_night", field=field,
                       sentence=message)


def no_player() -> DomainError:
    return DomainError(_("this member has no player profile yet"), code="no_player")


# --- the club's state forbids it ---------------------------------------------------------------


def closed_to_requests() -> Conflict:
    return Conflict(_("this club does not take requests to join: ask an owner or organiser for an invitation"),
                    code="closed_to_requests")


def already_member() -> Conflict:
    return Conflict(_("already a member of this club"), code="already_member")


def walk_in_already_member(name: str) -> Conflict:
    return Conflict(_("%(name)s is already a member of this club") % {"name": isolate(name)}, code="already_member",
                    field="name")


def already_pending(status: str) -> Conflict:
    if status == "invited":
        return Conflict(_("there is already an invitation for this user: answer it"), code="already_pending")
    return Conflict(_("there is already a request to join for this user: answer it"), code="already_pending")


def not_pending(expected: str) -> Conflict:
    if expected == "invited":
        return Conflict(_("this membership is not an invitation waiting for an answer"), code="not_pending")
    return Conflict(_("this membership is not a request to join waiting for an answer"), code="not_pending")


def not_active() -> Conflict:
    return Conflict(_("this membership is not active"), code="not_active")


def no_membership() -> Conflict:
    return Conflict(_("you are not a member of this club, nor invited, nor asking to join"), code="no_membership")


def last_owner() -> Conflict:
    return Conflict(_("a club keeps at least one owner: make another member owner first"), code="last_owner")


def name_taken(name: str) -> Conflict:
    return Conflict(_("there is already a club named %(name)r") % {"name": name}, code="name_taken")


def season_name_taken(name: str) -> Conflict:
    return Conflict(_("this club already has a season named %(name)r") % {"name": name}, code="season_name_taken")


def night_closed() -> Conflict:
    return Conflict(_("this club night is closed"), code="night_closed")


def already_checked_in() -> Conflict:
    return Conflict(_("already checked in to this night"), code="already_checked_in")


def walk_in_role(name: str) -> Conflict:
    return Conflict(_("%(name)s is a walk-in member without an account: he becomes an owner or organiser only "
                      "once he has claimed his player") % {"name": isolate(name)}, code="walk_in_role")

