"""The webhooks app's refusals, each with its code and a sentence for people."""

from django.utils.translation import gettext as _

from core.errors import Conflict, DomainError, NotAllowed


def not_manager() -> NotAllowed:
    return NotAllowed(_("only the event's organiser, staff, or the club's owners and organisers may manage its webhooks"),
                      code="not_webhook_manager")


def not_owner() -> NotAllowed:
    return NotAllowed(_("only the person who made this webhook may see its secret"), code="not_webhook_owner")


def bad_webhook(field: str, message: str) -> DomainError:
    return DomainError(message, code="bad_webhook", field=field)


def inactive() -> Conflict:
    return Conflict(_("this webhook is switched off: switch it on to send deliveries again"), code="webhook_inactive")
