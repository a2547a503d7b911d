"""Emails to the other side when a result waits, is confirmed, or is disputed."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail

from ..models import Match, Report

SUBJECTS = {
    "reported": "Please confirm the result of your match",
    "confirmed": "Match result confirmed",
    "disputed": "Match result disputed",
}


def _recipients(match: Match, event: str) -> list[str]:
    """Who hears of ``event``: for a pending report the other side, otherwise both sides."""
    sides = [0, 1]
    if event == "reported":
        pending = match.reports.filter(status=Report.Status.PENDING).first()
        if pending is None or pending.side is None:
            return []
        sides = [1 - pending.side]
    emails = []
    for index in sides:
        for player in match.sides[index].players:
            if player.user_id and player.user.email:
                emails.append(player.user.email)
    return sorted(set(emails))


def match_notify(*, match_id: int, event: str) -> int:
    """Send the email for ``event`` ("reported", "confirmed", "disputed"); returns how many
    recipients. Raises whatever the mail backend raises (the task decides what to retry)."""
    match = Match.objects.with_sides().select_related("side0__player_a__user", "side0__player_b__user",
                                                      "side1__player_a__user", "side1__player_b__user").get(pk=match_id)
    recipients = _recipients(match, event)
    if not recipients:
        return 0
    score = f"{match.score0}-{match.score1}" if match.score0 is not None else ""
    body = f"{match}\n\nStatus: {match.get_status_display()} {score}\n\nSee /matches/{match.pk}/"
    send_mail(SUBJECTS[event], body, settings.DEFAULT_FROM_EMAIL, recipients)
    return len(recipients)
