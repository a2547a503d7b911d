"""Divisions and handicaps of an event: an entrant's division at entry, the
director's placing (:func:`entry_set_division`), and the handicap start of a match between
divisions. The rules themselves are pure: ``tournaments.draw.divisions``.

- An event with divisions (``Tournament.divisions`` not empty, individual events only) gives each
  entrant one: the one he names at sign-up if his rating is eligible for it (he may play up,
  never down), else the weakest his rating is eligible for; a sign-up no division takes is refused.
  The director entering someone may name any division of the event (rule 4), else the same
  placing by rating applies.
- The director moves an entrant to another division with :func:`entry_set_division` until the
  event ends; matches already made keep the start they were given, the later ones follow.
- When the draw or a round makes a match between entrants of two divisions, it starts from the
  handicap table's score for its length (``Match.penalty0/1``, the score the engine replays from;
  ``Pairing.handicap0/1`` keeps what the handicap gave, shown on the pages).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from core.errors import DomainError
from tournaments import errors
from tournaments.draw.divisions import Division, Handicap, division_for, handicap_start, may_play_in
from tournaments.models import Entry, Tournament

from .audit import entry_summary, event_audit_record
from .common import entry_of, require_organiser, tournament_lock


def divisions_of(tournament: Tournament) -> tuple[Division, ...]:
    """The event's divisions as stored (checked when set), strongest first."""
    return tuple(Division(d["name"], d.get("min_rating"), d.get("max_rating")) for d in tournament.divisions or ())


def handicaps_of(tournament: Tournament) -> tuple[Handicap, ...]:
    return tuple(Handicap(h["division"], h["against"], h["length"], h["points"]) for h in tournament.handicaps or ())


def no_division(rating: float) -> DomainError:
    return DomainError(gettext("no division of this event takes a rating of %(rating)d: the director may place you")
                       % {"rating": round(rating)}, code="no_division", field="division")


def not_eligible(name: str, rating: float) -> DomainError:
    return DomainError(gettext("a rating of %(rating)d may not play in the %(division)s division")
                       % {"rating": round(rating), "division": name}, code="not_eligible", field="division")


def unknown_division(name) -> DomainError:
    return DomainError(gettext("%(division)s is not one of this event's divisions") % {"division": name},
                       code="unknown_division", field="division")


def no_divisions() -> DomainError:
    return DomainError(gettext("this event has no divisions"), code="no_divisions", field="division")


def division_at_entry(tournament: Tournament, players, chosen: str | None, *, director: bool) -> str:
    """The division a new entrant of ``players`` (one player: divisions are for single players)
    goes into: ``chosen`` if he may be there (the director: any of the event's), else by his
    rating. "" for an event without divisions. Raises DomainError ``no_divisions`` (a division
    named in an event without), ``unknown_division``, ``not_eligible``, ``no_division``."""
    divisions = divisions_of(tournament)
    chosen = chosen.strip() if isinstance(chosen, str) else chosen
    if not divisions:
        if chosen:
            raise no_divisions()
        return ""
    rating = players[0].rating
    if chosen:
        if chosen not in {d.name for d in divisions}:
            raise unknown_division(chosen)
        if not may_play_in(divisions, chosen, rating, director=director):
            raise not_eligible(chosen, rating)
        return chosen
    placed = division_for(divisions, rating)
    if placed is None:
        raise no_division(rating)
    return placed


def divisions_still_held(tournament: Tournament, divisions: list[dict]) -> None:
    """Before the event's divisions become ``divisions``: DomainError ``bad_rules`` (field
    ``divisions``) when an entrant is in a division the new list drops (the director moves him
    first). One query."""
    kept = {d["name"] for d in divisions}
    held = (Entry.objects.filter(tournament=tournament).exclude(division="").exclude(division__in=kept)
            .values_list("division", flat=True).first())
    if held is not None:
        raise errors.bad_rules("divisions", gettext(
            "players are entered in the %(division)s division: move them to another division first")
            % {"division": held})


def handicap_for(tournament: Tournament, entry0: Entry, entry1: Entry, length: int) -> tuple[int, int]:
    """The start of a match of ``length`` between ``entry0`` (side 0) and ``entry1``: the handicap
    table's, 0-0 without divisions. Reads only what is loaded (no query)."""
    if not tournament.divisions:
        return (0, 0)
    return handicap_start(handicaps_of(tournament), entry0.division, entry1.division, length)


@transaction.atomic
def entry_set_division(*, tournament_id: int, entry_id: int, user, division: str) -> Entry:
    """The director puts the entrant in ``division`` (any of the event's, whatever his rating:
    divisions rule 4). Matches already made keep their start; those made later follow the new
    division. Setting the division it has changes nothing. Audited as ``entry.division_set``.

    Raises NotAllowed ``not_organiser``; DomainError ``unknown_entry``, ``no_divisions``,
    ``unknown_division``; Conflict ``tournament_finished``, ``tournament_cancelled``.
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if tournament.status == Tournament.Status.CANCELLED:
        raise errors.cancelled()
    entry = entry_of(tournament, entry_id)
    divisions = divisions_of(tournament)
    if not divisions:
        raise no_divisions()
    name = division.strip() if isinstance(division, str) else division
    if name not in {d.name for d in divisions}:
        raise unknown_division(name)
    if entry.division != name:
        before = {**entry_summary(entry), "division": entry.division}
        entry.division = name
        entry.save(update_fields=["division"])
        event_audit_record("entry.division_set", actor=user, tournament=tournament, obj=entry, before=before,
                           after={**entry_summary(entry), "division": name})
    return entry
