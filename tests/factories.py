"""factory_boy factories: minimal valid rows, related objects kept consistent, no random values
in fields that tests assert on."""

import hashlib

import factory
from django.utils import timezone

from accounts.models import ApiToken, User
from accounts.models_tokens import key_digest
from clubs.models import ClubEvent, HomeClub
from matches.models import Match, Player, Side
from tournaments.models import EventMatch, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("pass-word-123")

    class Params:
        organiser = factory.Trait(role=User.Role.ORGANISER)
        staff = factory.Trait(is_staff=True)


def api_token(user, name: str = "") -> str:
    """The key of an API token of ``user`` (accounts.models.ApiToken), the same key each time for
    the same user and name: a test's clients share one token, as they once shared DRF's. Its use is
    noted as of now, so that a request's queries are counted without the write that notes it
    (accounts.services.api_token_used)."""
    key = hashlib.sha256(f"test-token:{user.pk}:{user.username}:{name}".encode()).hexdigest()[:40]
    ApiToken.objects.get_or_create(key_digest=key_digest(key),
                                   defaults={"user": user, "name": name, "last_used_at": timezone.now()})
    return key


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    user = factory.SubFactory(UserFactory)
    display_name = factory.LazyAttribute(lambda p: p.user.username.title() if p.user else "Someone")
    club = None  # his home club: held by clubs (HomeClub), not a Player field

    @classmethod
    def _create(cls, model_class, *args, club=None, **kwargs):
        player = super()._create(model_class, *args, **kwargs)
        if club is not None:
            HomeClub.objects.create(player=player, club=club)
        return player


class SideFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Side

    player_a = factory.SubFactory(PlayerFactory)
    player_b = None


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Open {n}")
    organiser = factory.SubFactory(UserFactory, organiser=True)
    club = None  # the club whose calendar it is on: held by clubs (ClubEvent), not a Tournament field

    @classmethod
    def _create(cls, model_class, *args, club=None, **kwargs):
        tournament = super()._create(model_class, *args, **kwargs)
        if club is not None:
            ClubEvent.objects.create(tournament=tournament, club=club)
        return tournament


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    side0 = factory.SubFactory(SideFactory)
    side1 = factory.SubFactory(SideFactory)
    length = 5
    organiser = factory.SubFactory(UserFactory, organiser=True)
    # A match on both players' records (the services give consent; see matches.services.consent).
    consent0 = Match.Consent.GIVEN
    consent1 = Match.Consent.GIVEN
    event = None  # the match's event: held by tournaments (EventMatch), not a Match field

    class Params:
        money = factory.Trait(length=0, rated=False)
        unconsented = factory.Trait(consent0=Match.Consent.PENDING, consent1=Match.Consent.PENDING)

    @classmethod
    def _create(cls, model_class, *args, event=None, **kwargs):
        match = super()._create(model_class, *args, **kwargs)
        if event is not None:
            EventMatch.objects.create(match=match, tournament=event)
        return match
