""".mat match files: every real file in ../shared/data/mat reads, replays and round-trips; each
exporter quirk has its own test; bad files fail at the right line; GNU Backgammon imports what
we write."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Accept, Double, Drop, Move, Resign, Roll, Take
from engine.errors import EngineError, GameLogError, MatchError, MatParseError
from engine.formats.mat import Claim, read_mat
from engine.formats.mat_check import MatCheck, check_mat, match_from_actions, resign_level
from engine.formats.mat_write import write_mat
from engine.match import MatchRules
from engine.randomgame import random_match_games

MAT_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "mat"
FILES = sorted(MAT_DIR.glob("*.mat"))

# Per file: the winner of each game (0 = the left player of the score lines) and the final score.
# The final scores are those of SOURCES.md (GNU Backgammon's import); the winners come from the
# files' Wins lines and agree with GNU Backgammon game by game.
EXPECTED = {
    "edge_galaxy_3pt_capped_wins_match1004844": ("00", (5, 0)),
    "edge_galaxy_3pt_gnubg_invalid_move_match2516058": ("010", (3, 1)),
    # GNU Backgammon cannot read the last line ('Losses' and 'Wins' on one line) and leaves game 2
    # unfinished at 0-1; the file says canoz wins 2 points and the match (a resigned gammon).
    "edge_galaxy_3pt_losses_and_wins_one_line_match2900236": ("11", (0, 3)),
    "edge_galaxy_5pt_capped_wins_losses_match10147827": ("000", (7, 0)),
    "edge_gnubg_1pt_roll_then_resign": ("0", (1, 0)),
    "edge_studio_3pt_wins_4016_mrpurple_lasse": ("11", (0, 13)),
    "galaxy_17pt_match8170603": ("101110101100010101", (12, 18)),
    "galaxy_17pt_match9102134": ("10100000000110", (18, 6)),
    "galaxy_1pt_match1501137": ("0", (1, 0)),
    "galaxy_3pt_match1161689": ("1101", (2, 3)),
    "galaxy_3pt_match2561306": ("100", (5, 2)),
    "galaxy_3pt_match3485516": ("0011", (2, 5)),
    "galaxy_5pt_match10827373": ("1011", (4, 6)),
    "galaxy_5pt_match1484923": ("1011", (2, 5)),
    "galaxy_5pt_match9012369": ("0100", (5, 4)),
    "galaxy_7pt_match11696104": ("101011", (6, 8)),
    "galaxy_7pt_match11995639": ("100100", (7, 6)),
    "galaxy_7pt_match12778454": ("101111", (6, 7)),
    "gnubg_3pt_test_match01": ("101", (1, 4)),
    "gnubg_7pt_charlot1_charlot2": ("1000", (9, 2)),
    "studio_11pt_llabba_petruhl": ("11110001", (8, 12)),
    "studio_13pt_heretik_llabba": ("11101101", (4, 16)),
    "studio_13pt_llabba_diablodeldados": ("0011001000", (13, 8)),
    "studio_3pt_solnze_lasse": ("00", (3, 0)),
    "studio_5pt_magic_lasse": ("10100011", (4, 5)),
    "studio_7pt_llabba_gorkipelin": ("000110", (12, 4)),
    "studio_7pt_maciel_llabba": ("0011101", (4, 10)),
    "studio_9pt_llabba_bigeagle32": ("100", (9, 1)),
    "xg_7pt_hsbt_paris_2023": ("0011100", (7, 4)),
}


def _path(stem: str) -> Path:
    return MAT_DIR / f"{stem}.mat"


def _text(stem: str) -> str:
    return _path(stem).read_bytes().decode("utf-8-sig")


def _checked(stem: str) -> MatCheck:
    return check_mat(read_mat(_path(stem).read_bytes()))


def _edited(stem: str, edits: dict[int, str | list[str]]) -> str:
    """The file's text with lines replaced (1-based); a list replaces one line by several."""
    lines = _text(stem).splitlines()
    for number in sorted(edits, reverse=True):
        new = edits[number]
        lines[number - 1: number] = new if isinstance(new, list) else [new]
    return "\n".join(lines) + "\n"


def _line(stem: str, number: int) -> str:
    return _text(stem).splitlines()[number - 1]


def _summary(check: MatCheck) -> list:
    return [(g.number, g.score, g.crawford, g.winner, g.points, g.cube, g.ending, g.level) for g in check.games]


def _positions_after_plays(check: MatCheck) -> list:
    return [
        [g.replay.frames[i + 1].position for i, action in enumerate(g.replay.actions) if isinstance(action, Move)]
        for g in check.games
    ]


files = pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])


def test_the_shared_directory_holds_the_real_files_and_the_table_covers_each_one():
    assert len(FILES) >= 29
    assert {p.stem for p in FILES} == set(EXPECTED)


# --- every real file ------------------------------------------------------------------------


@files
def test_each_real_file_replays_to_the_winners_and_final_score_of_the_table(path):
    check = check_mat(read_mat(path.read_bytes()))
    winners, final = EXPECTED[path.stem]
    assert "".join(str(g.winner) for g in check.games) == winners
    assert check.final_score == final
    length = check.length
    assert check.winner == (0 if final[0] >= length else 1)
    assert all(g.ending in ("single", "gammon", "backgammon", "drop", "resign") for g in check.games)


@files
def test_the_winners_claimed_by_the_wins_lines_are_the_engines(path):
    mat = read_mat(path.read_bytes())
    check = check_mat(mat)
    claimed = [g.wins.side if g.wins else 1 - g.losses.side for g in mat.games]
    assert claimed == [g.winner for g in check.games]


@files
def test_each_score_line_is_the_score_the_games_before_it_produced(path):
    mat = read_mat(path.read_bytes())
    check = check_mat(mat)
    assert [g.score for g in mat.games] == [g.score for g in check.games]
    assert [g.players for g in mat.games] == [check.players] * len(mat.games)


@files
def test_export_then_import_gives_the_same_match(path):
    check = check_mat(read_mat(path.read_bytes()))
    again = check_mat(read_mat(write_mat(check)))
    assert _summary(again) == _summary(check)
    assert again.final_score == check.final_score
    assert again.winner == check.winner
    assert again.players == check.players
    assert _positions_after_plays(again) == _positions_after_plays(check)
    assert write_mat(again) == write_mat(check)


def test_the_crawford_game_is_found_from_the_real_scores():
    check = _checked("galaxy_3pt_match2561306")
    assert [g.crawford for g in check.games] == [False, True, False]
    check = _checked("galaxy_17pt_match8170603")
    assert [g.number for g in check.games if g.crawford] == [17]


def test_a_one_point_match_has_no_crawford_game():
    check = _checked("galaxy_1pt_match1501137")
    assert [g.crawford for g in check.games] == [False]


# --- quirks -----------------------------------------------------------------------------------


def test_it_reads_a_file_starting_with_a_utf8_byte_order_mark():
    raw = _path("xg_7pt_hsbt_paris_2023").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    from_bytes, from_text = read_mat(raw), read_mat(raw.decode("utf-8"))
    assert "Site" in from_bytes.tags and "Site" in from_text.tags
    assert from_bytes == from_text


def test_it_reads_crlf_cr_and_lf_line_ends_alike():
    raw = _path("xg_7pt_hsbt_paris_2023").read_bytes()
    assert b"\r\n" in raw
    lf = raw.replace(b"\r\n", b"\n")
    cr = lf.replace(b"\n", b"\r")
    results = [_summary(check_mat(read_mat(data))) for data in (raw, lf, cr)]
    assert results[0] == results[1] == results[2]
    assert read_mat(raw).games[1].line == read_mat(cr).games[1].line


def test_it_reads_header_tags_and_takes_the_crawford_rule_from_them():
    mat = read_mat(_path("galaxy_5pt_match1484923").read_bytes())
    assert mat.tags["Site"] == "BackgammonGalaxy"
    assert mat.tags["Player 1"] == "klara"
    assert mat.tags["Crawford"] == "On"
    assert mat.length == 5
    hashed = read_mat("# [Event \"Club night\"]\n; a plain comment\n" + _text("gnubg_3pt_test_match01"))
    assert hashed.tags == {"Event": "Club night"}
    off = _text("galaxy_3pt_match2561306").replace('[Crawford "On"]', '[Crawford "Off"]')
    assert [g.crawford for g in check_mat(read_mat(off)).games] == [False, False, False]
    assert check_mat(read_mat(off), crawford=True).games[1].crawford


def test_it_reads_accented_names_with_spaces_in_utf8_and_in_latin1():
    mat = read_mat(_path("xg_7pt_hsbt_paris_2023").read_bytes())
    assert mat.games[0].players == ("Kévin Unger", "Maxence Job")
    assert mat.tags["Site"] == "Paris, Fédération Française de Bridge"
    latin1 = _text("xg_7pt_hsbt_paris_2023").encode("latin-1")
    assert read_mat(latin1).games[0].players == ("Kévin Unger", "Maxence Job")
    assert check_mat(read_mat(latin1)).players == ("Kévin Unger", "Maxence Job")


def test_names_may_hold_digits_and_colons():
    mat = read_mat(_path("galaxy_3pt_match2561306").read_bytes())
    assert mat.games[0].players == ("lasse", "09197035670")
    text = _text("galaxy_1pt_match1501137")
    score_line = next(line for line in text.splitlines() if line.strip().startswith("iljar"))
    colon_names = " Dr: Who 2 : 0                    Mr. X: the 3rd : 0"
    mat = read_mat(text.replace(score_line, colon_names))
    assert mat.games[0].players == ("Dr: Who 2", "Mr. X: the 3rd")
    assert mat.games[0].score == (0, 0)


def test_wins_1_point_and_the_match():
    mat = read_mat(_path("galaxy_1pt_match1501137").read_bytes())
    assert mat.games[0].wins == Claim(0, 1, True, 49)
    check = check_mat(mat)
    assert check.winner == 0 and check.final_score == (1, 0)


def test_a_capped_final_wins_counts_the_real_points():
    mat = read_mat(_path("edge_galaxy_3pt_capped_wins_match1004844").read_bytes())
    assert mat.games[1].wins.points == 2 and mat.games[1].wins.and_match
    game = check_mat(mat).games[1]
    # Cube 4, a single game resigned: 4 points, of which lasse needed 2.
    assert (game.winner, game.cube, game.ending, game.level, game.points) == (0, 4, "resign", 1, 4)


def test_a_capped_wins_with_the_cube_on_4_and_a_losses_line():
    mat = read_mat(_path("edge_galaxy_5pt_capped_wins_losses_match10147827").read_bytes())
    assert mat.games[2].losses == Claim(1, 2, False, 71)
    assert mat.games[2].wins == Claim(0, 2, True, 73)
    check = check_mat(mat)
    assert (check.games[2].points, check.games[2].cube, check.final_score) == (4, 4, (7, 0))


def test_wins_4016_points_is_a_resigned_backgammon():
    mat = read_mat(_path("edge_studio_3pt_wins_4016_mrpurple_lasse.mat".removesuffix(".mat")).read_bytes())
    assert mat.games[1].wins.points == 4016
    assert resign_level(4016, 4) == 3
    game = check_mat(mat).games[1]
    assert (game.winner, game.ending, game.level, game.cube, game.points) == (1, "resign", 3, 4, 12)


def test_question_mark_markers_are_a_roll_then_a_resignation():
    xg = read_mat(_path("xg_7pt_hsbt_paris_2023").read_bytes())
    game = xg.games[1]
    assert game.resign_marker == (1, game.wins.line - 1)
    assert game.actions[-1] == Roll(1, dice=(3, 3))
    studio = read_mat(_path("edge_studio_3pt_wins_4016_mrpurple_lasse").read_bytes())
    assert studio.games[1].resign_marker[0] == 0
    checked = check_mat(xg).games[1]
    assert checked.replay.actions[-2:] == (Resign(1, level=1), Accept(0))
    assert (checked.ending, checked.points) == ("resign", 2)


def test_a_losses_line_at_the_start_of_a_line_takes_its_side_from_the_wins_line():
    stem = "edge_galaxy_3pt_gnubg_invalid_move_match2516058"
    assert _line(stem, 78).strip() == "Losses 2 point"
    game = read_mat(_path(stem).read_bytes()).games[2]
    assert game.losses == Claim(1, 2, False, 78)
    assert game.wins == Claim(0, 2, True, 80)
    assert check_mat(read_mat(_path(stem).read_bytes())).final_score == (3, 1)


def test_a_losses_line_alone_names_the_loser_by_its_column():
    stem = "edge_galaxy_5pt_capped_wins_losses_match10147827"
    check = check_mat(read_mat(_edited(stem, {73: ""})))
    assert check.games[2].winner == 0 and check.final_score == (7, 0)


def test_losses_and_wins_on_one_line_with_a_repeated_turn_number():
    stem = "edge_galaxy_3pt_losses_and_wins_one_line_match2900236"
    assert _line(stem, 59).count("24)") == 2
    mat = read_mat(_path(stem).read_bytes())
    game = mat.games[1]
    assert game.losses == Claim(0, 2, False, 59)
    assert game.wins == Claim(1, 2, True, 59)
    check = check_mat(mat)
    assert (check.games[1].ending, check.games[1].level, check.final_score, check.winner) == ("resign", 2, (0, 3), 1)


def test_a_roll_without_a_play_then_wins_is_a_roll_then_a_resignation():
    mat = read_mat(_path("edge_gnubg_1pt_roll_then_resign").read_bytes())
    assert mat.games[0].actions[-1] == Roll(1, dice=(5, 1))
    game = check_mat(mat).games[0]
    assert game.replay.actions[-3:] == (Roll(1, dice=(5, 1)), Resign(1, level=1), Accept(0))
    assert (game.winner, game.ending, game.points) == (0, "resign", 1)


def test_cannot_move_is_a_roll_without_a_play():
    stem = "studio_11pt_llabba_petruhl"
    assert "Cannot Move" in _line(stem, 76)
    actions = [a for g in read_mat(_path(stem).read_bytes()).games for a in g.actions if a.line == 76]
    assert actions == [Roll(0, dice=(2, 2)), Double(1, value=2)]


def test_the_actions_carry_their_line_numbers():
    mat = read_mat(_path("galaxy_3pt_match2561306").read_bytes())
    first = mat.games[0]
    assert (first.line, first.score_line) == (16, 17)
    assert first.actions[:4] == (
        Roll(0, dice=(6, 4)), Move(0, play="24/18 13/9"), Roll(1, dice=(3, 1)), Move(1, play="24/21 8/7"),
    )
    assert [a.line for a in first.actions[:4]] == [18, 18, 18, 18]
    assert first.actions[-3:] == (Move(0, play="6/2 2/1"), Double(1, value=4), Drop(0))
    assert [a.line for a in first.actions[-3:]] == [33, 33, 34]
    assert first.wins == Claim(1, 2, False, 34)


# --- bad files --------------------------------------------------------------------------------


def test_a_score_line_that_does_not_follow_names_its_line_and_both_scores():
    stem = "galaxy_3pt_match2561306"
    assert _line(stem, 38).split() == ["lasse", ":", "0", "09197035670", ":", "2"]
    text = _edited(stem, {38: " lasse : 0                       09197035670 : 1"})
    with pytest.raises(MatchError) as caught:
        check_mat(read_mat(text))
    assert caught.value.details["line"] == 38
    assert caught.value.code == "wrong_score"
    assert "line 38" in str(caught.value) and "0-2" in str(caught.value) and "0-1" in str(caught.value)


def test_an_illegal_play_names_line_game_move_and_side():
    stem = "galaxy_3pt_match2561306"
    text = _edited(stem, {20: "  3) 42: 24/20 6/4               42: 24/20 6/3"})
    with pytest.raises(GameLogError) as caught:
        check_mat(read_mat(text))
    details = caught.value.details
    assert (details["line"], details["game"], details["move"], details["side"]) == (20, 1, 3, 1)
    assert str(caught.value).startswith("game 1, line 20: move 3, side 1:")


def test_a_double_in_the_crawford_game_is_refused_at_its_line():
    stem = "galaxy_3pt_match2561306"
    text = _edited(stem, {40: ["  2)  Doubles => 2                Takes", _line(stem, 40)]})
    with pytest.raises(GameLogError) as caught:
        check_mat(read_mat(text))
    assert (caught.value.details["line"], caught.value.details["rule"]) == (40, "crawford")
    assert caught.value.details["game"] == 2


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (" 17)  Drops                       Wins 4 point", "wrong_points"),
        (" 17)  Drops                       Wins 2 point and the match", "wrong_points"),
        ([" 17)  Drops", "      Wins 2 point"], "wrong_winner"),
    ],
    ids=["too many points", "and the match too early", "the wrong side"],
)
def test_a_wrong_wins_claim_is_refused_at_its_line(edit, code):
    text = _edited("galaxy_3pt_match2561306", {34: edit})
    with pytest.raises(MatchError) as caught:
        check_mat(read_mat(text))
    assert caught.value.code == code
    assert caught.value.details["line"] == 34 + (1 if isinstance(edit, list) else 0)


def test_a_capped_claim_must_be_exactly_the_points_needed():
    stem = "edge_galaxy_3pt_capped_wins_match1004844"
    text = _edited(stem, {58: _line(stem, 58).replace("Losses 2", "Losses 3"), 60: "      Wins 3 point and the match"})
    with pytest.raises(MatchError) as caught:
        check_mat(read_mat(text))
    assert caught.value.details["line"] == 60 and caught.value.code == "wrong_points"


def test_losses_disagreeing_with_wins_is_refused():
    text = _edited("edge_galaxy_5pt_capped_wins_losses_match10147827",
                   {71: " 20) 52: 10/8 8/3                 Losses 4 point"})
    with pytest.raises(MatchError) as caught:
        check_mat(read_mat(text))
    assert caught.value.details["line"] == 71 and caught.value.code == "claim_mismatch"


def test_an_unreadable_roll_says_what_was_expected():
    text = _edited("galaxy_3pt_match2561306", {57: " 19) 5x: 13/8                    62: 17/11 13/11"})
    with pytest.raises(MatParseError) as caught:
        read_mat(text)
    assert caught.value.details["line"] == 57
    assert caught.value.details["game"] == 2
    assert str(caught.value) == 'game 2, line 57: expected a roll such as "52:" or a cube action, found "5x: 13/8"'


@pytest.mark.parametrize(
    ("line", "text", "words"),
    [
        (30, "hello world", "expected a numbered turn line"),
        (30, " 13)  Doubles => 2   Takes   Drops", "one turn per column"),
        (30, " 13) 77: 13/7                     21: 6/5 6/4", "expected a roll"),
        (30, " 13) 61: 13/x                     21: 6/5 6/4", "cannot read the play"),
        (30, " 13) 61: 13/7 7/6 5/4   12) 21: 6/5 6/4", "second turn number"),
        (35, " 18)  Drops", "game 1 ended at line 34"),
        (35, "      Wins 1 point", "a second Wins line"),
        (35, " 7 point match", "a second match length line"),
        (38, " lasse 0   09197035670 2", "expected the score line of game 2"),
    ],
    ids=["garbage", "three turns on a line", "dice 7", "a bad play", "another turn number",
         "an action after Wins", "two Wins lines", "two length lines", "a broken score line"],
)
def test_garbage_is_refused_with_its_line_number(line, text, words):
    with pytest.raises(MatParseError) as caught:
        read_mat(_edited("galaxy_3pt_match2561306", {line: text}))
    assert caught.value.details["line"] == line
    assert words in str(caught.value)
    # A line inside a game is named with its game first (game 1: lines 16-35; the length line
    # repeated at 35 and the score line of game 2 are read before any turn line of a game).
    game = caught.value.details.get("game")
    assert game == (1 if line < 36 and words != "a second match length line" else None) or words.startswith(
        "expected the score line")
    assert str(caught.value).startswith(f"game {game}, line {line}: " if game else f"line {line}: ")


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "no match length line"),
        (b"", 1, "no match length line"),
        ("\n\n; [Site \"x\"]\n", 3, "no match length line"),
        (" 3 point match\n\n", 2, "no games"),
        ("Game 1\n a : 0  b : 0\n", 1, "expected the match length line"),
        (" 3 point match\n  1) 52: 13/8 13/11\n", 2, "before the first \" Game 1\""),
        (" 3 point match\n Game 1\n", 2, "ends before the score line"),
        (" 3 point match\n Game 1\n  1) 52: 13/8 13/11\n", 3, "expected the score line of game 1"),
        (" 3 point match\n Game 2\n a : 0  b : 0\n", 2, 'expected " Game 1"'),
    ],
    ids=["empty text", "empty bytes", "comments only", "no games", "no length line",
         "a turn before any game", "no score line at the end", "no score line", "games out of order"],
)
def test_files_without_a_match_are_refused_with_a_line_number(text, line, words):
    with pytest.raises(MatParseError) as caught:
        read_mat(text)
    assert caught.value.details["line"] == line
    assert words in str(caught.value)


def test_a_game_after_the_match_was_won_is_refused():
    text = _text("galaxy_1pt_match1501137")
    start = text.index(" Game 1")
    second = text[start:].replace(" Game 1", " Game 2", 1).replace("lasse : 0", "lasse : 1", 1)
    with pytest.raises(MatchError) as caught:
        check_mat(read_mat(text + "\n" + second))
    assert caught.value.code == "match_over" and "line" in caught.value.details


def test_an_unfinished_last_game_leaves_the_match_without_a_winner():
    stem = "galaxy_3pt_match2561306"
    lines = _text(stem).splitlines()
    text = "\n".join(lines[:70])  # game 3 stops after a few turns
    check = check_mat(read_mat(text))
    assert check.winner is None
    assert check.games[-1].winner is None and check.games[-1].ending is None
    assert check.final_score == (2, 2)
    again = check_mat(read_mat(write_mat(check)))
    assert _summary(again) == _summary(check)


def test_an_unfinished_game_before_the_last_is_refused():
    text = _edited("galaxy_3pt_match2561306", {33: " 16) 41: 6/2 2/1", 34: ""})
    with pytest.raises(MatchError) as caught:
        check_mat(read_mat(text))
    assert caught.value.code == "unfinished" and caught.value.details["line"] == 16


# --- writing --------------------------------------------------------------------------------


def test_written_files_follow_gnubgs_layout():
    lines = write_mat(_checked("galaxy_3pt_match2561306")).splitlines()
    game = lines.index(" Game 1")
    assert lines[:2] == ['; [Site "BackgammonGalaxy"]', '; [Match ID "2561306"]']
    assert lines[game - 2: game] == [" 3 point match", ""]
    assert lines[game + 1] == " lasse : 0" + " " * 22 + "09197035670 : 0"
    assert lines[game + 2] == "  1) 64: 24/18 13/9              31: 24/21 8/7*"
    assert " 13)  Doubles => 2                Takes" in lines
    # A short line without a colon is padded: GNU Backgammon would reread the previous line's
    # right column from its buffer.
    drop = lines.index(" 17)  Drops     ")
    assert lines[drop + 1] == " " * 34 + "Wins 2 points"
    assert lines[-1] == "      Wins 3 points and the match"


def test_plays_are_written_one_die_at_a_time_in_a_canonical_order():
    text = write_mat(_checked("studio_3pt_solnze_lasse"))
    # Studio wrote 13/7*(2) 7/1*(2), 20/8(2), 13/1 6/off(2); the engine's steps, highest first:
    assert "  5) 51: 23/18 6/5               66: 13/7* 13/7 7/1* 7/1" in text
    assert " 10) 66: 20/14(2) 14/8(2)        53: 8/5 8/3" in text
    assert " 15) 66: 13/7 7/1 6/off(2)       53: 14/9 7/4" in text


def test_a_match_built_from_action_lists_is_written_and_read_back():
    rng = random.Random(7)
    for length in (1, 3, 5):
        games = random_match_games(rng, length, double_chance=0.1)
        check = match_from_actions(("Anna Lindqvist", "Bo Ek"), MatchRules(length), games, tags={"Event": "Test"})
        again = check_mat(read_mat(write_mat(check)))
        assert _summary(again) == _summary(check)
        assert _positions_after_plays(again) == _positions_after_plays(check)
        assert again.tags["Event"] == "Test"


def test_a_resignation_is_written_as_a_roll_and_wins_cube_times_level():
    actions = [
        Roll(0, dice=(3, 1)), Move(0, play="8/5 6/5"), Double(1, value=2), Take(0),
        Roll(1, dice=(6, 4)), Resign(1, level=2), Accept(0),
    ]
    check = match_from_actions(("Ann", "Bob"), MatchRules(7), [actions])
    text = write_mat(check)
    assert "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Takes                      64:\n" in text
    assert "\n      Wins 4 points\n" in text
    again = check_mat(read_mat(text))
    assert (again.games[0].ending, again.games[0].level, again.games[0].points) == ("resign", 2, 4)


def test_a_money_session_is_written_and_read_back():
    actions = [Roll(0, dice=(3, 1)), Move(0, play="8/5 6/5"), Double(1, value=2), Take(0),
               Roll(1, dice=(6, 4)), Resign(1, level=1), Accept(0)]
    rules = MatchRules(0, crawford=False, jacoby=True, beavers=True, raccoons=True)
    check = match_from_actions(("Ann", "Bob"), rules, [actions, actions])
    assert check.winner is None and check.final_score == (4, 0)
    text = write_mat(check)
    assert " 0 point match" in text and '; [Jacoby "On"]' in text
    again = check_mat(read_mat(text))
    assert _summary(again) == _summary(check) and again.rules.jacoby


@pytest.mark.parametrize("names", [("Ann\nBob", "Cy"), ("", "Cy"), ("Ann : 3 x", "Cy")])
def test_names_that_would_not_read_back_are_refused(names):
    check = match_from_actions(names, MatchRules(1), [random_match_games(random.Random(1), 1)[0]])
    with pytest.raises(MatchError) as caught:
        write_mat(check)
    assert caught.value.code == "not_writable"


# --- any input ----------------------------------------------------------------------------


def _read_and_check(data) -> None:
    try:
        mat = read_mat(data)
    except EngineError:
        return
    try:
        check = check_mat(mat)
    except EngineError:
        return
    write_mat(check)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_raises_nothing_but_engine_errors(text):
    _read_and_check(text)


@settings(max_examples=300, deadline=None)
@given(st.binary())
def test_arbitrary_bytes_raise_nothing_but_engine_errors(data):
    _read_and_check(data)


_TOKENS = ["", " ", "\n", "\r\n", ":", ")", "??? ", "13/7 ", "52: ", "66:", " Game 2\n", "0", "9", "\ufeff",
           "Wins 2 point", " and the match", "Losses 1 point", "Doubles => 2", "Takes", "Drops", "bar/22*", "24)"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(FILES),
    st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 12), st.sampled_from(_TOKENS)),
             min_size=1, max_size=4),
)
def test_real_files_with_random_edits_raise_nothing_but_engine_errors(path, edits):
    text = path.read_bytes().decode("utf-8-sig")
    for where, cut, token in edits:
        at = int(where * len(text))
        text = text[:at] + token + text[at + cut:]
    _read_and_check(text)


# --- GNU Backgammon as oracle ------------------------------------------------------------

_GNUBG_IMPORT = """
import json, sys
import gnubg
results = []
for path in sys.argv[1:]:
    gnubg.command('import mat "%s"' % path)
    games = gnubg.match()["games"]
    results.append([[g["info"].get(k) for k in ("winner", "points-won", "resigned", "score-X", "score-O")]
                    for g in games])
print("RESULT " + json.dumps(results))
"""


@pytest.mark.oracle
def test_gnubg_imports_every_written_match_with_the_same_games_and_final_score(tmp_path):
    pytest.importorskip("gnubg")
    checks, paths = [], []
    for path in FILES:
        check = check_mat(read_mat(path.read_bytes()))
        out = tmp_path / path.name
        out.write_text(write_mat(check), encoding="utf-8")
        checks.append(check)
        paths.append(str(out))
    run = subprocess.run([sys.executable, "-c", _GNUBG_IMPORT, *paths], capture_output=True, text=True,
                         timeout=300, check=True)
    line = next(line for line in run.stdout.splitlines() if line.startswith("RESULT "))
    imported = json.loads(line.removeprefix("RESULT "))
    for path, check, games in zip(FILES, checks, imported, strict=True):
        assert len(games) == len(check.games), path.stem
        ours = [("X" if g.winner == 0 else "O", g.points, g.ending == "resign") for g in check.games]
        assert [tuple(g[:3]) for g in games] == ours, path.stem
        winner, points, _, score_x, score_o = games[-1]
        final = (score_x + (points if winner == "X" else 0), score_o + (points if winner == "O" else 0))
        assert final == check.final_score, path.stem


@pytest.mark.parametrize(
    ("line", "text", "error", "lead"),
    [
        (76, " 11) 62: 25/23 21/15             5x: 25/20", MatParseError, 'game 3, line 76: expected a roll'),
        (76, " 11) 63: 6/0 6/3                 63: 15/9 9/6", GameLogError, "game 3, line 76: move 11, side 0: "),
        (97, "      Wins 2 point and the match", MatchError, "game 3, line 97: the file claims 2 points"),
        (62, " lasse : 2                       09197035670 : 1", MatParseError, "game 2, line 62: expected a numbered"),
    ],
    ids=["a bad roll", "an illegal play", "a wrong claim", "a score line where a turn belongs"],
)
def test_an_error_inside_a_game_is_led_by_its_game_then_its_line(line, text, error, lead):
    with pytest.raises(error) as caught:
        check_mat(read_mat(_edited("galaxy_3pt_match2561306", {line: text})))
    assert str(caught.value).startswith(lead), str(caught.value)
    assert (caught.value.details["game"], caught.value.details["line"]) == (int(lead.split()[1][:-1]), line)
