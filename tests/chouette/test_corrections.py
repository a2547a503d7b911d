"""Corrections at a chouette table (chouette_game_amend, chouette_game_void): the ledger and the
line-up are recomputed from the steps, a correction that a later step does not survive is refused
with that step's number, and every correction is in the audit log. The usual table: Ann is the Box,
Otis the Captain, Mia and Max the crew."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from chouette.selectors import chouette_state
from chouette.services import chouette_game_amend, chouette_game_void
from core.errors import Conflict, DomainError, NotAllowed
from tests.chouette.factories import chouette_snapshot, play, quick, table

pytestmark = pytest.mark.django_db


def lineup(session) -> list[str]:
    return [seat.display_name for seat in chouette_state(session=session).lineup]


def ledger(session) -> dict[str, int]:
    return {row.display_name: row.points for row in chouette_state(session=session).ledger}


def refused(call, kind=DomainError):
    with pytest.raises(kind) as caught:
        call()
    return caught.value


def amend(cast, session, number, record, *, user=None, **extra):
    return chouette_game_amend(club_id=cast.club.pk, chouette_id=session.pk, number=number,
                               user=user or cast.organiser, kind="quick", record=record, **extra)


def void(cast, session, number, *, user=None, **extra):
    return chouette_game_void(club_id=cast.club.pk, chouette_id=session.pk, number=number,
                              user=user or cast.organiser, **extra)


def test_amending_a_game_recomputes_the_ledger_and_the_line_up_and_is_audited_before_and_after(cast, p):
    session = table(cast)
    play(cast, session, quick("box"))
    assert lineup(session) == ["Ann", "Mia", "Max", "Otis"]
    step = amend(cast, session, 1, quick("team", cubes={p["otis"]: 2}))
    assert (step.number, step.amended, step.record["entered"]["winner"]) == (2, 1, "team")
    # Otis beat the Box after all: he is the Box, Ann goes to the bottom.
    assert lineup(session) == ["Otis", "Mia", "Max", "Ann"]
    assert ledger(session) == {"Ann": -4, "Otis": 2, "Mia": 1, "Max": 1}
    session.refresh_from_db()
    assert session.version == 3
    entry = AuditEntry.objects.get(action="chouette.game_amended")
    assert entry.before["amounts"] == {str(p["ann"]): 3, str(p["otis"]): -1, str(p["mia"]): -1, str(p["max"]): -1}
    assert entry.after["amounts"] == {str(p["ann"]): -4, str(p["otis"]): 2, str(p["mia"]): 1, str(p["max"]): 1}
    assert (entry.before["record"]["winner"], entry.after["record"]["winner"], entry.after["amended"]) == ("box", "team", 1)
    assert (entry.object_type, entry.object_id, entry.club_id) == ("clubs.ChouetteStep", step.pk, cast.club.pk)
    assert amend(cast, session, 1, quick("team", cubes={p["otis"]: 4})).amended == 2


def test_amending_an_earlier_game_that_keeps_its_rotation_changes_only_its_own_amounts(cast, p):
    session = table(cast)
    play(cast, session, quick("box"))
    play(cast, session, quick("team", cubes={p["mia"]: 2}))   # Mia captains and wins: she boxes next
    amend(cast, session, 1, quick("box", 2, cubes={p["otis"]: 2}))
    # Jacoby: the gammon counts double only for Otis, whose cube was turned.
    assert ledger(session) == {"Ann": 6 - 4, "Otis": -4 + 1, "Mia": -1 + 2, "Max": -1 + 1}
    assert lineup(session) == ["Mia", "Max", "Otis", "Ann"]
    assert [game.number for game in chouette_state(session=session).games] == [2, 1]


def test_voiding_the_game_that_made_a_box_change_moves_the_box_back(cast, p):
    session = table(cast)
    play(cast, session, quick("box"))
    play(cast, session, quick("team", cubes={p["mia"]: 2}))
    assert lineup(session) == ["Mia", "Max", "Otis", "Ann"]
    step = void(cast, session, 2)
    assert step.voided
    assert lineup(session) == ["Ann", "Mia", "Max", "Otis"]
    assert ledger(session) == {"Ann": 3, "Otis": -1, "Mia": -1, "Max": -1}
    state = chouette_state(session=session)
    assert [(game.number, game.voided, game.amounts is None) for game in state.games] == [(2, True, True), (1, False, False)]
    assert state.last_game.number == 1
    entry = AuditEntry.objects.get(action="chouette.game_voided")
    assert entry.before["amounts"] == {str(p["ann"]): -4, str(p["otis"]): 1, str(p["mia"]): 2, str(p["max"]): 1}
    # The next game is played by the line-up as it stands without the voided one.
    play(cast, session, quick("box"))
    assert lineup(session) == ["Ann", "Max", "Otis", "Mia"]


def test_voiding_again_changes_nothing(cast):
    session = table(cast)
    play(cast, session, quick("box"))
    void(cast, session, 1)
    before = chouette_snapshot(session)
    assert void(cast, session, 1).voided
    assert chouette_snapshot(session) == before


def test_a_correction_a_later_game_does_not_survive_is_refused_with_its_step_and_changes_nothing(cast, p):
    session = table(cast)
    play(cast, session, quick("box"))                                    # step 2, game 1
    play(cast, session, quick("box"))                                    # step 3, game 2: Ann / Mia, Max, Otis
    before = chouette_snapshot(session)
    error = refused(lambda: void(cast, session, 1), Conflict)
    assert (error.code, error.details["step"], error.details["game"]) == ("later_games_to_amend", 3, 2)
    assert error.message == ("This correction changes who plays later games. Amend them with it: game 2 was played "
                             "by Mia as Captain against Ann in the box; it now falls to Otis as Captain against Ann.")
    error = refused(lambda: amend(cast, session, 1, quick("team")), Conflict)
    assert (error.code, error.details["step"], error.details["game"]) == ("later_games_to_amend", 3, 2)
    assert error.details["games"][0]["box"] == "Otis" and error.details["games"][0]["recorded_box"] == "Ann"
    assert chouette_snapshot(session) == before


def test_an_amendment_that_does_not_fit_its_game_is_refused_with_its_field(cast, p):
    session = table(cast)
    play(cast, session, quick("box"))
    before = chouette_snapshot(session)
    error = refused(lambda: amend(cast, session, 1, quick("box", cubes={p["xavier"]: 2})), DomainError)
    assert (error.code, error.details["field"]) == ("unknown_player", "cubes[0].player")
    error = refused(lambda: amend(cast, session, 1,
                          quick("box", amounts={p["ann"]: 3, p["otis"]: -3})), DomainError)
    assert (error.code, error.details["field"]) == ("amounts_mismatch", "amounts[1]")
    assert chouette_snapshot(session) == before


def test_a_voided_game_cannot_be_amended(cast):
    session = table(cast)
    play(cast, session, quick("box"))
    void(cast, session, 1)
    before = chouette_snapshot(session)
    error = refused(lambda: amend(cast, session, 1, quick("team")), Conflict)
    assert (error.code, error.details["game"]) == ("chouette_game_voided", 1)
    assert chouette_snapshot(session) == before


def test_only_owners_and_organisers_correct_games_and_from_the_table_as_they_saw_it(cast):
    session = table(cast)
    play(cast, session, quick("box"))
    before = chouette_snapshot(session)
    for user in (cast.members[0], cast.outsider):
        assert refused(lambda user=user: amend(cast, session, 1, quick("team"), user=user), NotAllowed).code == "not_club_manager"
        assert refused(lambda user=user: void(cast, session, 1, user=user), NotAllowed).code == "not_club_manager"
    assert refused(lambda: amend(cast, session, 1, quick("team"), expected_version=1), Conflict).code == "stale_table"
    assert refused(lambda: void(cast, session, 1, expected_version=1), Conflict).code == "stale_table"
    assert chouette_snapshot(session) == before
    assert void(cast, session, 1, user=cast.owner, expected_version=2).voided
