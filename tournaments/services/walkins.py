"""Walk-ins: the organiser enters someone who has no account. His name is read as the player
pickers read it (matches.services.walkins): a name an existing player has enters that player; a
guest player is created (matches.services.guests: invited by email when an address is given, to
claim the player later) only for a new name, or for a namesake the organiser confirms. He is
entered in the same transaction: before the draw as :func:`entries.entry_add`, after it as a late
entrant (:func:`entries.entry_add_late`)."""

from __future__ import annotations

from django.db import transaction

from matches.services.guests import SentFor
from matches.services.walkins import player_walk_in
from tournaments import errors, formats
from tournaments.models import Entry, Tournament

from .common import before_draw, require_organiser, tournament_lock
from .entries import entry_add, entry_add_late


@transaction.atomic
def entry_add_walk_in(*, tournament_id: int, user, name: str, email: str = "", country: str = "",
                      seed: int | None = None, confirm_namesake: bool = False) -> Entry:
    """The organiser enters a walk-in in this individual event, with his ``seed`` before the draw;
    after it as a late entrant (the last seed, checked in). The walk-in is the player
    ``matches.services.walkins.player_walk_in`` reads ``name``, ``email`` and ``country`` as: the
    existing player of that name (never a second entry of him: ``already_entered``), or a new
    guest player (his country if given; invited to claim the player when ``email`` is given), a
    namesake of existing players only with ``confirm_namesake`` and a country or email of his
    own. The returned entry's ``walk_in`` says which. Nothing is saved if any step is refused.
    Audited as ``player.guest_created`` (``player.invited``) and ``entry.added``
    (``entry.added_late``).

    Raises Tournament.DoesNotExist; NotAllowed ``not_organiser``; DomainError ``bad_name``,
    ``bad_email``, ``bad_country`` (naming their field), ``walk_in_singles_only`` (a pairs or team
    event), ``bad_seed``; what ``player_walk_in`` raises (``namesake_exists``,
    ``namesakes_exist``, ``namesake_needs_detail``, ``namesake_not_distinct``); TooMany
    ``too_many_invitations``, ``address_invited_enough`` (the invitations' limits); and what
    :func:`entry_add` / :func:`entry_add_late` raise (``already_entered``,
    ``tournament_finished``, ``late_entry_closed``...).
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    formats.format_of(tournament).refuse_walk_ins()
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    late = not before_draw(tournament)
    if late and seed is not None:
        raise errors.walk_in_late_seed()
    walk_in = player_walk_in(actor=user, name=name, email=email, country=country, confirm_namesake=confirm_namesake,
                             sent_for=SentFor("event", tournament.name))
    if late:
        entry = entry_add_late(tournament_id=tournament.pk, user=user, player_ids=[walk_in.player.pk])
    else:
        entry = entry_add(tournament_id=tournament.pk, user=user, player_ids=[walk_in.player.pk], seed=seed)
    entry.walk_in = walk_in
    return entry
