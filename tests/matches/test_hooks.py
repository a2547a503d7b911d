"""matches.hooks: the result hooks the apps above matches register (rulings, tournaments).

A callback runs inside the transaction of the change (an exception from it rolls the change back:
nothing is saved, nothing is dispatched), receives the payload the hook's docstring names, and
callbacks run in their fixed order whatever the order they were connected in.
"""

import pytest
from django.db import connection

from audit.models import AuditEntry
from core.models import OutboxTask
from matches import hooks
from matches.models import Match, Report
from matches.services.reporting import claim_make, match_confirm, match_override, match_reopen, match_report
from tests.factories import MatchFactory

pytestmark = pytest.mark.django_db


class Refused(Exception):
    pass


@pytest.fixture
def match():
    return MatchFactory(length=5)


@pytest.fixture
def alice(match):
    return match.side0.player_a.user


@pytest.fixture
def bob(match):
    return match.side1.player_a.user


@pytest.fixture
def calls():
    """Connect a recording callback to every result hook (for this test only); the list of
    (hook, payload, what the database said inside the callback)."""
    seen = []

    def recorder(hook):
        def callback(**payload):
            match = payload["match"]
            row = Match.objects.values("status", "score0", "score1").get(pk=match.pk)
            seen.append((hook.name, payload, row, connection.in_atomic_block))
        return callback

    names = []
    for hook in (hooks.result_confirmed, hooks.result_disputed, hooks.result_reopened):
        hook.connect(recorder(hook), name="tests.recorder", order=99)
        names.append(hook)
    yield seen
    for hook in names:
        hook.disconnect("tests.recorder")


@pytest.fixture
def refusing():
    """A callback that refuses every change, as an event's draw refuses a correction."""
    def refuse(**payload):
        raise Refused("refused")

    for hook in (hooks.result_confirmed, hooks.result_disputed, hooks.result_reopened):
        hook.connect(refuse, name="tests.refuse", order=99)
    yield
    for hook in (hooks.result_confirmed, hooks.result_disputed, hooks.result_reopened):
        hook.disconnect("tests.refuse")


def test_an_agreed_result_sends_result_confirmed_inside_the_transaction(match, alice, bob, calls):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    assert calls == []
    match_confirm(match_id=match.pk, user=bob)
    [(name, payload, row, atomic)] = calls
    assert name == "result_confirmed" and set(payload) == {"match", "actor", "ruled_dispute"}
    assert payload["match"].pk == match.pk and payload["match"].status == Match.Status.CONFIRMED
    assert payload["actor"] == bob and payload["ruled_dispute"] is None
    # The result is saved (in the open transaction) before the callbacks run.
    assert row == {"status": Match.Status.CONFIRMED, "score0": 5, "score1": 3} and atomic


def test_an_override_sends_result_confirmed_with_the_director_as_actor(match, calls):
    match_override(match_id=match.pk, user=match.organiser, claim=claim_make(match, (1, 5), None))
    [(name, payload, row, _)] = calls
    assert name == "result_confirmed" and payload["actor"] == match.organiser and row["score1"] == 5


def test_disagreeing_reports_send_result_disputed_with_the_why(match, alice, bob, calls):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=bob, claim=claim_make(match, (3, 5), None), statement="I won.")
    [(name, payload, row, atomic)] = calls
    assert name == "result_disputed" and set(payload) == {"match", "user", "statement", "scores"}
    # The why is data (worded where the dispute is read); the statement is the player's own words.
    assert payload["user"] == bob and payload["statement"] == "I won."
    assert payload["scores"] == [[5, 3], [3, 5]]
    assert row["status"] == Match.Status.DISPUTED and atomic


def test_a_reopened_result_sends_result_reopened(match, calls):
    match_override(match_id=match.pk, user=match.organiser, claim=claim_make(match, (5, 1), None))
    calls.clear()
    match_reopen(match_id=match.pk, actor=match.organiser, note="replay game 3")
    [(name, payload, row, atomic)] = calls
    assert name == "result_reopened" and set(payload) == {"match", "actor"}
    assert payload["actor"] == match.organiser
    assert row == {"status": Match.Status.IN_PLAY, "score0": None, "score1": None} and atomic


def test_a_refusing_callback_rolls_the_confirmation_back(match, alice, bob, refusing,
                                                         django_capture_on_commit_callbacks):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    audited = AuditEntry.objects.count()
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(Refused):
        match_confirm(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.score0 is None and not match.games.exists()
    assert list(match.reports.values_list("status", flat=True)) == [Report.Status.PENDING]
    assert AuditEntry.objects.count() == audited and callbacks == []
    assert list(OutboxTask.objects.values_list("args", flat=True)) == [[match.pk, "reported"]]  # none of the confirmation


def test_a_refusing_callback_rolls_the_override_back(match, refusing):
    with pytest.raises(Refused):
        match_override(match_id=match.pk, user=match.organiser, claim=claim_make(match, (5, 1), None))
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and not match.reports.exists()


def test_a_refusing_callback_rolls_the_dispute_back(match, alice, bob, refusing):
    match_report(match_id=match.pk, user=alice, claim=claim_make(match, (5, 3), None))
    with pytest.raises(Refused):
        match_report(match_id=match.pk, user=bob, claim=claim_make(match, (3, 5), None))
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    assert list(match.reports.values_list("status", flat=True)) == [Report.Status.PENDING]


def test_callbacks_run_by_order_then_name_not_by_connection_order():
    hook = hooks.Hook("test", ("value",))
    ran = []
    hook.connect(lambda value: ran.append(("late", value)), name="b.late", order=hooks.ORDER_BUILT_ON)
    hook.connect(lambda value: ran.append(("second", value)), name="b.records", order=hooks.ORDER_MATCH_RECORDS)
    hook.connect(lambda value: ran.append(("first", value)), name="a.records", order=hooks.ORDER_MATCH_RECORDS)
    hook.send(value=1)
    assert ran == [("first", 1), ("second", 1), ("late", 1)]
    assert hook.receivers() == ["a.records", "b.records", "b.late"]


def test_connecting_a_name_again_replaces_it_and_a_wrong_payload_is_refused():
    hook = hooks.Hook("test", ("value",))
    ran = []
    hook.connect(lambda value: ran.append("old"), name="x", order=1)
    hook.connect(lambda value: ran.append("new"), name="x", order=1)
    hook.send(value=1)
    assert ran == ["new"]
    with pytest.raises(TypeError):
        hook.send(value=1, other=2)


def test_the_installed_apps_register_disputes_first_then_the_draw():
    assert hooks.result_confirmed.receivers() == [
        "rulings.disputes_settle_automatic", "analysis.match_analysis_queue", "tournaments.tournament_result_confirmed",
        "webhooks.result_confirmed"]
    assert hooks.match_imported.receivers() == ["analysis.match_analysis_queue"]
    assert hooks.result_disputed.receivers() == ["rulings.dispute_open_automatic"]
    assert hooks.result_reopened.receivers() == ["tournaments.tournament_result_confirmed"]


# --- match contexts ----------------------------------------------------------------------------------


def test_the_installed_apps_register_their_contexts_in_a_fixed_order():
    assert [c.name for c in hooks.match_contexts.entries()] == ["event", "club"]
    assert hooks.match_context_inputs() == ("event", "club", "club_night")
    assert [c.name for c in hooks.player_contexts.entries()] == ["club"]


def test_match_create_refuses_a_context_no_app_takes(match):
    from engine.match import MatchRules
    from matches.services.matches import match_create

    with pytest.raises(TypeError):
        match_create(created_by=match.organiser, sides=([match.side0.player_a], [match.side1.player_a]),
                     rules=MatchRules(3), context={"league": 1})


def test_a_match_and_its_event_are_read_in_one_query(django_assert_num_queries):
    from tests.factories import TournamentFactory
    from tournaments.models import event_of

    event = TournamentFactory()
    in_event, friendly = MatchFactory(event=event), MatchFactory()
    with django_assert_num_queries(1):
        found = Match.objects.with_side_ids().in_bulk([in_event.pk, friendly.pk])
        assert event_of(found[in_event.pk]) == event and event_of(found[friendly.pk]) is None
        assert hooks.audit_ids(found[in_event.pk]) == {"tournament_id": event.pk}
        assert hooks.describe(found[in_event.pk]) == [("Event", event.name)] and hooks.describe(found[friendly.pk]) == []


def test_a_new_matchs_contexts_cost_no_query_to_read(match, django_assert_num_queries):
    from engine.match import MatchRules
    from matches.services.matches import match_create

    created = match_create(created_by=match.organiser, sides=([match.side0.player_a], [match.side1.player_a]),
                           rules=MatchRules(3))
    with django_assert_num_queries(0):
        assert hooks.audit_ids(created) == {"tournament_id": None} and hooks.summary(created) == {"event": None}
