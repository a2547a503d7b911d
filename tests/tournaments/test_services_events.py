"""tournament_create with its published rules (EventRules), opening and closing entries, finishing."""

from __future__ import annotations

import datetime
from dataclasses import FrozenInstanceError

import pytest

from clubs.models import Club, Membership
from core.errors import Conflict, DomainError, NotAllowed
from tests.factories import TournamentFactory, UserFactory
from tests.tournaments.factories import (
    drawn,
    play,
    player,
    snapshot,
)
from tournaments.labels import rule_label
from tournaments.models import Tournament
from tournaments.services import (
    EventRules,
    tournament_close_entries,
    tournament_create,
    tournament_finish,
    tournament_open_entries,
)

pytestmark = pytest.mark.django_db





def test_an_organiser_creates_a_draft_tournament_with_its_published_rules(organiser):
    club = Club.objects.create(name="North", slug="north")
    Membership.objects.create(club=club, user=organiser, role="organiser", status="active")
    tournament = tournament_create(user=organiser, rules=EventRules(
        name="  Autumn Open ", club_id=club.pk, starts_on=datetime.date(2026, 11, 28),
        ends_on=datetime.date(2026, 11, 29), lengths={"main": [5, 5, 7, 9], "consolation": 3}, consolation_rounds=2,
        last_chance=True, move_policy="responsible", premature_roll=Tournament.PrematureRoll.OPPONENTS_CHOICE,
        clock_seconds_per_point=120, seeding=Tournament.Seeding.RANDOM,
    ))
    tournament.refresh_from_db()
    assert (tournament.name, tournament.organiser, tournament.club, tournament.status) == (
        "Autumn Open", organiser, club, Tournament.Status.DRAFT)
    assert tournament.lengths == {"main": [5, 5, 7, 9], "consolation": 3}
    assert (tournament.consolation_rounds, tournament.last_chance, tournament.move_policy) == (2, True, "responsible")
    assert (tournament.clock_seconds_per_point, tournament.seeding) == (120, "random")


def test_staff_may_create_a_tournament(staff):
    tournament = tournament_create(user=staff, rules=EventRules(name="Club night", format=Tournament.Format.SWISS,
                                                                swiss_rounds=4, lengths={"rounds": [3, 3, 5]}))
    assert tournament.organiser == staff and tournament.swiss_rounds == 4


@pytest.mark.parametrize("who", ["player", "anonymous"])
def test_only_organisers_create_tournaments(who):
    from django.contrib.auth.models import AnonymousUser

    user = player("alice").user if who == "player" else AnonymousUser()
    with pytest.raises(NotAllowed) as caught:
        tournament_create(user=user, rules=EventRules(name="Mine"))
    assert caught.value.code == "not_an_organiser" and not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"name": "  "}, "name"),
        ({"format": "knockout"}, "format"),
        ({"kind": "trios"}, "kind"),
        ({"seeding": "alphabetical"}, "seeding"),
        ({"move_policy": "any"}, "move_policy"),
        ({"lengths": [5, 7]}, "lengths"),
        ({"lengths": {"mian": 5}}, "lengths.mian"),
        ({"lengths": {"main": [5, 0]}}, "lengths.main"),
        ({"lengths": {"main": 100}}, "lengths.main"),
        ({"lengths": {"rounds": 5}}, "lengths.rounds"),
        ({"format": "swiss", "consolation_rounds": 1}, "consolation_rounds"),
        ({"last_chance": True}, "last_chance"),
        ({"swiss_rounds": 3}, "swiss_rounds"),
        ({"format": "swiss", "max_losses": 0}, "max_losses"),
        ({"format": "swiss", "groups": 2}, "groups"),
        ({"format": "round_robin", "groups": 0}, "groups"),
        ({"starts_on": datetime.date(2026, 5, 2), "ends_on": datetime.date(2026, 5, 1)}, "ends_on"),
        ({"clock_seconds_per_point": 0}, "clock_seconds_per_point"),
    ],
)
def test_bad_rules_are_refused_naming_the_field_and_nothing_is_saved(organiser, rules, field):
    rules.setdefault("name", "Open")
    with pytest.raises(DomainError) as caught:
        tournament_create(user=organiser, rules=EventRules(**rules))
    assert caught.value.code == "bad_rules" and caught.value.details["field"] == field
    assert caught.value.message.startswith(f"{rule_label(field)}:")  # named as the form names it
    assert not Tournament.objects.exists()


def test_the_rules_are_checked_and_normalised_when_made_and_cannot_change_after():
    rules = EventRules(name="  Open ", lengths={"main": (5, 7), "consolation": [3]}, crawford=0, consolation_rounds=1)
    assert (rules.name, rules.lengths, rules.crawford) == ("Open", {"main": [5, 7], "consolation": [3]}, False)
    assert rules.tournament_fields()["name"] == "Open" and "club_id" not in rules.tournament_fields()
    with pytest.raises(FrozenInstanceError):
        rules.name = "Closed"
    with pytest.raises(DomainError) as caught:
        EventRules(name="Open", format="swiss", groups=2, swiss_rounds=0)
    assert caught.value.details["field"] == "swiss_rounds"  # the first wrong field, in the order of the fields


def test_an_unknown_club_is_refused(organiser):
    with pytest.raises(DomainError) as caught:
        tournament_create(user=organiser, rules=EventRules(name="Open", club_id=999999))
    assert caught.value.code == "unknown_club" and not Tournament.objects.exists()


def test_the_organiser_opens_and_closes_entries_and_repeating_changes_nothing(organiser):
    tournament = TournamentFactory(organiser=organiser)
    assert tournament_open_entries(tournament_id=tournament.pk, user=organiser).status == Tournament.Status.OPEN
    assert tournament_open_entries(tournament_id=tournament.pk, user=organiser).status == Tournament.Status.OPEN
    assert tournament_close_entries(tournament_id=tournament.pk, user=organiser).status == Tournament.Status.CLOSED
    assert tournament_close_entries(tournament_id=tournament.pk, user=organiser).status == Tournament.Status.CLOSED
    # Entries may open again until the draw.
    assert tournament_open_entries(tournament_id=tournament.pk, user=organiser).status == Tournament.Status.OPEN


def test_another_organiser_cannot_open_or_close_the_entries(organiser, another_organiser):
    tournament = TournamentFactory(organiser=organiser)
    for service in (tournament_open_entries, tournament_close_entries):
        with pytest.raises(NotAllowed) as caught:
            service(tournament_id=tournament.pk, user=another_organiser)
        assert caught.value.code == "not_organiser"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT


def test_entries_cannot_open_again_after_the_draw(organiser):
    tournament, _ = drawn(4, organiser=organiser)
    before = snapshot(tournament)
    for service in (tournament_open_entries, tournament_close_entries):
        with pytest.raises(Conflict) as caught:
            service(tournament_id=tournament.pk, user=organiser)
        assert caught.value.code == "already_drawn"
    assert snapshot(tournament) == before


def test_an_unknown_tournament_is_not_found(organiser):
    with pytest.raises(Tournament.DoesNotExist):
        tournament_open_entries(tournament_id=999999, user=organiser)


def test_a_tournament_finishes_once_played_out_and_finishing_again_changes_nothing(organiser):
    tournament, (_alice, bob) = drawn(2, organiser=organiser)
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "event_unfinished" and caught.value.message.endswith(
        "first the match Alice v Bob (the final)")
    play(tournament, "main-1-1", bob)
    assert tournament_finish(tournament_id=tournament.pk, user=organiser).status == Tournament.Status.FINISHED
    assert tournament_finish(tournament_id=tournament.pk, user=organiser).status == Tournament.Status.FINISHED
    with pytest.raises(Conflict) as caught:
        tournament_open_entries(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "tournament_finished"


def test_a_tournament_is_finished_only_after_its_draw_and_by_its_organiser(organiser, another_organiser):
    tournament = TournamentFactory(organiser=organiser, status=Tournament.Status.CLOSED)
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "not_drawn"
    with pytest.raises(NotAllowed):
        tournament_finish(tournament_id=tournament.pk, user=UserFactory(username="mallory"))
    with pytest.raises(NotAllowed):
        tournament_finish(tournament_id=tournament.pk, user=another_organiser)


@pytest.mark.parametrize("membership", [None, ("member", "active"), ("member", "invited")])
def test_only_the_clubs_owners_and_organisers_put_an_event_on_its_calendar(organiser, membership):
    club = Club.objects.create(name="North", slug="north")
    if membership:
        Membership.objects.create(club=club, user=organiser, role=membership[0], status=membership[1])
    with pytest.raises(NotAllowed) as refused:
        tournament_create(user=organiser, rules=EventRules(name="Open", club_id=club.pk))
    assert refused.value.code == "not_club_manager" and not Tournament.objects.exists()
    Membership.objects.update_or_create(club=club, user=organiser, defaults={"role": "owner", "status": "active"})
    assert tournament_create(user=organiser, rules=EventRules(name="Open", club_id=club.pk)).club == club
