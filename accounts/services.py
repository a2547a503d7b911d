"""Every state change of the accounts app: ``<entity>_<action>``, one transaction each.

Staff accounts are Django's (``manage.py createsuperuser``); players sign up through allauth's
flows (accounts/adapter.py), and the demo and tests make users with :func:`user_create`.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from axes.models import AccessAttempt
from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from core.errors import Conflict, DomainError
from core.locking import locked
from core.models import OutboxTask
from core.outbox import outbox_enqueue

from . import hooks
from .models import User

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
    Token.objects.filter(user=user).delete()
    AccessAttempt.objects.filter(username__in={user.username, user.email} - {""}).delete()
    user.username = f"deleted:{user.pk}"
    user.email = user.first_name = user.last_name = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = None
    user.save()
    return user


@transaction.atomic
def user_email_request_change(*, request, user: User, email: str):
    """Ask to change ``user``'s email address to ``email``: allauth keeps it beside the current one,
    unverified, and emails it a verification link; once verified it replaces the current one.
    Raises DomainError (field ``email``) for an address allauth refuses (already his, or another
    account's)."""
    from allauth.account.forms import AddEmailForm

    form = AddEmailForm(user=user, data={"email": email})
    if not form.is_valid():
        message = form.errors.get("email", [_("not a valid email address")])[0]
        raise DomainError(str(message), code="invalid_email", field="email")
    return form.save(request)
