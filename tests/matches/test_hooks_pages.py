"""The page hooks of matches (matches.hooks): sections an app above draws on a match's or a
player's page, and marks on the board stepper's moments with links from one stop to the next,
shown without matches knowing the app (here a test's own sections and marker)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches import hooks
from tests.analysis.conftest import confirm_with_file
from tests.matches.factories_api import make_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def isolated(monkeypatch):
    """The hooks emptied for the test (the apps' own entries restored after it)."""
    for hook in (hooks.match_page, hooks.player_page, hooks.move_markers):
        monkeypatch.setattr(hook, "_entries", {})


@pytest.fixture
def played():
    cast = make_cast(length=3)
    confirm_with_file(cast.match, cast.alice, cast.bob)
    return cast


def test_fragments_are_drawn_in_order_and_an_empty_one_is_left_out(isolated, played, client):
    hooks.match_page.register(hooks.PageSection("b", 20, render=lambda request, match: f"<p id='b'>{match.pk}</p>"))
    hooks.match_page.register(hooks.PageSection("a", 10, render=lambda request, match: "<p id='a'>first</p>"))
    hooks.match_page.register(hooks.PageSection("c", 5, render=lambda request, match: ""))
    hooks.player_page.register(hooks.PageSection("p", 1, render=lambda request, player: f"<p id='p'>{player.pk}</p>"))
    html = client.get(reverse("matches:detail", args=[played.match.pk])).content.decode()
    assert html.index("<p id='a'>first</p>") < html.index(f"<p id='b'>{played.match.pk}</p>")
    player = played.match.side0.player_a
    assert f"<p id='p'>{player.pk}</p>" in client.get(reverse("matches:player", args=[player.pk])).content.decode()


def test_a_marker_marks_its_moments_and_the_stepper_links_its_stops_across_games(isolated, played, client):
    marks = [hooks.MoveMark(1, 3, "note", "a note, no stop"), hooks.MoveMark(1, 5, "odd", "odd play"),
             hooks.MoveMark(2, 2, "odd", "odd again", stop=True), hooks.MoveMark(1, 4, "odd", "first stop", stop=True)]
    hooks.move_markers.register(hooks.MoveMarker("test", lambda match: marks, next_label="Next odd",
                                                 previous_label="Previous odd"))
    url = reverse("matches:detail", args=[played.match.pk])
    html = client.get(url, {"game": 1, "moment": 3}).content.decode()
    assert '<p class="move-mark move-mark-note"><strong>a note, no stop</strong></p>' in html
    assert f'<a class="jump jump-next" href="{url}?game=1&amp;moment=4#board">Next odd \u203a</a>' in html
    assert "Previous odd" not in html
    html = client.get(url, {"game": 1, "moment": 4}).content.decode()
    assert f'href="{url}?game=2&amp;moment=2#board">Next odd' in html and "Previous odd" not in html
    html = client.get(url, {"game": 2, "moment": 2}).content.decode()
    assert "odd again" in html and "Next odd" not in html
    assert f'<a class="jump jump-previous" href="{url}?game=1&amp;moment=4#board">\u2039 Previous odd</a>' in html
