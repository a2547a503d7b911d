"""The engine's and the draw's refusals have a sentence for people in every language, by code.

The codes are read from the source of engine/ (every ``code = "..."`` of an error class, every
``code="..."`` given to an error, every code a helper of the engine is called with, the rules of
a play and the reasons of a final score) and from the draw's catalogue of codes, so a new code
without a sentence in core/engine_messages.py fails here.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest
from django.test import override_settings
from django.utils import translation

from core.engine_messages import DRAW_MESSAGES, ENGINE_MESSAGES, refusal_text
from engine.errors import EngineError, GameLogError, IllegalPlay, MatLimitError
from engine.match import MatchRules
from engine.scores import _CODE, REASONS, final_score
from engine.validation import RULES
from tournaments.draw.errors import CODES as DRAW_CODES
from tournaments.draw.errors import DrawError

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"

# Calls whose code is not a literal, and where it comes from instead (checked below: a new one fails).
PASSED_ON = {
    ("chouette/codec.py", "broken.code"),  # a nested error's own code
    ("chouette/full_game.py", "_RULE_CODES.get(rule, 'board_log')"),  # literals of _RULE_CODES
    ("chouette/session.py", "error.code"),
    ("chouette/settle.py", "code"),  # fail(number, message, "code"): literals at its calls
    ("chouette/settle.py", "refused.code"),
    ("formats/mat_check.py", "code"),  # _match_error(line, message, "code"): literals at its calls
    ("formats/mat_check.py", "error.code"),
    ("ids.py", "code"),  # _fail(kind, "code", message)
    ("validation.py", "code"),  # _illegal("code", ...) and the search's rule: keys of RULES
    ("rulings.py", "code"),  # _whole, _refusal, _relabelled: literals at their calls
    ("scores.py", "f'score_{self.code}'"),  # score_ + a reason
}


def engine_codes() -> tuple[set[str], set[tuple[str, str]]]:
    """Every code engine/ can raise, and the call sites whose code is not a literal."""
    trees = {path: ast.parse(path.read_text()) for path in sorted(ENGINE.rglob("*.py"))}
    takes_code = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                names = [arg.arg for arg in node.args.args]
                if "code" in names:
                    takes_code[node.name] = names.index("code")
    codes, passed_on = set(), set()
    for path, tree in trees.items():
        where = path.relative_to(ENGINE).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if (isinstance(item, ast.Assign) and isinstance(item.value, ast.Constant)
                            and any(getattr(target, "id", None) == "code" for target in item.targets)):
                        codes.add(item.value.value)
            if not isinstance(node, ast.Call):
                continue
            given = [keyword.value for keyword in node.keywords if keyword.arg == "code"]
            name = getattr(node.func, "id", None)
            if name in takes_code and len(node.args) > takes_code[name]:
                given.append(node.args[takes_code[name]])
            for value in given:
                if isinstance(value, ast.Constant):
                    codes.add(value.value)
                else:
                    passed_on.add((where, ast.unparse(value)))
            if isinstance(node.func, ast.Attribute) and node.func.attr == "get" and ast.unparse(node.func.value) == "_RULE_CODES":
                codes.update(arg.value for arg in node.args if isinstance(arg, ast.Constant))
    from engine.chouette.full_game import _RULE_CODES

    codes.update(_RULE_CODES.values())
    codes.update(RULES)
    codes.update(f"score_{_CODE.get(reason, reason)}" for reason in REASONS)
    return codes, passed_on


def test_the_walk_finds_the_codes_it_should():
    codes, _ = engine_codes()
    assert {"blocked", "crawford", "mat_too_large", "rolloff_tie", "score_unreachable", "engine_error",
            "bad_notation", "nothing_to_condone", "raccoons_not_allowed"} <= codes
    assert len(codes) > 120


def test_every_code_whose_value_is_not_a_literal_is_known():
    _, passed_on = engine_codes()
    assert passed_on <= PASSED_ON, f"a code given as a variable: add where it comes from: {passed_on - PASSED_ON}"


def test_every_engine_code_has_a_sentence():
    codes, _ = engine_codes()
    # score_<reason>: worded by the engine's own marked reason (engine/scores.py REASONS).
    reasons = {f"score_{reason}" for reason in [*REASONS, *_CODE.values()]}
    missing = sorted(code for code in codes if code not in ENGINE_MESSAGES and code not in reasons)
    assert not missing, f"engine codes with no sentence in core/engine_messages.py: {missing}"


def test_every_draw_code_has_a_sentence():
    missing = sorted(code for code in [*DRAW_CODES, DrawError.code] if code not in DRAW_MESSAGES)
    assert not missing, f"draw codes with no sentence in core/engine_messages.py: {missing}"


def test_every_sentence_names_only_placeholders_and_the_table_has_no_stray_code():
    codes, _ = engine_codes()
    for key, sentences in ENGINE_MESSAGES.items():
        assert key.split(".")[-1] in codes, key
        for sentence in sentences:
            assert "{" not in sentence and not re.search(r"%(?!\(\w+\)s)", sentence), sentence
    assert set(DRAW_MESSAGES) == {*DRAW_CODES, DrawError.code}


def test_in_english_the_engines_own_words_are_shown_with_where():
    error = GameLogError("the play 24/18 is not legal", code="blocked", game=2, move=7)
    with translation.override("en"):
        assert refusal_text(error, located=True) == "game 2, move 7: the play 24/18 is not legal"
        assert refusal_text(error) == "the play 24/18 is not legal"


def test_a_longer_sentence_is_used_when_its_values_are_there():
    with translation.override("de"):  # no catalog: the table's English, not the engine's
        assert refusal_text(MatLimitError("big", code="too_many_games", limit=64)) == \
            "The match file has too many games: the limit is 64."
        assert refusal_text(MatLimitError("big", code="too_many_games")) == "The match file has too many games."
        assert refusal_text(EngineError("x", code="bad_length")) == "Only matches to 1 point or more are rated."
        assert refusal_text(IllegalPlay("24/18 with 61: ...", code="blocked"), located=True) == \
            "The landing point is held by two or more of the opponent's checkers."
        error = GameLogError("game 2, move 7: ...", code="blocked", game=2, move=7)
        assert refusal_text(error, located=True) == \
            "game 2, move 7: The landing point is held by two or more of the opponent's checkers."
        assert refusal_text(DrawError("x", code="bad_size")) == \
            "A bracket's size must be a power of two (2, 4, 8 and so on)."
        assert refusal_text(EngineError("x", code="brand_new")) == "The rules engine refused this."


def test_a_score_refusal_uses_the_engines_marked_reason():
    with pytest.raises(EngineError) as refused:
        final_score(MatchRules(length=3), (11, 0))
    with translation.override("de"):
        text = refusal_text(refused.value)
    assert text == refused.value.message and "11" in text


KOREAN_CATALOG = ROOT / "locale" / "ko" / "LC_MESSAGES" / "django.po"


def test_korean_reads_the_refusal_by_its_code(tmp_path):
    target = tmp_path / "ko" / "LC_MESSAGES"
    target.mkdir(parents=True)
    subprocess.run(["msgfmt", "-o", str(target / "django.mo"), str(KOREAN_CATALOG)], check=True)
    error = GameLogError("game 2, move 7: the play 24/18 is not legal", code="blocked", game=2, move=7)
    translation.trans_real._translations.clear()
    try:
        with override_settings(LOCALE_PATHS=[str(tmp_path)]), translation.override("ko"):
            korean = refusal_text(error, located=True)
            draw = refusal_text(DrawError("x", code="round_not_complete"))
    finally:
        translation.trans_real._translations.clear()
    assert korean != refusal_text(error, located=True)
    assert "7" in korean and re.search("[\uac00-\ud7a3]", korean), korean
    assert re.search("[\uac00-\ud7a3]", draw), draw


@pytest.mark.django_db
def test_a_services_refusal_from_the_engine_reads_in_the_readers_language(tmp_path):
    """A service that turns an engine refusal into its own error (a match's rules the engine
    refuses) words it by code: Korean for a Korean reader, the engine's own English otherwise."""
    import polib

    from core.errors import DomainError
    from matches.services.matches import match_create, match_rules
    from tests.factories import PlayerFactory, UserFactory

    source = Path(__file__).resolve().parents[2] / "locale" / "ko" / "LC_MESSAGES" / "django.po"
    (tmp_path / "ko" / "LC_MESSAGES").mkdir(parents=True)
    polib.pofile(str(source)).save_as_mofile(str(tmp_path / "ko" / "LC_MESSAGES" / "django.mo"))
    organiser, one, two = UserFactory(organiser=True), PlayerFactory(), PlayerFactory()

    def refusal() -> DomainError:
        with pytest.raises(DomainError) as caught:
            match_create(created_by=organiser, sides=([one], [two]), rules=match_rules(length=0, raccoons=True))
        return caught.value

    english = refusal()
    with override_settings(LOCALE_PATHS=[str(tmp_path)]), translation.override("ko"):
        korean = refusal()
    assert english.code == korean.code
    assert "accoon" in english.message and korean.message != english.message
    assert any("\uac00" <= ch <= "\ud7a3" for ch in korean.message), korean.message
