"""The words people read about an analysis are gnubg's own, marked for translation."""

from __future__ import annotations

from analysis import texts, verdict


def test_the_rating_and_luck_words_are_gnubgs_own_and_an_unknown_rating_has_none():
    assert [texts.rating_text(rating) for rating in range(6)] == list(verdict.RATING_WORDS)
    assert [texts.luck_text(rating) for rating in range(5)] == list(verdict.LUCK_WORDS)
    assert texts.rating_text(6) == texts.rating_text(None) == texts.luck_text(-1) == ""


def test_every_failure_code_has_a_sentence_and_an_unknown_one_the_generic_one():
    assert texts.failure_text("") == ""
    assert texts.failure_text("not_a_code") == str(texts.FAILURES["error"])
    assert all(texts.failure_text(code).endswith(".") for code in texts.FAILURES)
