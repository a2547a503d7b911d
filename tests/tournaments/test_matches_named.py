"""A refusal that names another match of the event names it by its players and its round ("the
match Alice v Bob (the final)"), never by its key in the draw (``main-2-1``), which stays in the
refusal's details for machines: on the services, the match page and the round desk."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from core.errors import Conflict
from matches.models import Match
from tests.tournaments.factories import (
    closed,
    drawn,
    enter,
    make_organiser,
    override,
    play,
    player,
    report_only,
    snapshot,
)
from tournaments.draw import DrawError
from tournaments.errors import from_draw
from tournaments.models import Tournament
from tournaments.services import tournament_draw, tournament_finish
from tournaments.services.entries import entry_withdraw
from tournaments.services.naming import match_namer

pytestmark = pytest.mark.django_db

#: A key of the draw, as no one should read it.
KEY = re.compile(r"\b(main|consolation|last_chance|winners|losers|final|swiss|rounds|playoffs?)-\d+-\d+\b")


@pytest.fixture
def organiser():
    return make_organiser()


def test_a_key_is_named_by_its_players_and_round_and_a_key_not_stored_by_its_round(organiser):
    tournament, (alice, _bob, _carol, _dave) = drawn(4, organiser=organiser)
    play(tournament, "main-1-1", alice)
    with translation.override("en"):
        name = match_namer(tournament)
        assert name("main-1-1") == "the match Alice v Dave (a semi-final)"
        assert name("main-2-1") == "the final"  # no pairing stored yet: its round
        assert name("main-9-1") == "round 9"
        assert name("not a key") == "a later match"


def test_a_correction_refused_names_both_matches_in_the_readers_language(organiser):
    tournament, (alice, bob, _carol, dave) = drawn(4, organiser=organiser)
    play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    report_only(tournament, "main-2-1", alice)
    with translation.override("ro"):
        final, semi = translation.gettext("the final"), translation.gettext("a semi-final")
        # Two players as the reader's language joins them (Romanian puts a dash between them).
        alice_bob, alice_dave = (translation.gettext("%(a)s v %(b)s") % {"a": "Alice", "b": other}
                                 for other in ("Bob", "Dave"))
        with pytest.raises(Conflict) as caught:
            override(tournament, "main-1-1", dave)
    assert final != "the final" and caught.value.details["match"] == "main-2-1"
    assert f"{alice_bob} ({final})" in caught.value.message and f"{alice_dave} ({semi})" in caught.value.message
    assert not KEY.search(caught.value.message)


def test_a_finished_event_refuses_a_change_naming_the_match(organiser):
    tournament, (alice, bob, _carol, dave) = drawn(4, organiser=organiser)
    play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    play(tournament, "main-2-1", alice)
    tournament_finish(tournament_id=tournament.pk, user=organiser)
    with translation.override("en"), pytest.raises(Conflict) as caught:
        override(tournament, "main-1-1", dave)
    assert caught.value.code == "tournament_finished" and caught.value.details["match"] == "main-1-1"
    assert caught.value.message.startswith("the result of the match Alice v Dave (a semi-final) cannot change the "
                                           "bracket of ")


def test_a_forfeit_the_organiser_cannot_record_names_the_match(organiser):
    tournament = closed(organiser=organiser)
    olga = player("olga-player")
    olga.user = organiser
    olga.save()
    bob = player("bob")
    enter(tournament, [olga, bob])
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    entry = tournament.entries.get(side__player_a=bob)
    with translation.override("en"), pytest.raises(Conflict) as caught:
        entry_withdraw(tournament_id=tournament.pk, entry_id=entry.pk, user=bob.user)
    assert (caught.value.code, caught.value.details["match"]) == ("forfeit_refused", "main-1-1")
    assert caught.value.message.startswith("the match ") and "Bob" in caught.value.message
    assert "(the final)" in caught.value.message and not KEY.search(caught.value.message)


def test_a_draw_refusal_about_a_match_says_its_sentence_not_the_key():
    error = DrawError("main-2-1 cannot have a result now (waiting)", code="match_not_ready", match="main-2-1")
    with translation.override("en"):
        refused = from_draw(error)
    assert (refused.code, refused.message) == ("match_not_ready", "This match cannot have a result now.")


def test_the_match_page_shows_the_refused_correction_by_players_and_rounds(client, organiser):
    tournament, (alice, bob, _carol, dave) = drawn(4, organiser=organiser)
    semi = play(tournament, "main-1-1", alice)
    play(tournament, "main-1-2", bob)
    report_only(tournament, "main-2-1", alice)
    before = snapshot(tournament)
    client.force_login(organiser)
    dave_side = 0 if semi.side0.player_a_id == dave.pk else 1
    score = {f"override-score{dave_side}": str(semi.length), f"override-score{1 - dave_side}": "0"}
    response = client.post(reverse("matches:override", args=[semi.pk]), score, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409
    page = html.unescape(response.content.decode())
    assert "the match Alice v Bob (the final) depends on it" in page
    assert not KEY.search(re.sub(r"<[^>]+>", " ", page.split("<main", 1)[1]))
    assert snapshot(tournament) == before
    assert Match.objects.get(pk=semi.pk).status == Match.Status.CONFIRMED


def test_an_unfinished_bracket_names_the_first_match_to_go(organiser):
    tournament, _players = drawn(4, organiser=organiser)
    with translation.override("en"), pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.message == ("the bracket is not played out: 3 matches to go, first the match Alice v Dave "
                                    "(a semi-final)")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
