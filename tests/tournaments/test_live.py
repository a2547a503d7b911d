"""An event's live version (tournaments/live.py) and the endpoint its public pages poll
(tournaments/views/live.py, static/js/live.js)."""

import pytest
from django.core.cache import cache, caches
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory
from tournaments.live import live_key, live_state
from tournaments.models import Tournament
from tournaments.services import entry_check_in
from tournaments.services.draw import tournament_pair_next_round

from .factories import cast, closed, drawn, enter, make_another_organiser, make_staff, override, play, player
from .factories_teams import play_board, team_event, team_pairing

pytestmark = pytest.mark.django_db


def live_url(tournament) -> str:
    return reverse("tournaments:live", args=[tournament.pk])


def version(client, tournament) -> int:
    response = client.get(live_url(tournament))
    assert response.status_code == 200, response.status_code
    return response.json()["version"]


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what a service asks to do after its commit (the test's transaction never commits)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_a_confirmed_result_moves_the_version_once_committed(committed):
    players = cast(4)
    tournament, _ = drawn(4, players=players)
    client = Client()
    before = version(client, tournament)
    assert before == Tournament.objects.get(pk=tournament.pk).version
    with committed():
        play(tournament, "main-1-1", players[0])
    assert version(client, tournament) > before


def test_a_correction_and_a_pairing_move_the_version(committed):
    players = cast(4)
    tournament, _ = drawn(4, players=players, format=Tournament.Format.SWISS)
    client = Client()
    seen = [version(client, tournament)]
    with committed():
        override(tournament, "swiss-1-1", players[0])
    seen.append(version(client, tournament))
    with committed():
        override(tournament, "swiss-1-2", players[1])
    seen.append(version(client, tournament))
    with committed():
        tournament_pair_next_round(tournament_id=tournament.pk, user=tournament.organiser)
    seen.append(version(client, tournament))
    assert seen == sorted(set(seen)), seen  # each change a new, higher version


def test_a_check_in_moves_the_version(committed):
    tournament = closed()
    entry = enter(tournament, cast(1), checked_in=False)[0]
    client = Client()
    before = version(client, tournament)
    with committed():
        entry_check_in(tournament_id=tournament.pk, entry_id=entry.pk, user=tournament.organiser)
    assert version(client, tournament) > before


def test_a_change_rolled_back_forgets_nothing(django_capture_on_commit_callbacks):
    tournament, players = drawn(4)
    live_state(tournament.pk)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        play(tournament, "main-1-1", players[0])
    assert callbacks  # asked for the commit only: a rollback would not run it
    assert cache.get(live_key(tournament.pk)) is not None


def test_the_answer_has_an_etag_and_is_asked_again_each_time():
    tournament, _ = drawn(4)
    response = Client().get(live_url(tournament))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-cache"
    assert response["ETag"] == f'"event-{tournament.pk}-{response.json()["version"]}"'


def test_a_poll_naming_the_version_is_a_304_without_a_query(django_assert_num_queries):
    tournament, _ = drawn(4)
    client = Client()
    etag = client.get(live_url(tournament))["ETag"]
    with django_assert_num_queries(0):
        response = client.get(live_url(tournament), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response.content == b""


def test_a_signed_in_viewer_polls_without_a_query(django_assert_num_queries):
    # No language cookie: the pages read the user's preferred language; the poll shows no words.
    tournament, players = drawn(4)
    client = Client()
    client.force_login(players[0].user)
    etag = client.get(live_url(tournament))["ETag"]
    with django_assert_num_queries(0):
        assert client.get(live_url(tournament), HTTP_IF_NONE_MATCH=etag).status_code == 304
        assert client.get(live_url(tournament)).status_code == 200


def test_a_cache_miss_costs_one_query_whatever_the_size_of_the_event(django_assert_num_queries):
    for count in (4, 16):
        tournament, _ = drawn(count, players=[player(f"p{count}-{i}") for i in range(count)])
        cache.delete(live_key(tournament.pk))
        with django_assert_num_queries(1):
            assert Client().get(live_url(tournament)).status_code == 200
        with django_assert_num_queries(0):
            assert Client().get(live_url(tournament)).status_code == 200


def test_a_new_version_answers_200_to_the_old_etag(committed):
    players = cast(4)
    tournament, _ = drawn(4, players=players)
    client = Client()
    etag = client.get(live_url(tournament))["ETag"]
    with committed():
        play(tournament, "main-1-1", players[0])
    response = client.get(live_url(tournament), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag


def test_a_draft_is_polled_by_its_organiser_and_staff_only():
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    assert Client().get(live_url(draft)).status_code == 404
    for user, status in ((cast(1)[0].user, 404), (make_another_organiser(), 404), (draft.organiser, 200),
                         (make_staff(), 200)):
        client = Client()
        client.force_login(user)
        assert client.get(live_url(draft)).status_code == status, user


def test_an_unknown_event_is_a_404_and_a_post_a_405():
    tournament, _ = drawn(4)
    assert Client().get(reverse("tournaments:live", args=[tournament.pk + 1000])).status_code == 404
    assert Client().post(live_url(tournament)).status_code == 405


@pytest.mark.parametrize("name", ["detail", "bracket", "rounds", "standings"])
def test_the_public_pages_are_live_at_the_version_they_show(name):
    tournament, _ = drawn(4, format=Tournament.Format.SWISS if name in ("rounds", "standings")
                          else Tournament.Format.SINGLE_ELIMINATION)
    html = Client().get(reverse(f"tournaments:{name}", args=[tournament.pk])).content.decode()
    current = Tournament.objects.get(pk=tournament.pk).version
    assert f'data-live="{live_url(tournament)}" data-live-version="{current}"' in html
    assert html.count("data-live=") == 1
    assert "data-live-region" in html
    assert "js/live.js" in html


def test_a_draft_page_is_not_live():
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    html = Client().get(reverse("tournaments:detail", args=[draft.pk])).content.decode()
    assert "data-live=" not in html


def test_a_team_match_card_is_live_and_a_board_confirmed_moves_the_version(organiser, committed):
    tournament, _players, (aces, _bears, _cats, dogs) = team_event(organiser, lengths={"main": [3]})
    row = team_pairing(tournament, aces, dogs)
    html = Client().get(reverse("tournaments:team_match", args=[tournament.pk, row.pk])).content.decode()
    client = Client()
    before = version(client, tournament)
    assert f'data-live="{live_url(tournament)}" data-live-version="{before}"' in html
    assert 'id="live-team-match" data-live-region' in html
    with committed():
        play_board(row, 1, aces)
    assert version(client, tournament) > before


def test_without_redis_the_local_memory_cache_serves_the_polls(settings, committed, django_assert_num_queries):
    # The embedded run (no REDIS_URL): config/settings.py's local-memory cache.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert type(caches["default"]).__name__ == "LocMemCache"
    players = cast(4)
    tournament, _ = drawn(4, players=players)
    client = Client()
    etag = client.get(live_url(tournament))["ETag"]
    with django_assert_num_queries(0):
        assert client.get(live_url(tournament), HTTP_IF_NONE_MATCH=etag).status_code == 304
    with committed():
        play(tournament, "main-1-1", players[0])
    response = client.get(live_url(tournament), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and response["ETag"] != etag
