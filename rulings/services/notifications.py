"""Emails about rulings and appeals: the parties hear each ruling and each appeal decision; the
director hears of an appeal; committee members hear they were named.

Sent from a Celery task dispatched after the transaction commits, so nothing announces a ruling
that was rolled back. A task delivered twice sends nothing the second time: each announcement is
claimed in the cache once built and released again on any failure (core.mail.send_once).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext

from core.i18n import language_of
from core.links import absolute_url
from core.mail import send_once
from core.text import isolate
from matches.models import Match
from rulings.models import Appeal, Ruling
from tournaments.models import event_of

KINDS = ("ruling", "appeal_lodged", "committee_named", "appeal_decided")
CLAIM_SECONDS = 24 * 3600


#: Who is told, as {email address: his preferred language}: each reads the email in his own.
Recipients = dict[str, str]


def _add(recipients: Recipients, user) -> None:
    if user is not None and user.email:
        recipients[user.email] = language_of(user)


def _party_emails(match: Match) -> Recipients:
    recipients: Recipients = {}
    for side in match.sides:
        for p in side.players:
            if p.user_id:
                _add(recipients, p.user)
    return recipients


def _director_emails(match: Match) -> Recipients:
    event = event_of(match)
    recipients: Recipients = {}
    for user in [match.organiser] + ([event.organiser] if event is not None else []):
        _add(recipients, user)
    return recipients


def _match(match_id: int) -> Match:
    return Match.objects.with_sides().select_related("organiser", "event_link__tournament__organiser").prefetch_related(
        "side0__player_a__user", "side0__player_b__user", "side1__player_a__user", "side1__player_b__user"
    ).get(pk=match_id)


def _match_line(match: Match) -> str:
    values = {"side0": isolate(match.side0.name), "side1": isolate(match.side1.name), "length": match.length}
    if not match.length:
        return gettext("%(side0)s v %(side1)s, a money session") % values
    return ngettext("%(side0)s v %(side1)s, a %(length)s-point match",
                    "%(side0)s v %(side1)s, a %(length)s-point match", match.length) % values


def _message(kind: str, object_id: int) -> tuple[Callable[[], tuple[str, str]], Recipients, str]:
    """(the subject and body in the active language, recipients, claim key) of one announcement."""
    if kind == "ruling":
        ruling = Ruling.objects.select_related("dispute").get(pk=object_id)
        match = _match(ruling.dispute.match_id)

        def ruling_text() -> tuple[str, str]:
            values = {"match": _match_line(match), "category": ruling.dispute.get_category_display(),
                      "outcome": ruling.get_outcome_display(), "rule": ruling.rule, "reasoning": ruling.reasoning,
                      "link": absolute_url(reverse("rulings:dispute", args=[ruling.dispute_id]))}
            body = gettext("%(match)s\n\nDispute: %(category)s\nRuling: %(outcome)s\nRule applied: %(rule)s\n\n"
                           "%(reasoning)s\n\nSee %(link)s") % values
            return gettext("Ruling: %(outcome)s") % values, body

        return ruling_text, _party_emails(match), f"crawford:rulings:ruling:{ruling.pk}@{ruling.created_at.timestamp():.6f}"
    appeal = Appeal.objects.select_related("ruling__dispute").get(pk=object_id)
    match = _match(appeal.ruling.dispute.match_id)
    link = absolute_url(reverse("rulings:appeal", args=[appeal.pk]))
    stamp = f"{appeal.pk}@{appeal.created_at.timestamp():.6f}"
    if kind == "appeal_lodged":
        def lodged_text() -> tuple[str, str]:
            body = gettext("%(match)s\n\nThe ruling (%(outcome)s) is appealed:\n%(grounds)s\n\nSee %(link)s") % {
                "match": _match_line(match), "outcome": appeal.ruling.get_outcome_display(),
                "grounds": appeal.grounds, "link": link}
            return gettext("A ruling is appealed"), body

        return lodged_text, {**_party_emails(match), **_director_emails(match)}, f"crawford:rulings:lodged:{stamp}"
    if kind == "committee_named":
        recipients: Recipients = {}
        for member in appeal.committee.select_related("user"):
            _add(recipients, member.user)

        def committee_text() -> tuple[str, str]:
            body = gettext("%(match)s\n\nYou sit on the appeals committee for this ruling. Please vote.\n\n"
                           "See %(link)s") % {"match": _match_line(match), "link": link}
            return gettext("You are on an appeals committee"), body

        return committee_text, recipients, f"crawford:rulings:committee:{stamp}"
    if kind == "appeal_decided":
        def decided_text() -> tuple[str, str]:
            values = {"match": _match_line(match), "decision": appeal.get_decision_display(), "link": link}
            body = gettext("%(match)s\n\nThe committee decided: %(decision)s.\n\nSee %(link)s") % values
            return gettext("Appeal decided: %(decision)s") % values, body

        return decided_text, {**_party_emails(match), **_director_emails(match)}, f"crawford:rulings:decided:{stamp}"
    raise ValueError(f"unknown rulings notification {kind!r}")


def rulings_notify(*, kind: str, object_id: int) -> int:
    """Send the announcement ``kind`` (one of KINDS) about the ruling or appeal ``object_id``, one
    message per recipient, in his preferred language; returns how many recipients it has been announced to (the same number
    on a repeated call, which sends nothing).

    Raises ValueError for an unknown kind, DoesNotExist for an unknown object, and whatever the
    mail backend raises (the task decides what to retry).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown rulings notification {kind!r}")
    text, recipients, key = _message(kind, object_id)
    if not recipients:
        return 0
    messages = []
    for to in sorted(recipients):
        # Each recipient reads it in his preferred language (the task runs outside any request).
        with translation.override(recipients[to]):
            subject, body = text()
        messages.append(EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to]))
    # Claimed only now that every text is built (core.mail.send_once).
    send_once(key, messages, seconds=CLAIM_SECONDS)
    return len(recipients)
