""".mat files of an untrusted size: the reader stops at its size, game and action limits as it
reads (not after replaying everything), messages quote unprintable characters visibly, and the
score line is read in linear time."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import MatLimitError, MatParseError
from engine.formats import mat
from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat, match_from_actions
from engine.formats.mat_write import write_mat
from engine.match import MatchRules

MAT_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "mat"
# A real game of 5 written actions (roll, play, roll, play, roll) and 7 lines, resigned after them.
REAL_GAME = MAT_DIR / "edge_gnubg_1pt_roll_then_resign.mat"
ACTIONS_PER_GAME = 5
MONEY = MatchRules(0, crawford=False, beavers=True, raccoons=True)
GAME = check_mat(read_mat(REAL_GAME.read_bytes())).games[0].replay.actions


def session(games: int) -> bytes:
    """A money session of ``games`` copies of the real game, as the engine writes it: game k's
    line is 6k - 3 (1: length, 3: game 1), each game on 6 lines (game, score, 2 turns, wins, blank)."""
    return write_mat(match_from_actions(("charlot1", "charlot2"), MONEY, [GAME] * games)).encode()


def game_line(number: int) -> int:
    return 6 * number - 3


@pytest.fixture
def built(monkeypatch):
    """How many games the reader started to build: a limit must stop it, not a later check."""
    counts = {"games": 0}

    class Counting(mat._GameBuilder):
        def __init__(self, *args, **kwargs):
            counts["games"] += 1
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(mat, "_GameBuilder", Counting)
    return counts


def test_the_built_session_reads_and_replays_as_a_real_match():
    data = session(3)
    assert [line for line in data.decode().splitlines() if line.startswith(" Game")] == \
        [" Game 1", " Game 2", " Game 3"]
    assert data.decode().splitlines()[game_line(3) - 1] == " Game 3"
    assert check_mat(read_mat(data)).final_score == (3, 0)


def test_a_file_at_every_limit_reads_whole():
    data = session(4)
    read = read_mat(data, max_bytes=len(data), max_games=4, max_actions=4 * ACTIONS_PER_GAME)
    assert len(read.games) == 4


def test_a_file_over_the_size_limit_is_refused_before_it_is_decoded(monkeypatch, built):
    data = session(10)
    decoded = []
    monkeypatch.setattr(mat, "_decode", lambda text: decoded.append(text) or text.decode())
    with pytest.raises(MatLimitError) as caught:
        read_mat(data, max_bytes=len(data) - 1)
    assert caught.value.code == "mat_too_large"
    assert caught.value.message == f"the file is {len(data)} bytes; the limit is {len(data) - 1} bytes"
    assert caught.value.details == {"size": len(data), "limit": len(data) - 1}
    assert decoded == [] and built["games"] == 0


def test_a_text_counts_its_size_in_utf8_bytes():
    text = session(1).decode().replace("charlot1", "chärlöt1")
    size = len(text.encode("utf-8"))
    assert size == len(text) + 2
    read_mat(text, max_bytes=size)
    with pytest.raises(MatLimitError) as caught:
        read_mat(text, max_bytes=size - 1)
    assert caught.value.details["size"] == size


def test_reading_stops_at_the_first_game_past_the_game_limit(built):
    with pytest.raises(MatLimitError) as caught:
        read_mat(session(300), max_games=10)
    error = caught.value
    assert error.code == "too_many_games"
    assert error.message == f"line {game_line(11)}: game 11 is past the limit of 10 games"
    assert error.details == {"line": game_line(11), "game": 11, "limit": 10}
    assert built["games"] == 10  # the 11th game is never started, the 289 after it never read


def test_reading_stops_at_the_line_that_passes_the_action_limit(built):
    # 2 games of 5 actions, then game 3's first turn line (10 + 2 = 12, not over) and its second
    # (12 + 3 = 15 > 12): reading stops on that line.
    with pytest.raises(MatLimitError) as caught:
        read_mat(session(300), max_actions=12)
    error = caught.value
    assert error.code == "too_many_actions"
    assert error.message == f"line {game_line(3) + 3}: game 3 passes the limit of 12 actions"
    assert error.details == {"line": game_line(3) + 3, "game": 3, "limit": 12}
    assert built["games"] == 3


def test_the_action_limit_counts_the_actions_of_every_game_together(built):
    data = session(10)
    read_mat(data, max_actions=10 * ACTIONS_PER_GAME)
    with pytest.raises(MatLimitError) as caught:
        read_mat(data, max_actions=10 * ACTIONS_PER_GAME - 1)
    assert caught.value.details["game"] == 10


def test_a_ten_thousand_game_file_under_2_mb_stops_at_the_first_limit_it_passes(built):
    data = session(10_000)
    assert 1_500_000 < len(data) < 2 * 1024 * 1024  # about 1.6 MB, under the 2 MiB max_bytes below
    with pytest.raises(MatLimitError) as caught:
        read_mat(data, max_bytes=2 * 1024 * 1024, max_games=500, max_actions=10_000)
    assert (caught.value.code, caught.value.details["game"]) == ("too_many_games", 501)
    built["games"] = 0
    with pytest.raises(MatLimitError) as caught:
        read_mat(data, max_actions=10_000)
    assert (caught.value.code, caught.value.details["game"]) == ("too_many_actions", 2001)
    assert built["games"] == 2001


def test_a_limit_error_is_a_parse_error_for_callers_that_catch_those():
    with pytest.raises(MatParseError):
        read_mat(session(2), max_games=1)


# --- what messages quote ---------------------------------------------------------------------------


def test_a_nul_byte_in_a_quoted_line_is_shown_escaped_in_the_message():
    data = session(1).replace(b"51:", b"51\x00:")
    with pytest.raises(MatParseError) as caught:
        read_mat(data)
    assert "\x00" not in caught.value.message
    assert caught.value.message.startswith("game 1, line 6: ") and "51\\x00:" in caught.value.message


@pytest.mark.parametrize("char, shown", [("\x00", "\\x00"), ("\x1b", "\\x1b"), ("\x85", "\\x85"),
                                         ("\ud800", "\\ud800")])
def test_control_characters_and_lone_surrogates_are_quoted_visibly(char, shown):
    text = f" 1 point match\n junk{char}here\n"
    with pytest.raises(MatParseError) as caught:
        read_mat(text)
    assert caught.value.message == f'line 2: expected " Game 1", found "junk{shown}here"'


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x7f"])
def test_a_player_name_with_a_control_character_is_refused_at_its_line(char):
    data = session(1).replace(b"charlot2 : 0", f"char{char}lot2 : 0".encode(), 1)
    with pytest.raises(MatParseError) as caught:
        read_mat(data)
    escaped = f"\\x{ord(char):02x}"
    assert caught.value.message == f'game 1, line 4: the player name "char{escaped}lot2" holds a control character'
    assert caught.value.details == {"line": 4, "game": 1}


# --- the score line ----------------------------------------------------------------------------------

# The one pattern the score line was read with before: kept here as the reference.
OLD_SCORE = re.compile(r"^\s*(\S.*?)\s*:\s*([0-9]{1,9})\s+(\S.*?)\s*:\s*([0-9]{1,9})\s*$")


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=" :1234567890ab\t\xa0\x1c:", max_size=24))
def test_the_score_line_reads_as_the_old_pattern_did(line):
    found = OLD_SCORE.match(line)
    expected = None if found is None else (found.group(1), int(found.group(2)), found.group(3), int(found.group(4)))
    assert mat.score_line(line) == expected


@pytest.mark.parametrize("line, expected", [
    (" iljar : 0                       lasse : 0", ("iljar", 0, "lasse", 0)),
    (" Mr: X : 12   Dr : Y : 3  ", ("Mr: X", 12, "Dr : Y", 3)),
    (" a : 1 :: 2", ("a", 1, ":", 2)),
    (" a : 1 : 2", None),
    (" a : 1234567890 b : 2", None),
])
def test_score_lines_with_colons_in_the_names(line, expected):
    assert mat.score_line(line) == expected


def test_a_long_score_line_that_almost_matches_costs_one_try_per_colon(monkeypatch):
    # The old pattern backtracked over every pair of colons: a 96 kB line like this took a minute,
    # a 2 MB one would take days. Each colon is now tried once, by an anchored match.
    tries = []

    class Counting:
        def match(self, text, pos):
            tries.append(pos)
            return mat._SCORE_MIDDLE_PATTERN.match(text, pos)

    monkeypatch.setattr(mat, "_SCORE_MIDDLE_PATTERN", mat._SCORE_MIDDLE, raising=False)
    monkeypatch.setattr(mat, "_SCORE_MIDDLE", Counting())
    for line, tried in ((" a" + " : 1" * 20_000 + " x", 0),  # no ": <score>" at its end: nothing to try
                        (" a" + " :1x" * 20_000 + " : 1", 20_000)):  # no ": <score> <name>" anywhere
        tries.clear()
        with pytest.raises(MatParseError) as caught:
            read_mat(f" 1 point match\n Game 1\n{line}\n")
        assert caught.value.details == {"line": 3, "game": 1}
        assert len(tries) == len(set(tries)) == tried
