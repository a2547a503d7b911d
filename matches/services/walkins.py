"""The player a walk-in form names (an event's walk-in entrant, a club's walk-in member).

The name is read as the player pickers and the desk's pasted list read it
(``matches.selectors.directory``): a name an existing player has is that player, never a second
one. A guest player is created only for a name nobody has, or for a different person of the same
name (a namesake) when the organiser says so and gives what tells him apart: a country or an
email address that are not those of any player of that name. Otherwise the request is refused,
saying who has the name and what to add; the lists and pickers then tell the namesakes apart by
their country and club, and their place among those alike (``player_labels``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from core.text import join_list, list_separator

from .. import errors
from ..models import Player, PlayerInvitation
from ..selectors.directory import CANDIDATES_SHOWN, NAMESAKES_READ, player_labels, player_named, player_namesakes
from .guests import SentFor, guest_country_clean, guest_email_clean, guest_name_clean, player_create_guest


@dataclass(frozen=True)
class WalkIn:
    """The walk-in's player: an existing one (``created`` False), or a new guest player
    (``created``; ``invited`` when an invitation to claim him was sent)."""

    player: Player
    created: bool
    invited: bool = False


def _known_emails(players: list[Player]) -> dict[int, set[str]]:
    """The addresses each player is known by (his account's, the invitations to claim him), in
    lower case: what a walk-in's email is compared with."""
    known = {p.pk: ({p.user.email.lower()} if p.user_id and p.user.email else set()) for p in players}
    for player_id, email in PlayerInvitation.objects.filter(player__in=players).values_list("player_id", "email"):
        known[player_id].add(email.lower())
    return known


def _listed(labels: list[str], count: int) -> str:
    return join_list(labels[:CANDIDATES_SHOWN]) + (list_separator() + "…" if count > CANDIDATES_SHOWN else "")


@transaction.atomic
def player_walk_in(*, actor, name: str, email: str = "", country: str = "", confirm_namesake: bool = False,
                   sent_for: SentFor | None = None) -> WalkIn:
    """The player a walk-in form names: the existing player whose whole name ``name`` is (accents
    and case aside), or the one written with his details ("Alice Lambert (FR)"), when the
    ``country`` and ``email`` given are his or left out; a new guest player
    (:func:`guests.player_create_guest`: invited to claim him when ``email`` is given) when no
    player has the name, or when ``confirm_namesake`` says the walk-in is a different person and
    the country or email given tells him from every player of that name. The caller has checked
    that ``actor`` may enter walk-ins where he does; ``sent_for`` names where (the event or club
    the invitation's email names). Audited as the guest's creation is.

    Raises NotAllowed ``not_authenticated``; DomainError ``bad_name``, ``bad_email``,
    ``bad_country``, ``namesake_needs_detail`` (confirmed without a country or email),
    ``namesake_not_distinct`` (with those of a player of that name); TooMany (the invitations'
    limits: ``guests.invitations_check_limits``); Conflict ``namesake_exists``
    (one player has the name, the details given are not his), ``namesakes_exist`` (several
    have it, and nothing given picks out one). Each refusal names the players who have the name
    (with their country and club) and what to add. Nothing is saved when any is raised.
    """
    if not getattr(actor, "is_authenticated", False):
        raise errors.guest_needs_sign_in()
    name = guest_name_clean(name)
    email = guest_email_clean(email)
    country = guest_country_clean(country)
    players = Player.objects.select_related("user")
    namesakes = list(player_namesakes(players, name)[:NAMESAKES_READ])
    labelled = False
    if not namesakes:
        found = player_named(players, name)
        if found.player is None and not found.count:
            player = player_create_guest(actor=actor, name=name, email=email, country=country, sent_for=sent_for)
            return WalkIn(player, created=True, invited=bool(email))
        # "Alice Lambert (FR)": the namesake his details pick out, or those they could be.
        namesakes, labelled = ([found.player] if found.player is not None else list(found.candidates)), True
    emails = _known_emails(namesakes)

    def his(player: Player) -> bool:
        return (not country or country == player.country) and (not email or email.lower() in emails[player.pk])

    fitting = [player for player in namesakes if his(player)]
    labels = dict(zip((p.pk for p in namesakes), player_labels(namesakes), strict=True))
    listed = _listed(list(labels.values()), len(namesakes))
    # A name written with his details names that player: it is never a new namesake's.
    if not confirm_namesake or labelled:
        if len(fitting) == 1:
            return WalkIn(fitting[0], created=False)
        if len(namesakes) == 1:
            raise errors.walk_in_known_player(name, listed)
        raise errors.walk_in_namesakes(name, listed, labels[namesakes[min(len(namesakes), CANDIDATES_SHOWN) - 1].pk])
    if not country and not email:
        raise errors.walk_in_namesake_needs_detail(name, listed)
    if fitting:
        raise errors.walk_in_namesake_not_distinct(name, listed, labels[fitting[0].pk])
    player = player_create_guest(actor=actor, name=name, email=email, country=country, sent_for=sent_for)
    return WalkIn(player, created=True, invited=bool(email))

