"""Games recorded at one chouette table at the same moment are written one after the other under the
session's row lock: the steps are numbered without gaps, each game is played by the line-up the games
before it lead to, and the line-up is what a sequential replay gives."""

from __future__ import annotations

import threading

import pytest

from audit.models import AuditEntry
from chouette import services
from chouette.models import ChouetteSession
from chouette.selectors import chouette_state
from chouette.services import state
from engine.chouette import chouette_next_lineup, game_from_json, lineup_from_json, lineup_from_rolloff
from tests.chouette.factories import quick, table
from tests.clubs.factories import club_cast
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def slow_replay(monkeypatch):
    """Widen the window between reading the steps and writing the new one, so that two writers that
    were not serialised would both read the same last step (and collide or replay a stale line-up)."""
    fold = state.session_advance  # the services' one engine call: it folds the new step into the state
    pause = threading.Event()

    def slow(state, steps, settings):
        pause.wait(0.05)
        return fold(state, steps, settings)

    monkeypatch.setattr(state, "session_advance", slow)


def sequential_lineups(session: ChouetteSession):
    """Replay the recorded games' records one by one from the roll-off, with the engine alone:
    the line-up before each game, and the one after the last."""
    steps = list(session.steps.order_by("number"))
    lineup = lineup_from_rolloff(steps[0].record["rolloff"])
    before = []
    for step in steps[1:]:
        before.append(lineup)
        lineup = chouette_next_lineup(lineup, game_from_json(step.record["entered"]))
    return before, lineup


def record(cast, session, entry, **extra):
    return lambda: services.chouette_game_record(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser,
                                                 kind="quick", record=entry, **extra)


def test_two_games_recorded_at_once_are_serialised_and_the_line_up_is_a_sequential_replay(slow_replay):
    cast = club_cast()
    session = table(cast)
    outcomes = at_once([record(cast, session, quick("team")), record(cast, session, quick("box"))])
    assert outcomes == ["done", "done"]
    session.refresh_from_db()
    assert list(session.steps.values_list("number", flat=True).order_by("number")) == [1, 2, 3]
    assert session.version == 3
    before, after = sequential_lineups(session)
    games = list(session.steps.filter(kind="game").order_by("number"))
    assert [lineup_from_json(game.record["lineup"]) for game in games] == before
    state = chouette_state(session=session)
    assert (state.lineup[0].player_id, state.lineup[1].player_id, tuple(seat.player_id for seat in state.crew)) == (
        after.box, after.captain, after.crew)
    assert sum(row.points for row in state.ledger) == 0


def test_four_writers_at_once_leave_no_gap_in_the_steps(slow_replay):
    cast = club_cast()
    session = table(cast)
    outcomes = at_once([record(cast, session, quick(winner)) for winner in ("box", "team", "team", "box")])
    assert outcomes == ["done"] * 4
    assert list(session.steps.values_list("number", flat=True).order_by("number")) == [1, 2, 3, 4, 5]
    before, after = sequential_lineups(session)
    games = list(session.steps.filter(kind="game").order_by("number"))
    assert [lineup_from_json(game.record["lineup"]) for game in games] == before
    assert chouette_state(session=session).lineup[0].player_id == after.box


def test_two_pages_entering_a_game_from_the_same_table_get_one_in_and_the_other_told_to_reload(slow_replay):
    cast = club_cast()
    session = table(cast)
    outcomes = at_once([record(cast, session, quick("team"), expected_version=1),
                        record(cast, session, quick("box"), expected_version=1)])
    assert sorted(outcomes) == ["done", "stale_table"]
    assert list(session.steps.values_list("number", flat=True).order_by("number")) == [1, 2]


def end(cast, session):
    return lambda: services.chouette_end(club_id=cast.club.pk, chouette_id=session.pk, user=cast.owner)


def void(cast, session, number):
    return lambda: services.chouette_game_void(club_id=cast.club.pk, chouette_id=session.pk, number=number,
                                               user=cast.organiser)


def assert_nothing_changed_after_the_end(session: ChouetteSession) -> None:
    """The settlement the end announced (its audit entry) is the table's settlement now, and no step
    was written after the end."""
    session.refresh_from_db()
    assert session.status == "ended"
    announced = AuditEntry.objects.get(action="chouette.ended", object_id=session.pk).after["ledger"]
    assert announced == {str(row.player_id): row.points for row in chouette_state(session=session).ledger}
    assert all(step.recorded_at <= session.ended_at for step in session.steps.all())


@pytest.mark.parametrize("writer", ["record", "void"])
def test_a_change_at_the_moment_the_session_ends_is_in_before_the_end_or_refused(slow_replay, writer):
    cast = club_cast()
    session = table(cast)
    record(cast, session, quick("box"))()
    record(cast, session, quick("box"))()
    change = record(cast, session, quick("team")) if writer == "record" else void(cast, session, 2)
    outcomes = at_once([change, end(cast, session)])
    assert outcomes[1] == "done" and outcomes[0] in ("done", "chouette_ended")
    assert_nothing_changed_after_the_end(session)
