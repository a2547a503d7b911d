"""Club nights: an owner or organiser opens one, members check in, it is closed at the end.

The night's matches (``ClubMatch.night``) and chouette sessions (the chouette app's
``ChouetteSession.night``) hang off it; they are created by their own services.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.locking import locked_one
from core.text import name_clean
from matches.services.matches import player_for_user

from .. import errors
from ..models import CheckIn, ClubNight
from ..permissions import require_club_manager, require_club_member
from ..selectors import member_players
from .common import club_audit_record, club_lock


def _night_summary(night: ClubNight) -> dict:
    return {"date": night.date, "title": night.title, "status": night.status}


def _night_of(club, night_id) -> ClubNight:
    """The club's night ``night_id``, locked; ClubNight.DoesNotExist for another club's."""
    return locked_one(ClubNight.objects.all(), pk=night_id, club=club)


@transaction.atomic
def night_open(*, club_id: int, user, date: dt.date, title: str = "") -> ClubNight:
    """An owner or organiser opens a club night on ``date`` (several nights may share a date: an
    afternoon and an evening). Audited as ``night.opened``.

    Raises Club.DoesNotExist; NotAllowed ``not_club_manager``; DomainError ``bad_night`` (no
    date, a title over 120 characters or one :func:`core.text.name_clean` refuses).
    """
    club = club_lock(club_id)
    require_club_manager(club, user)
    if not isinstance(date, dt.date) or isinstance(date, dt.datetime):
        raise errors.bad_night("date", _("a night needs a date (YYYY-MM-DD)"))
    title = name_clean(title, field="title", refuse=errors.bad_night) if isinstance(title, str) else ""
    if len(title) > 120:
        raise errors.bad_night("title", _("at most 120 characters"))
    night = ClubNight.objects.create(club=club, date=date, title=title, opened_by=user)
    club_audit_record("night.opened", actor=user, club=club, obj=night, after=_night_summary(night))
    return night


@transaction.atomic
def night_check_in(*, club_id: int, night_id: int, user, player_id: int | None = None) -> CheckIn:
    """An active member checks himself in to an open night (``player_id`` empty or his own); an
    owner or organiser checks in any active member's player. Checking in twice changes nothing
    (the first check-in is returned). Audited as ``night.checked_in``.

    Raises Club.DoesNotExist, ClubNight.DoesNotExist; NotAllowed ``not_club_member``,
    ``not_club_manager`` (a member checking in someone else); DomainError ``unknown_player`` (not
    an active member's player), ``no_player``; Conflict ``night_closed``.
    """
    club = club_lock(club_id)
    night = _night_of(club, night_id)
    require_club_member(club, user)
    own = player_for_user(user)
    if player_id is None or (own is not None and own.pk == player_id):
        if own is None:
            raise errors.no_player()
        player = own
    else:
        require_club_manager(club, user)
        player = member_players(club_id=club.pk).filter(pk=player_id).first()
        if player is None:
            raise errors.unknown_player(player_id)
    existing = CheckIn.objects.filter(night=night, player=player).first()
    if existing is not None:
        return existing
    if night.status != ClubNight.Status.OPEN:
        raise errors.night_closed()
    check_in = CheckIn.objects.create(night=night, player=player)
    club_audit_record("night.checked_in", actor=user, club=club, obj=check_in,
                      after={"night": night.pk, "player": player.pk, "name": player.display_name})
    return check_in


@transaction.atomic
def night_close(*, club_id: int, night_id: int, user) -> ClubNight:
    """An owner or organiser closes the night: no more check-ins. Closing it again changes
    nothing. Audited as ``night.closed``.

    Raises Club.DoesNotExist, ClubNight.DoesNotExist; NotAllowed ``not_club_manager``.
    """
    club = club_lock(club_id)
    night = _night_of(club, night_id)
    require_club_manager(club, user)
    if night.status == ClubNight.Status.CLOSED:
        return night
    before = _night_summary(night)
    night.status = ClubNight.Status.CLOSED
    night.closed_at = timezone.now()
    night.save(update_fields=["status", "closed_at"])
    club_audit_record("night.closed", actor=user, club=club, obj=night, before=before, after=_night_summary(night))
    return night
