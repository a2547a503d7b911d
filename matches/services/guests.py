"""Guest players and the invitations to claim them.

A guest is a :class:`~matches.models.Player` with no user: a walk-in an organiser entered in an
event or a club (tournaments.services.walkins, clubs.services.walkins), or a name from an imported
match file. Given an email address, the guest is invited: an email (through the task outbox, so
it exists exactly when the invitation does) carries a link to ``/invitations/<token>/`` where the
person signs up or signs in and claims the player. The claim links the user to that player and
keeps every result on his record: nothing about the matches changes, only who holds the player.
A link can be forwarded, so it only proves that its holder has it: the player is given to an
account one of whose verified addresses is the invited one; anyone else's acceptance becomes a
claim a director decides (matches.services.claims), and an addressee who has not verified his
address yet is asked to verify it first.

The token is an HMAC (the site's secret key) of the invitation's player, address and time; the
database keeps only its SHA-256 (``PlayerInvitation.token_hash``), so a copy of the database
opens no invitation, and the email task makes the token again from the row.

One account holds one player (``Player.user`` is one-to-one). A user who signed up before
accepting may already have a player of his own, made at sign-up: if that player has played no
match and holds no other record, it is removed and the user takes the guest instead (nothing is
lost: it was empty); if it has matches, the claim is refused with the reason (a director merges
players; claiming would leave one of the two records behind).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, Q, RestrictedError
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from accounts.selectors import ADDRESS_UNVERIFIED, ADDRESS_VERIFIED, address_standing
from audit.services import audit_record
from core.locking import locked_one
from core.outbox import outbox_enqueue
from core.text import name_clean

from .. import errors, hooks
from ..models import Match, Player, PlayerClaim, PlayerInvitation, Side
from ..tasks import invitation_email_task
from .claims import claim_request, claims_close_for_taken
from .invitations import invitation_refusal, invitation_token, token_hash
from .matches import player_create

#: How long an invitation link works (days); a new invitation replaces the old one.
INVITATION_DAYS = 30
NAME_MAX = 120
EMAIL_MAX = 254
_COUNTRY = re.compile(r"[A-Z]{2}")


def _invitation_days() -> int:
    return int(getattr(settings, "CRAWFORD_INVITATION_DAYS", INVITATION_DAYS))


def guest_name_clean(name) -> str:
    """The guest's name without surrounding spaces, composed (NFC); DomainError ``bad_name`` if
    empty, too long, or not a name (:func:`core.text.name_clean`: control characters, direction
    controls, nothing visible)."""
    cleaned = name_clean(str(name or ""), field="name")
    if not cleaned or len(cleaned) > NAME_MAX:
        raise errors.guest_bad_name()
    return cleaned


def guest_email_clean(email) -> str:
    """The address as given (its domain in lower case), or "" for none; DomainError ``bad_email``."""
    cleaned = str(email or "").strip()
    if not cleaned:
        return ""
    try:
        if len(cleaned) > EMAIL_MAX:
            raise ValidationError("too long")
        validate_email(cleaned)
    except ValidationError:
        raise errors.guest_bad_email() from None
    local, _, domain = cleaned.rpartition("@")
    return f"{local}@{domain.lower()}"


def guest_country_clean(country) -> str:
    """The ISO 3166 alpha-2 code in capitals, or "" for none; DomainError ``bad_country``."""
    cleaned = str(country or "").strip().upper()
    if cleaned and not _COUNTRY.fullmatch(cleaned):
        raise errors.guest_bad_country()
    return cleaned


@transaction.atomic
def player_create_guest(*, actor, name: str, email: str = "", country: str = "",
                        sent_for: SentFor | None = None) -> Player:
    """Create a guest player (no user) named ``name``, with his country (ISO code) if given; with
    an ``email``, invite him to claim the player (:func:`invitation_send`, ``sent_for`` naming
    the event or club he is entered in). The caller (an event's or a club's service) has checked
    that ``actor`` may enter walk-ins there. Audited as ``player.guest_created`` (the address is
    not kept in the log).

    Raises NotAllowed ``not_authenticated``; DomainError ``bad_name``, ``bad_email``,
    ``bad_country`` (each naming its field); TooMany ``too_many_invitations``,
    ``address_invited_enough`` (:func:`invitation_send`). Nothing is saved when any of them is
    raised.
    """
    if not getattr(actor, "is_authenticated", False):
        raise errors.guest_needs_sign_in()
    name = guest_name_clean(name)
    email = guest_email_clean(email)
    country = guest_country_clean(country)
    player = player_create(display_name=name, country=country)
    audit_record(actor=actor, action="player.guest_created", object_type="matches.Player", object_id=player.pk,
                 after={"name": player.display_name, "country": country, "invited": bool(email)})
    if email:
        invitation_send(player_id=player.pk, email=email, actor=actor, sent_for=sent_for)
    return player


@dataclass(frozen=True)
class SentFor:
    """Where the sender entered the guest, as the service knows it: ``kind`` "event" or "club"
    and its name. The invitation's email names it (never words the sender typed about himself)."""

    kind: str
    name: str


#: The window the invitation limits count in.
LIMIT_WINDOW = dt.timedelta(hours=24)


def _limit_wait(times: list, limit: int, now) -> int | None:
    """Seconds until one more invitation is allowed, given the creation times counted (newest
    first, at most ``limit`` of them), or None when one is allowed now."""
    if limit <= 0:
        return int(LIMIT_WINDOW.total_seconds())
    if len(times) < limit:
        return None
    return max(1, int((times[limit - 1] + LIMIT_WINDOW - now).total_seconds()) + 1)


def _when_text(seconds: int, now) -> str:
    """When a refused invitation may be sent again, as words: "after 14:05" today, else with the day."""
    at = timezone.localtime(now + dt.timedelta(seconds=seconds))
    if at.date() == timezone.localtime(now).date():
        return date_format(at, "TIME_FORMAT")
    return date_format(at, "DATETIME_FORMAT")


def invitations_check_limits(*, actor, email: str, now=None) -> None:
    """Refuse one more invitation from ``actor`` when he has sent ``CRAWFORD_INVITATIONS_PER_SENDER``
    (20) in the last 24 hours, and one more to ``email`` (any case) when it has received
    ``CRAWFORD_INVITATIONS_PER_ADDRESS`` (3) in the last 24 hours, whoever sent them. Counted
    from the invitations themselves (the database, not the cache: a limit that holds while the
    cache is down). Changes nothing.

    Raises TooMany ``too_many_invitations`` (the sender's limit) or ``address_invited_enough``
    (the address's), naming the field ``email`` and saying when to try again (429, Retry-After).
    """
    now = now or timezone.now()
    since = now - LIMIT_WINDOW
    recent = PlayerInvitation.objects.filter(created_at__gt=since).order_by("-created_at")
    if getattr(actor, "is_authenticated", False):
        limit = int(settings.CRAWFORD_INVITATIONS_PER_SENDER)
        wait = _limit_wait(list(recent.filter(created_by_id=actor.pk).values_list("created_at", flat=True)[:limit]),
                           limit, now)
        if wait is not None:
            raise errors.too_many_invitations(limit, _when_text(wait, now), wait)
    limit = int(settings.CRAWFORD_INVITATIONS_PER_ADDRESS)
    wait = _limit_wait(list(recent.filter(email__iexact=email).values_list("created_at", flat=True)[:limit]),
                       limit, now)
    if wait is not None:
        raise errors.address_invited_enough(email, limit, _when_text(wait, now), wait)


@transaction.atomic
def invitation_send(*, player_id: int, email: str, actor, sent_for: SentFor | None = None) -> PlayerInvitation:
    """Invite ``email`` to claim the guest player ``player_id``: a new invitation, valid for
    ``CRAWFORD_INVITATION_DAYS`` (30), replacing (withdrawing) the player's open one, and its email
    written in the task outbox; ``sent_for`` (the event or club the sender entered him in) is kept
    on it for the email to name. The caller has checked that ``actor`` may invite for this
    player. Within the limits of :func:`invitations_check_limits` (the sender's row locked while
    counting, so that his own requests at once cannot pass it together). Audited as
    ``player.invited``.

    Raises Player.DoesNotExist; DomainError ``bad_email``; Conflict ``player_held`` (the player
    already has a user); TooMany ``too_many_invitations``, ``address_invited_enough``.
    """
    email = guest_email_clean(email)
    if not email:
        raise errors.guest_bad_email()
    sender = actor if getattr(actor, "is_authenticated", False) else None
    if sender is not None:
        # A user's row before a player's, as a profile's change takes them.
        locked_one(get_user_model().objects.only("pk"), pk=sender.pk)
    player = locked_one(Player.objects.all(), pk=player_id)
    if player.user_id is not None:
        raise errors.player_already_held(player.display_name)
    now = timezone.now()
    invitations_check_limits(actor=sender, email=email, now=now)
    PlayerInvitation.objects.filter(player=player, accepted_at__isnull=True, withdrawn_at__isnull=True).update(
        withdrawn_at=now)
    invitation = PlayerInvitation(player=player, email=email, created_by=sender, created_at=now,
                                  expires_at=now + dt.timedelta(days=_invitation_days()),
                                  sent_for=sent_for.kind if sent_for else "",
                                  sent_for_name=sent_for.name[:200] if sent_for else "")
    invitation.token_hash = token_hash(invitation_token(invitation))
    invitation.save()
    outbox_enqueue(invitation_email_task, invitation.pk)
    audit_record(actor=actor, action="player.invited", object_type="matches.Player", object_id=player.pk,
                 after={"name": player.display_name, "expires_at": invitation.expires_at})
    return invitation


def invitation_find(token: str) -> PlayerInvitation:
    """The invitation of ``token``, its player and inviter joined (no lock: for showing it).

    Raises NotFound ``invitation_unknown``."""
    found = (PlayerInvitation.objects.select_related("player", "created_by")
             .filter(token_hash=token_hash(token)).first())
    if found is None:
        raise errors.invitation_unknown()
    return found


def player_match_count(player: Player) -> int:
    """How many matches ``player`` is on a side of (any status)."""
    sides = Side.objects.filter(Q(player_a=player) | Q(player_b=player)).values("pk")
    return Match.objects.filter(Q(side0__in=sides) | Q(side1__in=sides)).count()


def _remove_empty_player(own: Player) -> None:
    """Delete the user's own player, which has no match: his sides, then him. A row that still
    names him (an entry, a check-in, a team...) refuses it: Conflict ``user_holds_player``."""
    try:
        with transaction.atomic():
            Side.objects.filter(Q(player_a=own) | Q(player_b=own)).delete()
            own.delete()
    except (ProtectedError, RestrictedError, IntegrityError):
        raise errors.user_player_has_records(own.display_name) from None


@dataclass(frozen=True)
class Acceptance:
    """What accepting an invitation did: ``claim`` None when the player became the user's; else
    the claim now waiting for a director (the invitation was sent to an address that is not the
    user's): the player is not his until it is approved."""

    player: Player
    claim: PlayerClaim | None = None

    @property
    def text(self) -> str:
        """What happened, as a sentence in the active language."""
        values = {"player": self.player.display_name}
        if self.claim is None:
            return gettext("%(player)s is yours now: his matches are on your record.") % values
        return gettext("This invitation was sent to another email address than yours, so %(player)s is not yours "
                       "yet: your claim is sent to a director of an event or club he played in, or to staff, who "
                       "decides. You will be told by email.") % values


def _own_player_checked(user) -> Player | None:
    """The user's own player, locked, when he may give it up for a guest (no match, not a guest he
    claimed before, no record above matches), or None when he has none. Raises Conflict
    ``user_holds_player`` otherwise. Changes nothing."""
    own = Player.objects.filter(user_id=user.pk).first()
    if own is None:
        return None
    own = locked_one(Player.objects.all(), pk=own.pk)
    count = player_match_count(own)
    if count:
        raise errors.user_holds_player(own.display_name, count)
    if own.invitations.filter(accepted_at__isnull=False).exists():
        # A guest he claimed before: an organiser entered that player, empty or not; keep him.
        raise errors.user_claimed_player(own.display_name)
    if hooks.player_kept_by(own.pk):
        raise errors.user_player_has_records(own.display_name)
    return own


@transaction.atomic
def invitation_accept(*, token: str, user, statement: str = "") -> Acceptance:
    """``user`` accepts the invitation of ``token``.

    The link proves only that he has it, not that he is its addressee: the player becomes his only
    when one of his verified email addresses (allauth's, compared without regard to case) is the
    invitation's. Then the guest player is his (every result stays on the player's record), the
    invitation is marked accepted, the claims still waiting for the player are closed
    (:func:`~matches.services.claims.claims_close_for_taken`), and the apps above move what they
    held for the guest to the user (``hooks.player_claimed``: his club memberships). If the user
    already has a player with no match and no other record (made at sign-up; not a guest he claimed
    before), that empty player is removed first. Audited as ``player.claimed``.

    When the invitation was sent to an address that is not his, nothing is given: his acceptance
    becomes a claim of the player (:func:`~matches.services.claims.claim_request`, with
    ``statement``) that a director of an event or club the player played in, or staff, decides;
    the invitation stays open for its addressee. Asking again returns the same claim.

    Runs under the guest player's row lock (then the user's own player's), so two accepts of one
    player are decided one after the other. Raises NotAllowed ``not_authenticated``,
    ``email_unverified`` (the address is his but not verified yet: he verifies it first); NotFound
    ``invitation_unknown``; Conflict ``invitation_used``, ``invitation_replaced``,
    ``invitation_expired``, ``player_held`` (the player has a user already), ``user_holds_player``
    (the user's own player has matches or other records: one account cannot hold two players);
    DomainError ``too_long`` (the statement). Nothing is changed when any of them is raised.
    """
    if not getattr(user, "is_authenticated", False):
        raise errors.invitation_sign_in()
    found = invitation_find(token)
    player = locked_one(Player.objects.all(), pk=found.player_id)
    invitation = PlayerInvitation.objects.select_related("player").get(pk=found.pk)
    invitation.player = player
    refusal = invitation_refusal(invitation, user)
    if refusal is not None:
        raise refusal
    standing = address_standing(user, invitation.email)
    if standing == ADDRESS_UNVERIFIED:
        raise errors.invitation_unverified(invitation.email)
    own = _own_player_checked(user)
    if standing != ADDRESS_VERIFIED:
        return Acceptance(player=player, claim=claim_request(player_id=player.pk, user=user, statement=statement))
    replaced = None
    if own is not None:
        replaced = {"id": own.pk, "name": own.display_name}
        _remove_empty_player(own)
    player.user = user
    try:
        with transaction.atomic():
            player.save(update_fields=["user"])
    except IntegrityError:
        # Player.user is one-to-one: the same user claiming two guests at once (each under its own
        # guest's lock) is decided by the database; the second finds he holds one already.
        raise errors.user_holds_a_player() from None
    invitation.accepted_at, invitation.accepted_by = timezone.now(), user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    audit_record(actor=user, action="player.claimed", object_type="matches.Player", object_id=player.pk,
                 before={"name": player.display_name, "user": None},
                 after={"name": player.display_name, "user": user.get_username(), "replaced": replaced})
    claims_close_for_taken(player, user)
    hooks.player_claimed.send(player=player, user=user, actor=user)
    return Acceptance(player=player)
