"""One naming of rounds for every format: ``tournaments.draw.names`` decides, and the
headings (``round_label``), the sentences of a correction (``round_phrase``), the next-match line,
the rounds page and the projector all say what it decides."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments.draw.errors import DrawError
from tournaments.draw.names import RoundName, flight_round_names, paired_round_name
from tournaments.formats import format_for
from tournaments.round_labels import round_label, round_phrase


def event_round_name(format: str, flight: str, number: int, size: int | None = None, **rounds) -> RoundName:
    """Round ``number`` of ``flight`` as an event of ``format`` names it."""
    return format_for("individual", format).round_name(flight, number, size, **rounds)


def labels(flight: str, size: int, rounds: int | None = None, **options) -> list[str]:
    with translation.override("en"):
        return [round_label(n, **options) for n in flight_round_names(flight, size, rounds=rounds)]


def test_single_elimination_main_flight():
    assert labels("main", 16) == ["Round of 16", "Quarter-finals", "Semi-finals", "Final"]
    assert labels("main", 64) == ["Round 1", "Round 2", "Round of 16", "Quarter-finals", "Semi-finals", "Final"]


def test_double_elimination_winners_losers_and_grand_final():
    assert labels("winners", 16) == ["Winners' round 1", "Winners' quarter-finals", "Winners' semi-finals",
                                     "Winners' final"]
    assert labels("winners", 4) == ["Winners' semi-finals", "Winners' final"]
    assert labels("losers", 8) == ["Losers' round 1", "Losers' round 2", "Losers' round 3", "Losers' final"]
    assert labels("final", 8) == ["Grand final", "Grand final reset"]
    assert labels("winners", 8, compact=True) == ["WQF", "WSF", "WF"]
    assert labels("losers", 8, compact=True) == ["L1", "L2", "L3", "LF"]


def test_consolation_and_last_chance_flights_are_named_from_their_own_end():
    assert labels("consolation", 16, rounds=3) == ["Quarter-finals", "Semi-finals", "Final"]
    assert labels("last_chance", 16, rounds=2) == ["Semi-finals", "Final"]


@pytest.mark.parametrize("format, flight", [("swiss", "swiss"), ("round_robin", "A"), ("round_robin", "main")])
def test_swiss_and_round_robin_rounds_are_numbered(format, flight):
    assert event_round_name(format, flight, 3) == RoundName("round", 3) == paired_round_name(3)
    with translation.override("en"):
        assert round_label(event_round_name(format, flight, 3)) == "Round 3"
    with pytest.raises(DrawError):
        event_round_name(format, flight, 0)


def test_a_bracket_round_needs_the_bracket_size():
    assert event_round_name("single_elimination", "main", 2, 4) == RoundName("final")
    assert event_round_name("double_elimination", "winners", 3, 8) == RoundName("winners_final")
    with pytest.raises(DrawError):
        event_round_name("single_elimination", "main", 1)


def test_the_sentences_say_the_same_names():
    with translation.override("en"):
        assert [round_phrase(n) for n in flight_round_names("main", 16)] == [
            "a round-of-16 match", "a quarter-final", "a semi-final", "the final"]
        assert [round_phrase(n) for n in flight_round_names("winners", 8)] == [
            "a winners' quarter-final", "a winners' semi-final", "the winners' final"]
        assert round_phrase(RoundName("losers_final")) == "the losers' final"
        assert round_phrase(RoundName("grand_final")) == "the grand final"
        assert round_phrase(RoundName("final"), flight="consolation") == "the final of the consolation flight"
        assert round_phrase(RoundName("semi_final"), flight="last_chance") == "a semi-final of the last-chance flight"


@pytest.mark.django_db
def test_the_pages_name_rounds_alike(client):
    from tests.tournaments.factories import drawn, make_organiser, player
    from tournaments.models import Tournament
    from tournaments.selectors.next_match import player_next_match

    olga = make_organiser()
    double, players = drawn(8, organiser=olga, format=Tournament.Format.DOUBLE_ELIMINATION)
    page = unescape(client.get(reverse("tournaments:bracket", args=[double.pk]), HTTP_ACCEPT_LANGUAGE="en")
                    .content.decode())
    for name in ("Winners' quarter-finals", "Winners' semi-finals", "Winners' final", "Losers' final", "Grand final"):
        assert name in page, name
    with translation.override("en"):
        assert player_next_match(tournament=double, player=players[0]).round_text == "Winners' quarter-finals"
    single, players = drawn(4, organiser=olga, players=[player(f"n{i}") for i in range(4)])
    with translation.override("en"):
        assert player_next_match(tournament=single, player=players[0]).round_text == "Semi-finals"
    swiss, _ = drawn(4, organiser=olga, format=Tournament.Format.SWISS, players=[player(f"s{i}") for i in range(4)])
    robin, _ = drawn(5, organiser=olga, format=Tournament.Format.ROUND_ROBIN,
                     players=[player(f"r{i}") for i in range(5)])
    for event in (swiss, robin):
        rounds = unescape(client.get(reverse("tournaments:rounds", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="en")
                          .content.decode())
        assert ">Round 1</h2>" in rounds
        shown = unescape(client.get(reverse("tournaments:projector", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="en")
                         .content.decode())
        assert '<p class="slide-title">Round ' in shown
