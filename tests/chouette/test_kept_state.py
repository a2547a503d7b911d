"""Recording game N+1 folds one game into the state kept after game N (ChouetteSession.kept): one
game settled and no step row read, however long the session, in as many queries at game 4 as at game
41. A kept state that no longer matches the steps (a history edited below the services, rows added
behind their back, another version, a broken value) is detected and the session replayed in full, so
the answer is always a full replay's."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chouette import selectors
from chouette.models import ChouetteSession, ChouetteStep
from chouette.selectors import chouette_replay
from chouette.services import (
    chouette_end,
    chouette_game_amend,
    chouette_game_void,
    chouette_join,
    chouette_leave,
)
from engine.chouette import JoinStep, lineup_from_json, step_to_json
from engine.chouette import session as engine_session
from tests.chouette.factories import ids, play, quick, table
from tests.clubs.factories import club_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def engine_calls(monkeypatch):
    """How many games the engine settles and how many stored steps are parsed."""
    calls = {"settled": 0, "parsed": 0}
    settle, parse = engine_session.chouette_settle, selectors.step_from_json

    def settled(*args):
        calls["settled"] += 1
        return settle(*args)

    def parsed(*args, **kwargs):
        calls["parsed"] += 1
        return parse(*args, **kwargs)

    monkeypatch.setattr(engine_session, "chouette_settle", settled)
    monkeypatch.setattr(selectors, "step_from_json", parsed)

    def reset():
        calls.update(settled=0, parsed=0)
        return calls

    return reset


def winner(number: int) -> str:
    return "team" if number % 3 else "box"


def played(cast, session, games: int) -> None:
    for number in range(games):
        play(cast, session, quick(winner(number), cubes={}))


def full_replay(session: ChouetteSession):
    return chouette_replay(session, list(session.steps.order_by("number")))


def kept_is_the_full_replay(session: ChouetteSession) -> None:
    session.refresh_from_db()
    replayed = full_replay(session)
    kept = session.kept["state"]
    assert kept["ledger"] == [[player, points] for player, points in replayed.ledger.items()]
    assert lineup_from_json(kept["lineup"]) == replayed.lineup
    assert kept["steps"] == session.steps.count() and session.kept["version"] == session.version


def test_game_n_plus_1_of_a_long_session_settles_one_game_reads_no_step_and_costs_what_game_4_costs(engine_calls):
    cast = club_cast()
    short, long = table(cast, name="short"), table(cast, name="long")
    played(cast, short, 3)
    played(cast, long, 40)

    calls = engine_calls()
    with CaptureQueriesContext(connection) as at_4:
        play(cast, short, quick("box"))
    assert calls == {"settled": 1, "parsed": 0}
    calls = engine_calls()
    with CaptureQueriesContext(connection) as at_41:
        row = play(cast, long, quick("box"))
    assert calls == {"settled": 1, "parsed": 0}
    assert len(at_41) == len(at_4) == 9  # the savepoint and its release included
    assert not any('"clubs_chouettestep"."record"' in query["sql"] for query in at_41.captured_queries)

    assert row.number == 42
    last = full_replay(long).games[-1]  # the replay checks every game's pinned line-up on the way
    assert last.step == 41 and lineup_from_json(row.record["lineup"]) == last.lineup
    kept_is_the_full_replay(long)
    kept_is_the_full_replay(short)


def test_a_step_row_edited_below_the_services_empties_the_kept_state_and_the_next_game_replays_in_full(
        engine_calls):
    cast = club_cast()
    session = table(cast)
    played(cast, session, 8)
    last_game = session.steps.filter(kind="game").order_by("-number").first()
    before_it = full_replay(session).games[-1].lineup  # the line-up game 8 was played with
    ChouetteStep.objects.filter(pk=last_game.pk).update(voided=True)  # no service, no version moved on
    session.refresh_from_db()
    assert session.kept is None  # the trigger

    calls = engine_calls()
    row = play(cast, session, quick("box"))

    # 7 games replayed and the new one: with the kept state it would have been played by the line-up
    # after game 8, which no longer counts.
    assert calls["settled"] == 8 and calls["parsed"] == 9  # the start and 8 games
    assert lineup_from_json(row.record["lineup"]) == before_it
    kept_is_the_full_replay(session)


def test_a_step_added_behind_the_services_back_is_seen_by_the_count_and_replayed(engine_calls):
    cast = club_cast()
    p = ids(cast)
    session = table(cast)
    played(cast, session, 3)
    ChouetteStep.objects.create(session=session, number=5, kind="join", player_id=p["pat"],
                                record=step_to_json(JoinStep(p["pat"])), recorded_by=cast.organiser)

    calls = engine_calls()
    row = play(cast, session, quick("team"))

    assert calls["settled"] == 4 and row.number == 6
    assert p["pat"] in lineup_from_json(row.record["lineup"]).players
    kept_is_the_full_replay(session)


@pytest.mark.parametrize("tamper", [
    {"version": 1},
    {"count": 99},
    {"last": 99},
    {"games": 0},
    {"settings": {"jacoby": False}},
    {"state": {"steps": "four"}},
    {"state": None},
])
def test_a_kept_state_computed_from_something_else_is_not_used(engine_calls, tamper):
    cast = club_cast()
    session = table(cast)
    played(cast, session, 3)
    session.refresh_from_db()
    ChouetteSession.objects.filter(pk=session.pk).update(kept={**session.kept, **tamper})

    calls = engine_calls()
    play(cast, session, quick("box"))

    assert calls["settled"] == 4
    kept_is_the_full_replay(session)


def test_corrections_replay_in_full_and_keep_the_state_they_lead_to(engine_calls):
    cast = club_cast()
    p = ids(cast)
    session = table(cast, dice=(("ann", 6), ("otis", 5), ("mia", 4)))
    played(cast, session, 6)
    chouette_game_amend(club_id=cast.club.pk, chouette_id=session.pk, number=6, user=cast.organiser, kind="quick",
                        record=quick(winner(5), 2))
    kept_is_the_full_replay(session)
    chouette_game_void(club_id=cast.club.pk, chouette_id=session.pk, number=6, user=cast.organiser)
    kept_is_the_full_replay(session)
    chouette_join(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, player_id=p["max"])
    kept_is_the_full_replay(session)
    chouette_leave(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, player_id=p["ann"])
    kept_is_the_full_replay(session)

    calls = engine_calls()
    play(cast, session, quick("team"))
    assert calls == {"settled": 1, "parsed": 0}
    kept_is_the_full_replay(session)
    chouette_end(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser)
    kept_is_the_full_replay(session)
