"""The rulings pages: the queue, opening a dispute, a dispute (board at the disputed moment, log,
statements, rulings, the forms of whoever may act), an appeal (committee, votes, decision) and an
event's public rulings; the match and event pages' links to them.

Forms carry their CSRF token; a refused form re-renders with the error on its field (the field's
``data-field`` marks it) and a 4xx status, and nothing is saved.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rulings.models import Appeal, CommitteeMember, Dispute, Ruling, Statement, Vote
from rulings.services.appeals import vote_cast
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make
from tests.factories import MatchFactory, TournamentFactory, UserFactory
from tests.matches.factories_api import make_cast
from tests.rulings.factories import confirm_with_games, snapshot, won
from tests.rulings.test_api import appealed, named, opened, ruled

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return make_cast()


@pytest.fixture
def committee():
    return [UserFactory(username=name) for name in ("jon", "kim", "lee")]


def browser(user=None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def send(user, url: str, data: dict):
    """POST ``data`` as a browser does: with the CSRF token the page's form carried."""
    client = browser(user)
    client.get(reverse("rulings:queue"))  # sets the CSRF cookie
    return client.post(url, {**data, "csrfmiddlewaretoken": client.cookies["csrftoken"].value})


def field_error(response, field: str) -> bool:
    return f'data-field="{field}"' in response.content.decode()


# --- the queue -------------------------------------------------------------------------------------------


def test_the_queue_asks_anonymous_visitors_to_sign_in(cast):
    response = browser().get(reverse("rulings:queue"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_the_queue_lists_the_director_s_disputes_and_a_player_s_own(cast):
    dispute = opened(cast)
    elsewhere = MatchFactory()
    dispute_open(match_id=elsewhere.pk, user=elsewhere.side0.player_a.user, category="no_show", statement="Absent.")
    link = reverse("rulings:dispute", args=[dispute.pk])
    for user, sees in ((cast.organiser, True), (cast.bob, True), (cast.carol, False), (cast.other_organiser, False)):
        response = browser(user).get(reverse("rulings:queue"))
        assert response.status_code == 200
        assert (link in response.content.decode()) is sees, user
    assert browser(cast.staff).get(reverse("rulings:queue")).content.decode().count("/rulings/disputes/") == 2


def test_the_queue_filters_and_refuses_a_bad_filter_with_a_400(cast):
    dispute = opened(cast)
    link = reverse("rulings:dispute", args=[dispute.pk])
    client = browser(cast.organiser)
    assert link in client.get(reverse("rulings:queue"), {"status": "open", "category": "conduct"}).content.decode()
    assert link not in client.get(reverse("rulings:queue"), {"status": "ruled"}).content.decode()
    response = client.get(reverse("rulings:queue"), {"status": "pending"})
    assert response.status_code == 400 and field_error(response, "status")


# --- opening a dispute -------------------------------------------------------------------------------------


def test_a_player_opens_a_dispute_from_the_form(cast):
    url = reverse("rulings:open", args=[cast.match.pk])
    page = browser(cast.alice).get(url)
    assert page.status_code == 200 and "csrfmiddlewaretoken" in page.content.decode()
    response = send(cast.alice, url, {"category": "slow_play", "statement": "Bob takes minutes per move."})
    dispute = Dispute.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("rulings:dispute", args=[dispute.pk])
    assert (dispute.category, dispute.opened_by, dispute.side) == ("slow_play", cast.alice, 0)


@pytest.mark.parametrize("role", ["carol", "other_organiser"])
def test_only_the_match_s_players_and_director_see_or_use_the_form(cast, role):
    url = reverse("rulings:open", args=[cast.match.pk])
    assert browser(cast.user(role)).get(url).status_code == 403
    assert send(cast.user(role), url, {"category": "conduct", "statement": "Rude."}).status_code == 403
    assert not Dispute.objects.exists()


@pytest.mark.parametrize(("data", "field"), [
    ({"category": "conduct"}, "statement"),
    ({"category": "bribery", "statement": "Rude."}, "category"),
    ({"category": "conduct", "statement": "Rude.", "move_number": "2"}, "game_number"),
    ({"category": "conduct", "statement": "Rude.", "game_number": "x"}, "game_number"),
    # the service's refusal: this match has no game records to point into
    ({"category": "illegal_move", "statement": "He played 8/5.", "game_number": "1", "move_number": "2"}, "move_number"),
])
def test_a_bad_dispute_form_shows_the_error_on_its_field_with_a_400_and_saves_nothing(cast, data, field):
    before = snapshot()
    response = send(cast.alice, reverse("rulings:open", args=[cast.match.pk]), data)
    assert response.status_code == 400
    assert field_error(response, field), response.content.decode()
    assert snapshot() == before


# --- a dispute ------------------------------------------------------------------------------------------------


def test_the_dispute_page_shows_the_board_before_the_disputed_action_and_the_log_around_it(cast):
    match = confirm_with_games(cast.match, [won(0, level=3), won(1), won(0, level=2)])
    dispute = dispute_open(match_id=match.pk, user=cast.bob, category="illegal_move", statement="That play was wrong.",
                           game_number=2, move_number=2)
    page = browser(cast.bob).get(reverse("rulings:dispute", args=[dispute.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "<svg" in text and dispute.position_id in text and "the record of game 2" in text
    assert '<li value="2" class="disputed" aria-current="true"><strong>Bob: play 8/5 6/5</strong>' in text
    assert '<li value="1">Bob: roll 31</li>' in text
    assert "Add your statement" in text and "Record the ruling" not in text


def test_the_dispute_page_draws_the_game_as_played_when_the_dispute_carries_it(cast):
    dispute = opened(cast, category="illegal_move", game_number=1, move_number=2, log=won(1, play="8/5"))
    text = browser(cast.organiser).get(reverse("rulings:dispute", args=[dispute.pk])).content.decode()
    assert "<svg" in text and "the game as played" in text and "<strong>Bob: play 8/5</strong>" in text
    assert "Record the ruling" in text and "Lodge the appeal" not in text


@pytest.mark.parametrize(("role", "status_code"), [("alice", 200), ("bob", 200), ("organiser", 200), ("staff", 200),
                                                   ("carol", 404), ("other_organiser", 404), ("anonymous", 302)])
def test_a_dispute_page_is_hidden_from_everyone_it_does_not_concern(cast, role, status_code):
    dispute = opened(cast)
    assert browser(cast.user(role)).get(reverse("rulings:dispute", args=[dispute.pk])).status_code == status_code


def test_a_party_answers_from_the_dispute_page(cast):
    dispute = opened(cast)
    response = send(cast.bob, reverse("rulings:answer", args=[dispute.pk]), {"text": "I waited for her."})
    assert response.status_code == 302
    assert list(Statement.objects.values_list("author__username", "side", "text")) == [("bob", 1, "I waited for her.")]


def test_an_empty_answer_is_a_400_on_the_text_and_saves_nothing(cast):
    dispute = opened(cast)
    before = snapshot()
    response = send(cast.bob, reverse("rulings:answer", args=[dispute.pk]), {"text": ""})
    assert response.status_code == 400 and field_error(response, "text")
    assert snapshot() == before


def test_the_director_rules_from_the_dispute_page(cast):
    dispute = opened(cast)
    response = send(cast.organiser, reverse("rulings:rule", args=[dispute.pk]),
                    {"outcome": "warning", "side": "1", "rule": "RULES 9: conduct", "reasoning": "A first offence."})
    assert response.status_code == 302
    ruling = Ruling.objects.get()
    assert (ruling.outcome, ruling.params, ruling.director) == ("warning", {"side": 1}, cast.organiser)
    page = browser(cast.bob).get(reverse("rulings:dispute", args=[dispute.pk])).content.decode()
    assert f"{cast.match.side1.name} is warned" in page and "RULES 9: conduct" in page and "Lodge the appeal" in page


@pytest.mark.parametrize(("data", "field"), [
    ({"outcome": "warning", "rule": "RULES 9", "reasoning": "Rude."}, "side"),  # the service: side is required
    ({"outcome": "penalty_points", "side": "1", "rule": "RULES 9", "reasoning": "Late."}, "points"),
    ({"outcome": "warning", "side": "1", "reasoning": "Rude."}, "rule"),
    ({"outcome": "score_corrected", "score0": "5", "rule": "RULES 9", "reasoning": "Wrong."}, "score1"),
    ({"outcome": "warning", "side": "1", "points": "2", "rule": "RULES 9", "reasoning": "Rude."}, "points"),
])
def test_a_bad_ruling_form_shows_the_error_on_its_field_with_a_400_and_changes_nothing(cast, data, field):
    dispute = opened(cast)
    before = snapshot()
    response = send(cast.organiser, reverse("rulings:rule", args=[dispute.pk]), data)
    assert response.status_code == 400
    assert field_error(response, field), response.content.decode()
    assert snapshot() == before


def test_a_player_may_not_rule(cast):
    dispute = opened(cast)
    response = send(cast.alice, reverse("rulings:rule", args=[dispute.pk]),
                    {"outcome": "warning", "side": "1", "rule": "RULES 9", "reasoning": "Rude."})
    assert response.status_code == 403 and not Ruling.objects.exists()


# --- appeals --------------------------------------------------------------------------------------------------


def test_a_party_appeals_from_the_dispute_page_before_the_window_closes(cast):
    ruling = ruled(cast)
    page = browser(cast.bob).get(reverse("rulings:dispute", args=[ruling.dispute_id])).content.decode()
    assert "You may appeal until" in page
    response = send(cast.bob, reverse("rulings:appeal_lodge", args=[ruling.pk]), {"grounds": "She had picked them up."})
    appeal = Appeal.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("rulings:appeal", args=[appeal.pk])


def test_a_bad_appeal_is_a_400_and_the_director_may_not_appeal(cast):
    ruling = ruled(cast)
    url = reverse("rulings:appeal_lodge", args=[ruling.pk])
    response = send(cast.bob, url, {"grounds": ""})
    assert response.status_code == 400 and field_error(response, "grounds")
    assert send(cast.organiser, url, {"grounds": "Wrong."}).status_code == 403
    assert not Appeal.objects.exists()


def test_the_director_names_the_committee_from_the_appeal_page(cast, committee):
    appeal = appealed(cast)
    page = browser(cast.organiser).get(reverse("rulings:appeal", args=[appeal.pk])).content.decode()
    assert "Name the committee" in page
    assert "Name the committee" not in browser(cast.bob).get(reverse("rulings:appeal", args=[appeal.pk])).content.decode()
    response = send(cast.organiser, reverse("rulings:committee", args=[appeal.pk]), {"members": "jon, kim lee"})
    assert response.status_code == 302
    assert list(appeal.committee.values_list("user__username", flat=True)) == ["jon", "kim", "lee"]


@pytest.mark.parametrize("members", ["jon, kim", "jon, kim, nobody", "jon, kim, alice", ""])
def test_a_bad_committee_is_a_400_on_members_and_names_nobody(cast, committee, members):
    appeal = appealed(cast)
    response = send(cast.organiser, reverse("rulings:committee", args=[appeal.pk]), {"members": members})
    assert response.status_code == 400 and field_error(response, "members")
    assert not CommitteeMember.objects.exists()


def test_a_member_votes_and_the_parties_see_the_decision_but_not_the_votes(cast, committee):
    appeal = named(cast, committee)
    url = reverse("rulings:appeal", args=[appeal.pk])
    assert "Your vote" in browser(committee[0]).get(url).content.decode()
    assert send(committee[0], reverse("rulings:vote", args=[appeal.pk]), {"decision": "overturn"}).status_code == 302
    assert "Votes" in browser(cast.organiser).get(url).content.decode()
    party_page = browser(cast.alice).get(url).content.decode()
    assert "Votes" not in party_page and "Your vote" not in party_page
    vote_cast(appeal_id=appeal.pk, user=committee[1], decision="overturn")
    party_page = browser(cast.alice).get(url).content.decode()
    assert "Ruling overturned" in party_page and "Votes" not in party_page


@pytest.mark.parametrize(("data", "field"), [({"decision": "abstain"}, "decision"), ({"decision": "replace"}, "outcome"),
                                             ({"decision": "replace", "outcome": "warning", "side": "0",
                                               "rule": "RULES 9"}, "reasoning")])
def test_a_bad_vote_is_a_400_on_its_field_and_counts_for_nothing(cast, committee, data, field):
    appeal = named(cast, committee)
    response = send(committee[0], reverse("rulings:vote", args=[appeal.pk]), data)
    assert response.status_code == 400 and field_error(response, field)
    assert not Vote.objects.exists()


def test_a_party_may_not_vote(cast, committee):
    appeal = named(cast, committee)
    assert send(cast.alice, reverse("rulings:vote", args=[appeal.pk]), {"decision": "overturn"}).status_code == 403
    assert not Vote.objects.exists()


# --- public rulings, links, privacy -------------------------------------------------------------------------------


def test_an_event_s_rulings_page_is_public_and_keeps_the_reasoning_private(cast):
    event = TournamentFactory(organiser=cast.organiser, status="running")  # public: a draft is its organiser's alone
    match = MatchFactory(event=event, organiser=cast.organiser)
    dispute = dispute_open(match_id=match.pk, user=match.side0.player_a.user, category="late_arrival",
                           statement="He came late.")
    ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome="warning", params={"side": 1},
                rule="RULES 9: late arrival", reasoning="Secret reasoning.")
    event_page = Client().get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert reverse("rulings:event", args=[event.pk]) in event_page
    response = Client().get(reverse("rulings:event", args=[event.pk]))
    text = response.content.decode()
    assert response.status_code == 200
    assert "Late arrival" in text and "RULES 9: late arrival" in text and "A warning" in text
    assert f"{match.side0.name} v {match.side1.name}" in text and f">#{match.pk}<" not in text
    assert "Secret" not in text and "He came late" not in text


def test_the_match_page_links_its_parties_and_director_to_its_disputes(cast):
    dispute = opened(cast)
    url = reverse("matches:detail", args=[cast.match.pk])
    for user in (cast.alice, cast.organiser):
        text = browser(user).get(url).content.decode()
        assert reverse("rulings:open", args=[cast.match.pk]) in text
        assert reverse("rulings:dispute", args=[dispute.pk]) in text
    for user in (None, cast.carol):
        text = browser(user).get(url).content.decode()
        assert reverse("rulings:open", args=[cast.match.pk]) not in text and "/rulings/disputes/" not in text


def test_no_rulings_page_shows_an_email(cast, committee):
    appeal = named(cast, committee)
    dispute = appeal.ruling.dispute
    emails = [u.email for u in (cast.alice, cast.bob, cast.organiser, *committee)]
    assert all(emails)
    pages = [(cast.organiser, reverse("rulings:queue")), (cast.alice, reverse("rulings:dispute", args=[dispute.pk])),
             (cast.organiser, reverse("rulings:dispute", args=[dispute.pk])),
             (committee[0], reverse("rulings:appeal", args=[appeal.pk])),
             (cast.organiser, reverse("rulings:appeal", args=[appeal.pk])),
             (cast.alice, reverse("rulings:open", args=[cast.match.pk]))]
    for user, url in pages:
        text = browser(user).get(url).content.decode()
        assert not [email for email in emails if email in text], url


def test_the_queue_page_costs_the_same_queries_for_two_disputes_as_for_six(cast):
    client = browser(cast.staff)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("rulings:queue")).status_code == 200
        return len(captured)

    for _ in range(2):
        dispute_open(match_id=MatchFactory().pk, user=cast.staff, category="no_show", statement="Absent.")
    two = queries()
    for _ in range(4):
        dispute_open(match_id=MatchFactory().pk, user=cast.staff, category="no_show", statement="Absent.")
    assert queries() == two
