"""The clubs API: seasons, the ladder as JSON and CSV (parsed back), the iCal feed (parsed back) and
club nights, as each role of the club's cast."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from icalendar import Calendar

from clubs.models import CheckIn, Club, ClubNight, Season
from matches.models import Player
from tests.clubs.factories import ClubNightFactory, SeasonFactory, club_cast, club_match, player_of, snapshot
from tests.factories import TournamentFactory, UserFactory
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return club_cast()


@pytest.fixture
def season(cast):
    return SeasonFactory(club=cast.club, name="Spring", starts_on=dt.date(2025, 3, 1), ends_on=dt.date(2025, 5, 31))


def url(cast, tail=""):
    return f"/api/v1/clubs/{cast.club.pk}/{tail}"


# --- seasons -----------------------------------------------------------------------------------------


def test_an_organiser_creates_a_season_and_a_member_cannot(cast):
    body = {"name": "Summer", "starts_on": "2025-06-01", "ends_on": "2025-08-31"}
    assert client_for(cast.members[0]).post(url(cast, "seasons/"), body, format="json").status_code == 403
    response = client_for(cast.organiser).post(url(cast, "seasons/"), body, format="json")
    assert response.status_code == 201
    assert response.json() | {"id": 0} == {"id": 0, "name": "Summer", "starts_on": "2025-06-01", "ends_on": "2025-08-31"}


@pytest.mark.parametrize(("body", "field"), [
    ({"name": "S", "starts_on": "2025-06-01", "ends_on": "2025-05-01"}, "ends_on"),
    ({"name": "S", "starts_on": "1 June", "ends_on": "2025-08-31"}, "starts_on"),
    ({"name": "S", "starts_on": "2025-06-01"}, "ends_on"),
    ({"name": "S", "starts_on": "2025-06-01", "ends_on": "2025-08-31", "club": 2}, "club"),
])
def test_a_bad_season_is_a_400_naming_the_field_and_creates_nothing(cast, body, field):
    before = snapshot(cast.club)
    response = client_for(cast.owner).post(url(cast, "seasons/"), body, format="json")
    assert response.status_code == 400 and field in response.json()["errors"]
    assert snapshot(cast.club) == before


def test_a_season_name_in_use_is_a_409(cast, season):
    response = client_for(cast.owner).post(url(cast, "seasons/"), {"name": "Spring", "starts_on": "2025-01-01",
                                                                   "ends_on": "2025-01-31"}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "season_name_taken")


def test_a_season_is_edited_and_deleted_by_managers(cast, season):
    response = client_for(cast.owner).patch(url(cast, f"seasons/{season.pk}/"), {"ends_on": "2025-06-30"},
                                            format="json")
    assert (response.status_code, response.json()["ends_on"]) == (200, "2025-06-30")
    response = client_for(cast.owner).patch(url(cast, f"seasons/{season.pk}/"), {"starts_on": "2025-07-01"},
                                            format="json")
    assert (response.status_code, response.json()["code"]) == (400, "bad_season")
    assert client_for(cast.members[0]).delete(url(cast, f"seasons/{season.pk}/")).status_code == 403
    assert client_for(cast.organiser).delete(url(cast, f"seasons/{season.pk}/")).status_code == 204
    assert not Season.objects.exists()


def test_another_clubs_season_is_a_404_here(cast):
    elsewhere = SeasonFactory()
    assert client_for(None).get(url(cast, f"seasons/{elsewhere.pk}/ladder/")).status_code == 404
    assert client_for(cast.owner).delete(url(cast, f"seasons/{elsewhere.pk}/")).status_code == 404
    assert Season.objects.filter(pk=elsewhere.pk).exists()


# --- the ladder --------------------------------------------------------------------------------------


@pytest.fixture
def played(cast, season):
    club_match(cast, cast.owner, cast.organiser, (5, 3), played_on=dt.date(2025, 3, 4))
    club_match(cast, cast.members[0], cast.owner, (5, 1), played_on=dt.date(2025, 3, 11))


def test_the_ladder_json_is_public_with_its_definition(cast, season, played):
    body = client_for(None).get(url(cast, f"seasons/{season.pk}/ladder/")).json()
    assert "sum of his side's final scores" in body["definition"]
    assert [(r["place"], r["display_name"], r["played"], r["won"], r["lost"], r["points"]) for r in body["rows"]] == [
        (1, "Ann", 2, 1, 1, 6), (2, "Mia", 1, 1, 0, 5), (3, "Otis", 1, 0, 1, 3)]  # equal wins: points decide


def test_the_ladder_csv_has_its_header_and_one_row_per_player_and_reads_back(cast, season, played):
    player = player_of(cast.members[0])
    player.display_name = 'Mia "the cube", Lyon'
    player.save()
    response = client_for(None).get(url(cast, f"seasons/{season.pk}/ladder.csv"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
    assert rows[0] == ["place", "player", "played", "won", "lost", "points", "rating_change"]
    assert [row[:6] for row in rows[1:]] == [["1", "Ann", "2", "1", "1", "6"],
                                            ["2", 'Mia "the cube", Lyon', "1", "1", "0", "5"],
                                            ["3", "Otis", "1", "0", "1", "3"]]
    assert float(rows[2][6]) > 0 > float(rows[3][6])


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_defused_in_the_csv(cast, season, played):
    player = player_of(cast.organiser)
    player.display_name = "=HYPERLINK(\"x\")"
    player.save()
    rows = list(csv.reader(io.StringIO(client_for(None).get(url(cast, f"seasons/{season.pk}/ladder.csv"))
                                       .content.decode())))
    assert rows[3][1] == "'=HYPERLINK(\"x\")"


@pytest.mark.parametrize("name", ["Mia\nLyon", "Mia; Lyon, 2", "+33 Mia", "-Mia", "@Mia", "\tMia", "\rMia",
                                  "=1+2;\n=3"])
def test_line_breaks_separators_and_formula_starts_in_a_name_read_back_as_one_harmless_cell(cast, season, played,
                                                                                           name):
    # Written past the services, as rows from before names were checked may hold them.
    Player.objects.filter(pk=player_of(cast.organiser).pk).update(display_name=name)
    response = client_for(None).get(url(cast, f"seasons/{season.pk}/ladder.csv"))
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode(), newline="")))
    assert [len(row) for row in rows] == [7] * 4
    [cell] = [row[1] for row in rows[1:] if row[1].endswith(name)]
    assert cell == (f"'{name}" if name[0] in "=+-@\t\r" else name)


def test_the_ladder_csv_keeps_accents_in_utf8(cast, season, played):
    player = player_of(cast.owner)
    player.display_name = "Anaïs Müller"
    player.save()
    content = client_for(None).get(url(cast, f"seasons/{season.pk}/ladder.csv")).content
    assert "Anaïs Müller".encode() in content


# --- the iCal feed ------------------------------------------------------------------------------------


def test_the_calendar_lists_the_clubs_nights_and_dated_events_as_rfc5545(cast):
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser, date=dt.date(2025, 3, 4), title="Tuesday night")
    event = TournamentFactory(name="Lyon Open, with a very long name that has to be folded over several lines of text",
                              club=cast.club, starts_on=dt.date(2025, 4, 5), ends_on=dt.date(2025, 4, 6), status="open")
    TournamentFactory(name="A draft", club=cast.club, starts_on=dt.date(2025, 4, 5))  # its organiser's alone
    TournamentFactory(name="Undated", club=cast.club)
    TournamentFactory(name="Elsewhere", starts_on=dt.date(2025, 4, 5))
    response = client_for(None).get(url(cast, "calendar.ics"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    raw = response.content
    assert all(line.endswith(b"\r") for line in raw.split(b"\n")[:-1])
    assert all(len(line) <= 75 for line in raw.split(b"\r\n"))
    assert b"\r\n " in raw  # the long summary is folded
    calendar = Calendar.from_ical(raw)
    assert (str(calendar["VERSION"]), str(calendar["PRODID"])) == ("2.0", "-//Crawford//Club calendar//EN")
    events = {str(e["UID"]): e for e in calendar.walk("VEVENT")}
    assert set(events) == {f"night-{night.pk}@crawford-club.crawford", f"event-{event.pk}@crawford-club.crawford"}
    item = events[f"night-{night.pk}@crawford-club.crawford"]
    assert str(item["SUMMARY"]) == "Crawford Club: Tuesday night"
    assert item["DTSTART"].dt == dt.date(2025, 3, 4) and item["DTEND"].dt == dt.date(2025, 3, 5)
    assert item["DTSTART"].params.get("VALUE") == "DATE"
    assert item["DTSTAMP"].dt.tzinfo is not None
    tournament = events[f"event-{event.pk}@crawford-club.crawford"]
    assert str(tournament["SUMMARY"]) == event.name
    assert (tournament["DTSTART"].dt, tournament["DTEND"].dt) == (dt.date(2025, 4, 5), dt.date(2025, 4, 7))


def test_line_breaks_commas_and_semicolons_in_names_keep_the_calendar_whole_and_read_back(cast):
    # Written past the services, as rows from before names were checked may hold them.
    name, city = "Lyon\nClub; A, B", "Lyon,\nPart-Dieu; 3e"
    Club.objects.filter(pk=cast.club.pk).update(name=name, city=city)
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser, date=dt.date(2025, 3, 4), title="Tue;\nnight, 2")
    event = TournamentFactory(name="Open;\n2025, spring", club=cast.club, starts_on=dt.date(2025, 4, 5), status="open")
    response = client_for(None).get(url(cast, "calendar.ics"))
    assert response.status_code == 200
    calendar = Calendar.from_ical(response.content)
    # icalendar keeps an X- property's text as written: unescaped here as RFC 5545 (3.3.11) says.
    written = str(calendar["X-WR-CALNAME"])
    assert re.sub(r"\\([\\;,nN])", lambda m: "\n" if m[1] in "nN" else m[1], written) == name
    events = {str(e["UID"]): e for e in calendar.walk("VEVENT")}
    item = events[f"night-{night.pk}@crawford-club.crawford"]
    assert (str(item["SUMMARY"]), str(item["LOCATION"])) == (f"{name}: Tue;\nnight, 2", city)
    assert str(events[f"event-{event.pk}@crawford-club.crawford"]["SUMMARY"]) == "Open;\n2025, spring"


def test_the_calendar_of_an_unknown_club_is_a_404():
    assert client_for(None).get("/api/v1/clubs/999999/calendar.ics").status_code == 404


# --- nights ------------------------------------------------------------------------------------------


def test_a_night_opened_checked_into_and_closed_through_the_api(cast):
    response = client_for(cast.organiser).post(url(cast, "nights/"), {"date": "2025-03-04", "title": "Tuesday"},
                                               format="json")
    assert response.status_code == 201, response.content
    night_id = response.json()["id"]
    response = client_for(cast.members[0]).post(url(cast, f"nights/{night_id}/check-in/"), {}, format="json")
    assert [c["display_name"] for c in response.json()["check_ins"]] == ["Mia"]
    response = client_for(cast.owner).post(url(cast, f"nights/{night_id}/check-in/"),
                                           {"player": player_of(cast.members[1]).pk}, format="json")
    assert [c["display_name"] for c in response.json()["check_ins"]] == ["Mia", "Max"]
    response = client_for(cast.owner).post(url(cast, f"nights/{night_id}/close/"), format="json")
    assert response.json()["status"] == "closed"
    response = client_for(cast.organiser).post(url(cast, f"nights/{night_id}/check-in/"), format="json")
    assert (response.status_code, response.json()["code"]) == (409, "night_closed")
    assert CheckIn.objects.count() == 2


def test_the_night_summary_shows_its_matches_and_is_for_members_only(cast):
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    match = club_match(cast, cast.owner, cast.members[0], (5, 2), night=night, rate=False)
    club_match(cast, cast.owner, cast.members[0], (5, 2), rate=False)  # the club's, not the night's
    body = client_for(cast.members[1]).get(url(cast, f"nights/{night.pk}/")).json()
    assert [(m["id"], m["score"]) for m in body["matches"]] == [(match.pk, [5, 2])]
    assert "chouette_totals" in body
    for user, status in ((cast.outsider, 403), (cast.requester, 403), (cast.invitee, 403), (None, 401)):
        assert client_for(user).get(url(cast, f"nights/{night.pk}/")).status_code == status


def test_the_public_night_list_shows_no_more_than_dates_titles_and_counts(cast):
    ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    body = client_for(None).get(url(cast, "nights/")).json()
    assert set(body["results"][0]) == {"id", "date", "title", "status", "check_in_count"}


@pytest.mark.parametrize(("body", "field"), [({}, "date"), ({"date": "tomorrow"}, "date"),
                                             ({"date": "2025-03-04", "status": "closed"}, "status")])
def test_a_bad_night_is_a_400_and_opens_nothing(cast, body, field):
    response = client_for(cast.owner).post(url(cast, "nights/"), body, format="json")
    assert response.status_code == 400 and field in response.json()["errors"]
    assert not ClubNight.objects.exists()


def test_a_member_checking_in_someone_else_is_a_403_and_a_stranger_is_a_400(cast):
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    response = client_for(cast.members[0]).post(url(cast, f"nights/{night.pk}/check-in/"),
                                                {"player": player_of(cast.members[1]).pk}, format="json")
    assert (response.status_code, response.json()["code"]) == (403, "not_club_manager")
    stranger = player_of(UserFactory(username="stranger"))
    response = client_for(cast.owner).post(url(cast, f"nights/{night.pk}/check-in/"), {"player": stranger.pk},
                                           format="json")
    assert (response.status_code, response.json()["code"]) == (400, "unknown_player")
    assert not CheckIn.objects.exists()


def test_a_match_is_created_for_a_night_through_the_match_api(cast):
    night = ClubNightFactory(club=cast.club, opened_by=cast.organiser)
    body = {"side0": [player_of(cast.members[0]).pk], "side1": [player_of(cast.members[1]).pk], "length": 5,
            "club_night": night.pk}
    response = client_for(cast.members[0]).post("/api/v1/matches/", body, format="json")
    assert response.status_code == 201, response.content
    assert night.match_links.get().club == cast.club
    response = client_for(cast.outsider).post("/api/v1/matches/", {**body, "side0": [player_of(cast.outsider).pk]},
                                              format="json")
    assert (response.status_code, response.json()["code"]) == (403, "not_club_member")
    assert night.match_links.count() == 1
