"""match_create_many and sides_for_many: many matches (and the sides they need) in a constant number
of queries, each the match match_create would make: the same organiser, consents, rating, context
link and ``match.created`` entry."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from audit.models import AuditEntry
from core.errors import DomainError
from matches.models import Match, Side
from matches.services.matches import MatchSpec, match_create, match_create_many, match_rules, sides_for_many
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import EventMatch

pytestmark = pytest.mark.django_db

COMPARED = ("length", "crawford", "move_policy", "organiser_id", "created_by_id", "consent0", "consent1", "rated",
            "status")


def test_sides_are_reused_or_made_in_three_queries_whatever_their_number(django_assert_num_queries):
    players = [PlayerFactory() for _ in range(6)]
    solo = Side.objects.create(player_a=players[0])
    pair = Side.objects.create(player_a=players[1], player_b=players[2])
    groups = [[players[0]], [players[2], players[1]], [players[3]], [players[4], players[5]], [players[3]]]
    with django_assert_num_queries(3):
        sides = sides_for_many(groups)
    assert sides[0] == solo and sides[1] == pair and sides[2] == sides[4]
    assert (sides[3].player_a_id, sides[3].player_b_id) == (players[4].pk, players[5].pk)
    with django_assert_num_queries(0):  # the players are cached on the sides
        assert [p.pk for p in sides[3].players] == [players[4].pk, players[5].pk]
    with django_assert_num_queries(1):  # all exist now: one read
        assert sides_for_many(groups) == sides


def test_a_side_is_one_player_or_two_different_players():
    player = PlayerFactory()
    for group in ([], [player, player], [player, PlayerFactory(), PlayerFactory()]):
        with pytest.raises(DomainError):
            sides_for_many([group])


def test_an_events_matches_are_those_match_create_makes_in_a_constant_number_of_queries(django_assert_num_queries):
    event = TournamentFactory()
    organiser = event.organiser
    sides = [Side.objects.create(player_a=PlayerFactory()) for _ in range(6)]
    single = match_create(created_by=organiser, sides=(sides[0].players, sides[1].players),
                          rules=match_rules(length=7, crawford=False, move_policy="responsible"),
                          context={"event": event})
    specs = [MatchSpec(side0=sides[i], side1=sides[i + 1], length=7, crawford=False, move_policy="responsible")
             for i in (2, 4)]
    event.organiser = organiser  # cached, as the draw has it
    with django_assert_num_queries(6):  # savepoint, who the event vouches for, matches, links, audit, release
        made = match_create_many(created_by=organiser, specs=specs, context={"event": event})
    assert [m.side0_id for m in made] == [sides[2].pk, sides[4].pk]
    rows = Match.objects.filter(pk__in=[single.pk, *(m.pk for m in made)]).order_by("pk").values(*COMPARED)
    assert len({tuple(row.values()) for row in rows}) == 1
    assert EventMatch.objects.filter(tournament=event).count() == 3
    entries = {e.match_id: e for e in AuditEntry.objects.filter(action="match.created")}
    first = entries[single.pk]
    for match, (a, b) in zip(made, [(2, 3), (4, 5)], strict=True):
        entry = entries[match.pk]
        assert (entry.actor_id, entry.tournament_id, entry.object_id) == (first.actor_id, event.pk, match.pk)
        assert entry.after == {**first.after, "sides": [sides[a].name, sides[b].name]}


def test_outside_a_context_the_creators_side_consents_and_an_organiser_who_does_not_play_directs():
    organiser = UserFactory(organiser=True)
    me = PlayerFactory()
    sides = sides_for_many([[me], [PlayerFactory()], [PlayerFactory()], [PlayerFactory()]])
    mine, theirs = match_create_many(created_by=me.user, specs=[MatchSpec(sides[0], sides[1], 5)])[0], \
        match_create_many(created_by=organiser, specs=[MatchSpec(sides[2], sides[3], 5)])[0]
    assert (mine.consent0, mine.consent1, mine.organiser_id) == ("given", "pending", None)
    assert (theirs.consent0, theirs.consent1, theirs.organiser_id) == ("pending", "pending", organiser.pk)
    assert AuditEntry.objects.get(match_id=mine.pk).after["organiser"] is None


def test_sides_that_share_a_player_or_rules_the_fields_refuse_write_nothing():
    a, b = PlayerFactory(), PlayerFactory()
    sides = sides_for_many([[a], [b], [a, b]])
    good = MatchSpec(sides[0], sides[1], 5)
    with pytest.raises(DomainError):
        match_create_many(created_by=None, specs=[good, MatchSpec(sides[0], sides[2], 5)])
    with pytest.raises(ValidationError):  # the fields' own validation, as match_create's full_clean
        match_create_many(created_by=None, specs=[good, MatchSpec(sides[0], sides[1], 5, move_policy="any")])
    assert not Match.objects.exists() and not AuditEntry.objects.exists()


def test_a_pairs_match_is_never_rated():
    players = [PlayerFactory() for _ in range(4)]
    sides = sides_for_many([players[:2], players[2:]])
    (match,) = match_create_many(created_by=None, specs=[MatchSpec(sides[0], sides[1], 5)])
    assert match.rated is False
