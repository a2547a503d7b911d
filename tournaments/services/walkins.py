"""Walk-ins: the organiser enters someone who has no account. A guest player is created
(matches.services.guests: invited by email when an address is given, to claim the player later)
and entered, in one transaction: before the draw as :func:`entries.entry_add`, after it as a late
entrant (:func:`entries.entry_add_late`)."""

from __future__ import annotations

from django.db import transaction

from matches.services.guests import player_create_guest
from tournaments import errors
from tournaments.models import Entry, Tournament

from .common import before_draw, require_organiser, tournament_lock
from .entries import entry_add, entry_add_late


@transaction.atomic
def entry_add_walk_in(*, tournament_id: int, user, name: str, email: str = "", country: str = "",
                      seed: int | None = None) -> Entry:
    """The organiser enters a walk-in: a guest player named ``name`` (his country if given;
    invited to claim the player when ``email`` is given) entered in this individual event, with his
    ``seed`` before the draw; after it as a late entrant (the last seed, checked in). Nothing is
    saved if any step is refused. Audited as ``player.guest_created`` (``player.invited``) and
    ``entry.added`` (``entry.added_late``).

    Raises Tournament.DoesNotExist; NotAllowed ``not_organiser``; DomainError ``bad_name``,
    ``bad_email``, ``bad_country`` (naming their field), ``walk_in_singles_only`` (a pairs or team
    event), ``bad_seed``; and what :func:`entry_add` / :func:`entry_add_late` raise
    (``tournament_finished``, ``late_entry_closed``...).
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.kind != Tournament.Kind.INDIVIDUAL:
        raise errors.walk_in_singles_only()
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    late = not before_draw(tournament)
    if late and seed is not None:
        raise errors.walk_in_late_seed()
    player = player_create_guest(actor=user, name=name, email=email, country=country)
    if late:
        return entry_add_late(tournament_id=tournament.pk, user=user, player_ids=[player.pk])
    return entry_add(tournament_id=tournament.pk, user=user, player_ids=[player.pk], seed=seed)
