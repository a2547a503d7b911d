"""Invitations to claim a guest player: the link's token, why an invitation cannot be accepted, and
its email (sent by ``matches.tasks.invitation_email_task`` from the task outbox). The services that
create and accept invitations are :mod:`matches.services.guests`.

The token is an HMAC (the site's secret key) of the invitation's player, address and time; the
database keeps only its SHA-256 (``PlayerInvitation.token_hash``), so a copy of the database opens
no invitation, and the email task makes the token again from the row.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.formats import date_format
from django.utils.translation import gettext

from accounts.selectors import address_language
from core.i18n import language_known
from core.links import absolute_url

from .. import errors
from ..models import Player, PlayerInvitation

_TOKEN_SALT = "crawford.matches.invitation"


def invitation_token(invitation: PlayerInvitation) -> str:
    """The link's token of ``invitation``: an HMAC of its player, address and time under the site's
    secret key (the same every time it is asked; never stored)."""
    message = f"{invitation.player_id}:{invitation.email}:{invitation.created_at.isoformat()}"
    return salted_hmac(_TOKEN_SALT, message, algorithm="sha256").hexdigest()


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(str(token).encode("utf-8", "replace")).hexdigest()


def invitation_url(invitation: PlayerInvitation) -> str:
    """The link of the invitation, absolute: on the site's address (core.links.absolute_url)."""
    return absolute_url(reverse("matches:invitation", args=[invitation_token(invitation)]))


def invitation_language(invitation: PlayerInvitation) -> str:
    """The language the invitation is written in: the invitee's when it is known (the preferred
    language of the account that holds the invited address: he may have signed up since, or hold
    an account already), else the site's (settings.LANGUAGE_CODE). Never the inviter's, nor the
    language of the request that entered the guest: an organiser browsing in Arabic invites people
    who may not read it. A guest player has no language of his own (his country is not one), and
    neither an event nor a club has a language to fall back on."""
    code = address_language(invitation.email)
    return code if language_known(code) else settings.LANGUAGE_CODE


def invitation_refusal(invitation: PlayerInvitation, user=None):
    """Why ``invitation`` cannot be accepted now (by ``user``, when given), as the Conflict to
    raise, or None when it can. Reads the rows as they are: the accept re-checks them under the
    player's lock."""
    player = invitation.player
    if invitation.accepted_at is not None:
        return errors.invitation_used(player.display_name, user is not None and invitation.accepted_by_id == user.pk)
    if invitation.withdrawn_at is not None:
        return errors.invitation_replaced(player.display_name)
    if invitation.expires_at <= timezone.now():
        return errors.invitation_expired(player.display_name, date_format(timezone.localtime(invitation.expires_at),
                                                                          "DATE_FORMAT"))
    if player.user_id is not None:
        return errors.player_already_held(player.display_name)
    return None



def _one_line(text) -> str | None:
    return " ".join(str(text).split()) if text is not None else None


def inviter_name(user) -> str | None:
    """How an invitation's email names its sender: his player's display name (the name the service
    shows him by), else his username; None when the sender is unknown (his account deleted). Never
    the free name fields of his account."""
    if user is None:
        return None
    name = Player.objects.filter(user_id=user.pk).values_list("display_name", flat=True).first()
    return name or user.get_username()


def _entered_text(sent_for: str, values: dict) -> str:
    """The sentence saying who entered the player and where, in the active language."""
    if sent_for == "event":
        return gettext("%(inviter)s, who runs the event “%(context)s” on Crawford, entered you in it as “%(player)s”, "
                       "a player without an account. Crawford is where backgammon clubs and tournaments keep their "
                       "results.") % values
    if sent_for == "club":
        return gettext("%(inviter)s, who runs the club “%(context)s” on Crawford, entered you in it as “%(player)s”, "
                       "a player without an account. Crawford is where backgammon clubs and tournaments keep their "
                       "results.") % values
    return gettext("%(inviter)s, a user of Crawford, entered you as “%(player)s”, a player without an account. "
                   "Crawford is where backgammon clubs and tournaments keep their results.") % values


def invitation_email(*, invitation_id: int) -> int:
    """Send the invitation's email (one message, to its address); returns 1 when sent, 0 when the
    invitation is no longer open (accepted, replaced, expired) or its token cannot be made again
    (the secret key changed: a new invitation is needed). The task outbox runs it once per row.

    Raises PlayerInvitation.DoesNotExist, and whatever the mail backend raises (the task decides
    what to retry)."""
    invitation = PlayerInvitation.objects.select_related("player", "created_by").get(pk=invitation_id)
    if invitation_refusal(invitation) is not None:
        return 0
    if token_hash(invitation_token(invitation)) != invitation.token_hash:
        return 0
    values = {
        "inviter": _one_line(inviter_name(invitation.created_by)),
        "player": _one_line(invitation.player.display_name),
        "context": _one_line(invitation.sent_for_name),
        "link": invitation_url(invitation),
    }
    with translation.override(invitation_language(invitation)):
        values["day"] = date_format(timezone.localtime(invitation.expires_at), "DATE_FORMAT")
        if values["inviter"] is None:
            values["inviter"] = gettext("An organiser")
        # The subject is the service's alone, and the body says who the sender is (his display
        # name) and where he entered the player, as the service knows them: nothing the sender typed
        # can read as the service speaking.
        subject = gettext("An invitation to claim your player on Crawford")
        body = "\n\n".join([
            gettext("Hello,"),
            _entered_text(invitation.sent_for, values),
            gettext("Create an account (or sign in) and accept the invitation to make %(player)s yours: every "
                    "result %(player)s already has stays on your record.") % values,
            gettext("Open this link to accept: %(link)s") % values,
            gettext("The link works until %(day)s. If you do not know %(inviter)s, ignore this email: nothing "
                    "happens without you.") % values,
            gettext("Crawford sends this email for %(inviter)s, one of its users: the names in quotes are as he "
                    "entered them, not Crawford's words.") % values,
        ])
    message = EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [invitation.email])
    get_connection().send_messages([message])
    return 1
