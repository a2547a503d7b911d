"""The rulings API: disputes (queue, open, read, answer), rulings (make, read, appeal), appeals
(read, committee, votes) and an event's public rulings, as each role of the cast.

The cast (tests.matches.factories_api): alice and bob play the match (side 0 and 1), otto directs
it, carol is another player, olga another organiser, stan staff; jon, kim and lee are the appeal
committee. A dispute is hidden (404) from anyone but the match's players, its director, staff and
its appeal's committee; refusals of bad input are 400s naming the field, and change nothing.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rulings import access
from rulings.models import Appeal, Dispute, Ruling
from rulings.selectors import dispute_list
from rulings.services.appeals import appeal_lodge, committee_name, vote_cast
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make
from tests.factories import MatchFactory, PlayerFactory, SideFactory, TournamentFactory, UserFactory
from tests.matches.factories_api import client_for, make_cast
from tests.rulings.factories import snapshot, won
from tournaments.models import event_id_of

pytestmark = pytest.mark.django_db

START_POSITION = "4HPwATDgc/ABMA"


@pytest.fixture
def cast():
    return make_cast()


@pytest.fixture
def committee():
    return [UserFactory(username=name) for name in ("jon", "kim", "lee")]


def opened(cast, **fields) -> Dispute:
    fields = {"category": "conduct", "statement": "Bob rolled before I had picked up my dice.", **fields}
    return dispute_open(match_id=cast.match.pk, user=cast.alice, **fields)


def ruled(cast, dispute: Dispute | None = None) -> Ruling:
    dispute = dispute or opened(cast)
    return ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome="warning", params={"side": 1},
                       rule="RULES 9: conduct, a warning", reasoning="A first premature roll.")


def appealed(cast, ruling: Ruling | None = None) -> Appeal:
    ruling = ruling or ruled(cast)
    return appeal_lodge(ruling_id=ruling.pk, user=cast.bob, grounds="She had picked them up.")


def named(cast, committee, appeal: Appeal | None = None) -> Appeal:
    appeal = appeal or appealed(cast)
    committee_name(appeal_id=appeal.pk, user=cast.organiser, member_ids=[u.pk for u in committee])
    return appeal


def post(user, url: str, body: dict):
    return client_for(user).post(url, body, format="json")


def get(user, url: str, **query):
    return client_for(user).get(url, query)


# --- opening a dispute ---------------------------------------------------------------------------------


def test_a_player_opens_a_dispute_and_gets_it_back_from_his_side(cast):
    response = post(cast.bob, reverse("api-disputes"),
                    {"match": cast.match.pk, "category": "cocked_dice", "statement": "Her 6 was cocked."})
    assert response.status_code == 201, response.json()
    body = response.json()
    dispute = Dispute.objects.get()
    assert body["id"] == dispute.pk
    assert (body["category"], body["status"], body["opened_by"], body["side"]) == ("cocked_dice", "open", "bob", 1)
    assert body["statement"] == "Her 6 was cocked."
    assert body["moment"] == {"game": None, "move": None, "position_id": ""}
    assert body["match"]["id"] == cast.match.pk and body["statements"] == [] and body["rulings"] == []


def test_a_dispute_at_a_moment_records_the_game_the_action_and_the_position_before_it(cast):
    response = post(cast.alice, reverse("api-disputes"),
                    {"match": cast.match.pk, "category": "illegal_move", "statement": "He played 8/5 only.",
                     "game_number": 1, "move_number": 2, "log": won(1, play="8/5")})
    assert response.status_code == 201, response.json()
    assert response.json()["moment"] == {"game": 1, "move": 2, "position_id": START_POSITION}


def test_the_director_opens_a_dispute_as_nobody_s_side(cast):
    response = post(cast.organiser, reverse("api-disputes"),
                    {"match": cast.match.pk, "category": "slow_play", "statement": "Both sides are slow."})
    assert response.status_code == 201
    assert response.json()["side"] is None


@pytest.mark.parametrize(("role", "status_code"), [("anonymous", 401), ("carol", 403), ("other_organiser", 403)])
def test_only_the_match_s_players_and_director_open_a_dispute(cast, role, status_code):
    before = snapshot()
    response = post(cast.user(role), reverse("api-disputes"),
                    {"match": cast.match.pk, "category": "conduct", "statement": "Rude."})
    assert response.status_code == status_code
    assert snapshot() == before


@pytest.mark.parametrize(("body", "field"), [
    ({"match": 999999, "category": "conduct", "statement": "Rude."}, "match"),
    ({"category": "conduct", "statement": "Rude."}, "match"),
    ({"category": "bribery", "statement": "Rude."}, "category"),
    ({"category": "conduct"}, "statement"),
    ({"category": "conduct", "statement": "x" * 5001}, "statement"),
    ({"category": "conduct", "statement": "Rude.", "move_number": 3}, "game_number"),
    ({"category": "conduct", "statement": "Rude.", "game_number": 0}, "game_number"),
    ({"category": "conduct", "statement": "Rude.", "status": "decided"}, "status"),
    ({"category": "conduct", "statement": "Rude.", "colour": "red"}, "colour"),
    # The service's refusals name their field too: a moment of a game with no record and no log.
    ({"category": "illegal_move", "statement": "Rude.", "game_number": 1, "move_number": 2}, "move_number"),
    ({"category": "illegal_move", "statement": "Rude.", "game_number": 1, "move_number": 9, "log": won(0)}, "move_number"),
    ({"category": "illegal_move", "statement": "Rude.", "game_number": 1, "log": [{"type": "fly"}]}, "log"),
])
def test_a_bad_dispute_is_a_400_naming_the_field_and_saves_nothing(cast, body, field):
    body = {"match": cast.match.pk, **body} if "match" not in body and field != "match" else body
    before = snapshot()
    response = post(cast.alice, reverse("api-disputes"), body)
    assert response.status_code == 400, response.json()
    assert field in response.json()["errors"], response.json()
    assert snapshot() == before


# --- the queue -----------------------------------------------------------------------------------------


def test_the_queue_shows_each_user_the_disputes_he_may_read(cast, committee):
    mine = opened(cast)
    elsewhere = MatchFactory()
    other = dispute_open(match_id=elsewhere.pk, user=elsewhere.side0.player_a.user, category="no_show",
                         statement="He never came.")
    seen = {}
    for role in ("alice", "bob", "carol", "organiser", "other_organiser", "staff"):
        response = get(cast.user(role), reverse("api-disputes"))
        assert response.status_code == 200
        seen[role] = [d["id"] for d in response.json()["results"]]
    assert seen == {"alice": [mine.pk], "bob": [mine.pk], "carol": [], "organiser": [mine.pk], "other_organiser": [],
                    "staff": [other.pk, mine.pk]}
    named(cast, committee, appealed(cast, ruled(cast, mine)))
    assert [d["id"] for d in get(committee[0], reverse("api-disputes")).json()["results"]] == [mine.pk]
    assert get(None, reverse("api-disputes")).status_code == 401


def test_the_queue_s_rows_for_each_role_follow_the_read_rule_on_a_mixed_set_of_matches(cast, committee):
    """Pairs, an event's director who is not the match's, a director who plays, a committee that sees
    one dispute of its match only: the API, the page and the selector they share (dispute_list) list,
    for each role, exactly the disputes the one-dispute rule (access.dispute_visible) lets him read,
    newest first."""
    dave, erin, frank, mo = (UserFactory(username=name) for name in ("dave", "erin", "frank", "mo"))
    olga = cast.other_organiser
    pair = SideFactory(player_a=PlayerFactory(user=dave), player_b=PlayerFactory(user=erin))
    frank_alone = SideFactory(player_a=PlayerFactory(user=frank))
    in_olgas_event = MatchFactory(side0=pair, side1=frank_alone, organiser=mo, event=TournamentFactory(organiser=olga))
    olga_plays = MatchFactory(side0=SideFactory(player_a=cast.carol.player),
                              side1=SideFactory(player_a=PlayerFactory(), player_b=PlayerFactory(user=olga)), organiser=olga)
    in_ottos_event = MatchFactory(side0=frank_alone, organiser=mo, event=TournamentFactory(organiser=cast.organiser))
    elsewhere = MatchFactory(organiser=mo)
    disputes = {
        "cast": opened(cast), "cast_by_otto": dispute_open(match_id=cast.match.pk, user=cast.organiser,
                                                           category="slow_play", statement="Both are slow."),
        "pair": dispute_open(match_id=in_olgas_event.pk, user=erin, category="conduct", statement="Loud."),
        "olga_plays": dispute_open(match_id=olga_plays.pk, user=cast.carol, category="conduct", statement="Loud."),
        "ottos_event": dispute_open(match_id=in_ottos_event.pk, user=mo, category="no_show", statement="Absent."),
        "appealed": dispute_open(match_id=elsewhere.pk, user=mo, category="conduct", statement="Loud."),
        "not_appealed": dispute_open(match_id=elsewhere.pk, user=mo, category="no_show", statement="Absent."),
    }
    ruling = ruling_make(dispute_id=disputes["appealed"].pk, user=mo, outcome="warning", params={"side": 1},
                         rule="RULES 9: conduct, a warning", reasoning="Loud.")
    appeal = appeal_lodge(ruling_id=ruling.pk, user=elsewhere.side1.player_a.user, grounds="I was quiet.")
    committee_name(appeal_id=appeal.pk, user=mo, member_ids=[u.pk for u in committee])
    newest_first = list(Dispute.objects.select_related("match__side0", "match__side1", "match__event_link__tournament")
                        .order_by("-created_at", "-id"))
    expected = {
        "alice": ["cast_by_otto", "cast"], "bob": ["cast_by_otto", "cast"], "carol": ["olga_plays"],
        "otto": ["ottos_event", "cast_by_otto", "cast"], "olga": ["olga_plays", "pair"], "dave": ["pair"],
        "erin": ["pair"], "frank": ["ottos_event", "pair"], "mo": ["not_appealed", "appealed", "ottos_event", "pair"],
        "jon": ["appealed"], "kim": ["appealed"], "lee": ["appealed"], "stan": list(reversed(disputes)),
    }
    users = {u.username: u for u in (cast.alice, cast.bob, cast.carol, cast.organiser, olga, cast.staff, dave, erin,
                                     frank, mo, *committee)}
    for name, user in users.items():
        rule = [d.pk for d in newest_first if access.dispute_visible(d, user)]
        assert rule == [disputes[key].pk for key in expected[name]], name
        assert [d["id"] for d in get(user, reverse("api-disputes")).json()["results"]] == rule, name
        page = client_for(user, auth="session").get(reverse("rulings:queue")).content.decode()
        assert [int(pk) for pk in re.findall(r'href="/rulings/disputes/(\d+)/"', page)] == rule, name
        assert ids_of(dispute_list(user)) == rule, name
    assert [d["id"] for d in get(olga, reverse("api-disputes"), event=event_id_of(in_olgas_event)).json()["results"]] == [
        disputes["pair"].pk]
    assert [d["id"] for d in get(cast.organiser, reverse("api-disputes"), status="open", category="no_show")
            .json()["results"]] == [disputes["ottos_event"].pk]


def ids_of(disputes) -> list[int]:
    return [d.pk for d in disputes]


def test_the_queue_filters_by_status_category_event_and_match(cast):
    event = TournamentFactory(organiser=cast.organiser)
    in_event = MatchFactory(event=event, organiser=cast.organiser)
    conduct = opened(cast)
    no_show = dispute_open(match_id=in_event.pk, user=cast.organiser, category="no_show", statement="Absent.")
    ruled(cast, conduct)
    url = reverse("api-disputes")

    def ids(**query):
        return [d["id"] for d in get(cast.organiser, url, **query).json()["results"]]

    assert ids() == [no_show.pk, conduct.pk]
    assert ids(status="ruled") == [conduct.pk]
    assert ids(status="open") == [no_show.pk]
    assert ids(category="no_show") == [no_show.pk]
    assert ids(event=event.pk) == [no_show.pk]
    assert ids(match=cast.match.pk) == [conduct.pk]


@pytest.mark.parametrize(("query", "field"), [({"status": "pending"}, "status"), ({"category": "x"}, "category"),
                                              ({"event": "one"}, "event"), ({"colour": "red"}, "colour")])
def test_a_bad_queue_filter_is_a_400_naming_it(cast, query, field):
    response = get(cast.organiser, reverse("api-disputes"), **query)
    assert response.status_code == 400
    assert field in response.json()["errors"]


# --- a dispute -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("role", "status_code"), [
    ("alice", 200), ("bob", 200), ("organiser", 200), ("staff", 200),
    ("carol", 404), ("other_organiser", 404), ("anonymous", 401),
])
def test_a_dispute_is_read_by_its_parties_director_and_staff_and_hidden_from_others(cast, role, status_code):
    dispute = opened(cast)
    response = get(cast.user(role), reverse("api-dispute", args=[dispute.pk]))
    assert response.status_code == status_code
    if status_code == 200:
        assert response.json()["statement"] == dispute.statement


def test_an_unknown_dispute_is_a_404(cast):
    assert get(cast.staff, reverse("api-dispute", args=[999999])).status_code == 404


def test_the_committee_reads_the_dispute_with_its_statements_rulings_and_appeal(cast, committee):
    dispute = opened(cast)
    appeal = named(cast, committee, appealed(cast, ruled(cast, dispute)))
    response = get(committee[1], reverse("api-dispute", args=[dispute.pk]))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "appealed"
    assert [(r["outcome"], r["status"], r["director"], r["appeal"]) for r in body["rulings"]] == [
        ("warning", "in_force", "otto", appeal.pk)]
    assert [(a["id"], a["appellant"], a["committee"]) for a in body["appeals"]] == [
        (appeal.pk, "bob", ["jon", "kim", "lee"])]


# --- statements -----------------------------------------------------------------------------------------


def test_a_party_answers_a_dispute(cast):
    dispute = opened(cast)
    response = post(cast.bob, reverse("api-dispute-statements", args=[dispute.pk]), {"text": "I waited."})
    assert response.status_code == 201
    assert [(s["author"], s["side"], s["text"]) for s in response.json()["statements"]] == [("bob", 1, "I waited.")]


@pytest.mark.parametrize(("role", "status_code"), [("carol", 404), ("other_organiser", 404), ("anonymous", 401)])
def test_an_outsider_cannot_answer_a_dispute(cast, role, status_code):
    dispute = opened(cast)
    before = snapshot()
    assert post(cast.user(role), reverse("api-dispute-statements", args=[dispute.pk]),
                {"text": "Me too."}).status_code == status_code
    assert snapshot() == before


def test_a_committee_member_reads_but_does_not_answer(cast, committee):
    dispute = opened(cast)
    named(cast, committee, appealed(cast, ruled(cast, dispute)))
    before = snapshot()
    response = post(committee[0], reverse("api-dispute-statements", args=[dispute.pk]), {"text": "Hm."})
    assert response.status_code == 403 and response.json()["code"] == "not_a_party"
    assert snapshot() == before


@pytest.mark.parametrize(("body", "field"), [({}, "text"), ({"text": ""}, "text"), ({"text": "x" * 5001}, "text"),
                                             ({"text": "ok", "author": "otto"}, "author")])
def test_a_bad_statement_is_a_400_naming_the_field_and_saves_nothing(cast, body, field):
    dispute = opened(cast)
    before = snapshot()
    response = post(cast.bob, reverse("api-dispute-statements", args=[dispute.pk]), body)
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert snapshot() == before


# --- rulings ----------------------------------------------------------------------------------------------


WARNING = {"outcome": "warning", "params": {"side": 1}, "rule": "RULES 9: conduct", "reasoning": "A first offence."}


def test_the_director_rules_and_the_dispute_shows_the_ruling(cast):
    dispute = opened(cast)
    response = post(cast.organiser, reverse("api-dispute-rulings", args=[dispute.pk]), WARNING)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "ruled"
    [ruling] = body["rulings"]
    assert (ruling["outcome"], ruling["params"], ruling["rule"], ruling["director"], ruling["status"]) == (
        "warning", {"side": 1}, "RULES 9: conduct", "otto", "in_force")
    assert ruling["appeal"] is None and ruling["appeal_window_closes"]


@pytest.mark.parametrize(("role", "status_code", "code"), [
    ("alice", 403, "not_director"), ("bob", 403, "not_director"), ("carol", 404, "not_found"),
    ("other_organiser", 404, "not_found"), ("anonymous", 401, "not_authenticated"),
])
def test_only_the_director_rules(cast, role, status_code, code):
    dispute = opened(cast)
    before = snapshot()
    response = post(cast.user(role), reverse("api-dispute-rulings", args=[dispute.pk]), WARNING)
    assert (response.status_code, response.json()["code"]) == (status_code, code)
    assert snapshot() == before


@pytest.mark.parametrize(("body", "field"), [
    ({**WARNING, "outcome": "banishment"}, "outcome"),
    ({**WARNING, "params": [1]}, "params"),
    ({**WARNING, "rule": ""}, "rule"),
    ({**WARNING, "reasoning": "x" * 5001}, "reasoning"),
    ({**WARNING, "changes": {}}, "changes"),
    # the service's refusals, per outcome, name the detail
    ({**WARNING, "params": {}}, "side"),
    ({**WARNING, "params": {"side": 2}}, "side"),
    ({**WARNING, "params": {"side": 1, "points": 2}}, "points"),
    ({**WARNING, "outcome": "penalty_points", "params": {"side": 1, "points": 0}}, "points"),
    # within what the columns hold and the domain allows: no penalty past the match's length, no
    # lateness past a day, no score past MAX_SCORE
    ({**WARNING, "outcome": "penalty_points", "params": {"side": 1, "points": 2**31}}, "points"),
    ({**WARNING, "outcome": "penalty_points", "params": {"side": 1, "points": 40_000}}, "points"),
    ({**WARNING, "outcome": "penalty_points", "params": {"side": 1, "minutes_late": 2**31}}, "minutes_late"),
    ({**WARNING, "outcome": "score_corrected", "params": {"score": [2**31, 0]}}, "score"),
])
def test_a_bad_ruling_is_a_400_naming_the_field_and_changes_nothing(cast, body, field):
    dispute = opened(cast)
    before = snapshot()
    response = post(cast.organiser, reverse("api-dispute-rulings", args=[dispute.pk]), body)
    assert response.status_code == 400, response.json()
    assert field in response.json()["errors"], response.json()
    assert snapshot() == before


def test_a_ruled_dispute_takes_no_second_ruling(cast):
    dispute = opened(cast)
    ruled(cast, dispute)
    before = snapshot()
    response = post(cast.organiser, reverse("api-dispute-rulings", args=[dispute.pk]), WARNING)
    assert (response.status_code, response.json()["code"]) == (409, "dispute_closed")
    assert snapshot() == before


@pytest.mark.parametrize(("role", "status_code"), [("bob", 200), ("organiser", 200), ("carol", 404), ("anonymous", 401)])
def test_a_ruling_is_read_by_who_reads_its_dispute(cast, role, status_code):
    ruling = ruled(cast)
    response = get(cast.user(role), reverse("api-ruling", args=[ruling.pk]))
    assert response.status_code == status_code
    if status_code == 200:
        assert (response.json()["id"], response.json()["dispute"]) == (ruling.pk, ruling.dispute_id)


# --- appeals ------------------------------------------------------------------------------------------------


def test_a_party_appeals_the_ruling_and_sees_the_appeal_without_votes(cast):
    ruling = ruled(cast)
    response = post(cast.bob, reverse("api-ruling-appeal", args=[ruling.pk]), {"grounds": "She had picked them up."})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["appellant"], body["side"], body["status"], body["decision"], body["committee"]) == (
        "bob", 1, "open", "", [])
    assert body["votes"] is None
    assert body["appealed_ruling"]["id"] == ruling.pk
    assert Dispute.objects.get(pk=ruling.dispute_id).status == "appealed"


@pytest.mark.parametrize(("role", "status_code", "code"), [
    ("organiser", 403, "not_appellant"), ("staff", 403, "not_appellant"), ("carol", 404, "not_found"),
])
def test_only_a_player_of_the_match_appeals(cast, role, status_code, code):
    ruling = ruled(cast)
    before = snapshot()
    response = post(cast.user(role), reverse("api-ruling-appeal", args=[ruling.pk]), {"grounds": "Wrong."})
    assert (response.status_code, response.json()["code"]) == (status_code, code)
    assert snapshot() == before


def test_an_appeal_after_the_window_is_refused(cast, time_machine):
    ruling = ruled(cast)
    time_machine.move_to(ruling.created_at + dt.timedelta(minutes=61))
    before = snapshot()
    response = post(cast.bob, reverse("api-ruling-appeal", args=[ruling.pk]), {"grounds": "Wrong."})
    assert (response.status_code, response.json()["code"]) == (409, "appeal_window_closed")
    assert snapshot() == before and not Appeal.objects.exists()


def test_a_ruling_is_appealed_once(cast):
    ruling = ruled(cast)
    appealed(cast, ruling)
    response = post(cast.alice, reverse("api-ruling-appeal", args=[ruling.pk]), {"grounds": "Me too."})
    assert (response.status_code, response.json()["code"]) == (409, "already_appealed")
    assert Appeal.objects.count() == 1


@pytest.mark.parametrize(("body", "field"), [({}, "grounds"), ({"grounds": ""}, "grounds"),
                                             ({"grounds": "Wrong.", "decision": "overturn"}, "decision")])
def test_a_bad_appeal_is_a_400_naming_the_field_and_saves_nothing(cast, body, field):
    ruling = ruled(cast)
    before = snapshot()
    response = post(cast.bob, reverse("api-ruling-appeal", args=[ruling.pk]), body)
    assert response.status_code == 400 and field in response.json()["errors"]
    assert snapshot() == before and not Appeal.objects.exists()


def test_the_director_names_the_committee(cast, committee):
    appeal = appealed(cast)
    response = post(cast.organiser, reverse("api-appeal-committee", args=[appeal.pk]),
                    {"members": [u.pk for u in committee]})
    assert response.status_code == 200, response.json()
    assert response.json()["committee"] == ["jon", "kim", "lee"]
    assert response.json()["votes"] == []


@pytest.mark.parametrize(("role", "status_code"), [("bob", 403), ("carol", 404), ("anonymous", 401)])
def test_only_the_director_names_the_committee(cast, committee, role, status_code):
    appeal = appealed(cast)
    response = post(cast.user(role), reverse("api-appeal-committee", args=[appeal.pk]),
                    {"members": [u.pk for u in committee]})
    assert response.status_code == status_code
    assert not appeal.committee.exists()


def test_a_bad_committee_is_a_400_naming_members_and_names_nobody(cast, committee):
    appeal = appealed(cast)
    url = reverse("api-appeal-committee", args=[appeal.pk])
    for members in ([committee[0].pk, committee[1].pk], [committee[0].pk, committee[1].pk, cast.alice.pk],
                    [committee[0].pk, committee[0].pk, committee[1].pk], [committee[0].pk, committee[1].pk, 999999],
                    "jon", []):
        response = post(cast.organiser, url, {"members": members})
        assert response.status_code == 400, (members, response.json())
        assert "members" in response.json()["errors"], members
    assert not appeal.committee.exists()


def test_the_committee_votes_and_the_majority_decides(cast, committee):
    appeal = named(cast, committee)
    url = reverse("api-appeal-votes", args=[appeal.pk])
    first = post(committee[0], url, {"decision": "uphold"})
    assert first.status_code == 200, first.json()
    assert [(v["member"], v["decision"]) for v in first.json()["votes"]] == [("jon", "uphold")]
    assert first.json()["status"] == "open"
    # the parties see the decision, never the votes
    assert get(cast.bob, reverse("api-appeal", args=[appeal.pk])).json()["votes"] is None
    assert len(get(cast.organiser, reverse("api-appeal", args=[appeal.pk])).json()["votes"]) == 1
    second = post(committee[1], url, {"decision": "uphold"})
    assert (second.json()["status"], second.json()["decision"]) == ("decided", "uphold")
    party_view = get(cast.alice, reverse("api-appeal", args=[appeal.pk])).json()
    assert (party_view["decision"], party_view["votes"]) == ("uphold", None)
    assert Dispute.objects.get(pk=appeal.ruling.dispute_id).status == "decided"


@pytest.mark.parametrize(("role", "status_code"), [("alice", 403), ("organiser", 403), ("staff", 403), ("carol", 404)])
def test_only_a_committee_member_votes(cast, committee, role, status_code):
    appeal = named(cast, committee)
    response = post(cast.user(role), reverse("api-appeal-votes", args=[appeal.pk]), {"decision": "overturn"})
    assert response.status_code == status_code
    assert not appeal.votes.exists()


@pytest.mark.parametrize(("body", "field"), [
    ({"decision": "abstain"}, "decision"),
    ({}, "decision"),
    ({"decision": "replace"}, "outcome"),
    ({"decision": "replace", "outcome": "warning", "params": {"side": 0}, "rule": "RULES 9"}, "reasoning"),
    ({"decision": "uphold", "member": "kim"}, "member"),
])
def test_a_bad_vote_is_a_400_naming_the_field_and_counts_for_nothing(cast, committee, body, field):
    appeal = named(cast, committee)
    response = post(committee[0], reverse("api-appeal-votes", args=[appeal.pk]), body)
    assert response.status_code == 400, response.json()
    assert field in response.json()["errors"]
    assert not appeal.votes.exists()


def test_a_vote_on_a_decided_appeal_is_a_409(cast, committee):
    appeal = named(cast, committee)
    for member in committee[:2]:
        vote_cast(appeal_id=appeal.pk, user=member, decision="uphold")
    response = post(committee[2], reverse("api-appeal-votes", args=[appeal.pk]), {"decision": "overturn"})
    assert (response.status_code, response.json()["code"]) == (409, "appeal_decided")


# --- an event's rulings ---------------------------------------------------------------------------------------


def test_an_event_s_rulings_are_public_and_carry_no_statement_reasoning_or_person(cast):
    event = TournamentFactory(organiser=cast.organiser)
    in_event = MatchFactory(event=event, organiser=cast.organiser)
    dispute = dispute_open(match_id=in_event.pk, user=in_event.side0.player_a.user, category="late_arrival",
                           statement="Erin came 12 minutes late.")
    ruling = ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome="warning", params={"side": 1},
                         rule="RULES 9: late arrival", reasoning="Secret reasoning.")
    ruled(cast)  # a ruling outside the event: not listed
    response = get(None, reverse("api-tournament-rulings", args=[event.pk]))
    assert response.status_code == 200
    assert response.json() == [{"id": ruling.pk, "match": in_event.pk, "category": "late_arrival",
                                "outcome": "warning", "rule": "RULES 9: late arrival", "status": "in_force",
                                "created_at": response.json()[0]["created_at"]}]
    assert "Secret" not in response.content.decode() and "Erin came" not in response.content.decode()
    assert get(None, reverse("api-tournament-rulings", args=[999999])).status_code == 404


# --- privacy and throttling ---------------------------------------------------------------------------------


def test_no_rulings_answer_carries_an_email(cast, committee):
    emails = [u.email for u in (cast.alice, cast.bob, cast.carol, cast.organiser, cast.staff, *committee)]
    assert all(emails)
    dispute = opened(cast)
    bodies = [
        post(cast.bob, reverse("api-dispute-statements", args=[dispute.pk]), {"text": "No."}),
        post(cast.organiser, reverse("api-dispute-rulings", args=[dispute.pk]), WARNING),
    ]
    ruling = Ruling.objects.get()
    bodies.append(post(cast.bob, reverse("api-ruling-appeal", args=[ruling.pk]), {"grounds": "Wrong."}))
    appeal = Appeal.objects.get()
    bodies += [
        post(cast.organiser, reverse("api-appeal-committee", args=[appeal.pk]), {"members": [u.pk for u in committee]}),
        post(committee[0], reverse("api-appeal-votes", args=[appeal.pk]), {"decision": "uphold"}),
        get(cast.organiser, reverse("api-disputes")),
        get(cast.alice, reverse("api-dispute", args=[dispute.pk])),
        get(cast.alice, reverse("api-ruling", args=[ruling.pk])),
        get(committee[0], reverse("api-appeal", args=[appeal.pk])),
        post(cast.carol, reverse("api-disputes"), {"match": cast.match.pk, "category": "conduct", "statement": "x"}),
    ]
    for response in bodies:
        assert response.status_code < 500
        text = response.content.decode()
        assert "email" not in text
        assert not [email for email in emails if email in text]


def test_dispute_writes_over_the_rate_get_a_429_and_save_nothing(cast, throttle_rates):
    throttle_rates(disputes="2/minute")
    url = reverse("api-disputes")
    body = {"match": cast.match.pk, "category": "conduct", "statement": "Rude."}
    assert [post(cast.alice, url, body).status_code for _ in range(2)] == [201, 201]
    before = snapshot()
    response = post(cast.alice, url, body)
    assert response.status_code == 429 and response.json()["code"] == "throttled"
    assert snapshot() == before
    assert get(cast.alice, url).status_code == 200  # reading the queue uses none of the rate


def test_the_queue_costs_the_same_queries_for_two_disputes_as_for_six(cast):
    client = client_for(cast.staff)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("api-disputes")).status_code == 200
        return len(captured)

    for _ in range(2):
        dispute_open(match_id=MatchFactory().pk, user=cast.staff, category="no_show", statement="Absent.")
    two = queries()
    for _ in range(4):
        dispute_open(match_id=MatchFactory().pk, user=cast.staff, category="no_show", statement="Absent.")
    assert queries() == two
