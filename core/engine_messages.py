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

__all__ = ["DRAW_MESSAGES", "ENGINE_MESSAGES", "refusal_text", "where_text"]

N_ = gettext_noop

# code -> sentences, most specific first; each is used when every placeholder it names has a value.
# "Class.code" words a code that one error class uses in another sense than the rest.
ENGINE_MESSAGES: dict[str, tuple[str, ...]] = {
    # the families (a subclass's own code when no finer one is given)
    "engine_error": (N_("The rules engine refused this."),),
    "invalid_position": (N_("This position cannot exist on a backgammon board."),),
    "invalid_id": (N_("This Position ID, Match ID or XGID cannot be read."),),
    "illegal_play": (N_("This play is not legal."),),
    "cube_error": (N_("This cube action is not allowed now."),),
    "invalid_game_log": (N_("This game log cannot be replayed."),),
    "invalid_match": (N_("This match does not add up."),),
    "mat_parse_error": (N_("Line %(line)s of the match file cannot be read."),
                        N_("The match file cannot be read.")),
    "invalid_chouette": (N_("This chouette record breaks the chouette rules."),),
    # positions and IDs
    "bad_point": (N_("A point must be from 1 to 24."),),
    "bad_count": (N_("Each side must have 15 checkers, none of them a negative count."),),
    "bad_turn": (N_("The side on roll must be 0 or 1."),),
    "shared_point": (N_("Both sides have checkers on the same point."),),
    "bad_type": (N_("An ID must be written as text."),),
    "bad_length": (N_("This ID has the wrong number of characters."),),
    "bad_character": (N_("This ID holds a character that is not allowed in it."),),
    "bad_format": (N_("An XGID starts with “XGID=” followed by its fields."),),
    "bad_cube": (N_("The cube value must be a power of two (1, 2, 4, 8 and so on)."),),
    "bad_cube_owner": (N_("The cube is centred or owned by side 0 or 1."),),
    "leftover_bits": (N_("This ID has stray bits: it was not made by a backgammon program."),),
    "too_many_checkers": (N_("This ID gives a side more than 15 checkers."),),
    "bad_game_state": (N_("The game state in this ID is not one that exists."),),
    "bad_resignation": (N_("The resignation in this ID must be single, gammon or backgammon."),),
    "bad_dice": (N_("Dice are two numbers from 1 to 6."),),
    "bad_score": (N_("The score must be two whole numbers below the match length."),),
    "bad_match_length": (N_("This match length is out of range."),),
    "crawford_in_money": (N_("A money game has no Crawford game."),),
    "bad_position": (N_("This is not a backgammon position."),),
    "bad_rules": (N_("These rules do not go together (the Crawford rule, the Jacoby rule, beavers and the cube "
                     "cap)."),),
    "money_only": (N_("The Jacoby rule, beavers and raccoons belong to money play, not to a match."),),
    # plays (RULES.md §3)
    "no_checker": (N_("There is no checker of the side on roll on that point."),),
    "bar_first": (N_("A checker on the bar must be entered before any other checker moves."),),
    "blocked": (N_("The landing point is held by two or more of the opponent's checkers."),),
    "blocked_intermediate": (N_("A checker moving with both dice must land on an open point in between."),),
    "bearoff_not_home": (N_("Bearing off needs all fifteen checkers in the home board, none on the bar."),),
    "bearoff_die_too_small": (N_("A die may not bear off a checker from a point higher than its number."),),
    "bearoff_higher_point_occupied": (N_("A higher die bears off only from the highest occupied point."),),
    "wrong_steps": (N_("Each step of a play must use exactly one die of the roll."),),
    "dice_not_all_used": (N_("As many dice as possible must be played."),),
    "higher_die_not_played": (N_("When only one die can be played, the higher one must be played."),),
    "bad_notation": (N_("This play cannot be read: write each move from/to, as in 13/8."),),
    # the cube
    "crawford": (N_("There is no doubling in the Crawford game."),),
    "not_your_turn": (N_("A side may double only on its own turn."),),
    "after_roll": (N_("A double is offered before rolling, not after."),),
    "not_owner": (N_("Only the side that owns the cube may double."),),
    "cube_cap": (N_("The cube may not go higher than %(limit)s."), N_("The cube may not go higher here.")),
    # game logs and matches
    "bad_action": (N_("Action %(action_index)s of the game log cannot be read."),
                   N_("The game log cannot be read: it must be a list of actions.")),
    "match_over": (N_("The match was already over before game %(game)s."), N_("The match is already over.")),
    "bad_start": (N_("The starting score must be two whole numbers of 0 or more, below the match length "
                     "(a money session starts at 0-0)."),),
    "no_games": (N_("The match file has no games."),),
    "bad_tag": (N_("A tag of the match file must be “On” or “Off”."),),
    "not_writable": (N_("This match cannot be written as a match file."),),
    "claim_mismatch": (N_("In game %(game)s the Wins and Losses lines do not agree."),
                       N_("The Wins and Losses lines do not agree.")),
    "wrong_winner": (N_("The file gives game %(game)s to the wrong side: the game log shows the other side "
                        "won."), N_("The file gives a game to the wrong side.")),
    "wrong_points": (N_("The file gives the wrong number of points for game %(game)s."),
                     N_("The file gives the wrong number of points for a game.")),
    "wrong_score": (N_("The score before game %(game)s does not follow from the games before it."),
                    N_("A game's score does not follow from the games before it.")),
    "players_differ": (N_("Game %(game)s names other players than game 1."),
                       N_("A game names other players than game 1.")),
    "unfinished": (N_("Game %(game)s never ends."), N_("A game never ends.")),
    "mat_too_large": (N_("The match file is too large: the limit is %(limit)s bytes."),
                      N_("The match file is too large.")),
    "too_many_games": (N_("The match file has too many games: the limit is %(limit)s."),
                       N_("The match file has too many games.")),
    "too_many_actions": (N_("Game %(game)s has too many actions: the limit is %(limit)s."),
                         N_("A game has too many actions.")),
    # rulings (RULES.md §9)
    "EngineError.bad_length": (N_("Only matches to 1 point or more are rated."),),
    "bad_penalty": (N_("Penalty points and minutes must be whole numbers of 0 or more."),),
    "bad_award": (N_("An awarded match names side 0 or 1 as the winner and a score that ends the match."),),
    "not_crawford_game": (N_("Game %(game)s is not the Crawford game."), N_("This game is not the Crawford game.")),
    "no_double": (N_("There is no double in game %(game)s to void."), N_("There is no double in this game to void.")),
    "no_such_game": (N_("The match has no game %(game)s."), N_("The match has no such game.")),
    "no_such_action": (N_("Game %(game)s has no action %(action_index)s."), N_("The game has no such action.")),
    "nothing_to_correct": (N_("This play is legal: there is nothing to correct."),),
    "correction_illegal": (N_("The corrected play is not legal either."),),
    "condoning_not_allowed": (N_("An illegal play may be condoned only before the opponent's next roll."),),
    "already_condoned": (N_("This play has been condoned already."),),
    "cannot_condone": (N_("Condoning this play would leave a game that cannot go on."),),
    "nothing_to_condone": (N_("This play is legal: there is nothing to condone."),),
    "not_a_move": (N_("A ruling on a play needs a move, not a roll or a cube action."),),
    "double_unanswered": (N_("The double is never answered."),),
    "crawford_double_dropped": (N_("A double in the Crawford game was dropped: void the double, not the game."),),
    # chouette (RULES.md §7)
    "bad_player": (N_("A player in a chouette record must be given by the player's id."),),
    "unknown_player": (N_("A player named in the record is not in the line-up."),),
    "duplicate_player": (N_("A player is twice in the line-up or the roll-off."),),
    "missing_box": (N_("A chouette needs a Box."),),
    "missing_captain": (N_("A chouette needs a Captain."),),
    "too_few_players": (N_("A chouette needs at least two players."),),
    "bad_die": (N_("Each roll of the roll-off is one player and one die from 1 to 6."),),
    "rolloff_tie": (N_("The roll-off leaves players tied: they must roll again."),),
    "rolloff_not_tied": (N_("Only tied players roll again in the roll-off."),),
    "bad_json": (N_("The chouette record cannot be read."),),
    "bad_automatic": (N_("This number of automatic doubles is not possible."),),
    "too_many_automatic": (N_("This table allows fewer automatic doubles."),),
    "bad_settings": (N_("The table's settings are not valid."),),
    "raccoons_without_beavers": (N_("Raccoons are allowed only where beavers are."),),
    "beavers_not_allowed": (N_("This table does not allow beavers."),),
    "raccoons_not_allowed": (N_("This table does not allow raccoons."),),
    "bad_box_partner": (N_("The Box's partner must be a member of the crew."),),
    "box_partner_not_allowed": (N_("This table does not allow a partner for the Box with this many players."),),
    "box_partner_has_cube": (N_("The Box's partner has no cube of his own."),),
    "bad_cube_value": (N_("A cube value is 1, 2, 4, 8 and so on."),),
    "bad_cube_end": (N_("A cube's ending is not one the record knows."),),
    "bad_answer": (N_("The answers to the double are not a set of members of the team."),),
    "duplicate_decision": (N_("A member decides twice at one cube moment."),),
    "duplicate_cube": (N_("A member has two cubes in this game."),),
    "cube_below_start": (N_("A cube is below the value the automatic doubles started it at."),),
    "bad_winner": (N_("A board is won by the Box or by the team."),),
    "bad_level": (N_("A game ends single, gammon or backgammon."),),
    "ChouetteError.bad_cube": (N_("A cube in the game record is not a member's cube."),),
    "single_cube_split": (N_("With a single cube, the team cannot both drop and play on."),),
    "single_cube_values": (N_("With a single cube, every member's cube must have the same value."),),
    "missing_result": (N_("Members played to the end, so the game needs a winner."),),
    "unexpected_result": (N_("Nobody played to the end, so the game has no winner."),),
    "log_mismatch": (N_("A member's cube does not match the game log."),),
    "amounts_mismatch": (N_("An announced amount does not match what the cubes give."),),
    "amounts_unbalanced": (N_("The announced amounts do not add up to 0."),),
    "box_must_take_half": (N_("House rule: when all the team's cubes are turned at once, the Box takes at least "
                              "half of them or passes all."),),
    "lone_taker_must_beaver": (N_("House rule: a member who takes alone must beaver."),),
    "decision_order": (N_("Cube decisions go from the bottom of the line-up up to the Captain."),),
    "not_cube_owner": (N_("This cube is owned by the other side: it cannot be doubled now."),),
    "member_out": (N_("This member is already out of the game."),),
    "bad_log": (N_("The crew's cube moments cannot be read."),),
    "moment_timing": (N_("A crew cube moment is placed where no cube decision can be made."),),
    "split_moment": (N_("The crew decide at the Captain's cube moment: place their decisions there."),),
    "captain_cube_on_board": (N_("The Captain's cube is played on the board, not recorded as a crew moment."),),
    "board_log": (N_("Action %(action_index)s of the board's game log is not legal."),
                  N_("The board's game log is not legal.")),
    "board_unfinished": (N_("The board's game log stops while members are still in the game."),),
    "board_over": (N_("Everyone had left the game, so the board was over."),),
    "ledger_unbalanced": (N_("The ledger does not add up to 0."),),
    "bad_ledger": (N_("Every balance in the ledger must be whole points."),),
    "lineup_mismatch": (N_("The game was recorded with another line-up than the one the session had reached."),),
    "session_started": (N_("The session has already started."),),
    "session_not_started": (N_("The session starts with the roll-off."),),
    "bad_step": (N_("This is not a step of a chouette session."),),
}

# The draw's codes (tournaments/draw/errors.py CODES).
DRAW_MESSAGES: dict[str, tuple[str, ...]] = {
    "draw_error": (N_("The draw refused this."),),
    "bad_entrant": (N_("An entrant is not given in a way the draw can use."),),
    "duplicate_entrant": (N_("An entrant appears twice."),),
    "unknown_entrant": (N_("Someone is not an entrant of this event."),),
    "too_few_entrants": (N_("This format needs more entrants."),),
    "bad_size": (N_("A bracket's size must be a power of two (2, 4, 8 and so on)."),),
    "bad_round": (N_("The bracket has no such round."),),
    "bad_seed": (N_("The draw's seed must be a number or a word."),),
    "bad_rating": (N_("An entrant has no usable rating."),),
    "bad_length": (N_("A match length must be a whole number of 1 or more."),),
    "bad_groups": (N_("This many groups would leave a group with fewer than two entrants."),),
    "bad_drop_map": (N_("The losers' path names rounds the bracket does not have."),),
    "unknown_flight": (N_("The bracket has no such flight."),),
    "flight_exists": (N_("The bracket already has a flight of that name."),),
    "unknown_match": (N_("The bracket has no such match."),),
    "not_in_match": (N_("The winner must be one of the match's two players."),),
    "match_not_ready": (N_("This match cannot have a result now."),),
    "round_not_complete": (N_("A result of this round is still missing."),),
    "bad_max_losses": (N_("An elimination Swiss needs a number of losses of 1 or more."),),
    "bad_history": (N_("A round pairs someone twice or pairs a player with himself."),),
    "bad_tiebreak": (N_("The standings know no such tie-break."),),
    "bad_result": (N_("A result's players or points do not make sense."),),
}

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _pick(sentences: tuple[str, ...], values: Mapping) -> tuple[str, set[str]]:
    """The first sentence (translated, filled) whose placeholders all have a value, and the names
    of the values it shows."""
    for sentence in sentences:
        names = _PLACEHOLDER.findall(sentence)
        if all(values.get(name) is not None for name in names):
            return _(sentence) % {name: values[name] for name in names}, set(names)
    return _(sentences[-1]) % {}, set()


def _english() -> bool:
    return (get_language() or "en").split("-")[0] == "en"


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
