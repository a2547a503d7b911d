"""The chouette house rules a table may play by, one table per rule.

Every rule is a club convention, not a federation's numbered rule: each test names it as the
table's setting and says in our own words where it comes from (see engine/chouette/settings.py).
A record that breaks a rule the table plays by is refused with the rule's own code; the same record
at a table without the rule stands.

Line-ups: THREE is Ann (Box), Bob (Captain) and Cat; LINE adds Dan at the bottom; FIVE adds Eve.
"""

from __future__ import annotations

import pytest

from engine.actions import Double, Drop, Take
from engine.chouette import (
    GAMMON,
    SINGLE,
    Answer,
    BoxDouble,
    ChouetteGame,
    ChouetteSettings,
    CubeEnd,
    GameStep,
    Lineup,
    MemberCube,
    Side,
    StartStep,
    TeamDouble,
    chouette_full_game,
    chouette_next_lineup,
    chouette_settle,
    replay_session,
)
from engine.chouette.settle import replay_cube_log
from engine.errors import ChouetteError
from tests.engine.test_chouette_full_game import BoardLog, opening, team_on_roll

THREE = Lineup("Ann", "Bob", ("Cat",))
LINE = Lineup("Ann", "Bob", ("Cat", "Dan"))
FIVE = Lineup("Ann", "Bob", ("Cat", "Dan", "Eve"))
TAKE, DROP, BEAVER = Answer.TAKE, Answer.DROP, Answer.BEAVER
BASE = {"jacoby": False, "beavers": True, "box_partner_from": None}


def table(**rules) -> ChouetteSettings:
    return ChouetteSettings(**{**BASE, **rules})


def game_of(lineup: Lineup, log, *, winner: Side = Side.TEAM, level: int = SINGLE, automatic: int = 0,
            box_partner=None) -> ChouetteGame:
    """A quick record whose cubes are what its cube log gives (checked against no table), so that
    only the table's rules decide whether it stands."""
    members = [player for player in lineup.team if player != box_partner]
    derived = replay_cube_log(lineup, log, members, 2**automatic, None)
    cubes = tuple(MemberCube(player, *derived[player]) for player in members)
    played = any(end is CubeEnd.PLAYED for _, end in derived.values())
    return ChouetteGame(winner if played else None, level, cubes, box_partner, tuple(log), automatic)


def verdict(lineup: Lineup, log, settings: ChouetteSettings, **game) -> str | None:
    """The code the record is refused with at this table, or None when it stands."""
    try:
        chouette_settle(lineup, game_of(lineup, log, **game), settings)
    except ChouetteError as refused:
        return refused.code
    return None


# --- the Box takes both cubes or passes both at a table of three ----------------------------------

BOTH = table(three_handed_both_cubes=True)


@pytest.mark.parametrize(("lineup", "log", "settings", "code"), [
    # Both cubes turned at once at a table of three: one taken, one passed is refused...
    (THREE, [TeamDouble(("Cat", "Bob"), box_drops={"Cat"})], BOTH, "three_handed_both_cubes"),
    (THREE, [TeamDouble(("Cat", "Bob"), box_drops={"Bob"})], BOTH, "three_handed_both_cubes"),
    # ...both taken or both passed stands,
    (THREE, [TeamDouble(("Cat", "Bob"))], BOTH, None),
    (THREE, [TeamDouble(("Cat", "Bob"), box_drops={"Cat", "Bob"})], BOTH, None),
    # a beaver keeps the cube, so it counts as a take,
    (THREE, [TeamDouble(("Cat", "Bob"), beavers={"Cat"})], BOTH, None),
    # one cube turned alone is the Box's to take or pass,
    (THREE, [TeamDouble(("Bob",), box_drops={"Bob"})], BOTH, None),
    # at four players the rule does not apply,
    (LINE, [TeamDouble(("Cat", "Bob"), box_drops={"Cat"})], BOTH, None),
    # and a table without the rule lets the Box split them.
    (THREE, [TeamDouble(("Cat", "Bob"), box_drops={"Cat"})], table(), None),
])
def test_house_rule_three_handed_box_takes_both_cubes_or_passes_both(lineup, log, settings, code):
    """House rule (club sheets, e.g. the Eskilstuna club's, in our words): at a table of three, when
    both team cubes are turned at once, the Box takes both or passes both."""
    assert verdict(lineup, log, settings) == code


# --- the Box must take the Captain's cube ---------------------------------------------------------

CAPTAIN = table(box_must_take_captain=True)


@pytest.mark.parametrize(("log", "settings", "code"), [
    # The Box takes Cat's cube and passes the Captain's at the same moment: refused.
    ([TeamDouble(("Cat", "Bob"), box_drops={"Bob"})], CAPTAIN, "box_must_take_captain"),
    ([TeamDouble(("Dan", "Cat", "Bob"), box_drops={"Dan", "Bob"})], CAPTAIN, "box_must_take_captain"),
    # Passing every cube, the Captain's with them, stands,
    ([TeamDouble(("Cat", "Bob"), box_drops={"Cat", "Bob"})], CAPTAIN, None),
    # so does passing the Captain's cube when he doubles alone,
    ([TeamDouble(("Bob",), box_drops={"Bob"})], CAPTAIN, None),
    # and passing another member's cube while taking the Captain's.
    ([TeamDouble(("Cat", "Bob"), box_drops={"Cat"})], CAPTAIN, None),
    # The exception: the Box had already taken another member's cube earlier in the game.
    ([TeamDouble(("Dan",)), TeamDouble(("Cat", "Bob"), box_drops={"Bob"})], CAPTAIN, None),
    # A cube the Box passed earlier is no exception.
    ([TeamDouble(("Dan",), box_drops={"Dan"}), TeamDouble(("Cat", "Bob"), box_drops={"Bob"})], CAPTAIN,
     "box_must_take_captain"),
    # Without the rule the Box chooses freely.
    ([TeamDouble(("Cat", "Bob"), box_drops={"Bob"})], table(), None),
])
def test_house_rule_box_must_take_the_captains_cube(log, settings, code):
    """House rule (Backgammon ACT's club rules and backgammontips' chouette rules, in our words): the
    Box must take the Captain's cube if he takes any other offered with it, except when he had already
    taken another member's cube earlier in the game and the Captain doubles at a later stage."""
    assert verdict(LINE, log, settings) == code


# --- "take at least half", for initial cubes only ------------------------------------------------

HALF = table(box_must_take_half=True)
HALF_INITIAL = table(box_must_take_half=True, take_half_initial_only=True)
ALL_TAKE = BoxDouble((("Dan", TAKE), ("Cat", TAKE), ("Bob", TAKE)))


@pytest.mark.parametrize(("log", "settings", "code"), [
    # Initial cubes, all turned at once from the centre, one of three taken: refused either way.
    ([TeamDouble(("Dan", "Cat", "Bob"), box_drops={"Dan", "Cat"})], HALF, "box_must_take_half"),
    ([TeamDouble(("Dan", "Cat", "Bob"), box_drops={"Dan", "Cat"})], HALF_INITIAL, "box_must_take_half"),
    # Redoubles (every member owns his cube after taking the Box's double): only "always" refuses.
    ([ALL_TAKE, TeamDouble(("Dan", "Cat", "Bob"), box_drops={"Dan", "Cat"})], HALF, "box_must_take_half"),
    ([ALL_TAKE, TeamDouble(("Dan", "Cat", "Bob"), box_drops={"Dan", "Cat"})], HALF_INITIAL, None),
    # Automatic doubles leave the cubes centred: still initial cubes.
    ([TeamDouble(("Dan", "Cat", "Bob"), box_drops={"Dan", "Cat"})], table(
        box_must_take_half=True, take_half_initial_only=True, automatic_doubles=1), "box_must_take_half"),
    # Two of three taken is at least half.
    ([TeamDouble(("Dan", "Cat", "Bob"), box_drops={"Dan"})], HALF_INITIAL, None),
])
def test_house_rule_take_at_least_half_for_initial_cubes_only(log, settings, code):
    """House rule (the Eskilstuna club's sheet, in our words): when every team cube is turned from the
    centre at once, the Box takes at least half of them or passes all; with "initial cubes only" the
    rule does not apply to redoubles."""
    automatic = settings.automatic_doubles
    assert verdict(LINE, log, settings, automatic=automatic) == code


def test_house_rule_initial_cubes_only_needs_the_take_half_rule():
    """"Take at least half, initial cubes only" narrows the take-half rule: without it, it is refused."""
    with pytest.raises(ChouetteError) as caught:
        ChouetteSettings(take_half_initial_only=True)
    assert (caught.value.code, caught.value.details["field"]) == ("bad_settings", "take_half_initial_only")


# --- a Captain taking alone must beaver -----------------------------------------------------------

CAPTAIN_BEAVERS = table(captain_alone_must_beaver=True)


@pytest.mark.parametrize(("log", "settings", "code"), [
    # The whole team doubled, the crew drop, the Captain takes alone: he must beaver.
    ([BoxDouble((("Dan", DROP), ("Cat", DROP), ("Bob", TAKE)))], CAPTAIN_BEAVERS, "captain_alone_must_beaver"),
    ([BoxDouble((("Dan", DROP), ("Cat", DROP), ("Bob", BEAVER)))], CAPTAIN_BEAVERS, None),
    # A crew member taking alone is not the Captain (that is lone_taker_must_beaver's rule).
    ([BoxDouble((("Dan", TAKE), ("Cat", DROP), ("Bob", DROP)))], CAPTAIN_BEAVERS, None),
    # The Captain doubled on his own does not take "alone".
    ([BoxDouble((("Bob", TAKE),))], CAPTAIN_BEAVERS, None),
    # Others take with him: not alone.
    ([BoxDouble((("Dan", TAKE), ("Cat", DROP), ("Bob", TAKE)))], CAPTAIN_BEAVERS, None),
    # Without the rule he may take.
    ([BoxDouble((("Dan", DROP), ("Cat", DROP), ("Bob", TAKE)))], table(), None),
])
def test_house_rule_captain_taking_alone_must_beaver(log, settings, code):
    """House rule (club sheets' "if only one member takes, he must beaver", narrowed to the Captain,
    in our words): when the Box doubles the Captain with other members and the Captain alone stays
    in, he beavers instead of taking."""
    assert verdict(LINE, log, settings) == code


def test_house_rule_captain_must_beaver_needs_beavers():
    """A table without beavers cannot make the Captain beaver."""
    with pytest.raises(ChouetteError) as caught:
        ChouetteSettings(beavers=False, captain_alone_must_beaver=True)
    assert (caught.value.code, caught.value.details["field"]) == ("bad_settings", "captain_alone_must_beaver")


# --- Jacoby: does an automatic double turn the cube? ----------------------------------------------

NOT_COUNTING = table(jacoby=True, jacoby_counts_automatic=False)
COUNTING = table(jacoby=True, jacoby_counts_automatic=True)


@pytest.mark.parametrize(("automatic", "log", "settings", "bob"), [
    # An automatic double only: with automatic doubles not counting the gammon counts single (2 x 1)...
    (1, [], table(jacoby=True, jacoby_counts_automatic=False, automatic_doubles=1), 2),
    # ...and with them counting, the cube was turned: the gammon counts (2 x 2).
    (1, [], table(jacoby=True, jacoby_counts_automatic=True, automatic_doubles=1), 4),
    # Two automatic doubles, not counting: single at 4.
    (2, [], table(jacoby=True, jacoby_counts_automatic=False, automatic_doubles=2), 4),
    # A cube turned by hand after the automatic double counts the gammon either way (4 x 2).
    (1, [TeamDouble(("Dan", "Cat", "Bob"))], table(jacoby=True, jacoby_counts_automatic=False, automatic_doubles=1), 8),
    (1, [TeamDouble(("Dan", "Cat", "Bob"))], table(jacoby=True, jacoby_counts_automatic=True, automatic_doubles=1), 8),
    # No automatic double and no double by hand: single either way.
    (0, [], NOT_COUNTING, 1),
    (0, [], COUNTING, 1),
    # Without Jacoby the gammon counts whatever the cube.
    (1, [], table(jacoby=False, jacoby_counts_automatic=False, automatic_doubles=1), 4),
])
def test_house_rule_jacoby_with_automatic_doubles_counting_or_not(automatic, log, settings, bob):
    """Jacoby (RULES.md §5) with automatic doubles (§2): whether an automatic double turns the cube
    for Jacoby is the table's setting. gnubg's and most clubs' convention (as reported;
    e.g. the Colorado club's sheet: a cube is in the game only once turned and accepted) is that it
    does not, so a gammon on a cube turned only automatically counts single."""
    game = game_of(LINE, log, winner=Side.TEAM, level=GAMMON, automatic=automatic)
    settlement = chouette_settle(LINE, game, settings)
    assert settlement.amounts["Bob"] == bob
    assert sum(settlement.amounts.values()) == 0


# --- the partner convention ----------------------------------------------------------------------

PARTNER = table(box_partner_from=3, box_partner_next_in_line=True)
ANY_PARTNER = table(box_partner_from=3)


@pytest.mark.parametrize(("lineup", "partner", "settings", "code"), [
    (FIVE, "Dan", PARTNER, "box_partner_not_next"),
    (FIVE, "Eve", PARTNER, "box_partner_not_next"),
    (FIVE, "Cat", PARTNER, None),
    (FIVE, "Dan", ANY_PARTNER, None),
    (THREE, "Cat", PARTNER, None),
])
def test_partner_convention_the_partner_is_next_in_line(lineup, partner, settings, code):
    """The partner convention (Kit Woolsey's chouette regulations for FIBS, in our words): the Box's
    partner is the player next in line, the first member of the crew."""
    assert verdict(lineup, [], settings, winner=Side.BOX, box_partner=partner) == code


@pytest.mark.parametrize(("lineup", "partner", "winner", "settings", "after"), [
    # The Box wins: the partnership keeps the Box, the partner stays next in line, the member after
    # him captains and the beaten Captain goes to the bottom.
    (FIVE, "Cat", Side.BOX, PARTNER, Lineup("Ann", "Dan", ("Cat", "Eve", "Bob"))),
    # The Box loses: the Captain takes the Box and the partner becomes the Captain.
    (FIVE, "Cat", Side.TEAM, PARTNER, Lineup("Bob", "Cat", ("Dan", "Eve", "Ann"))),
    # At a table of three the beaten Captain is the only one left to captain.
    (THREE, "Cat", Side.BOX, PARTNER, Lineup("Ann", "Bob", ("Cat",))),
    (THREE, "Cat", Side.TEAM, PARTNER, Lineup("Bob", "Cat", ("Ann",))),
    # The Box playing alone rotates as always.
    (FIVE, None, Side.BOX, PARTNER, Lineup("Ann", "Cat", ("Dan", "Eve", "Bob"))),
    # Without the convention the partner moves up the line like anyone (RULES.md §7's rotation).
    (FIVE, "Cat", Side.BOX, ANY_PARTNER, Lineup("Ann", "Cat", ("Dan", "Eve", "Bob"))),
    (FIVE, "Dan", Side.BOX, ANY_PARTNER, Lineup("Ann", "Cat", ("Dan", "Eve", "Bob"))),
])
def test_partner_convention_rotation_next_in_line_becomes_captain_when_the_box_loses(
        lineup, partner, winner, settings, after):
    """The partner convention's rotation (Kit Woolsey's regulations for FIBS, in our words): when the
    Box wins, the partnership keeps the Box and the next player in line captains; when the Box loses,
    the winning Captain becomes the Box and the partner becomes the Captain."""
    game = game_of(lineup, [], winner=winner, box_partner=partner)
    assert chouette_next_lineup(lineup, game, settings) == after


def test_partner_convention_a_session_keeps_the_partner_while_the_box_wins():
    """The partner convention through a replayed session: the Box wins twice with Cat as partner (Bob
    then Dan captain and go to the bottom), then loses with him: Cat captains against Eve's Box."""
    steps = [StartStep(lineup=FIVE),
             GameStep(game_of(FIVE, [], winner=Side.BOX, box_partner="Cat")),
             GameStep(game_of(Lineup("Ann", "Dan", ("Cat", "Eve", "Bob")), [], winner=Side.BOX, box_partner="Cat")),
             GameStep(game_of(Lineup("Ann", "Eve", ("Cat", "Bob", "Dan")), [], winner=Side.TEAM, box_partner="Cat"))]
    session = replay_session(steps, PARTNER)
    assert [game.lineup.captain for game in session.games] == ["Bob", "Dan", "Eve"]
    assert session.lineup == Lineup("Eve", "Cat", ("Bob", "Dan", "Ann"))
    # The partner shares the Box's result (the odd point to the Box): +3, +3, then -3.
    assert dict(session.ledger) == {"Ann": 2, "Bob": -1, "Cat": 1, "Dan": -1, "Eve": -1}
    plain = replay_session(steps[:2], ANY_PARTNER)
    assert plain.lineup == Lineup("Ann", "Cat", ("Dan", "Eve", "Bob"))


@pytest.mark.parametrize("rule", ["three_handed_both_cubes", "box_must_take_captain", "captain_alone_must_beaver",
                                  "box_partner_next_in_line", "take_half_initial_only"])
def test_every_house_rule_is_off_by_default_in_the_engine(rule):
    """The engine's defaults keep the first version's behaviour: every house rule off, and an
    automatic double counting for Jacoby (the service makes "not counting" new tables' default)."""
    assert getattr(ChouetteSettings(), rule) is False
    assert ChouetteSettings().jacoby_counts_automatic is True


# --- the house rules on a full record (the board's log and the crew's moments) -------------------



def _captain_passed_with_dan_taken():
    board = team_on_roll()
    at = board.here
    board.cube(Double(1), Drop(0)).turn(1, 3, 2).resign(1, SINGLE)
    return board.actions, [(at, TeamDouble(("Dan",)))], at


def _captain_took_alone():
    board = opening()
    at = board.here
    board.cube(Double(0), Take(1)).turn(0, 5, 2).resign(1, SINGLE)
    return board.actions, [(at, BoxDouble((("Dan", DROP), ("Cat", DROP))))], at


@pytest.mark.parametrize(("record", "settings", "code"), [
    (_captain_passed_with_dan_taken, CAPTAIN, "box_must_take_captain"),
    (_captain_passed_with_dan_taken, table(), None),
    (_captain_took_alone, CAPTAIN_BEAVERS, "captain_alone_must_beaver"),
    (_captain_took_alone, table(), None),
])
def test_house_rules_hold_on_a_full_record_where_the_captains_cube_is_on_the_board(record, settings, code):
    """The house rules "the Box must take the Captain's cube" and "a Captain taking alone must beaver"
    (club sheets, in our words) judge the crew's moment and the Captain's own exchange on the board
    as one moment, the crew first and the Captain last (RULES.md §7), and name the board action."""
    actions, moments, at = record()
    try:
        chouette_full_game(LINE, actions, moments, settings)
    except ChouetteError as refused:
        assert (refused.code, refused.details["action_index"]) == (code, at)
    else:
        assert code is None


@pytest.mark.parametrize(("counts", "ann"), [(False, 6), (True, 12)])
def test_house_rule_jacoby_on_a_full_record_with_an_opening_tie(counts, ann):
    """Jacoby (RULES.md §5) on a full record whose opening roll tied once (§2): the team resigns a
    gammon on cubes turned only by the automatic double; it counts single unless the table counts
    automatic doubles for Jacoby."""
    board = BoardLog().tie(4).turn(0, 3, 1).turn(1, 6, 4).resign(1, GAMMON)
    settings = table(jacoby=True, automatic_doubles=1, jacoby_counts_automatic=counts)
    game = chouette_full_game(LINE, board.actions, [], settings)
    assert (game.automatic, game.level) == (1, GAMMON)
    assert chouette_settle(LINE, game, settings).amounts["Ann"] == ann
