"""Factories and the named cast of a club, for the clubs tests and the chouette tests alike.

The cast (healthchecks style): ann owns the club, otis organises it, mia and max are members,
pat has asked to join, ivy is invited, xavier is an outsider; each has a player (``Ann``, ...),
the members' players have the club as their home club. ``club_cast(owner=..., ...)`` takes
existing users instead (the permission matrix casts its own).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import factory
from django.utils import timezone

from clubs.models import CheckIn, Club, ClubNight, HomeClub, Membership, Season
from matches.models import Player
from tests.factories import PlayerFactory, UserFactory


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.LazyAttribute(lambda c: c.name.lower().replace(" ", "-"))
    city = "Lyon"


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.MEMBER
    status = Membership.Status.ACTIVE
    joined_at = factory.LazyFunction(timezone.now)

    class Params:
        owner = factory.Trait(role=Membership.Role.OWNER)
        organiser = factory.Trait(role=Membership.Role.ORGANISER)
        requested = factory.Trait(status=Membership.Status.REQUESTED, joined_at=None)
        invited = factory.Trait(status=Membership.Status.INVITED, joined_at=None)


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    starts_on = dt.date(2025, 1, 1)
    ends_on = dt.date(2025, 12, 31)


class ClubNightFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubNight

    club = factory.SubFactory(ClubFactory)
    date = dt.date(2025, 3, 4)
    title = "Tuesday night"
    opened_by = factory.SubFactory(UserFactory)

    class Params:
        closed = factory.Trait(status=ClubNight.Status.CLOSED, closed_at=factory.LazyFunction(timezone.now))


class CheckInFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CheckIn

    night = factory.SubFactory(ClubNightFactory)
    player = factory.SubFactory(PlayerFactory)


def player_of(user) -> Player:
    """The user's player, created (display name: the username titled) if he has none."""
    try:
        return user.player
    except Player.DoesNotExist:
        return PlayerFactory(user=user, display_name=user.username.title())


@dataclass
class ClubCast:
    club: Club
    owner: object
    organiser: object
    members: list = field(default_factory=list)
    requester: object = None
    invitee: object = None
    outsider: object = None

    def player(self, user) -> Player:
        return Player.objects.get(user=user)

    def membership(self, user) -> Membership:
        return Membership.objects.get(club=self.club, user=user)

    @property
    def active_users(self) -> list:
        return [self.owner, self.organiser, *self.members]


def club_cast(*, name: str = "Crawford Club", owner=None, organiser=None, members=None, requester=None,
              invitee=None, outsider=None, **club_fields) -> ClubCast:
    """A club with an owner, an organiser, two members, a request, an invitation and an outsider
    (all with players; the active members' players have the club as home club)."""
    club = ClubFactory(name=name, slug=name.lower().replace(" ", "-"), **club_fields)
    owner = owner or UserFactory(username="ann")
    organiser = organiser or UserFactory(username="otis")
    members = members if members is not None else [UserFactory(username="mia"), UserFactory(username="max")]
    requester = requester or UserFactory(username="pat")
    invitee = invitee or UserFactory(username="ivy")
    outsider = outsider or UserFactory(username="xavier")
    for user, role in ((owner, "owner"), (organiser, "organiser"), *((m, "member") for m in members)):
        MembershipFactory(club=club, user=user, role=role)
        player = player_of(user)
        HomeClub.objects.get_or_create(player=player, defaults={"club": club})
    MembershipFactory(club=club, user=requester, requested=True)
    MembershipFactory(club=club, user=invitee, invited=True, invited_by=organiser)
    for user in (requester, invitee, outsider):
        player_of(user)
    return ClubCast(club=club, owner=owner, organiser=organiser, members=list(members), requester=requester,
                    invitee=invitee, outsider=outsider)


def snapshot(club: Club) -> dict:
    """Every row of the club that a clubs service may change, to assert a refused call changed none."""
    return {
        "club": Club.objects.filter(pk=club.pk).values().get(),
        "memberships": list(Membership.objects.filter(club=club).order_by("pk").values()),
        "seasons": list(Season.objects.filter(club=club).order_by("pk").values()),
        "nights": list(ClubNight.objects.filter(club=club).order_by("pk").values()),
        "check_ins": list(CheckIn.objects.filter(night__club=club).order_by("pk").values()),
        "players": list(Player.objects.order_by("pk").values("pk", "user", "display_name")),
        "home_clubs": list(HomeClub.objects.order_by("pk").values()),
    }


def club_match(cast: ClubCast, first, second, score: tuple[int, int], *, length: int = 5, played_on=None,
               night=None, confirmed: bool = True, rate: bool = True):
    """A club match of ``first`` against ``second`` (users) created by the club's organiser through
    match_create; with ``confirmed`` both players report ``score`` (the second report confirms it)
    and, with ``rate``, its rating change is applied as the task would."""
    from engine.match import MatchRules
    from matches.services.matches import MatchDate, match_create
    from matches.services.ratings import match_rating_apply
    from matches.services.reporting import Claim, match_confirm, match_report

    match = match_create(created_by=cast.organiser, sides=([player_of(first)], [player_of(second)]),
                         rules=MatchRules(length), when=MatchDate(played_on=played_on),
                         context={"club": cast.club} if night is None else {"club_night": night})
    if confirmed:
        match_report(match_id=match.pk, user=first, claim=Claim(score))
        match_confirm(match_id=match.pk, user=second)
        if rate:
            match_rating_apply(match_id=match.pk)
    match.refresh_from_db()
    return match
