"""Corrections that really correct: voiding or amending a middle game recomputes the line-up of every
later game (chouette.services over engine.chouette.session_correct). A later game whose Box or
Captain is no longer who the new line-up puts there is named to the director (players by name,
never ids) and amended with the correction, or nothing is saved; the session's kept state is the
full replay's afterwards. The usual table: Ann is the Box, Otis the Captain, Mia and Max the crew."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape

import pytest
from django.test import Client

from audit.models import AuditEntry
from chouette.models import ChouetteStep
from chouette.selectors import engine_steps, session_settings
from chouette.services import chouette_game_amend, chouette_game_void
from core.errors import Conflict, DomainError
from engine.chouette import GameStep, lineup_from_json, replay_session
from tests.chouette.factories import chouette_snapshot, play, quick, table
from tests.chouette.test_kept_state import kept_is_the_full_replay
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db

SIX = ("box", "team", "box", "box", "team", "box")
#: Something a person should never read in a refusal: a number standing for a player, a dict, a model.
INTERNAL = re.compile(r"\d{2,}|[{}]|ChouetteStep|ChouetteSession|Player\b|\bid\b")


def six_games(cast):
    session = table(cast)
    for winner in SIX:
        play(cast, session, quick(winner))
    return session


def rows(session) -> list[ChouetteStep]:
    return list(session.steps.order_by("number"))


def from_scratch(session):
    """The session replayed with no game pinned to the line-up it was recorded with."""
    steps = [replace(step, lineup=None) if isinstance(step, GameStep) else step for step in engine_steps(rows(session))]
    return replay_session(steps, session_settings(session))


def recorded_lineups(session) -> dict[int, object]:
    return {index: lineup_from_json(row.record["lineup"]) for index, row in enumerate(rows(session))
            if row.kind == "game" and not row.voided}


def void(cast, session, number, **extra):
    return chouette_game_void(club_id=cast.club.pk, chouette_id=session.pk, number=number, user=cast.organiser,
                              **extra)


def amend(cast, session, number, record, **extra):
    return chouette_game_amend(club_id=cast.club.pk, chouette_id=session.pk, number=number, user=cast.organiser,
                               kind="quick", record=record, **extra)


def test_voiding_a_middle_game_of_six_names_the_later_games_to_amend_and_saves_nothing(cast):
    session = six_games(cast)
    before = chouette_snapshot(session)
    with pytest.raises(Conflict) as caught:
        void(cast, session, 3)
    error = caught.value
    assert error.code == "later_games_to_amend"
    assert [game["game"] for game in error.details["games"]] == [4, 5, 6]
    assert error.details["games"][0] == {
        "game": 4, "step": 5, "reason": "captain_changed", "box": "Mia", "captain": "Max", "crew": ["Otis", "Ann"],
        "recorded_box": "Mia", "recorded_captain": "Otis", "lineup": error.details["games"][0]["lineup"]}
    assert "game 4 was played by Otis as Captain against Mia in the box; it now falls to Max as Captain against Mia" \
        in error.message
    assert not INTERNAL.search(error.message), error.message
    assert chouette_snapshot(session) == before


def test_voiding_a_middle_game_with_its_later_games_amended_gives_the_replay_from_scratch(cast):
    session = six_games(cast)
    later = {game: ("quick", quick(winner)) for game, winner in zip((4, 5, 6), SIX[3:], strict=True)}
    void(cast, session, 3, later=later)
    replayed = from_scratch(session)
    # Every later game's line-up is the one a replay from scratch gives it.
    assert recorded_lineups(session) == {game.step: game.lineup for game in replayed.games}
    assert [game.step for game in replayed.games] == [1, 2, 4, 5, 6]
    kept_is_the_full_replay(session)
    assert [row.amended for row in rows(session) if row.kind == "game"] == [0, 0, 0, 1, 1, 1]
    amended = AuditEntry.objects.filter(action="chouette.game_amended").order_by("pk")
    assert [entry.note.rsplit(" ", 1)[-1] for entry in amended] == ["4", "5", "6"]
    assert AuditEntry.objects.get(action="chouette.game_voided").after["later_amended"] == [4, 5, 6]
    # The table goes on from where the corrected session stands.
    play(cast, session, quick("box"))
    kept_is_the_full_replay(session)


def test_an_amendment_that_makes_a_later_captain_impossible_lists_the_games_by_name_and_saves_nothing(cast, p):
    session = six_games(cast)
    before = chouette_snapshot(session)
    # Max beats Mia in game 3 after all: he is the Box of game 4, which Mia boxed.
    with pytest.raises(Conflict) as caught:
        amend(cast, session, 3, quick("team"))
    error = caught.value
    assert error.code == "later_games_to_amend" and error.details["game"] == 4
    assert error.details["games"][0]["reason"] == "box_changed"
    assert not INTERNAL.search(error.message), error.message
    assert chouette_snapshot(session) == before
    # Only some of the later games given: still nothing saved, the rest named.
    with pytest.raises(Conflict) as caught:
        amend(cast, session, 3, quick("team"), later={4: ("quick", quick("box"))})
    assert [game["game"] for game in caught.value.details["games"]] == [5, 6]
    assert chouette_snapshot(session) == before
    amend(cast, session, 3, quick("team"), later={4: ("quick", quick("box")), 5: ("quick", quick("team")),
                                                   6: ("quick", quick("box"))})
    assert recorded_lineups(session) == {game.step: game.lineup for game in from_scratch(session).games}
    kept_is_the_full_replay(session)


def test_a_later_amendment_that_does_not_fit_is_refused_where_it_is_and_saves_nothing(cast, p):
    session = six_games(cast)
    before = chouette_snapshot(session)
    later = {4: ("quick", quick("box", cubes={p["xavier"]: 2})), 5: ("quick", quick("team")), 6: ("quick", quick("box"))}
    with pytest.raises(DomainError) as caught:
        void(cast, session, 3, later=later)
    assert (caught.value.code, caught.value.details["field"], caught.value.details["game"]) == (
        "unknown_player", "later[4].cubes[0].player", 4)
    with pytest.raises(DomainError) as caught:
        void(cast, session, 3, later={2: ("quick", quick("box"))})
    assert (caught.value.code, caught.value.details["field"]) == ("bad_later", "later[2]")
    assert chouette_snapshot(session) == before


def test_the_api_names_the_games_to_amend_without_ids_and_takes_them_with_the_correction(cast):
    session = six_games(cast)
    base = f"/api/v1/clubs/{cast.club.pk}/chouettes/{session.pk}/games/3/"
    organiser = client_for(cast.organiser)
    response = organiser.delete(base)
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "later_games_to_amend" and body["game"] == 4
    assert "Otis as Captain against Mia" in body["detail"] and not INTERNAL.search(body["detail"])
    response = organiser.put(base, {"kind": "quick", "record": quick("team")}, format="json")
    assert response.status_code == 409 and not INTERNAL.search(response.json()["detail"])
    later = [{"game": game, "kind": "quick", "record": quick(winner)} for game, winner in zip((4, 5, 6), SIX[3:],
                                                                                               strict=True)]
    response = organiser.delete(base, {"later": later}, format="json")
    assert response.status_code == 200, response.json()
    assert recorded_lineups(session) == {game.step: game.lineup for game in from_scratch(session).games}
    twice = organiser.put(f"/api/v1/clubs/{cast.club.pk}/chouettes/{session.pk}/games/1/",
                          {"kind": "quick", "record": quick("box"), "later": [later[0], later[0]]}, format="json")
    assert twice.status_code == 400


# --- the game's page ---------------------------------------------------------------------------------------------


def page_text(response) -> str:
    """The page as read: entities unescaped, the left-to-right isolates of numbers (``<bdi>``) dropped."""
    return unescape(re.sub(r"</?bdi[^>]*>", "", response.content.decode()))


def later_post(p, number: int, lineup: str, winner: str) -> dict:
    data = {f"later-{number}-lineup": lineup, f"later-{number}-winner": winner, f"later-{number}-level": "1"}
    for name in ("ann", "otis", "mia", "max"):
        data[f"later-{number}-cube-{p[name]}"] = ""
        data[f"later-{number}-end-{p[name]}"] = "played"
    return data


def test_the_page_names_the_games_to_amend_asks_for_them_and_saves_the_whole_correction(cast, p):
    session = six_games(cast)
    client = Client()
    client.force_login(cast.organiser)
    url = f"/clubs/{cast.club.slug}/chouettes/{session.pk}/games/3/"
    before = chouette_snapshot(session)
    response = client.post(url, {"action": "void", "version": "7"})
    body = page_text(response)
    assert response.status_code == 409 and chouette_snapshot(session) == before
    message = re.search(r'role="alert">(.*?)<', body, re.S).group(1)
    assert "game 4 was played by Otis as Captain against Mia in the box; it now falls to Max" in message
    assert not INTERNAL.search(message), message
    assert "Amend the later games with this correction" in body
    for number, legend in ((4, "Game 4: Max as Captain against Mia in the box"),
                           (5, "Game 5: Otis as Captain against Mia in the box"),
                           (6, "Game 6: Ann as Captain against Otis in the box")):
        assert legend in body and f'name="later-{number}-winner"' in body
    lineups = dict(re.findall(r'name="later-(\d+)-lineup" value="([\d,]+)"', body))
    data = {"action": "void", "version": "7", "later": "4,5,6"}
    for number, winner in zip((4, 5, 6), SIX[3:], strict=True):
        data.update(later_post(p, number, lineups[str(number)], winner))
    response = client.post(url, data, follow=True)
    assert "Game 3 is void" in page_text(response)
    assert recorded_lineups(session) == {game.step: game.lineup for game in from_scratch(session).games}
    kept_is_the_full_replay(session)


def test_a_later_game_the_page_posts_wrong_is_shown_on_its_form_and_nothing_is_saved(cast, p):
    session = six_games(cast)
    client = Client()
    client.force_login(cast.organiser)
    url = f"/clubs/{cast.club.slug}/chouettes/{session.pk}/games/3/"
    body = page_text(client.post(url, {"action": "void", "version": "7"}))
    lineups = dict(re.findall(r'name="later-(\d+)-lineup" value="([\d,]+)"', body))
    before = chouette_snapshot(session)
    data = {"action": "void", "version": "7", "later": "4,5,6"}
    for number, winner in zip((4, 5, 6), SIX[3:], strict=True):
        data.update(later_post(p, number, lineups[str(number)], winner))
    data[f"later-4-end-{p['max']}"] = "member_dropped"   # a drop with no cube value
    response = client.post(url, data)
    assert response.status_code == 400 and chouette_snapshot(session) == before
    assert "give the cube&#x27;s value when the game ended on a drop" in response.content.decode() or \
        "give the cube's value when the game ended on a drop" in page_text(response)


def test_an_amendment_on_the_page_carries_its_own_result_and_the_later_games_together(cast, p):
    session = six_games(cast)
    client = Client()
    client.force_login(cast.organiser)
    url = f"/clubs/{cast.club.slug}/chouettes/{session.pk}/games/3/"
    amended = {"winner": "team", "level": "1", "version": "7"}
    for name in ("ann", "otis", "mia", "max"):
        amended.update({f"cube-{p[name]}": "", f"end-{p[name]}": "played"})
    response = client.post(url, amended)
    body = page_text(response)
    assert response.status_code == 409 and "Game 3: amended" in body
    lineups = dict(re.findall(r'name="later-(\d+)-lineup" value="([\d,]+)"', body))
    assert sorted(lineups) == ["4", "5", "6"]
    data = {**amended, "later": "4,5,6"}
    for number, winner in zip((4, 5, 6), ("box", "team", "box"), strict=True):
        data.update(later_post(p, int(number), lineups[str(number)], winner))
    response = client.post(url, data, follow=True)
    assert "Game 3 is amended." in page_text(response)
    assert recorded_lineups(session) == {game.step: game.lineup for game in from_scratch(session).games}
    kept_is_the_full_replay(session)


def test_a_correction_costs_the_same_queries_plus_one_write_and_one_audit_per_later_game(cast, django_assert_num_queries):
    session = six_games(cast)
    later = {game: ("quick", quick(winner)) for game, winner in zip((4, 5, 6), SIX[3:], strict=True)}
    # Refused: the club, the session locked, the manager check, the steps, the players' names.
    with django_assert_num_queries(REFUSED), pytest.raises(Conflict):
        void(cast, session, 3)
    # Saved: the same four reads (no names), the voided row, each later game's row and its audit entry,
    # the session (version and kept state) and the void's audit entry.
    with django_assert_num_queries(2 + 4 + 1 + 2 * 3 + 1 + 1):
        void(cast, session, 3, later=later)


REFUSED = 8  # five reads, and the savepoint of the service's transaction (set, rolled back, released)


def test_an_amendment_naming_someone_off_the_team_is_refused_by_name_not_by_id(cast, p):
    session = six_games(cast)
    base = f"/api/v1/clubs/{cast.club.pk}/chouettes/{session.pk}/games/3/"
    response = client_for(cast.organiser).put(base, {"kind": "quick", "record": quick("box", cubes={p["xavier"]: 2})},
                                              format="json")
    body = response.json()
    assert response.status_code == 400 and body["code"] == "unknown_player"
    assert "Xavier" in body["detail"] and not INTERNAL.search(body["detail"]), body["detail"]
    client = Client()
    client.force_login(cast.organiser)
    amended = {"winner": "box", "level": "1", "version": "7"}
    for name in ("ann", "otis", "mia", "max"):
        amended.update({f"cube-{p[name]}": "", f"end-{p[name]}": "played"})
    response = client.post(f"/clubs/{cast.club.slug}/chouettes/{session.pk}/games/1/", {**amended, "version": "1"})
    assert response.status_code == 409 and "the table has changed" in page_text(response)
