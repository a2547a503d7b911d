"""The rulings selectors: the disputes a user may read and their filters, a dispute with its
moment, an event's public list of rulings; fixed query counts for the lists."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.errors import DomainError
from engine.ids import position_id
from rulings.models import Dispute, Ruling
from rulings.selectors import DisputeFilters, dispute_detail, dispute_list, rulings_of_event
from rulings.services.disputes import dispute_answer, dispute_open
from rulings.services.rulings import ruling_make
from tests.factories import MatchFactory, UserFactory
from tests.rulings.factories import confirm_with_games, make_cast, won
from tests.tournaments.factories import drawn, pairing, player

pytestmark = pytest.mark.django_db


def event(**rules):
    """A drawn 4-player event whose players are not the cast's (erin, frank, grace, heidi)."""
    return drawn(4, players=[player(name, 2000.0 - i) for i, name in enumerate(("erin", "frank", "grace", "heidi"))],
                 **rules)


def dispute_on(match, user, category=Dispute.Category.CONDUCT, **fields):
    return dispute_open(match_id=match.pk, user=user, category=category, statement="It happened.", **fields)


def ids(disputes) -> list[int]:
    return [d.pk for d in disputes]


@pytest.fixture
def cast():
    return make_cast()


def test_the_list_holds_the_disputes_the_user_may_read_and_staff_sees_all(cast):
    mine = dispute_on(cast.match, cast.bob)
    elsewhere = dispute_on(MatchFactory(), cast.staff)
    assert ids(dispute_list(cast.organiser)) == [mine.pk]  # he directs the match
    assert ids(dispute_list(cast.alice)) == [mine.pk]  # she plays in it
    assert ids(dispute_list(cast.staff)) == [elsewhere.pk, mine.pk]
    assert ids(dispute_list(cast.other_organiser)) == []
    assert ids(dispute_list(cast.carol)) == []
    assert ids(dispute_list(AnonymousUser())) == []


def test_an_organiser_who_plays_a_match_of_his_event_reads_its_disputes_as_a_player():
    tournament, players = drawn(4)
    organiser = tournament.organiser
    semi = pairing(tournament, "main-1-1").match
    other = pairing(tournament, "main-1-2").match
    organiser_player = players[0]  # the top seed, in the first semi-final, is the organiser himself
    organiser_player.user = organiser
    organiser_player.save(update_fields=["user"])
    plays = dispute_on(semi, UserFactory(staff=True))
    directs = dispute_on(other, organiser)
    assert ids(dispute_list(organiser)) == [directs.pk, plays.pk]


def test_the_list_filters_by_status_category_event_and_match(cast):
    tournament, _ = event(organiser=cast.organiser)
    semi = pairing(tournament, "main-1-1").match
    late = dispute_on(cast.match, cast.bob, Dispute.Category.LATE_ARRIVAL)
    conduct = dispute_on(cast.match, cast.alice)
    in_event = dispute_on(semi, cast.organiser)
    ruling_make(dispute_id=conduct.pk, user=cast.organiser, outcome=Ruling.Outcome.WARNING, params={"side": 1},
                rule="RULES.md §9", reasoning="Shouting at the board.")

    def listed(**filters) -> list[int]:
        return ids(dispute_list(cast.organiser, DisputeFilters(**filters)))

    assert listed() == [in_event.pk, conduct.pk, late.pk]
    assert listed(status="open") == [in_event.pk, late.pk]
    assert listed(category="conduct") == [in_event.pk, conduct.pk]
    assert listed(event=tournament.pk) == [in_event.pk]
    assert listed(match=cast.match.pk) == [conduct.pk, late.pk]
    assert listed(status="open", category="conduct", event=tournament.pk) == [in_event.pk]
    assert listed(status="", category="", event=None) == listed()  # an empty value is no filter


@pytest.mark.parametrize(("filters", "field"), [({"status": "closed"}, "status"), ({"category": "luck"}, "category"),
                                                ({"event": "x"}, "event"), ({"match": 0}, "match"),
                                                ({"match": True}, "match")])
def test_a_bad_filter_is_refused_with_its_field(filters, field):
    with pytest.raises(DomainError) as refused:
        DisputeFilters(**filters)
    assert refused.value.code == "bad_filter" and refused.value.details["field"] == field


def test_the_list_takes_the_same_queries_for_two_disputes_or_eight(cast):
    def count() -> int:
        with CaptureQueriesContext(connection) as context:
            [(d.match.side0.name, d.match.side1.name, d.opened_by.username) for d in dispute_list(cast.organiser)]
        return len(context.captured_queries)

    for _ in range(2):
        dispute_on(cast.match, cast.bob)
    few = count()
    for _ in range(6):
        dispute_on(MatchFactory(organiser=cast.organiser), cast.organiser)
    assert count() == few


def test_the_detail_holds_the_statements_the_rulings_and_the_moment_around_the_disputed_action(cast):
    confirm_with_games(cast.match, [won(0, 2), won(1, 2), won(0, 3)])
    dispute = dispute_on(cast.match, cast.bob, Dispute.Category.ILLEGAL_MOVE, game_number=2, move_number=3)
    dispute_answer(dispute_id=dispute.pk, user=cast.alice, text="My play was legal.")
    ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome=Ruling.Outcome.STANDS, params={},
                rule="RULES.md §3", reasoning="The play was legal.")
    detail = dispute_detail(dispute.pk, around=1)
    assert [s.text for s in detail.statements] == ["My play was legal."]
    assert [r.outcome for r in detail.rulings] == ["stands"]
    moment = detail.moment
    assert (moment.game, moment.move, moment.source) == (2, 3, "record")
    assert [(line.index, line.action["type"], line.disputed) for line in moment.lines] == [
        (2, "move", False), (3, "resign", True), (4, "accept", False)]
    assert position_id(moment.frame.position) == dispute.position_id == moment.position_id
    assert dispute_detail(dispute_on(cast.match, cast.bob).pk).moment is None


def test_an_events_rulings_are_listed_for_everyone_oldest_first(cast):
    tournament, (_erin, frank, _grace, heidi) = event()
    semi, other = pairing(tournament, "main-1-1").match, pairing(tournament, "main-1-2").match
    first = ruling_make(dispute_id=dispute_on(semi, heidi.user).pk, user=tournament.organiser,
                        outcome=Ruling.Outcome.WARNING, params={"side": 0}, rule="RULES.md §9", reasoning="Noise.")
    second = ruling_make(dispute_id=dispute_on(other, frank.user).pk, user=tournament.organiser,
                         outcome=Ruling.Outcome.WARNING, params={"side": 1}, rule="RULES.md §9", reasoning="Noise.")
    ruling_make(dispute_id=dispute_on(cast.match, cast.bob).pk, user=cast.organiser, outcome=Ruling.Outcome.WARNING,
                params={"side": 0}, rule="RULES.md §9", reasoning="Not in the event.")
    assert [r.pk for r in rulings_of_event(tournament)] == [first.pk, second.pk]
