"""How clubs hangs on matches and players (see ``matches.hooks``), registered by
:class:`clubs.apps.ClubsConfig` when the app is ready.

- The club context: a club holds its matches and the night each was played at (``ClubMatch``);
  ``match_create(context={"club": ..., "club_night": ...})`` links a new match to them, for the
  club's active members only; the matches API takes ``club`` and ``club_night`` as before; the
  ``match.created`` audit entry carries the club's id (the club's own log).
- The home club: a player's home club (``HomeClub``) is his ``club`` in the players API and on
  his page, and what "same club" means to an event's draw.
- Events on the club's calendar (``ClubEvent``): the club is the events' host
  (``tournaments.hosts``): it offers the clubs a user manages on the new-event form, checks and
  links the club of a new event, and gives an event's club to its pages and API.
"""

from __future__ import annotations

from rest_framework import serializers

from core.errors import DomainError
from matches import hooks
from matches.api.serializers import ClubBriefSerializer
from tournaments import errors as tournament_errors
from tournaments import hosts

from .models import Club, ClubEvent, ClubMatch, ClubNight, HomeClub
from .permissions import require_club_manager, require_club_member
from .selectors import clubs_managed

# --- the club context -------------------------------------------------------------------------------


def _prepare(*, created_by, club: Club | None, club_night: ClubNight | None) -> hooks.Attachment:
    """The match's club: ``club``, or the night's; checked against the night and the creator
    (DomainError ``bad_club_night``; NotAllowed ``not_club_member``)."""
    if club_night is not None:
        if club is not None and club.pk != club_night.club_id:
            raise DomainError("club_night: this night is another club's", code="bad_club_night", field="club_night")
        club = club_night.club
    require_club_member(club, created_by)

    def attach(match) -> None:
        ClubMatch.objects.create(match=match, club=club, night=club_night)

    return hooks.Attachment(attach=attach, audit={"club_id": club.pk})


CLUB_CONTEXT = hooks.MatchContext(
    name="club",
    order=20,
    link="club_link",
    inputs=("club", "club_night"),
    prepare=_prepare,
    input_fields=lambda: {
        "club": serializers.PrimaryKeyRelatedField(
            queryset=Club.objects.all(), required=False, allow_null=True,
            help_text="a club's match (its members only): its ladder counts it"),
        "club_night": serializers.PrimaryKeyRelatedField(
            queryset=ClubNight.objects.all(), required=False, allow_null=True,
            help_text="the club night it is played at (sets the club)"),
    },
)


# --- the home club ----------------------------------------------------------------------------------


def home_club_of(player) -> Club | None:
    """The player's home club, or None (no query when ``home_club__club`` is joined)."""
    try:
        return player.home_club.club
    except HomeClub.DoesNotExist:
        return None


def _describe_home(player) -> str | None:
    club = home_club_of(player)
    return club.name if club is not None else None


HOME_CLUB_CONTEXT = hooks.PlayerContext(
    name="club",
    order=20,
    joins=("home_club__club",),
    response_fields=lambda: {"club": ClubBriefSerializer(source="home_club.club", allow_null=True)},
    label="Club",
    describe=_describe_home,
)


# --- events on the club's calendar (tournaments/hosts.py) ---------------------------------------------


def _event_prepare(user, club_id: int):
    """The link of a new event to club ``club_id``: DomainError ``unknown_club``, NotAllowed
    ``not_club_manager`` unless ``user`` owns or organises the club."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise tournament_errors.unknown_club(club_id)
    require_club_manager(club, user)

    def attach(tournament) -> None:
        ClubEvent.objects.create(tournament=tournament, club=club)

    return attach


def _event_club(tournament) -> Club | None:
    try:
        return tournament.club_event.club
    except ClubEvent.DoesNotExist:
        return None


def _player_clubs(player_ids) -> dict[int, int]:
    return dict(HomeClub.objects.filter(player_id__in=list(player_ids)).values_list("player_id", "club_id"))


EVENT_HOST = hosts.EventHost(
    joins=("club_event__club",),
    choices=lambda user: list(clubs_managed(user=user).values_list("pk", "name")),
    prepare=_event_prepare,
    host_of=_event_club,
    filter=lambda tournaments, club_id: tournaments.filter(club_event__club_id=club_id),
    player_clubs=_player_clubs,
)


def register() -> None:
    hooks.match_context_register(CLUB_CONTEXT)
    hooks.player_context_register(HOME_CLUB_CONTEXT)
    hosts.event_host_register(EVENT_HOST)
