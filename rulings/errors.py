"""The rulings app's error catalogue: every refusal a rulings service (or a selector's filter)
raises, in one place, its message marked for translation (the services' own details, passed in
as ``message``, are worded where they are found)."""

from django.utils.translation import gettext as _

from core.errors import Conflict, DomainError, NotAllowed
from core.labels import field_label, field_refusal

from .labels import DISPUTE_LABELS, RULING_LABELS


def not_director() -> NotAllowed:
    return NotAllowed(_("only the match's director (its organiser or its event's organiser, not a player) or staff may rule"),
                      code="not_director")


def not_a_party() -> NotAllowed:
    return NotAllowed(_("only the match's players and its director may do this"), code="not_a_party")


def bad_dispute(field: str, message: str, **where) -> DomainError:
    """A dispute's (a statement's, an appeal's) field refused: ``message`` says why, beside the
    field; the refusal's message is led by the field's label (core.labels)."""
    return DomainError(field_refusal(field_label(DISPUTE_LABELS, field), message), sentence=message, code="bad_dispute",
                       field=field, **where)


def bad_filter(field: str, message: str) -> DomainError:
    return DomainError(message, code="bad_filter", field=field)


def dispute_closed(status: str) -> Conflict:
    return Conflict(_("this dispute is %(status)s: it takes no new ruling (appeal the ruling instead)") % {"status": status},
                    code="dispute_closed")


def dispute_decided(status: str = "decided") -> Conflict:
    return Conflict(_("this dispute is %(status)s: it takes no more statements") % {"status": status}, code="dispute_decided")


def ruling_in_force() -> Conflict:
    return Conflict(_("this dispute already has a ruling in force: it must be overturned or replaced on appeal first"),
                    code="ruling_in_force")


def bad_ruling(field: str, message: str, **where) -> DomainError:
    """A ruling's field or detail refused: ``message`` says why, beside the field; the refusal's
    message is led by the field's label (core.labels)."""
    return DomainError(field_refusal(field_label(RULING_LABELS, field), message), sentence=message, code="bad_ruling",
                       field=field, **where)


def ruling_refused(message: str, **where) -> Conflict:
    return Conflict(_("the ruling cannot be applied: %(why)s") % {"why": message}, code="ruling_refused", **where)


def revert_refused(message: str, **where) -> Conflict:
    return Conflict(_("the ruling cannot be undone: %(why)s") % {"why": message}, code="revert_refused", **where)


def not_appellant() -> NotAllowed:
    return NotAllowed(_("only a player of the match may appeal its ruling"), code="not_appellant")


def ruling_not_in_force(status: str) -> Conflict:
    return Conflict(_("this ruling is %(status)s: it can no longer be appealed") % {"status": status},
                    code="ruling_not_in_force")


def appeal_window_closed(closed_at) -> Conflict:
    return Conflict(_("the appeal window closed at %(when)s UTC") % {"when": f"{closed_at:%Y-%m-%d %H:%M}"},
                    code="appeal_window_closed",
                    closed_at=closed_at.isoformat())


def already_appealed() -> Conflict:
    return Conflict(_("this ruling is already under appeal (one appeal per ruling)"), code="already_appealed")


def appeal_decided() -> Conflict:
    return Conflict(_("this appeal is already decided"), code="appeal_decided")


def bad_committee(message: str, **details) -> DomainError:
    return DomainError(message, code="bad_committee", field="members", **details)


def committee_named() -> Conflict:
    return Conflict(_("this appeal's committee is already named"), code="committee_named")


def no_committee() -> Conflict:
    return Conflict(_("the committee has not been named yet"), code="no_committee")


def not_committee() -> NotAllowed:
    return NotAllowed(_("only a member of this appeal's committee may vote"), code="not_committee")


def bad_vote(field: str, message: str) -> DomainError:
    return DomainError(message, code="bad_vote", field=field)


def committee_ruling_final() -> Conflict:
    return Conflict(_("this ruling was made by an appeals committee: it is final"), code="committee_ruling_final")
