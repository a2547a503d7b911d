"""What every tournament service does first: lock the event, check who is acting."""

from __future__ import annotations

from django.db.models import F

from core.locking import locked_one
from matches.services.matches import player_for_user
from tournaments import errors
from tournaments.live import live_forget
from tournaments.models import Entry, Tournament


def tournament_lock(tournament_id: int) -> Tournament:
    """Lock the tournament row until the transaction ends and return it: every change of an
    event's entries, teams, draw, rounds or advancement runs under it, so they are serialised (a sign-up cannot race the
    draw, two confirmations cannot both create the next match). Raises Tournament.DoesNotExist.

    Taking the lock also moves the event's ``version`` on, in the same transaction: a change that
    commits publishes a new version, one that fails rolls the version back with everything else.
    """
    tournament = locked_one(Tournament.objects.all(), pk=tournament_id)
    Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    tournament.version += 1
    live_forget(tournament_id)  # the event's public pages see the new version after the commit
    return tournament


def runs(tournament: Tournament, user) -> bool:
    """The tournament's organiser (its director) or staff."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or tournament.organiser_id == user.pk)


def require_organiser(tournament: Tournament, user) -> None:
    if not runs(tournament, user):
        raise errors.not_organiser()


def plays_for(entry: Entry, user) -> bool:
    """Whether ``user``'s player is one of the entry's players."""
    player = player_for_user(user)
    if player is None or entry.side_id is None:
        return False
    return player.pk in (entry.side.player_a_id, entry.side.player_b_id)


def entry_of(tournament: Tournament, entry_id) -> Entry:
    """The tournament's entry ``entry_id`` (side and players joined); DomainError
    ``unknown_entry`` if it is not one of this event's entrants."""
    try:
        return Entry.objects.select_related("side__player_a", "side__player_b", "team").get(
            pk=int(entry_id), tournament=tournament
        )
    except (Entry.DoesNotExist, TypeError, ValueError):
        raise errors.unknown_entry(entry_id) from None


def before_draw(tournament: Tournament) -> bool:
    return tournament.status in (Tournament.Status.DRAFT, Tournament.Status.OPEN, Tournament.Status.CLOSED)
