"""Emails about a result: the other side when a result waits for its confirmation, both sides
when it is confirmed or disputed.

Sent from a Celery task dispatched after the transaction commits (reporting.py), so an email
never announces a result that was rolled back. The task may be delivered twice (late acks, a
retry after a lost connection): each state of a match is announced once, claimed in the cache
once its messages are built and released again on any failure, so a retry can send it
(core.mail.send_once).
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.i18n import in_language_of, languages_of
from core.links import absolute_url
from core.mail import send_once

from ..models import Match, PlayerClaim, Report

SUBJECTS = {
    "reported": gettext_lazy("Please confirm the result of your match"),
    "confirmed": gettext_lazy("Match result confirmed"),
    # Translators: an email's subject: the two reports of a match differ (RO în dispută, never disputat).
    "disputed": gettext_lazy("Match result disputed"),
}
# Long enough to outlive every retry and redelivery of the task.
CLAIM_SECONDS = 24 * 3600


def _subject_of(match: Match, event: str) -> tuple[list[int], list[Report], str] | None:
    """The sides to tell about ``event``, the reports it is about and a key naming the match's
    state it announces; None when the match is no longer in that state (a later email tells the
    news)."""
    live = list(match.reports.exclude(status=Report.Status.SUPERSEDED).order_by("pk"))
    if event == "reported":
        pending = [r for r in live if r.status == Report.Status.PENDING and r.side is not None]
        if match.status != Match.Status.REPORTED or not pending:
            return None
        reports, sides = pending[-1:], [1 - pending[-1].side]
    elif event == "confirmed":
        reports = [r for r in live if r.status == Report.Status.CONFIRMED]
        if match.status != Match.Status.CONFIRMED or not reports:
            return None
        sides = [0, 1]
    else:
        reports = [r for r in live if r.status == Report.Status.CONTESTED]
        if match.status != Match.Status.DISPUTED or not reports:
            return None
        sides = [0, 1]
    # Report ids with their creation times: unique even if the database is recreated and ids
    # start again while old claims still sit in the cache.
    state = ",".join(f"{r.pk}@{r.created_at.timestamp():.6f}" for r in reports)
    return sides, reports, f"crawford:notify:{match.pk}:{event}:{state}"


def _addresses(match: Match, sides: list[int]) -> list[str]:
    """The email addresses of the users of the players on ``sides``; players without a user or
    without an address are skipped."""
    emails = {
        player.user.email
        for index in sides
        for player in match.sides[index].players
        if player.user_id and player.user.email
    }
    return sorted(emails)


def match_notify(*, match_id: int, event: str) -> int:
    """Send the email for ``event`` ("reported", "confirmed", "disputed"), one message per
    recipient so that no player sees another's address; returns how many recipients the match's
    current state has been announced to (the same number again on a repeated call, which sends
    nothing).

    Nothing is sent when the match has since left that state. Raises ValueError for an unknown
    event, Match.DoesNotExist for an unknown match, and whatever the mail backend raises (the
    task decides what to retry).
    """
    if event not in SUBJECTS:
        raise ValueError(f"unknown notification event {event!r}")
    match = Match.objects.with_sides().prefetch_related(
        "side0__player_a__user", "side0__player_b__user", "side1__player_a__user", "side1__player_b__user"
    ).get(pk=match_id)
    subject = _subject_of(match, event)
    if subject is None:
        return 0
    sides, reports, key = subject
    recipients = _addresses(match, sides)
    if not recipients:
        return 0
    claims = " / ".join(f"{r.score0}-{r.score1}" for r in reports)
    link = absolute_url(reverse("matches:detail", args=[match.pk]))
    # Each recipient reads it in his own language (core/i18n.py). Every message is built, all it
    # needs read, before the announcement is claimed (core.mail.send_once).
    languages, messages = languages_of(recipients), []
    for to in recipients:
        with translation.override(languages[to]):
            body = _("%(match)s\n\nStatus: %(status)s (%(scores)s)\n\nSee %(link)s") % {
                "match": match, "status": match.get_status_display(), "scores": claims, "link": link}
            messages.append(EmailMessage(str(SUBJECTS[event]), body, settings.DEFAULT_FROM_EMAIL, [to]))
    send_once(key, messages, seconds=CLAIM_SECONDS)
    return len(recipients)


# --- claims of players (matches.services.claims) ------------------------------------------------


def claim_notify(*, claim_id: int) -> int:
    """Email the claimant the decision on his claim of a player (approved, or refused with the
    reason); returns 1 when the claim's decision has been announced to him (again on a repeated
    call, which sends nothing), 0 when there is nothing to tell: the claim is still waiting or
    was withdrawn, or the user has no email address.

    Raises PlayerClaim.DoesNotExist for an unknown claim, and whatever the mail backend raises
    (the task decides what to retry).
    """
    claim = PlayerClaim.objects.select_related("user", "player").get(pk=claim_id)
    if claim.status not in (PlayerClaim.Status.APPROVED, PlayerClaim.Status.REFUSED) or not claim.user.email:
        return 0
    key = f"crawford:claim-notify:{claim.pk}:{claim.status}:{claim.decided_at.timestamp():.6f}"
    with in_language_of(claim.user):
        # The reason read in his language too: the application's refusal is a code (reason_text).
        values = {"player": claim.player.display_name, "reason": claim.reason_text,
                  "url": absolute_url(reverse("matches:player", args=[claim.player_id])),
                  "claims": absolute_url(reverse("matches:claims"))}
        subject, body = _claim_message(claim, values)
    send_once(key, [EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [claim.user.email])],
              seconds=CLAIM_SECONDS)
    return 1


def _claim_message(claim: PlayerClaim, values: dict) -> tuple[str, str]:
    """(subject, body) telling the claimant the decision, in the active language."""
    if claim.status == PlayerClaim.Status.APPROVED:
        subject = _("Your claim was approved: you are %(player)s") % values
        body = _("Your claim to be %(player)s was approved. His matches and his rating are now yours.\n\n"
                 "See %(url)s") % values
    else:
        subject = _("Your claim to be %(player)s was refused") % values
        body = _("Your claim to be %(player)s was refused, for this reason:\n\n%(reason)s\n\n"
                 "See your claims at %(claims)s") % values
    return subject, body
