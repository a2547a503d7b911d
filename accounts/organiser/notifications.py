"""Emails about the organiser role: the applicant hears staff's decision on his request (with the
reason of a refusal), an organiser hears his role was withdrawn (with the reason).

Sent from a Celery task the services write in the outbox (accounts/tasks.py), so nothing announces
a decision that was rolled back. A task delivered twice sends nothing the second time: each
announcement is claimed in the cache before sending and released again if sending fails (as for
result emails, matches/services/notifications.py).
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from core.i18n import language_of, languages_of
from core.links import absolute_url
from core.mail import send_once

from ..models import User
from ..models_requests import OrganiserRequest

KINDS = ("decided", "revoked")
CLAIM_SECONDS = 24 * 3600


def _message(kind: str, object_id: int, reason: str, stamp: str) -> tuple[str, str, str, str] | None:
    """(subject, body, recipient, claim key) of one announcement, in the recipient's own language
    (his profile's); None when there is nobody to tell (no address) or nothing decided."""
    if kind == "decided":
        request = OrganiserRequest.objects.select_related("user").get(pk=object_id)
        if request.status == OrganiserRequest.Status.OPEN or not request.user.email:
            return None
        key = f"crawford:organiser:{request.pk}:{request.status}@{request.decided_at.timestamp():.6f}"
        # A task has no request: the email speaks the language the player chose, not the worker's.
        with translation.override(language_of(request.user)):
            link = _("See %(path)s") % {"path": absolute_url(reverse("organiser:home"))}
            if request.status == OrganiserRequest.Status.APPROVED:
                subject = _("You are an organiser now")
                body = _("Your request to become an organiser was approved: you may create and run events.")
            else:
                subject = _("Your request to become an organiser was refused")
                body = _("Your request to become an organiser was refused, for this reason:\n\n%(reason)s\n\n"
                         "You may ask again.") % {"reason": request.reason}
        return subject, f"{body}\n\n{link}", request.user.email, key
    user = User.objects.get(pk=object_id)
    if not user.email:
        return None
    with translation.override(language_of(user)):
        link = _("See %(path)s") % {"path": absolute_url(reverse("organiser:home"))}
        body = _("Your organiser role was withdrawn, for this reason:\n\n%(reason)s") % {"reason": reason}
        subject = _("Your organiser role was withdrawn")
    return subject, f"{body}\n\n{link}", user.email, f"crawford:organiser:revoked:{user.pk}@{stamp}"


def organiser_notify(*, kind: str, object_id: int, reason: str = "", stamp: str = "") -> int:
    """Send the announcement ``kind`` ("decided": a request ``object_id`` approved or refused;
    "revoked": the role of user ``object_id`` withdrawn for ``reason`` at ``stamp``); returns 1
    when it has been announced (also on a repeated call, which sends nothing), 0 when there is
    nobody to tell.

    Raises ValueError for an unknown kind, DoesNotExist for an unknown object, and whatever the
    mail backend raises (the task decides what to retry).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown organiser notification {kind!r}")
    message = _message(kind, object_id, reason, stamp)
    if message is None:
        return 0
    subject, body, recipient, key = message
    # In the recipient's language (core/i18n.py); claimed only once it is built (core.mail.send_once).
    with translation.override(languages_of([recipient])[recipient]):
        subject, body = (str(text) for text in _message(kind, object_id, reason, stamp)[:2])
    send_once(key, [EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [recipient])], seconds=CLAIM_SECONDS)
    return 1
