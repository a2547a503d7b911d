"""The organiser role: a player asks for it with a short statement (which club or event he runs),
staff approve or refuse it (with a reason he is shown), staff may withdraw it again.

Each service is one transaction, audited (``organiser.requested``, ``organiser.approved``,
``organiser.refused``, ``organiser.revoked``; accounts/wording.py says them), and tells the
applicant by email through the outbox (accounts/tasks.py) when staff decide. Rows are locked in
one order, the applicant's user row first and then his request, so a request and its decision,
or two decisions, are decided one after the other; the database keeps one open request per user
(``organiser_request_one_open_per_user``) whatever happens.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from core.errors import Conflict, DomainError, NotAllowed
from core.locking import locked_one
from core.outbox import outbox_enqueue
from core.text import isolate

from ..models import User
from ..models_requests import REASON_MAX, STATEMENT_MAX, OrganiserRequest
from ..tasks import organiser_notify_task

OPEN, APPROVED, REFUSED = OrganiserRequest.Status.OPEN, OrganiserRequest.Status.APPROVED, OrganiserRequest.Status.REFUSED


# --- the refusals ---------------------------------------------------------------------------------


def not_logged_in() -> NotAllowed:
    return NotAllowed(_("sign in first"), code="not_authenticated")


def not_staff() -> NotAllowed:
    return NotAllowed(_("only staff decide who is an organiser"), code="not_staff")


def already_organiser() -> Conflict:
    return Conflict(_("you are an organiser already"), code="already_organiser")


def request_open() -> Conflict:
    return Conflict(_("you have asked already: your request is waiting for staff"), code="request_open")


def already_decided(request: OrganiserRequest) -> Conflict:
    return Conflict(_("this request was %(status)s already") % {"status": request.get_status_display()},
                    code="already_decided")


def not_an_organiser(user: User) -> Conflict:
    return Conflict(_("%(name)s is not an organiser") % {"name": isolate(user.display_name)}, code="not_organiser")


def _text(value, *, field: str, limit: int, missing: str) -> str:
    """``value`` stripped; DomainError naming ``field`` when it is empty, too long or holds a NUL."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise DomainError(missing, code="invalid", field=field)
    if len(text) > limit:
        raise DomainError(_("at most %(limit)s characters") % {"limit": limit}, code="invalid", field=field)
    if "\x00" in text:
        raise DomainError(_("this text holds a NUL character"), code="invalid", field=field)
    return text


def _require_staff(user) -> None:
    if not getattr(user, "is_authenticated", False):
        raise not_logged_in()
    if not user.is_staff:
        raise not_staff()


# --- the audit log --------------------------------------------------------------------------------


def request_summary(request: OrganiserRequest) -> dict:
    """What the audit log keeps of a request: whose (his username, never an email), its status
    and statement, and the reason of a refusal."""
    summary = {"user": request.user.get_username(), "status": request.status, "statement": request.statement}
    if request.reason:
        summary["reason"] = request.reason
    return summary


def _audit(action: str, *, actor, obj, before=None, after=None, note: str = "") -> None:
    audit_record(actor=actor, action=action, object_type=f"accounts.{type(obj).__name__}", object_id=obj.pk,
                 before=before, after=after, note=note)


# --- the services ---------------------------------------------------------------------------------


@transaction.atomic
def organiser_request(*, user, statement: str) -> OrganiserRequest:
    """``user`` asks to become an organiser, saying which club or event he runs (``statement``,
    1 to STATEMENT_MAX characters once stripped): an open request, waiting for staff. Audited as
    ``organiser.requested``.

    Raises NotAllowed ``not_authenticated``; DomainError ``invalid`` naming ``statement``; Conflict
    ``already_organiser`` (he is one, or staff) or ``request_open`` (one is waiting already).
    Nothing is saved when refused.
    """
    if not getattr(user, "is_authenticated", False):
        raise not_logged_in()
    text = _text(statement, field="statement", limit=STATEMENT_MAX,
                 missing=_("say which club or event you run, so staff know who you are"))
    applicant = locked_one(User.objects.all(), pk=user.pk)
    if applicant.is_organiser:
        raise already_organiser()
    if OrganiserRequest.objects.filter(user=applicant, status=OPEN).exists():
        raise request_open()
    try:
        with transaction.atomic():  # a savepoint: the constraint's refusal leaves the transaction usable
            request = OrganiserRequest.objects.create(user=applicant, statement=text)
    except IntegrityError:
        # Only without the lock (a row written around the service): the database keeps one open.
        raise request_open() from None
    _audit("organiser.requested", actor=user, obj=request, after=request_summary(request))
    return request


def _decide(request_id: int, by, target: str) -> tuple[OrganiserRequest, bool]:
    """The request ``request_id`` locked (its applicant's row first) and whether it is still to be
    decided: False when it is ``target`` already (deciding again changes nothing). Raises
    OrganiserRequest.DoesNotExist; NotAllowed ``not_staff``; Conflict ``already_decided`` when
    it was decided the other way."""
    _require_staff(by)
    applicant_id = OrganiserRequest.objects.filter(pk=request_id).values_list("user_id", flat=True).first()
    if applicant_id is None:
        raise OrganiserRequest.DoesNotExist(f"no organiser request {request_id}")
    applicant = locked_one(User.objects.all(), pk=applicant_id)
    request = locked_one(OrganiserRequest.objects.all(), pk=request_id)
    request.user = applicant
    if request.status == target:
        return request, False
    if request.status != OPEN:
        raise already_decided(request)
    return request, True


@transaction.atomic
def organiser_approve(*, request_id: int, user) -> OrganiserRequest:
    """Staff (``user``) approve the open request ``request_id``: its applicant becomes an
    organiser (``User.role``), may create events, and is told by email. Approving it again
    changes nothing. Audited as ``organiser.approved``.

    Raises OrganiserRequest.DoesNotExist; NotAllowed ``not_staff`` (``not_authenticated``);
    Conflict ``already_decided`` for a refused request.
    """
    request, todo = _decide(request_id, user, APPROVED)
    if not todo:
        return request
    before = request_summary(request)
    request.status, request.decided_at, request.decided_by = APPROVED, timezone.now(), user
    request.save(update_fields=["status", "decided_at", "decided_by"])
    applicant = request.user
    if applicant.role != User.Role.ORGANISER:
        applicant.role = User.Role.ORGANISER
        applicant.save(update_fields=["role"])
    _audit("organiser.approved", actor=user, obj=request, before=before, after=request_summary(request))
    outbox_enqueue(organiser_notify_task, "decided", request.pk)
    return request


@transaction.atomic
def organiser_refuse(*, request_id: int, user, reason: str) -> OrganiserRequest:
    """Staff (``user``) refuse the open request ``request_id`` with ``reason`` (1 to REASON_MAX
    characters once stripped), which the applicant is shown on his page and by email; his role is
    unchanged and he may ask again. Refusing it again changes nothing. Audited as
    ``organiser.refused``.

    Raises OrganiserRequest.DoesNotExist; NotAllowed ``not_staff`` (``not_authenticated``);
    DomainError ``invalid`` naming ``reason``; Conflict ``already_decided`` for an approved
    request. Nothing is saved when refused.
    """
    _require_staff(user)
    text = _text(reason, field="reason", limit=REASON_MAX, missing=_("say why: the player is shown the reason"))
    request, todo = _decide(request_id, user, REFUSED)
    if not todo:
        return request
    before = request_summary(request)
    request.status, request.reason, request.decided_at, request.decided_by = REFUSED, text, timezone.now(), user
    request.save(update_fields=["status", "reason", "decided_at", "decided_by"])
    _audit("organiser.refused", actor=user, obj=request, before=before, after=request_summary(request))
    outbox_enqueue(organiser_notify_task, "decided", request.pk)
    return request


@transaction.atomic
def organiser_revoke(*, user_id: int, user, reason: str) -> User:
    """Staff (``user``) withdraw the organiser role of user ``user_id`` with ``reason`` (told to
    him by email): he is a player again and may no longer create events (those he runs stay
    his; staff stay staff). Audited as ``organiser.revoked``.

    Raises User.DoesNotExist; NotAllowed ``not_staff`` (``not_authenticated``); DomainError
    ``invalid`` naming ``reason``; Conflict ``not_organiser`` when he has no organiser role.
    """
    _require_staff(user)
    text = _text(reason, field="reason", limit=REASON_MAX, missing=_("say why: the organiser is told the reason"))
    target = locked_one(User.objects.all(), pk=user_id)
    if target.role != User.Role.ORGANISER:
        raise not_an_organiser(target)
    target.role = User.Role.PLAYER
    target.save(update_fields=["role"])
    _audit("organiser.revoked", actor=user, obj=target, before={"user": target.get_username(), "role": "organiser"},
           after={"user": target.get_username(), "role": "player"}, note=text)
    outbox_enqueue(organiser_notify_task, "revoked", target.pk, text, timezone.now().isoformat())
    return target
