"""Seasons of a club's ladder: owners and organisers create, edit and delete them.

Seasons may overlap (a winter league inside the year's ladder): each ladder is computed on its
own from the club's confirmed matches between its dates, so nothing forbids it.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils.translation import gettext as _

from core.locking import locked_one
from core.text import name_clean

from .. import errors
from ..models import Season
from ..permissions import require_club_manager
from .common import club_audit_record, club_lock


def _season_summary(season: Season) -> dict:
    return {"name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on}


def _check(club, season: Season) -> None:
    """DomainError ``bad_season`` for a missing or long name or dates out of order; Conflict
    ``season_name_taken``."""
    season.name = name_clean(season.name, field="name", refuse=errors.bad_season) if isinstance(season.name, str) else ""
    if not season.name:
        raise errors.bad_season("name", _("a season needs a name"))
    if len(season.name) > 80:
        raise errors.bad_season("name", _("at most 80 characters"))
    for field in ("starts_on", "ends_on"):
        value = getattr(season, field)
        if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
            raise errors.bad_season(field, _("a date (YYYY-MM-DD)"))
    if season.starts_on > season.ends_on:
        raise errors.bad_season("ends_on", _("the season ends before it starts"))
    if Season.objects.filter(club=club, name__iexact=season.name).exclude(pk=season.pk).exists():
        raise errors.season_name_taken(season.name)


@transaction.atomic
def season_create(*, club_id: int, user, name: str, starts_on: dt.date, ends_on: dt.date) -> Season:
    """An owner or organiser creates a season from ``starts_on`` to ``ends_on`` (both days
    included). Audited as ``season.created``.

    Raises Club.DoesNotExist; NotAllowed ``not_club_manager``; DomainError ``bad_season``;
    Conflict ``season_name_taken``.
    """
    club = club_lock(club_id)
    require_club_manager(club, user)
    season = Season(club=club, name=name, starts_on=starts_on, ends_on=ends_on)
    _check(club, season)
    season.save()
    club_audit_record("season.created", actor=user, club=club, obj=season, after=_season_summary(season))
    return season


@transaction.atomic
def season_update(*, club_id: int, season_id: int, user, **changes) -> Season:
    """An owner or organiser changes a season's name or dates (the ladder follows at once).
    Audited as ``season.updated`` when something changed.

    Raises Club.DoesNotExist, Season.DoesNotExist (another club's season too); NotAllowed
    ``not_club_manager``; DomainError ``bad_season`` (an unknown field too); Conflict
    ``season_name_taken``.
    """
    club = club_lock(club_id)
    require_club_manager(club, user)
    season = locked_one(Season.objects.all(), pk=season_id, club=club)
    unknown = sorted(set(changes) - {"name", "starts_on", "ends_on"})
    if unknown:
        raise errors.bad_season(unknown[0], _("cannot be changed"))
    before = _season_summary(season)
    for field, value in changes.items():
        setattr(season, field, value)
    _check(club, season)
    if _season_summary(season) != before:
        season.save(update_fields=list(changes))
        club_audit_record("season.updated", actor=user, club=club, obj=season, before=before, after=_season_summary(season))
    return season


@transaction.atomic
def season_delete(*, club_id: int, season_id: int, user) -> None:
    """An owner or organiser deletes a season (its matches and results stay: a ladder is only a
    view of them). Audited as ``season.deleted``.

    Raises Club.DoesNotExist, Season.DoesNotExist; NotAllowed ``not_club_manager``.
    """
    club = club_lock(club_id)
    require_club_manager(club, user)
    season = locked_one(Season.objects.all(), pk=season_id, club=club)
    before, pk = _season_summary(season), season.pk
    season.delete()
    season.pk = pk
    club_audit_record("season.deleted", actor=user, club=club, obj=season, before=before)
