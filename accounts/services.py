"""Every state change of the accounts app: ``<entity>_<action>``, one transaction each.

Staff accounts are Django's (``manage.py createsuperuser``); players sign up through allauth's
flows (accounts/adapter.py), and the demo and tests make users with :func:`user_create`.
"""

from __future__ import annotations

import secrets

from allauth.account.models import EmailAddress
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import SESSION_KEY, update_session_auth_hash
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.locking import locked
from core.models import OutboxTask
from core.outbox import outbox_enqueue

from . import hooks
from .forms import EmailChangeForm
from .models import ApiToken, User
from .models_tokens import key_digest

#: The outbox task that sends an account's email (accounts/tasks.py).
EMAIL_TASK = "accounts.tasks.account_email_send_task"


@transaction.atomic
def user_create(*, username: str, password: str | None, role: str = User.Role.PLAYER, first_name: str = "",
                last_name: str = "", email: str = "") -> User:
    """Create a user (not staff) with ``role``, signing in with ``password`` (None: no usable
    password until one is set). Raises Conflict (``username_taken``) when the username is taken."""
    if User.objects.filter(username=username).exists():
        raise Conflict(f"the username {username!r} is taken", code="username_taken")
    return User.objects.create_user(username, email=email, password=password, role=role, first_name=first_name,
                                    last_name=last_name)


@transaction.atomic
def account_email_queue(*, subject: str, body: str, html: str, to: list[str]) -> OutboxTask:
    """Write the outbox row that sends this email (verification, password reset...) after the
    commit of the change it belongs to (or of this block, outside one). Changes nothing else."""
    return outbox_enqueue(EMAIL_TASK, subject, body, html, ",".join(to))


def account_email_send(*, subject: str, body: str, html: str, to: str, outbox_id: int | None) -> int:
    """Send one account email (to the comma-separated ``to``); returns how many messages went.
    Then empties the outbox row's arguments, in the task's transaction: the email carries a link
    that signs in or sets a password, which is not kept in the database once it is sent. Raises
    whatever the mail backend raises (the task decides what to retry; the row keeps its arguments)."""
    message = EmailMultiAlternatives(subject, body, settings.DEFAULT_FROM_EMAIL, to.split(","))
    if html:
        message.attach_alternative(html, "text/html")
    sent = get_connection().send_messages([message])
    if outbox_id is not None:
        OutboxTask.objects.filter(pk=outbox_id).update(args=[])
    return sent


def _password_ok(user: User, password: str) -> None:
    if not password or not user.check_password(password):
        raise DomainError(_("this is not your password"), code="wrong_password", field="password")


@transaction.atomic
def user_erase(*, user_id: int, password: str) -> User:
    """Delete a person's account: his personal data goes, his match records stay.

    The player is let go of (:data:`accounts.hooks.user_erased`: matches keeps him, his matches
    and ratings under his display name, with no user); the user row stays, because results,
    rulings and events name who did what, but with nothing personal: no email address (allauth's
    rows deleted too), no names, no password (unusable), a username that no sign-up can take
    (``deleted:<id>``), inactive, his API token and failed sign-ins deleted. Every session of his
    ends (the password changed).

    Raises DomainError (``wrong_password``, field ``password``) unless ``password`` is his, and
    Conflict (``already_deleted``) for an account deleted already.
    """
    user = locked(User.objects.filter(pk=user_id)).get()
    if not user.is_active and user.username.startswith("deleted:"):
        raise Conflict(_("this account is deleted already"), code="already_deleted")
    _password_ok(user, password)
    hooks.user_erased.send(user=user)
    EmailAddress.objects.filter(user=user).delete()
    ApiToken.objects.filter(user=user).delete()
    AccessAttempt.objects.filter(username__in={user.username, user.email} - {""}).delete()
    user.username = f"deleted:{user.pk}"
    user.email = user.first_name = user.last_name = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = None
    user.sessions_generation += 1
    user.save()
    return user


@transaction.atomic
def user_email_request_change(*, request, user: User, email: str):
    """Ask to change ``user``'s email address to ``email``: allauth keeps it beside the current one,
    unverified, and emails it a verification link; once verified it replaces the current one. His
    current address is told first (accounts.notices.email_change_notice). Raises DomainError (field
    ``email``) for an address allauth refuses (already his, or another account's)."""
    form = EmailChangeForm(user=user, data={"email": email})
    if not form.is_valid():
        message = form.errors.get("email", [_("not a valid email address")])[0]
        raise DomainError(str(message), code="invalid_email", field="email")
    return form.save(request)


#: The most API tokens one account keeps: a new one beyond it replaces the one least recently used.
TOKENS_MAX = 20


@transaction.atomic
def api_token_create(*, user: User, name: str = "") -> tuple[ApiToken, str]:
    """A new API token of ``user`` named ``name``, and its key (shown this once: only its digest is
    kept). Beyond TOKENS_MAX tokens, the least recently used of his others is deleted. Raises
    nothing."""
    locked(User.objects.filter(pk=user.pk)).get()  # two asks at once keep the count
    key = secrets.token_hex(20)
    token = ApiToken.objects.create(user=user, name=" ".join(name.split())[:100], key_digest=key_digest(key))
    extra = (ApiToken.objects.filter(user=user).exclude(pk=token.pk)
             .order_by(F("last_used_at").desc(nulls_last=True), "-created_at", "-pk")[TOKENS_MAX - 1:])
    ApiToken.objects.filter(pk__in=[old.pk for old in extra]).delete()
    return token, key


@transaction.atomic
def api_token_revoke(*, user: User, token_id: int) -> None:
    """Delete ``user``'s API token ``token_id``: it signs no request in from now on; audited
    (``account.token_revoked``, with its name). Raises ApiToken.DoesNotExist when he has no such
    token (another's is not his to see)."""
    token = ApiToken.objects.filter(user=user, pk=token_id).first()
    if token is None:
        raise ApiToken.DoesNotExist(token_id)
    token.delete()
    audit_record(actor=user, action="account.token_revoked", object_type="accounts.User", object_id=user.pk,
                 after={"name": token.name})


def api_token_used(token: ApiToken, *, every: int = 600) -> None:
    """Note that ``token`` signed a request in: its ``last_used_at`` is moved to now when it is
    older than ``every`` seconds (not on every request: one write per token every few minutes)."""
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() >= every:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


#: Why every credential of an account ended (:func:`user_credentials_revoke`), as the audit log keeps it.
REVOKED_BECAUSE = ("password_reset", "password_changed", "password_set", "email_changed", "signed_out_everywhere")


@transaction.atomic
def user_credentials_revoke(*, user: User, reason: str, request=None) -> User:
    """End every credential of ``user`` but his password: every API token is deleted and every
    session of his ends (his ``sessions_generation`` goes up, which changes the auth hash Django
    checks on every request). Done on a password reset or change, an email change and when he
    asks to sign out everywhere. ``request`` (Django's), when it is his own signed-in session, stays
    signed in with its hash renewed and a new session key, as Django's update_session_auth_hash
    does; a request signed in by a token keeps nothing. Audited (``account.credentials_revoked``,
    with ``reason``: one of REVOKED_BECAUSE). Raises ValueError for another reason."""
    if reason not in REVOKED_BECAUSE:
        raise ValueError(f"not a reason to end an account's credentials: {reason!r}")
    locked(User.objects.filter(pk=user.pk)).get()
    tokens, _rows = ApiToken.objects.filter(user_id=user.pk).delete()
    audit_record(actor=user, action="account.credentials_revoked", object_type="accounts.User", object_id=user.pk,
                 after={"reason": reason, "tokens": tokens})
    User.objects.filter(pk=user.pk).update(sessions_generation=F("sessions_generation") + 1)
    user.refresh_from_db(fields=["sessions_generation", "password"])
    session = getattr(request, "session", None)
    if session is not None and session.get(SESSION_KEY) == str(user.pk):
        update_session_auth_hash(request, user)
    return user

