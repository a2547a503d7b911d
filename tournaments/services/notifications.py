"""Emails about an event: its entrants are told when it is cancelled.

Sent from a Celery task written in the outbox by the service (``life.tournament_cancel``), so an
email never announces a cancellation that was rolled back; the outbox row runs its work once. Each
entrant (a player of a side, a member or reserve of a team, with an account and an address) gets
one message, in his preferred language (core.i18n), that names no one else's address.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage, get_connection
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from core.i18n import in_language_of
from core.links import absolute_url
from tournaments.models import Entry, Tournament


def entrant_users(tournament: Tournament):
    """The active users, with an email address, of the event's entrants not withdrawn: the
    players of its sides and the members (and reserves) of its teams. One query."""
    entries = Entry.objects.filter(tournament=tournament).exclude(status=Entry.Status.WITHDRAWN)
    players = (Q(player__in=entries.filter(side__isnull=False).values("side__player_a"))
               | Q(player__in=entries.filter(side__player_b__isnull=False).values("side__player_b"))
               | Q(player__team_memberships__team__entry__in=entries))
    return get_user_model().objects.filter(players, is_active=True, email__gt="").distinct().order_by("pk")


def tournament_cancelled_notify(*, tournament_id: int) -> int:
    """Tell every entrant of the cancelled event ``tournament_id`` that it is cancelled and why;
    returns how many were told (0 when the event is no longer cancelled). Raises
    Tournament.DoesNotExist, and whatever the mail backend raises (the task decides what to retry)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.status != Tournament.Status.CANCELLED:
        return 0
    link = absolute_url(reverse("tournaments:detail", args=[tournament.pk]))
    messages = []
    for user in entrant_users(tournament):
        with in_language_of(user):
            subject = _("Event cancelled: %(name)s") % {"name": tournament.name}
            body = _("The event %(name)s, which you entered, is cancelled.\n\nThe organiser says: %(reason)s\n\n"
                     "Results already confirmed stand. See %(link)s") % {
                "name": tournament.name, "reason": tournament.cancel_reason, "link": link}
        messages.append(EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email]))
    if messages:
        get_connection().send_messages(messages)
    return len(messages)
