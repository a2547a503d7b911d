"""Emails about an event: its entrants are told when it is cancelled, and a player someone else
entered is told that his entry waits for his answer.

Sent from a Celery task written in the outbox by the service (``life.tournament_cancel``), so an
email never announces a cancellation that was rolled back; the outbox row runs its work once. Each
entrant (a player of a side, a member or reserve of a team, with an account and an address) gets
one message, in his preferred language (core.i18n), that names no one else's address.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.mail import EmailMessage, get_connection
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from core.i18n import in_language_of
from core.links import absolute_url
from core.mail import send_once
from core.text import isolate
from matches.models import Player
from tournaments.models import Acceptance, Entry, Tournament

from .acceptance import entered_players


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
            subject = _("Event cancelled: %(name)s") % {"name": isolate(tournament.name)}
            body = _("The event %(name)s, which you entered, is cancelled.\n\nThe organiser says: %(reason)s\n\n"
                     "Results already confirmed stand. See %(link)s") % {
                "name": isolate(tournament.name), "reason": tournament.cancel_reason, "link": link}
        messages.append(EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email]))
    if messages:
        get_connection().send_messages(messages)
    return len(messages)


#: At most this many entry notices a day reach one player, whoever enters him where: someone
#: entering him in many events of his own cannot fill his inbox (each event's page still asks).
ENTRY_NOTICES_PER_DAY = 5


def _notices_left(player_id: int) -> bool:
    """Count one entry notice to ``player_id`` today; False once the day's are used."""
    key = f"entry-notices:{player_id}:{dt.date.today().isoformat()}"
    cache.add(key, 0, 2 * 24 * 3600)
    return cache.incr(key) <= ENTRY_NOTICES_PER_DAY


def entry_invited_notify(*, tournament_id: int, player_id: int, by_id: int | None = None) -> int:
    """Tell the player ``player_id`` (with an account and an address) whom someone else (the user
    ``by_id``: the organiser, a team's captain; the organiser when not given or gone) entered in
    the event ``tournament_id`` that his entry waits for his answer: who entered him (his display
    name, never text he chose for the message) and where to accept it, in his
    language. Returns 1 when sent, 0 when nothing is to be said (he accepted already, is no longer
    in the event, has no address, or had his day's :data:`ENTRY_NOTICES_PER_DAY`). Sent once
    (core.mail.send_once). Raises Tournament.DoesNotExist, Player.DoesNotExist, and what the mail
    backend raises."""
    tournament = Tournament.objects.select_related("organiser").get(pk=tournament_id)
    player = Player.objects.select_related("user").get(pk=player_id)
    user = player.user
    if user is None or not user.is_active or not user.email:
        return 0
    if Acceptance.objects.filter(tournament=tournament, player=player).exists():
        return 0
    if not Player.objects.filter(entered_players(tournament), pk=player.pk).exists():
        return 0
    by = get_user_model().objects.filter(pk=by_id).first() if by_id is not None else None
    by = by or tournament.organiser
    link = absolute_url(reverse("tournaments:detail", args=[tournament.pk]))
    with in_language_of(user):
        subject = _("You were entered in %(event)s") % {"event": isolate(tournament.name)}
        body = _("%(organiser)s entered you in the event %(event)s.\n\nIts results count on your record (your "
                 "rating, your page) only once you accept the entry. If you do not know this event, do nothing: "
                 "its matches stay off your record.\n\nAnswer on the event's page: %(link)s") % {
            "organiser": isolate(by.display_name), "event": isolate(tournament.name), "link": link}
    message = EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email])
    key = f"entry-invited:{tournament.pk}:{player.pk}"
    if cache.get(key) is not None or not _notices_left(player.pk):  # sent already: a repeat counts nothing
        return 0
    return int(send_once(key, [message]))
