"""How ratings are computed: the player page names the FIBS formula and links
the explanation page; that page speaks each language, its worked example is what engine/ratings.py
computes (recomputed here through the engine), it follows the engine rather than a text, and it
reads no query."""

from __future__ import annotations

import html
import math
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

from engine.ratings import START_RATING, fibs_change, k_factor
from matches.views import ratings as views_ratings
from matches.views.ratings import EXAMPLE, RatingExample
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "ko", "ar", "ro")


def text_of(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def figures(response) -> dict[str, list[tuple[float, str]]]:
    """Every ``<data class=... value=...>text</data>`` of the page: class -> [(value, text)]."""
    found: dict[str, list[tuple[float, str]]] = {}
    for name, value, text in re.findall(r'<data class="([^"]+)" value="([^"]+)"[^>]*>([^<]*)</data>',
                                        response.content.decode()):
        found.setdefault(name, []).append((float(value), html.unescape(text)))
    return found


def page(language: str = "en"):
    return Client().get(reverse("matches:ratings"), HTTP_ACCEPT_LANGUAGE=language)


def test_the_player_page_names_the_fibs_formula_and_links_the_explanation(client):
    """The player page says which FIBS formula computes the rating, with a link."""
    player = PlayerFactory(display_name="Ana")
    response = client.get(reverse("matches:player", args=[player.pk]))
    assert ("The rating is computed with the FIBS formula, the one the FIBS server's help on ratings gives: "
            "how ratings are computed") in text_of(response)
    assert f'<a href="{reverse("matches:ratings")}">how ratings are computed</a>' in response.content.decode()
    assert reverse("matches:ratings") == "/ratings/"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_explanation_page_speaks_the_readers_language(language):
    response = page(language)
    assert response.status_code == 200
    body = response.content.decode()
    direction = "rtl" if language == "ar" else "ltr"
    assert f'<html lang="{language}" dir="{direction}">' in body
    with translation.override(language):
        for msgid in ("How ratings are computed", "The formula", "Experience and the newcomer's boost",
                      "A worked example", "When a rating changes"):
            assert f">{html.escape(translation.gettext(msgid), quote=False)}<" in body, msgid
    # The formulas are notation, read left to right in every language.
    assert '<code dir="ltr">P<sub>upset</sub> = 1 / (10<sup>D \u00d7 √n / 2000</sup> + 1)</code>' in body
    assert '<code dir="ltr">4 \u00d7 K \u00d7 √n \u00d7 P</code>' in body
    assert '<code dir="ltr">K = max(1, 5 \u2212 experience / 100)</code>' in body


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_worked_example_is_what_the_engine_computes(language):
    """RULES.md §10, through engine/ratings.py: each figure of the example is the engine's,
    written the reader's way."""
    shown = figures(page(language))
    favourite_wins = fibs_change(EXAMPLE.favourite, EXAMPLE.underdog, EXAMPLE.length,
                                 winner_experience=EXAMPLE.favourite_experience,
                                 loser_experience=EXAMPLE.underdog_experience)
    underdog_wins = fibs_change(EXAMPLE.underdog, EXAMPLE.favourite, EXAMPLE.length,
                                winner_experience=EXAMPLE.underdog_experience,
                                loser_experience=EXAMPLE.favourite_experience)
    expected = {
        "start-rating": START_RATING,
        "favourite-k": k_factor(EXAMPLE.favourite_experience),
        "underdog-k": k_factor(EXAMPLE.underdog_experience),
        "favourite-gains": favourite_wins.winner_delta,
        "underdog-loses": favourite_wins.loser_delta,
        "underdog-gains": underdog_wins.winner_delta,
        "favourite-loses": underdog_wins.loser_delta,
    }
    for name, value in expected.items():
        [(got, _text)] = set(shown[name])
        assert got == pytest.approx(value, abs=1e-9), name
    with translation.override(language):
        for name in ("favourite-gains", "underdog-gains"):
            assert shown[name][0][1] == "+" + formats.number_format(round(expected[name], 2), 2)
        for name in ("underdog-loses", "favourite-loses"):
            assert shown[name][0][1] == "\u2212" + formats.number_format(round(-expected[name], 2), 2)
    # The underdog's chance the page shows is the formula it states (RULES.md §10), and the
    # engine's changes are 4 x K x sqrt(n) x P with it: the stated formula is the engine's.
    difference, root = abs(EXAMPLE.favourite - EXAMPLE.underdog), math.sqrt(EXAMPLE.length)
    upset = 1 / (10 ** (difference * root / 2000) + 1)
    assert shown["upset"][0][0] == pytest.approx(upset, abs=1e-9)
    assert favourite_wins.winner_delta == pytest.approx(4 * k_factor(EXAMPLE.favourite_experience) * root * upset)
    assert underdog_wins.winner_delta == pytest.approx(4 * k_factor(EXAMPLE.underdog_experience) * root * (1 - upset))


def test_the_check_of_rules_10_reads_on_the_page_when_both_players_are_established(monkeypatch):
    """RULES.md §10's check: D = 100, n = 7, both K = 1: +/-4.49 when the favourite wins, +/-6.09
    when the underdog does."""
    monkeypatch.setattr(views_ratings, "EXAMPLE", RatingExample(1600.0, 400, 1500.0, 900, 7))
    shown = figures(page())
    assert [shown[name][0][1] for name in ("favourite-gains", "underdog-loses", "underdog-gains", "favourite-loses")] \
        == ["+4.49", "\u22124.49", "+6.09", "\u22126.09"]
    assert "1 (400 points of experience or more)" in text_of(page())


def test_the_example_is_computed_as_the_page_is_made_not_written_in_it(monkeypatch):
    """Another example, or another engine, and the page says what they compute."""
    monkeypatch.setattr(views_ratings, "EXAMPLE", RatingExample(1800.0, 0, 1450.0, 50, 11))
    shown = figures(page())
    change = fibs_change(1800.0, 1450.0, 11, winner_experience=0, loser_experience=50)
    assert shown["favourite-gains"][0][0] == pytest.approx(change.winner_delta)
    assert shown["favourite-k"][0][0] == 5.0 and "5 \u2212 0 / 100 = 5.00" in text_of(page())

    def doubled(*args, **kwargs):
        real = fibs_change(*args, **kwargs)
        return type(real)(2 * real.winner_delta, 2 * real.loser_delta)

    monkeypatch.setattr(views_ratings, "fibs_change", doubled)
    assert figures(page())["favourite-gains"][0][0] == pytest.approx(2 * change.winner_delta)


def test_the_page_says_when_a_rating_changes_and_that_a_correction_replays_the_ledger():
    text = text_of(page())
    assert "Only the confirmed result of a rated match changes ratings" in text
    assert "money sessions are not rated" in text and "consultation pairs are not rated" in text
    assert "the ledger is replayed from that match on" in text
    assert "a newcomer's changes count five times at first" in text


def test_the_page_reads_no_query_signed_in_or_not(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get(reverse("matches:ratings")).status_code == 200
    client.force_login(UserFactory())
    # The session and its user, as on every page for a signed-in reader; nothing of the page's own.
    with django_assert_num_queries(2):
        assert client.get(reverse("matches:ratings")).status_code == 200


def test_the_page_is_read_only(client):
    assert client.post(reverse("matches:ratings")).status_code == 405
