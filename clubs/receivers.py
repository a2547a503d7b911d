"""How clubs plugs into the apps below it (``matches.hooks``, ``tournaments.hooks``), connected by
:class:`clubs.apps.ClubsConfig` when the app is ready (:func:`connect`):

- The club context: a club holds its matches and the night each was played at (``ClubMatch``);
  ``match_create(context={"club": ..., "club_night": ...})`` links a new match to them, for the
  club's active members only; the matches API takes ``club`` and ``club_night`` as before; the
  ``match.created`` audit entry carries the club's id (the club's own log).
- Consent for the record (``matches.services.consent``): a club vouches for its members' sides
  of a club match (their consent is given at creation), and a club's owners and organisers may
  confirm for one of its members a match outside any event or club (``_directs_player``).
- The home club: a player's home club (``HomeClub``) is his ``club`` in the players API, the
  directory and his page (``HOME_CLUB_FACT``), and what "same club" means to an event's draw.
- His clubs: a section of his page (``CLUBS_SECTION``): his home club, then the clubs his user is
  an active member of, with his role.
- Events on the club's calendar (``ClubEvent``): the club is the events' host
  (``tournaments.hooks.event_hosts``): it offers the clubs a user manages on the new-event form,
  checks and links the club of a new event, and gives an event's club to its pages and API; a
  club's owner creates and runs his club's events without the organiser role (``owned_choices``).
- A walk-in member's membership follows his guest player to the user who claims him
  (``matches.hooks.player_claimed``).
"""

from __future__ import annotations

from django import forms
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from audit.hooks import sentences
from core.errors import DomainError
from matches import hooks
from matches.api.serializers import ClubBriefSerializer
from matches.models import Player
from tournaments import errors as tournament_errors
from tournaments import hooks as event_hooks

from . import selectors, wording
from .models import CheckIn, Club, ClubEvent, ClubMatch, ClubNight, HomeClub, Membership
from .permissions import MANAGERS, require_club_manager, require_club_member
from .services.walkins import membership_guest_claimed

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

    def vouches(players) -> bool:
        # The club vouches for its own members' sides only: being a member lets one create a club
        # match, not put a result on an outsider's record.
        return all(_plays_in(club.pk, player) for player in players)

    return hooks.Attachment(attach=attach, audit={"club_id": club.pk}, vouches=vouches)


def _plays_in(club_id: int, player) -> bool:
    """The player is an active member of the club (by his user, or as a walk-in: his guest player)
    or has it as his home club."""
    held = Q(user_id=player.user_id) if player.user_id is not None else Q(player_id=player.pk)
    member = Membership.objects.filter(held, club_id=club_id, status=Membership.Status.ACTIVE).exists()
    return member or HomeClub.objects.filter(club_id=club_id, player_id=player.pk).exists()


def _directs_player(user, player_id: int) -> bool:
    """``user`` owns or organises a club the player is an active member of or has as home club."""
    clubs = Membership.objects.filter(Q(user__player__pk=player_id) | Q(player_id=player_id),
                                      status=Membership.Status.ACTIVE).values("club_id")
    home = HomeClub.objects.filter(player_id=player_id).values("club_id")
    return Membership.objects.filter(user_id=user.pk, status=Membership.Status.ACTIVE, role__in=MANAGERS).filter(
        Q(club_id__in=clubs) | Q(club_id__in=home)).exists()


def _claim_players(user):
    """The players of the clubs ``user`` owns or organises: the players of their matches (club
    nights, the ladder), those checked in at their nights, their active members and home players.
    Whose claims he may decide (``hooks.ClaimDirector``)."""
    managed = Membership.objects.filter(user_id=user.pk, status=Membership.Status.ACTIVE,
                                        role__in=MANAGERS).values("club_id")
    played = ClubMatch.objects.filter(club_id__in=managed)
    members = Membership.objects.filter(club_id__in=managed, status=Membership.Status.ACTIVE)
    return Player.objects.filter(
        Q(pk__in=played.values("match__side0__player_a")) | Q(pk__in=played.values("match__side0__player_b"))
        | Q(pk__in=played.values("match__side1__player_a")) | Q(pk__in=played.values("match__side1__player_b"))
        | Q(pk__in=CheckIn.objects.filter(night__club_id__in=managed).values("player"))
        | Q(pk__in=HomeClub.objects.filter(club_id__in=managed).values("player"))
        | Q(user_id__in=members.values("user_id"))
    ).values("pk")


def _managed(user):
    return Membership.objects.filter(user_id=user.pk, status=Membership.Status.ACTIVE,
                                     role__in=MANAGERS).values("club_id")


def _claim_entered(user):
    """The players ``user`` put in a club himself, whose claims he may not decide: the walk-ins he
    registered, the players of the club matches he created or imported, and those checked in at the
    nights of the clubs he runs (a check-in is the club's managers' act)."""
    mine = ClubMatch.objects.filter(match__created_by_id=user.pk)
    return Player.objects.filter(
        Q(pk__in=Membership.objects.filter(invited_by_id=user.pk, player__isnull=False).values("player"))
        | Q(pk__in=mine.values("match__side0__player_a")) | Q(pk__in=mine.values("match__side0__player_b"))
        | Q(pk__in=mine.values("match__side1__player_a")) | Q(pk__in=mine.values("match__side1__player_b"))
        | Q(pk__in=CheckIn.objects.filter(night__club_id__in=_managed(user)).values("player"))
    ).values("pk")


def _claim_tied(user):
    """The users tied to ``user`` through clubs: members of the clubs he runs (asked, invited or
    active) and those he invited to any club."""
    return Membership.objects.filter(Q(club_id__in=_managed(user)) | Q(invited_by_id=user.pk),
                                     user__isnull=False).values("user_id")


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
    vouches_for=lambda match, players: _club_vouches(match, players),
)


def _club_vouches(match, players) -> bool:
    """The match is a club's and every player of the side is a member of it (see ``_prepare``)."""
    link = ClubMatch.objects.filter(match_id=match.pk).only("club_id").first()
    return link is not None and all(_plays_in(link.club_id, player) for player in players)


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


def _club_players(players, values: dict):
    """The players of ``values["club"]``: its active members (by their users) and those whose home
    club it is (as ``_plays_in`` counts them), in subqueries: a member of several clubs is listed
    once."""
    club = values["club"]
    members = Membership.objects.filter(club=club, status=Membership.Status.ACTIVE).values("user_id")
    return players.filter(Q(user_id__in=members) | Q(pk__in=HomeClub.objects.filter(club=club).values("player_id")))


def _club_form_field() -> forms.ModelChoiceField:
    return forms.ModelChoiceField(queryset=Club.objects.order_by("name"), required=False, label=_("Club"),
                                  empty_label=_("Any club"),
                                  error_messages={"invalid_choice": _("There is no such club: choose one from the list.")})


HOME_CLUB_CONTEXT = hooks.PlayerContext(
    name="club",
    order=20,
    joins=("home_club__club",),
    response_fields=lambda: {"club": ClubBriefSerializer(source="home_club.club", allow_null=True)},
    label=_("Club"),
    describe=_describe_home,
    filter_fields=lambda: {"club": serializers.PrimaryKeyRelatedField(
        queryset=Club.objects.all(), required=False,
        help_text="a club's id: its active members and the players whose home club it is")},
    form_fields=lambda: {"club": _club_form_field()},
    apply_filter=_club_players,
)

#: His home club among the facts of his page.
HOME_CLUB_FACT = hooks.PageSection(name="club", order=20, title=_("Club"), fact=_describe_home)


# --- events on the club's calendar (tournaments.hooks.event_hosts) ---------------------------------------------


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


def _clubs_owned(user) -> list[tuple[int, str]]:
    """``(id, name)`` of the clubs ``user`` owns (an active owner's membership), by name: a club's
    owner creates and runs its events without the organiser role."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(Club.objects.filter(memberships__user_id=user.pk, memberships__status=Membership.Status.ACTIVE,
                                    memberships__role=Membership.Role.OWNER).order_by("name", "pk")
                .values_list("pk", "name"))


def _player_clubs(player_ids) -> dict[int, int]:
    return dict(HomeClub.objects.filter(player_id__in=list(player_ids)).values_list("player_id", "club_id"))


EVENT_HOST = event_hooks.EventHost(
    joins=("club_event__club",),
    choices=lambda user: list(selectors.clubs_managed(user=user).values_list("pk", "name")),
    prepare=_event_prepare,
    host_of=_event_club,
    filter=lambda tournaments, club_id: tournaments.filter(club_event__club_id=club_id),
    player_clubs=_player_clubs,
    owned_choices=_clubs_owned,
    member_players=lambda club_id, player_ids: set(Membership.objects.filter(
        club_id=club_id, status=Membership.Status.ACTIVE, user__player__pk__in=list(player_ids),
    ).values_list("user__player__pk", flat=True)),
)


# --- the clubs a player belongs to (his page) -------------------------------------------------------


_ROLE_NOTES = {Membership.Role.OWNER: _("owner"), Membership.Role.ORGANISER: _("organiser")}


def _clubs_of(player, limit: int) -> list[hooks.PlayerItem]:
    """His home club first, then the clubs his user is an active member of, by name: one query
    (the home club is joined to the player: ``HOME_CLUB_CONTEXT``). A player without a user (known
    from imported files) has only his home club, if any."""
    home = home_club_of(player)
    items = []
    if home is not None:
        items.append(hooks.PlayerItem(text=home.name, url=reverse("clubs:detail", args=[home.slug]),
                                      note=str(_("home club"))))
    if player.user_id is not None:
        memberships = (Membership.objects.filter(user_id=player.user_id, status=Membership.Status.ACTIVE)
                       .select_related("club").order_by("club__name", "club_id")[:limit])
        for membership in memberships:
            if home is not None and membership.club_id == home.pk:
                continue
            items.append(hooks.PlayerItem(text=membership.club.name,
                                          url=reverse("clubs:detail", args=[membership.club.slug]),
                                          on=timezone.localdate(membership.joined_at) if membership.joined_at else None,
                                          note=str(_ROLE_NOTES.get(membership.role, _("member")))))
    return items[:limit]


CLUBS_SECTION = hooks.PageSection(
    name="clubs", order=20, title=_("Clubs"), empty=_("No club yet."), items=_clubs_of,
)


def connect() -> None:
    sentences.register(wording.WORDING)
    hooks.match_contexts.register(CLUB_CONTEXT)
    hooks.player_contexts.register(HOME_CLUB_CONTEXT)
    hooks.player_page.register(HOME_CLUB_FACT)
    hooks.player_page.register(CLUBS_SECTION)
    hooks.player_directors.register(hooks.PlayerDirector(name="clubs.club", directs=_directs_player))
    hooks.claim_directors.register(hooks.ClaimDirector(name="clubs.club", players=_claim_players,
                                                       entered=_claim_entered, tied=_claim_tied))
    hooks.player_claimed.connect(membership_guest_claimed, name="clubs.membership")
    event_hooks.event_hosts.connect(EVENT_HOST, name="clubs.club")
