"""The engine's and the draw's refusals in the reader's language, by their stable code.

The engine (``engine/``) and the draw (``tournaments/draw/``) are pure Python: they speak English
and know no Django. Each refusal carries a stable ``code`` and the values that explain it
(``details``: ``game``, ``move``, ``line``, ``limit``...). This module holds one translatable
sentence per code (with named placeholders filled from those values) and words a refusal with it:
the API's error body puts it in ``detail`` (the ``code`` unchanged) and the pages show it on the
form. A code with values that its longer sentence needs uses that sentence, else its short one.
In English the engine's own message is shown: it is the richer text (the play, the dice, the
values), and the table's English is what the translators translate.

A test (tests/core/test_engine_messages.py) reads every code the engine and the draw can raise
and fails when one has no sentence here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.utils.translation import get_language, gettext_noop, pgettext
from django.utils.translation import gettext as _

from tournaments.draw.errors import DrawError

__all__ = ["DRAW_MESSAGES", "ENGINE_MESSAGES", "name_sides", "refusal_text", "where_text"]


# code -> sentences, most specific first; each is used when every placeholder it names has a value.
# "Class.code" words a code that one error class uses in another sense than the rest.
ENGINE_MESSAGES: dict[str, tuple[str, ...]] = {
    # the families (a subclass's own code when no finer one is given)
    "engine_error": (gettext_noop("The rules engine refused this."),),
    "invalid_position": (gettext_noop("This position cannot exist on a backgammon board."),),
    "invalid_id": (gettext_noop("This Position ID, Match ID or XGID cannot be read."),),
    "illegal_play": (gettext_noop("This play is not legal."),),
    "cube_error": (gettext_noop("This cube action is not allowed now."),),
    "invalid_game_log": (gettext_noop("This game log cannot be replayed."),),
    "invalid_match": (gettext_noop("This match does not add up."),),
    "mat_parse_error": (gettext_noop("Line %(line)s of the match file cannot be read."),
                        gettext_noop("The match file cannot be read.")),
    "invalid_chouette": (gettext_noop("This chouette record breaks the chouette rules."),),
    "invalid_clock": (gettext_noop("These clock settings or this time left do not make sense."),),
    # positions and IDs
    "bad_point": (gettext_noop("A point must be from 1 to 24."),),
    "bad_count": (gettext_noop("Each side must have 15 checkers, none of them a negative count."),),
    "bad_turn": (gettext_noop("The side on roll must be 0 or 1."),),
    "shared_point": (gettext_noop("Both sides have checkers on the same point."),),
    "bad_type": (gettext_noop("An ID must be written as text."),),
    "bad_length": (gettext_noop("This ID has the wrong number of characters."),),
    "bad_character": (gettext_noop("This ID holds a character that is not allowed in it."),),
    "bad_format": (gettext_noop("An XGID starts with “XGID=” followed by its fields."),),
    "bad_cube": (gettext_noop("The cube value must be a power of two (1, 2, 4, 8 and so on)."),),
    "bad_cube_owner": (gettext_noop("The cube is centred or owned by one of the two sides."),),
    "leftover_bits": (gettext_noop("This ID has stray bits: it was not made by a backgammon program."),),
    "too_many_checkers": (gettext_noop("This ID gives a side more than 15 checkers."),),
    "bad_game_state": (gettext_noop("The game state in this ID is not one that exists."),),
    "bad_resignation": (gettext_noop("The resignation in this ID must be single, gammon or backgammon."),),
    "bad_dice": (gettext_noop("Dice are two numbers from 1 to 6."),),
    "bad_score": (gettext_noop("The score must be two whole numbers below the match length."),),
    "bad_match_length": (gettext_noop("This match length is out of range."),),
    "crawford_in_money": (gettext_noop("A money game has no Crawford game."),),
    "bad_position": (gettext_noop("This is not a backgammon position."),),
    "bad_rules": (gettext_noop("These rules do not go together (the Crawford rule, the Jacoby rule, beavers and the cube "
                     "cap)."),),
    "money_only": (gettext_noop("The Jacoby rule, beavers and raccoons belong to money play, not to a match."),),
    # plays (RULES.md §3)
    "no_checker": (gettext_noop("There is no checker of the side on roll on that point."),),
    "bar_first": (gettext_noop("A checker on the bar must be entered before any other checker moves."),),
    "blocked": (gettext_noop("The landing point is held by two or more of the opponent's checkers."),),
    "blocked_intermediate": (gettext_noop("A checker moving with both dice must land on an open point in between."),),
    "bearoff_not_home": (gettext_noop("Bearing off needs all fifteen checkers in the home board, none on the bar."),),
    "bearoff_die_too_small": (gettext_noop("A die may not bear off a checker from a point higher than its number."),),
    "bearoff_higher_point_occupied": (gettext_noop("A higher die bears off only from the highest occupied point."),),
    "wrong_steps": (gettext_noop("Each step of a play must use exactly one die of the roll."),),
    "dice_not_all_used": (gettext_noop("As many dice as possible must be played."),),
    "higher_die_not_played": (gettext_noop("When only one die can be played, the higher one must be played."),),
    "bad_notation": (gettext_noop("This play cannot be read: write each move from/to, as in 13/8."),),
    # the cube
    "crawford": (gettext_noop("There is no doubling in the Crawford game."),),
    "not_your_turn": (gettext_noop("A side may double only on its own turn."),),
    "after_roll": (gettext_noop("A double is offered before rolling, not after."),),
    "not_owner": (gettext_noop("Only the side that owns the cube may double."),),
    "cube_cap": (gettext_noop("The cube may not go higher than %(limit)s."), gettext_noop("The cube may not go higher here.")),
    # game logs and matches
    "bad_action": (gettext_noop("Action %(action_index)s of the game log cannot be read."),
                   gettext_noop("The game log cannot be read: it must be a list of actions.")),
    "match_over": (gettext_noop("The match was already over before game %(game)s."), gettext_noop("The match is already over.")),
    "bad_start": (gettext_noop("The starting score must be two whole numbers of 0 or more, below the match length "
                     "(a money session starts at 0-0)."),),
    "no_games": (gettext_noop("The match file has no games."),),
    "bad_tag": (gettext_noop("A tag of the match file must be “On” or “Off”."),),
    "not_writable": (gettext_noop("This match cannot be written as a match file."),),
    "claim_mismatch": (gettext_noop("In game %(game)s the Wins and Losses lines do not agree."),
                       gettext_noop("The Wins and Losses lines do not agree.")),
    "wrong_winner": (gettext_noop("The file gives game %(game)s to the wrong side: the game log shows the other side "
                        "won."), gettext_noop("The file gives a game to the wrong side.")),
    "wrong_points": (gettext_noop("The file gives the wrong number of points for game %(game)s."),
                     gettext_noop("The file gives the wrong number of points for a game.")),
    "wrong_score": (gettext_noop("The score before game %(game)s does not follow from the games before it."),
                    gettext_noop("A game's score does not follow from the games before it.")),
    "players_differ": (gettext_noop("Game %(game)s names other players than game 1."),
                       gettext_noop("A game names other players than game 1.")),
    "unfinished": (gettext_noop("Game %(game)s never ends."), gettext_noop("A game never ends.")),
    "mat_too_large": (gettext_noop("The match file is too large: the limit is %(limit)s bytes."),
                      gettext_noop("The match file is too large.")),
    "too_many_games": (gettext_noop("The match file has too many games: the limit is %(limit)s."),
                       gettext_noop("The match file has too many games.")),
    "too_many_actions": (gettext_noop("Game %(game)s has too many actions: the limit is %(limit)s."),
                         gettext_noop("A game has too many actions.")),
    # rulings (RULES.md §9)
    "EngineError.bad_length": (gettext_noop("Only matches to 1 point or more are rated."),),
    "bad_penalty": (gettext_noop("Penalty points and minutes must be whole numbers of 0 or more."),),
    "bad_award": (gettext_noop("An awarded match names one of the two sides as the winner and a score that ends the match."),),
    "not_crawford_game": (gettext_noop("Game %(game)s is not the Crawford game."),
                          gettext_noop("This game is not the Crawford game.")),
    "no_double": (gettext_noop("There is no double in game %(game)s to void."),
                  gettext_noop("There is no double in this game to void.")),
    "no_such_game": (gettext_noop("The match has no game %(game)s."), gettext_noop("The match has no such game.")),
    "no_such_action": (gettext_noop("Game %(game)s has no action %(action_index)s."),
                       gettext_noop("The game has no such action.")),
    "nothing_to_correct": (gettext_noop("This play is legal: there is nothing to correct."),),
    "correction_illegal": (gettext_noop("The corrected play is not legal either."),),
    "condoning_not_allowed": (gettext_noop("An illegal play may be condoned only before the opponent's next roll."),),
    "already_condoned": (gettext_noop("This play has been condoned already."),),
    "cannot_condone": (gettext_noop("Condoning this play would leave a game that cannot go on."),),
    "nothing_to_condone": (gettext_noop("This play is legal: there is nothing to condone."),),
    "not_a_move": (gettext_noop("A ruling on a play needs a move, not a roll or a cube action."),),
    "double_unanswered": (gettext_noop("The double is never answered."),),
    "crawford_double_dropped": (gettext_noop("A double in the Crawford game was dropped: void the double, not the game."),),
    # Penalty points between games, a match played to the wrong length
    "penalty_money": (gettext_noop("A money session has no penalty points."),),
    "penalty_after_match": (gettext_noop("The match was already won: no penalty points can be given after it."),),
    "penalty_no_such_game": (gettext_noop("Penalty points can be given only between games already played, or after "
                                          "the last one."),),
    "penalty_not_reached": (gettext_noop("Penalty points were given at a score the game logs never reach."),),
    "stood_not_allowed": (gettext_noop("Under the responsible-moves policy an illegal play that stands is condoned, "
                                       "not marked as stood."),),
    "nothing_to_stand": (gettext_noop("This play is legal: there is nothing to let stand."),),
    "already_stood": (gettext_noop("This play already stands."),),
    "cannot_stand": (gettext_noop("Letting this play stand would leave a game that cannot go on."),),
    "bad_wrong_length": (gettext_noop("A match played to the wrong length needs both lengths of 1 point or more, "
                                      "different, and a score of whole numbers that ends the match at most once."),),
    # chouette (RULES.md §7)
    "bad_player": (gettext_noop("A player in a chouette record must be given by the player's id."),),
    "unknown_player": (gettext_noop("A player named in the record is not in the line-up."),),
    "duplicate_player": (gettext_noop("A player is twice in the line-up or the roll-off."),),
    "missing_box": (gettext_noop("A chouette needs a Box."),),
    "missing_captain": (gettext_noop("A chouette needs a Captain."),),
    "too_few_players": (gettext_noop("A chouette needs at least two players."),),
    "bad_die": (gettext_noop("Each roll of the roll-off is one player and one die from 1 to 6."),),
    "rolloff_tie": (gettext_noop("The roll-off leaves players tied: they must roll again."),),
    "rolloff_not_tied": (gettext_noop("Only tied players roll again in the roll-off."),),
    "bad_json": (gettext_noop("The chouette record cannot be read."),),
    "bad_automatic": (gettext_noop("This number of automatic doubles is not possible."),),
    "too_many_automatic": (gettext_noop("This table allows fewer automatic doubles."),),
    "bad_settings": (gettext_noop("The table's settings are not valid."),),
    "raccoons_without_beavers": (gettext_noop("Raccoons are allowed only where beavers are."),),
    "beavers_not_allowed": (gettext_noop("This table does not allow beavers."),),
    "raccoons_not_allowed": (gettext_noop("This table does not allow raccoons."),),
    "bad_box_partner": (gettext_noop("The Box's partner must be a member of the crew."),),
    "box_partner_not_allowed": (gettext_noop("This table does not allow a partner for the Box with this many players."),),
    "box_partner_has_cube": (gettext_noop("The Box's partner has no cube of his own."),),
    "bad_cube_value": (gettext_noop("A cube value is 1, 2, 4, 8 and so on."),),
    "bad_cube_end": (gettext_noop("A cube's ending is not one the record knows."),),
    "bad_answer": (gettext_noop("The answers to the double are not a set of members of the team."),),
    "duplicate_decision": (gettext_noop("A member decides twice at one cube moment."),),
    "duplicate_cube": (gettext_noop("A member has two cubes in this game."),),
    "cube_below_start": (gettext_noop("A cube is below the value the automatic doubles started it at."),),
    "bad_winner": (gettext_noop("A board is won by the Box or by the team."),),
    "bad_level": (gettext_noop("A game ends single, gammon or backgammon."),),
    "ChouetteError.bad_cube": (gettext_noop("A cube in the game record is not a member's cube."),),
    "single_cube_split": (gettext_noop("With a single cube, the team cannot both drop and play on."),),
    "single_cube_values": (gettext_noop("With a single cube, every member's cube must have the same value."),),
    "missing_result": (gettext_noop("Members played to the end, so the game needs a winner."),),
    "unexpected_result": (gettext_noop("Nobody played to the end, so the game has no winner."),),
    "log_mismatch": (gettext_noop("A member's cube does not match the game log."),),
    "amounts_mismatch": (gettext_noop("An announced amount does not match what the cubes give."),),
    "amounts_unbalanced": (gettext_noop("The announced amounts do not add up to 0."),),
    "box_must_take_half": (gettext_noop("House rule: when all the team's cubes are turned at once, the Box takes at least "
                              "half of them or passes all."),),
    "lone_taker_must_beaver": (gettext_noop("House rule: a member who takes alone must beaver."),),
    # The chouette house rules
    "three_handed_both_cubes": (gettext_noop("House rule: at a table of three, the Box takes both cubes turned at "
                                             "once or passes both."),),
    "box_must_take_captain": (gettext_noop("House rule: the Box cannot pass the Captain's cube while taking another "
                                           "member's, unless he took another member's cube earlier in the game."),),
    "captain_alone_must_beaver": (gettext_noop("House rule: a Captain who takes alone must beaver."),),
    "box_partner_not_next": (gettext_noop("House rule: the Box's partner is the player next in line, the first "
                                          "member of the crew."),),
    "decision_order": (gettext_noop("Cube decisions go from the bottom of the line-up up to the Captain."),),
    "not_cube_owner": (gettext_noop("This cube is owned by the other side: it cannot be doubled now."),),
    "member_out": (gettext_noop("This member is already out of the game."),),
    "bad_log": (gettext_noop("The crew's cube moments cannot be read."),),
    "moment_timing": (gettext_noop("A crew cube moment is placed where no cube decision can be made."),),
    "split_moment": (gettext_noop("The crew decide at the Captain's cube moment: place their decisions there."),),
    "captain_cube_on_board": (gettext_noop("The Captain's cube is played on the board, not recorded as a crew moment."),),
    "board_log": (gettext_noop("Action %(action_index)s of the board's game log is not legal."),
                  gettext_noop("The board's game log is not legal.")),
    "board_unfinished": (gettext_noop("The board's game log stops while members are still in the game."),),
    "board_over": (gettext_noop("Everyone had left the game, so the board was over."),),
    "ledger_unbalanced": (gettext_noop("The ledger does not add up to 0."),),
    "bad_ledger": (gettext_noop("Every balance in the ledger must be whole points."),),
    "lineup_mismatch": (gettext_noop("The game was recorded with another line-up than the one the session had reached."),),
    "session_started": (gettext_noop("The session has already started."),),
    "session_not_started": (gettext_noop("The session starts with the roll-off."),),
    "bad_step": (gettext_noop("This is not a step of a chouette session."),),
}

# The draw's codes (tournaments/draw/errors.py CODES).
DRAW_MESSAGES: dict[str, tuple[str, ...]] = {
    "draw_error": (gettext_noop("The draw refused this."),),
    "bad_entrant": (gettext_noop("An entrant is not given in a way the draw can use."),),
    "duplicate_entrant": (gettext_noop("An entrant appears twice."),),
    "unknown_entrant": (gettext_noop("Someone is not an entrant of this event."),),
    "too_few_entrants": (gettext_noop("This format needs more entrants."),),
    "bad_size": (gettext_noop("A bracket's size must be a power of two (2, 4, 8 and so on)."),),
    "bad_round": (gettext_noop("The bracket has no such round."),),
    "bad_seed": (gettext_noop("The draw's seed must be a number or a word."),),
    "bad_rating": (gettext_noop("An entrant has no usable rating."),),
    "bad_length": (gettext_noop("A match length must be a whole number of 1 or more."),),
    "bad_groups": (gettext_noop("This many groups would leave a group with fewer than two entrants."),),
    "bad_drop_map": (gettext_noop("The losers' path names rounds the bracket does not have."),),
    "unknown_flight": (gettext_noop("The bracket has no such flight."),),
    "flight_exists": (gettext_noop("The bracket already has a flight of that name."),),
    "unknown_match": (gettext_noop("The bracket has no such match."),),
    "not_in_match": (gettext_noop("The winner must be one of the match's two players."),),
    "match_not_ready": (gettext_noop("This match cannot have a result now."),),
    "round_not_complete": (gettext_noop("A result of this round is still missing."),),
    "bad_max_losses": (gettext_noop("An elimination Swiss needs a number of losses of 1 or more."),),
    "bad_history": (gettext_noop("A round pairs someone twice or pairs a player with himself."),),
    "bad_tiebreak": (gettext_noop("The standings know no such tie-break."),),
    "bad_result": (gettext_noop("A result's players or points do not make sense."),),
    "bad_method": (gettext_noop("A Swiss is paired fairly or from the top board down."),),
    "bad_order": (gettext_noop("A round robin's rounds follow the circle method or FIDE's Berger tables."),),
    "bad_contention": (gettext_noop("The rounds left must be 0 or more, and the paid places 1 or more."),),
    "not_time_for_playoffs": (gettext_noop("More players can still cash than there are paid places: the "
                                           "playoffs are not due yet."),),
    "bad_division": (gettext_noop("The divisions must be a list of named divisions with sensible rating ranges."),),
    "bad_handicap": (gettext_noop("A handicap names a division the event lacks, a bad match length or too many "
                                  "points."),),
    "bad_payouts": (gettext_noop("The paid places must be positive percentages that sum to 100, never increasing."),),
    "reentry_refused": (gettext_noop("The bracket does not take this re-entry now."),),
}

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")

#: A side as the engine writes it in its English ("side 0", "side 1's"), not "side 0 or 1".
_SIDE = re.compile(r"\bside ([01])\b(?! or )")


def name_sides(text: str, names) -> str:
    """The engine's English ``text`` with each side it names ("side 0", "lasse (side 0)") said by
    its name in ``names`` (side 0's first): "Ana had already won the match at 5-3". The engine
    knows no names; its callers do (the match's sides, a match file's players)."""
    for side in (0, 1):
        text = text.replace(f"{names[side]} (side {side})", str(names[side]))
    return _SIDE.sub(lambda found: str(names[int(found.group(1))]), text)


def _pick(sentences: tuple[str, ...], values: Mapping) -> tuple[str, set[str]]:
    """The first sentence (translated, filled) whose placeholders all have a value, and the names
    of the values it shows."""
    for sentence in sentences:
        names = _PLACEHOLDER.findall(sentence)
        if all(values.get(name) is not None for name in names):
            return _(sentence) % {name: values[name] for name in names}, set(names)
    return _(sentences[-1]) % {}, set()


def reads_english() -> bool:
    """Whether the active language is English (the engine's own)."""
    return (get_language() or "en").split("-")[0] == "en"


_english = reads_english


def _sentence(error) -> tuple[str, set[str]]:
    if _english():
        # English readers get the engine's own words: they name the play, the dice and the values
        # (which a sentence per code cannot), and they are the source the table translates.
        shown = {key for key, value in error.details.items()
                 if (str(value) if key == "file" else f"{key} {value}") in error.message}
        return error.message, shown
    problem = getattr(error, "problem", None)
    if problem is not None:
        # A final score the match cannot end at: the engine's own template, marked for translation.
        return _(problem.template) % problem.values, set(problem.values)
    table = DRAW_MESSAGES if isinstance(error, DrawError) else ENGINE_MESSAGES
    sentences = table.get(f"{type(error).__name__}.{error.code}") or table.get(error.code)
    if sentences is None:
        # A finer code with no sentence of its own (the test forbids it) falls back to its family's.
        sentences = table.get(type(error).code) or ENGINE_MESSAGES["engine_error"]
    return _pick(sentences, error.details)


def where_text(details: Mapping) -> str:
    """Where a refusal applies, in the reader's language: the file, line, game and move it names
    ("game 2, move 5"), or "" when it names none."""
    where = []
    if details.get("file"):
        where.append(str(details["file"]))
    if details.get("line") is not None:
        where.append(_("line %(line)s") % {"line": details["line"]})
    if details.get("game") is not None:
        where.append(_("game %(game)s") % {"game": details["game"]})
    if details.get("move") is not None:
        where.append(pgettext("a turn of a game log", "move %(move)s") % {"move": details["move"]})
    return _(", ").join(where)


def refusal_text(error, *, located: bool = False) -> str:
    """An engine or draw refusal as a sentence in the active language, chosen by its ``code`` and
    filled from its details (in English, the engine's own message); with ``located``, led by where
    it applies (file, line, game, move) unless the sentence says so already. Changes nothing;
    raises nothing for an unknown code (its family's sentence is used)."""
    sentence, shown = _sentence(error)
    where = where_text({key: value for key, value in error.details.items() if key not in shown}) if located else ""
    if where:
        return _("%(where)s: %(sentence)s") % {"where": where, "sentence": sentence}
    return sentence
