"""Emails about rulings and appeals: the parties hear each ruling and each appeal decision; the
director hears of an appeal; committee members hear they were named.

Sent from a Celery task dispatched after the transaction commits, so nothing announces a ruling
that was rolled back. A task delivered twice sends nothing the second time: each announcement is
claimed in the cache before sending and released again if sending fails (as for result emails).
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.core.mail import EmailMessage, get_connection
from django.utils import translation

from core.i18n import languages_of
from matches.models import Match
from rulings.models import Appeal, Ruling
from tournaments.models import event_of

KINDS = ("ruling", "appeal_lodged", "committee_named", "appeal_decided")
CLAIM_SECONDS = 24 * 3600


def _party_emails(match: Match) -> set[str]:
    return {p.user.email for side in match.sides for p in side.players if p.user_id and p.user.email}


def _director_emails(match: Match) -> set[str]:
    event = event_of(match)
    directors = [match.organiser] + ([event.organiser] if event is not None else [])
    return {u.email for u in directors if u is not None and u.email}


def _match(match_id: int) -> Match:
    return Match.objects.with_sides().select_related("organiser", "event_link__tournament__organiser").prefetch_related(
        "side0__player_a__user", "side0__player_b__user", "side1__player_a__user", "side1__player_b__user"
    ).get(pk=match_id)


def _message(kind: str, object_id: int) -> tuple[str, str, set[str], str]:
    """(subject, body, recipients, claim key) of one announcement."""
    if kind == "ruling":
        ruling = Ruling.objects.select_related("dispute").get(pk=object_id)
        match = _match(ruling.dispute.match_id)
        subject = f"Ruling: {ruling.get_outcome_display()}"
        body = (f"{match}\n\nDispute: {ruling.dispute.get_category_display()}\nRuling: {ruling.get_outcome_display()}\n"
                f"Rule applied: {ruling.rule}\n\n{ruling.reasoning}\n\nSee /rulings/disputes/{ruling.dispute_id}/")
        return subject, body, _party_emails(match), f"crawford:rulings:ruling:{ruling.pk}@{ruling.created_at.timestamp():.6f}"
    appeal = Appeal.objects.select_related("ruling__dispute").get(pk=object_id)
    match = _match(appeal.ruling.dispute.match_id)
    link = f"See /rulings/appeals/{appeal.pk}/"
    stamp = f"{appeal.pk}@{appeal.created_at.timestamp():.6f}"
    if kind == "appeal_lodged":
        recipients = _director_emails(match) | _party_emails(match)
        body = f"{match}\n\nThe ruling ({appeal.ruling.get_outcome_display()}) is appealed:\n{appeal.grounds}\n\n{link}"
        return "A ruling is appealed", body, recipients, f"crawford:rulings:lodged:{stamp}"
    if kind == "committee_named":
        recipients = {m.user.email for m in appeal.committee.select_related("user") if m.user.email}
        body = f"{match}\n\nYou sit on the appeals committee for this ruling. Please vote.\n\n{link}"
        return "You are on an appeals committee", body, recipients, f"crawford:rulings:committee:{stamp}"
    if kind == "appeal_decided":
        recipients = _party_emails(match) | _director_emails(match)
        body = f"{match}\n\nThe committee decided: {appeal.get_decision_display()}.\n\n{link}"
        return f"Appeal decided: {appeal.get_decision_display()}", body, recipients, f"crawford:rulings:decided:{stamp}"
    raise ValueError(f"unknown rulings notification {kind!r}")


def rulings_notify(*, kind: str, object_id: int) -> int:
    """Send the announcement ``kind`` (one of KINDS) about the ruling or appeal ``object_id``, one
    message per recipient; returns how many recipients it has been announced to (the same number
    on a repeated call, which sends nothing).

    Raises ValueError for an unknown kind, DoesNotExist for an unknown object, and whatever the
    mail backend raises (the task decides what to retry).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown rulings notification {kind!r}")
    subject, body, recipients, key = _message(kind, object_id)
    recipients = sorted(recipients)
    if not recipients:
        return 0
    if not cache.add(key, 1, CLAIM_SECONDS):
        return len(recipients)
    # Each recipient reads it in his own language (core/i18n.py): written once per language.
    languages, messages = languages_of(recipients), []
    for code in sorted(set(languages.values())):
        with translation.override(code):
            subject, body = (str(text) for text in _message(kind, object_id)[:2])
        messages += [EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to]) for to in recipients
                     if languages[to] == code]
    try:
        get_connection().send_messages(messages)
    except BaseException:
        cache.delete(key)
        raise
    return len(recipients)
