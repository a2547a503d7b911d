"""The rulings app's error catalogue: every refusal a rulings service raises, in one place."""

from config.errors import Conflict, DomainError, NotAllowed


def not_director() -> NotAllowed:
    return NotAllowed("only the match's director (its organiser or its event's organiser, not a player) or staff may rule",
                      code="not_director")


def not_a_party() -> NotAllowed:
    return NotAllowed("only the match's players and its director may do this", code="not_a_party")


def bad_dispute(field: str, message: str) -> DomainError:
    return DomainError(message, code="bad_dispute", field=field)


def dispute_closed(status: str) -> Conflict:
    return Conflict(f"this dispute is {status}: it takes no new ruling (appeal the ruling instead)", code="dispute_closed")


def bad_ruling(field: str, message: str) -> DomainError:
    return DomainError(message, code="bad_ruling", field=field)


def ruling_refused(message: str, **where) -> Conflict:
    return Conflict(f"the ruling cannot be applied: {message}", code="ruling_refused", **where)
