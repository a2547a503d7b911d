"""The chouette services (chouette.services): starting a table, joining and leaving, recording
quick and full games, every refusal (each with its code and field, and nothing changed), and the end
of the session with its settlement. The usual table: Ann is the Box, Otis the Captain, Mia and Max
the crew (tests.chouette.factories)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from audit.models import AuditEntry
from chouette.models import ChouetteSession, ChouetteStep
from chouette.selectors import chouette_night_totals, chouette_state
from chouette.services import (
    chouette_end,
    chouette_game_amend,
    chouette_game_record,
    chouette_join,
    chouette_leave,
    chouette_start,
)
from core.errors import Conflict, DomainError, NotAllowed
from tests.chouette.factories import box_double, chouette_snapshot, full_record, play, quick, table
from tests.clubs.factories import ClubNightFactory, club_cast

pytestmark = pytest.mark.django_db


def lineup(session) -> list[tuple[str, str]]:
    return [(seat.display_name, seat.role) for seat in chouette_state(session=session).lineup]


def ledger(session) -> dict[str, int]:
    return {row.display_name: row.points for row in chouette_state(session=session).ledger}


def refused(call, kind=DomainError):
    with pytest.raises(kind) as caught:
        call()
    return caught.value


def actions(session):
    return list(AuditEntry.objects.filter(club_id=session.club_id, action__startswith="chouette.")
                .order_by("id").values_list("action", flat=True))


# --- starting ------------------------------------------------------------------------------------------


def test_the_organiser_starts_a_table_whose_line_up_comes_from_the_roll_off(cast, p):
    session = table(cast, beavers=True, automatic_doubles=2, box_partner_from=4)
    assert lineup(session) == [("Ann", "box"), ("Otis", "captain"), ("Mia", "crew"), ("Max", "crew")]
    assert (session.status, session.version, session.stake, session.beavers, session.automatic_doubles) == (
        "open", 1, Decimal("2.50"), True, 2)
    step = session.steps.get()
    assert (step.number, step.kind, step.record["type"]) == (1, "start", "start")
    assert actions(session) == ["chouette.started"]
    entry = AuditEntry.objects.get(action="chouette.started")
    assert entry.after["lineup"] == {"box": p["ann"], "captain": p["otis"], "crew": [p["mia"], p["max"]]}


def test_ties_on_the_roll_off_are_broken_by_rerolls(cast, p):
    session = chouette_start(club_id=cast.club.pk, user=cast.owner, rolloff=[
        [[p["ann"], 6], [p["otis"], 6], [p["mia"], 2]], [[p["ann"], 3], [p["otis"], 5]]])
    assert lineup(session) == [("Otis", "box"), ("Ann", "captain"), ("Mia", "crew")]


@pytest.mark.parametrize(("name", "code", "field"), [
    ("xavier", "unknown_player", "rolloff[0][2][0]"),   # an outsider
    ("pat", "unknown_player", "rolloff[0][2][0]"),      # asked to join, not a member
    ("ivy", "unknown_player", "rolloff[0][2][0]"),      # invited, not a member
])
def test_a_roll_off_with_someone_who_is_not_a_member_is_refused_and_nothing_is_created(cast, p, name, code, field):
    error = refused(lambda: chouette_start(club_id=cast.club.pk, user=cast.organiser,
                                           rolloff=[[[p["ann"], 6], [p["otis"], 5], [p[name], 4]]]))
    assert (error.code, error.details["field"]) == (code, field)
    assert not ChouetteSession.objects.exists() and not AuditEntry.objects.filter(action__startswith="chouette").exists()


@pytest.mark.parametrize(("rolloff", "code", "field"), [
    ([[["ann", 6], ["otis", 6]]], "rolloff_tie", "rolloff[1]"),
    ([[["ann", 6], ["otis", 7]]], "bad_die", "rolloff[0]"),
    ([[["ann", 6]]], "too_few_players", "rolloff"),
    ([[["ann", 6], ["ann", 5]]], "duplicate_player", "rolloff[0]"),
    ([[["ann", 6], ["otis", 5]], [["ann", 3]]], "rolloff_not_tied", "rolloff[1]"),
    ([[["ann"]]], "bad_json", "rolloff[0][0]"),
    ("6 5", "bad_json", "rolloff"),
])
def test_a_roll_off_the_engine_refuses_is_refused_with_its_code_and_field(cast, p, rolloff, code, field):
    if isinstance(rolloff, list):
        rolloff = [[[p[pair[0]], *pair[1:]] for pair in rolls] for rolls in rolloff]
    error = refused(lambda: chouette_start(club_id=cast.club.pk, user=cast.organiser, rolloff=rolloff))
    assert (error.code, error.details["field"]) == (code, field)
    assert not ChouetteSession.objects.exists()


@pytest.mark.parametrize(("settings", "code", "field"), [
    ({"raccoons": True}, "raccoons_without_beavers", "raccoons"),
    ({"box_partner_from": 2}, "bad_settings", "box_partner_from"),
    ({"lone_taker_must_beaver": True}, "bad_settings", "lone_taker_must_beaver"),
    ({"automatic_doubles": -1}, "bad_settings", "automatic_doubles"),
    ({"automatic_doubles": 31}, "bad_chouette", "automatic_doubles"),
    ({"stake": Decimal("-1")}, "bad_chouette", "stake"),
    ({"stake": Decimal("0.125")}, "bad_chouette", "stake"),
    ({"stake": "lots"}, "bad_chouette", "stake"),
    ({"currency": "euro"}, "bad_chouette", "currency"),
    ({"name": "x" * 81}, "bad_chouette", "name"),
])
def test_settings_the_engine_or_the_table_refuse_are_refused_and_nothing_is_created(cast, settings, code, field):
    error = refused(lambda: table(cast, **settings))
    assert (error.code, error.details["field"]) == (code, field)
    assert not ChouetteSession.objects.exists()


def test_only_owners_and_organisers_start_a_table(cast, p):
    for user in (cast.members[0], cast.outsider, cast.requester):
        error = refused(lambda user=user: chouette_start(club_id=cast.club.pk, user=user,
                                                         rolloff=[[[p["ann"], 6], [p["otis"], 5]]]), NotAllowed)
        assert error.code == "not_club_manager"
    assert chouette_start(club_id=cast.club.pk, user=cast.owner, rolloff=[[[p["ann"], 6], [p["otis"], 5]]])


def test_a_table_at_a_night_belongs_to_it_and_a_closed_night_takes_none(cast, p):
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    assert table(cast, night_id=night.pk).night == night
    closed = ClubNightFactory(club=cast.club, opened_by=cast.organiser, closed=True)
    assert refused(lambda: table(cast, night_id=closed.pk), Conflict).code == "night_closed"
    other = ClubNightFactory(opened_by=cast.organiser)
    error = refused(lambda: table(cast, night_id=other.pk))
    assert (error.code, error.details["field"]) == ("unknown_night", "night")
    assert ChouetteSession.objects.count() == 1


# --- joining and leaving ---------------------------------------------------------------------------------


def test_a_newcomer_joins_at_the_bottom_of_the_line(cast, p):
    session = table(cast, dice=(("ann", 6), ("otis", 5), ("mia", 4)))
    step = chouette_join(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, player_id=p["max"])
    assert (step.number, step.kind, step.player_id) == (2, "join", p["max"])
    assert lineup(session)[-1] == ("Max", "crew")
    session.refresh_from_db()
    assert session.version == 2
    assert actions(session) == ["chouette.started", "chouette.joined"]


def test_joining_is_refused_for_someone_at_the_table_or_not_in_the_club_and_changes_nothing(cast, p):
    session = table(cast)
    before = chouette_snapshot(session)
    join = lambda player: chouette_join(club_id=cast.club.pk, chouette_id=session.pk,  # noqa: E731
                                        user=cast.organiser, player_id=player)
    error = refused(lambda: join(p["mia"]), Conflict)
    assert (error.code, error.details["field"]) == ("duplicate_player", "player")
    for outsider in (p["xavier"], p["pat"], 999_999, "mia"):
        error = refused(lambda outsider=outsider: join(outsider))
        assert (error.code, error.details["field"]) == ("unknown_player", "player")
    assert refused(lambda: chouette_join(club_id=cast.club.pk, chouette_id=session.pk, user=cast.members[0],
                                         player_id=p["mia"]), NotAllowed).code == "not_club_manager"
    assert chouette_snapshot(session) == before


def test_when_the_box_leaves_the_captain_boxes_and_his_ledger_stays(cast, p):
    session = table(cast)
    play(cast, session, quick("box"))  # Ann +3; Otis goes to the bottom
    chouette_leave(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, player_id=p["ann"])
    assert lineup(session) == [("Mia", "box"), ("Max", "captain"), ("Otis", "crew")]
    assert ledger(session)["Ann"] == 3
    assert [row.seated for row in chouette_state(session=session).ledger] == [False, True, True, True]


def test_leaving_is_refused_for_someone_not_at_the_table_and_for_the_last_two(cast, p):
    session = table(cast, dice=(("ann", 6), ("otis", 5)))
    before = chouette_snapshot(session)
    leave = lambda player: chouette_leave(club_id=cast.club.pk, chouette_id=session.pk,  # noqa: E731
                                          user=cast.organiser, player_id=player)
    error = refused(lambda: leave(p["mia"]))
    assert (error.code, error.details["field"]) == ("unknown_player", "player")
    error = refused(lambda: leave(p["ann"]), Conflict)
    assert (error.code, error.details["field"]) == ("too_few_players", "player")
    assert chouette_snapshot(session) == before


# --- games ---------------------------------------------------------------------------------------------


def test_the_box_beats_the_captain_and_stays_while_the_captain_goes_to_the_bottom(cast, p):
    session = table(cast)
    step = play(cast, session, quick("box", cubes={p["otis"]: 2, p["mia"]: 2}))
    assert (step.number, step.kind, step.record["entry"]) == (2, "game", "quick")
    assert lineup(session) == [("Ann", "box"), ("Mia", "captain"), ("Max", "crew"), ("Otis", "crew")]
    assert ledger(session) == {"Ann": 5, "Otis": -2, "Mia": -2, "Max": -1}
    state = chouette_state(session=session)
    assert [(a.display_name, a.role, a.points, a.money) for a in state.games[0].amounts] == [
        ("Ann", "box", 5, Decimal("12.50")), ("Otis", "captain", -2, Decimal("-5.00")),
        ("Mia", "crew", -2, Decimal("-5.00")), ("Max", "crew", -1, Decimal("-2.50"))]
    entry = AuditEntry.objects.get(action="chouette.game_recorded")
    assert entry.after["amounts"] == {str(p["ann"]): 5, str(p["otis"]): -2, str(p["mia"]): -2, str(p["max"]): -1}


def test_the_captain_beats_the_box_and_boxes_next_while_a_crew_member_who_dropped_pays_his_cube(cast, p):
    session = table(cast)
    play(cast, session, quick("team", 2, cubes={p["otis"]: 2, p["mia"]: 2, p["max"]: (1, "member_dropped")}))
    assert lineup(session) == [("Otis", "box"), ("Mia", "captain"), ("Max", "crew"), ("Ann", "crew")]
    assert ledger(session) == {"Ann": -7, "Otis": 4, "Mia": 4, "Max": -1}


def test_the_amounts_the_table_announces_are_checked_against_the_cubes(cast, p):
    session = table(cast)
    play(cast, session, quick("box", amounts={p["ann"]: 3, p["otis"]: -1, p["mia"]: -1, p["max"]: -1}))
    assert ledger(session)["Ann"] == 3


def test_a_box_partner_shares_the_box_result_the_odd_point_to_the_box(cast, p):
    session = table(cast, box_partner_from=4)
    play(cast, session, quick("box", box_partner=p["max"]))
    assert ledger(session) == {"Ann": 1, "Otis": -1, "Mia": -1, "Max": 1}
    game = chouette_state(session=session).games[0]
    assert [(a.display_name, a.role) for a in game.amounts][-1] == ("Max", "box_partner")
    assert [c.display_name for c in game.cubes] == ["Otis", "Mia"]


BAD_GAMES = [
    # (what, record builder, code, field)
    ("amounts that do not settle to zero",
     lambda p: quick("box", amounts={p["ann"]: 3, p["otis"]: -1, p["mia"]: -1}), "amounts_unbalanced", "amounts"),
    ("amounts that do not match the cubes",
     lambda p: quick("box", amounts={p["ann"]: 4, p["otis"]: -2, p["mia"]: -1, p["max"]: -1}), "amounts_mismatch",
     "amounts[0]"),
    ("a cube action by a crew member already out of the game",
     lambda p: quick("team", cubes={p["mia"]: (1, "member_dropped")},
                     log=[box_double((p["mia"], "drop")), {"type": "team_double", "doublers": [p["mia"]]}]),
     "member_out", "log[1]"),
    ("a beaver at a table without beavers",
     lambda p: quick("box", cubes={p["max"]: 4}, log=[box_double((p["max"], "beaver"))]), "beavers_not_allowed",
     "log[0]"),
    ("cube decisions from the top of the line down",
     lambda p: quick("box", cubes={p["mia"]: 2, p["max"]: 2}, log=[box_double((p["mia"], "take"), (p["max"], "take"))]),
     "decision_order", "log[0]"),
    ("a cube for a player who is not at the table",
     lambda p: quick("box", cubes={p["xavier"]: 2}), "unknown_player", "cubes[0].player"),
    ("a cube for the Box",
     lambda p: quick("box", cubes={p["otis"]: 1, p["ann"]: 2}), "unknown_player", "cubes[1]"),
    ("a cube that is not a power of two",
     lambda p: quick("box", cubes={p["otis"]: 1, p["mia"]: 3}), "bad_cube_value", "cubes[1].value"),
    ("no winner while members played to the end", lambda p: quick(None), "missing_result", "winner"),
    ("a level that is not single, gammon or backgammon", lambda p: quick("box", 4), "bad_json", "level"),
    ("automatic doubles at a table without them", lambda p: quick("box", automatic=1), "too_many_automatic", "automatic"),
    ("a Box partner at a table without one", lambda p: quick("box", box_partner=p["max"]), "box_partner_not_allowed",
     "box_partner"),
    ("an unknown field", lambda p: {**quick("box"), "stake": 100}, "bad_json", ""),
]


@pytest.mark.parametrize(("what", "build", "code", "field"), BAD_GAMES, ids=[case[0] for case in BAD_GAMES])
def test_a_game_record_that_does_not_fit_is_refused_with_its_field_and_changes_nothing(cast, p, what, build, code, field):
    session = table(cast)
    play(cast, session, quick("box"))
    play(cast, session, quick("team"))  # Mia captained and won: Mia / Max, Otis, Ann
    chouette_leave(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, player_id=p["mia"])
    chouette_join(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, player_id=p["mia"])
    assert lineup(session) == [("Max", "box"), ("Otis", "captain"), ("Ann", "crew"), ("Mia", "crew")]
    # The cases are written for Ann / Otis, Mia, Max: give each place its player now.
    record = build({**p, "ann": p["max"], "otis": p["otis"], "mia": p["ann"], "max": p["mia"]})
    before = chouette_snapshot(session)
    error = refused(lambda: play(cast, session, record))
    assert error.code == code
    assert (error.details.get("field") or "") == field
    assert chouette_snapshot(session) == before


def test_a_record_of_an_unknown_kind_or_not_an_object_is_refused(cast):
    session = table(cast)
    before = chouette_snapshot(session)
    error = refused(lambda: play(cast, session, quick("box"), kind="sketch"))
    assert (error.code, error.details["field"]) == ("bad_entry", "kind")
    error = refused(lambda: play(cast, session, ["box"]))
    assert (error.code, error.details["field"]) == ("bad_json", "record")
    error = refused(lambda: play(cast, session, {"winner": "box"}, kind="full"))
    assert (error.code, error.details["field"]) == ("bad_json", "board_log")
    assert chouette_snapshot(session) == before


def test_only_owners_and_organisers_record_games(cast, p):
    session = table(cast)
    before = chouette_snapshot(session)
    for user in (cast.members[0], cast.outsider):
        error = refused(lambda user=user: chouette_game_record(
            club_id=cast.club.pk, chouette_id=session.pk, user=user, kind="quick", record=quick("box")), NotAllowed)
        assert error.code == "not_club_manager"
    assert chouette_snapshot(session) == before
    chouette_game_record(club_id=cast.club.pk, chouette_id=session.pk, user=cast.owner, kind="quick",
                         record=quick("box"))


def test_a_game_entered_from_a_table_that_has_moved_on_is_refused(cast):
    session = table(cast)
    play(cast, session, quick("box"))
    before = chouette_snapshot(session)
    error = refused(lambda: chouette_game_record(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser,
                                                 kind="quick", record=quick("box"), expected_version=1), Conflict)
    assert (error.code, error.details["version"]) == ("stale_table", 2)
    assert chouette_snapshot(session) == before
    chouette_game_record(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, kind="quick",
                         record=quick("box"), expected_version=2)


# --- full records -----------------------------------------------------------------------------------------


def test_a_full_game_is_replayed_from_the_board_and_the_crew_moments(cast, p):
    session = table(cast)
    step = play(cast, session, full_record(p), kind="full")
    assert step.record["entry"] == "full" and step.record["entered"]["board_log"]
    assert ledger(session) == {"Ann": -3, "Otis": -1, "Mia": 2, "Max": 2}
    # The Captain dropped: he lost to the Box, which stays.
    assert lineup(session) == [("Ann", "box"), ("Mia", "captain"), ("Max", "crew"), ("Otis", "crew")]
    game = chouette_state(session=session).games[0]
    assert [(c.display_name, c.value, c.end) for c in game.cubes] == [
        ("Otis", 1, "member_dropped"), ("Mia", 2, "played"), ("Max", 2, "played")]


def test_a_full_game_with_a_board_action_the_engine_refuses_names_its_index(cast, p):
    session = table(cast)
    record = full_record(p)
    record["board_log"][1] = {"type": "move", "side": 1, "play": "24/18 24/18"}  # not the roll the Box made
    before = chouette_snapshot(session)
    error = refused(lambda: play(cast, session, record, kind="full"))
    assert (error.code, error.details["field"], error.details["action_index"]) == ("board_log", "board_log[1]", 1)
    record = full_record(p)
    record["crew_moments"][0]["moment"]["answers"].reverse()  # the Captain's side first
    error = refused(lambda: play(cast, session, record, kind="full"))
    assert (error.code, error.details["field"]) == ("decision_order", "board_log[4]")
    assert chouette_snapshot(session) == before


# --- the end ---------------------------------------------------------------------------------------------


def test_the_end_settles_with_the_fewest_transfers_in_money_and_closes_the_table(cast, p):
    session = table(cast)
    play(cast, session, quick("box", cubes={p["otis"]: 2}))                   # Ann +4, Otis -2, Mia -1, Max -1
    play(cast, session, quick("team", cubes={p["mia"]: 2, p["max"]: 1}))       # Mia captains and wins: Ann -4 ...
    state = chouette_state(session=session)
    assert sum(row.points for row in state.ledger) == 0
    ended = chouette_end(club_id=cast.club.pk, chouette_id=session.pk, user=cast.owner)
    assert (ended.status, ended.ended_at is not None) == ("ended", True)
    state = chouette_state(session=ended)
    balances = {row.display_name: row.points for row in state.ledger}
    assert balances == {"Ann": 0, "Otis": -1, "Mia": 1, "Max": 0}
    assert [(t.payer_name, t.payee_name, t.points, t.money) for t in state.settlement] == [
        ("Otis", "Mia", 1, Decimal("2.50"))]
    entry = AuditEntry.objects.get(action="chouette.ended")
    assert entry.after["transfers"] == [{"payer": p["otis"], "payee": p["mia"], "points": 1, "money": "2.50"}]
    version = ended.version
    assert chouette_end(club_id=cast.club.pk, chouette_id=session.pk, user=cast.owner).version == version
    assert actions(session).count("chouette.ended") == 1


def test_an_ended_table_takes_no_more_games_joins_or_leaves(cast, p):
    session = table(cast)
    play(cast, session, quick("box"))
    chouette_end(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser)
    before = chouette_snapshot(session)
    for call in (
        lambda: play(cast, session, quick("box")),
        lambda: chouette_join(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, player_id=p["mia"]),
        lambda: chouette_leave(club_id=cast.club.pk, chouette_id=session.pk, user=cast.organiser, player_id=p["mia"]),
    ):
        assert refused(call, Conflict).code == "chouette_ended"
    assert chouette_snapshot(session) == before


def test_unknown_tables_and_games_are_not_found(cast, p):
    session = table(cast)
    other = club_cast(name="Other Club", owner=cast.owner, organiser=cast.organiser, members=[], requester=cast.requester,
                      invitee=cast.invitee, outsider=cast.outsider)
    with pytest.raises(ChouetteSession.DoesNotExist):
        play(cast, session.__class__(pk=session.pk + 1000, club=cast.club), quick("box"))
    with pytest.raises(ChouetteSession.DoesNotExist):
        chouette_end(club_id=other.club.pk, chouette_id=session.pk, user=cast.organiser)
    with pytest.raises(ChouetteStep.DoesNotExist):
        chouette_game_amend(club_id=cast.club.pk, chouette_id=session.pk, number=1, user=cast.organiser, kind="quick",
                            record=quick("box"))


# --- a night -------------------------------------------------------------------------------------------------


def test_a_nights_totals_add_up_every_session_at_its_own_stake(cast, p):
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    first = table(cast, night_id=night.pk, stake=Decimal("2.50"))
    play(cast, first, quick("box"))                                  # Ann +3, the others -1 each
    second = table(cast, night_id=night.pk, stake=Decimal("0.10"), dice=(("mia", 6), ("max", 5)))
    play(cast, second, quick("team", cubes={p["max"]: 4}))           # Max +4, Mia -4
    table(cast, stake=Decimal("100"))                                # not at this night
    assert chouette_night_totals(night) == {
        p["ann"]: Decimal("7.50"), p["otis"]: Decimal("-2.50"), p["mia"]: Decimal("-2.90"), p["max"]: Decimal("-2.10")}
