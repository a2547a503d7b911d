"""A player's public page: the rating chart (dated ticks spanning his history, a rating axis, the
points joined, a title and a description), his rating history, the events he played and his
clubs (from the apps above, through matches.hooks), what he chose to show (email, real name), a
player known only from imported files, and a query count that does not grow with his record."""

from __future__ import annotations

import datetime as dt
import html
import itertools
import re
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club, Membership
from matches.charts import TIME_STEPS, rating_chart_svg, time_ticks, value_ticks
from matches.models import Match, Player, RatingChange, Side
from tests.factories import MatchFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.matches.factories_api import client_for
from tournaments.models import Entry, Team, TeamMember

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


def text_of(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def _side(player: Player) -> Side:
    side, _ = Side.objects.get_or_create(player_a=player, player_b=None)
    return side


def ledger(player: Player, days: list[dt.date], *, start: float = 1500.0, opponent: Player | None = None) -> list[Match]:
    """Confirmed rated matches of ``player`` played on ``days``, each with its live rating change
    (+5 for a win on an even index, -3 otherwise), in ledger order."""
    opponent = opponent or PlayerFactory(user=None, display_name="Imported Ivan")
    rating, matches = start, []
    for index, day in enumerate(days):
        match = MatchFactory(side0=_side(player), side1=_side(opponent), status=Match.Status.CONFIRMED, score0=5,
                             score1=3 if index % 2 == 0 else 5, winner=0 if index % 2 == 0 else 1, played_on=day)
        after = rating + (5 if index % 2 == 0 else -3)
        RatingChange.objects.create(player=player, match=match, rating_before=rating, rating_after=after,
                                    experience_before=index * 5, experience_after=(index + 1) * 5, sequence=index + 1)
        rating = after
        matches.append(match)
    Player.objects.filter(pk=player.pk).update(rating=rating, experience=len(days) * 5)
    return matches


def chart_of(response) -> ET.Element:
    found = re.search(r"<svg[^>]*class=\"rating-chart\".*?</svg>", response.content.decode(), re.S)
    assert found, "no rating chart on the page"
    return ET.fromstring(found.group(0))


# --- the chart module ---------------------------------------------------------------------------------


@pytest.mark.parametrize("span_days", [0, 1, 6, 30, 200, 800, 4000])
def test_the_time_ticks_span_the_history_on_calendar_boundaries(span_days):
    first = dt.datetime(2024, 3, 5, 14, 30, tzinfo=dt.UTC)
    last = first + dt.timedelta(days=span_days)
    step, ticks = time_ticks(first, last)
    assert ticks[0] <= first and ticks[-1] >= last
    assert 2 <= len(ticks) <= 7
    assert step in TIME_STEPS
    for tick in ticks:
        assert (tick.hour, tick.minute) == (0, 0)
        if step.unit in ("month", "year"):
            assert tick.day == 1
        if step.unit == "year":
            assert tick.month == 1
    assert ticks == sorted(set(ticks))


def test_the_rating_ticks_are_round_and_cover_the_values():
    ticks = value_ticks(1481.3, 1523.9)
    assert ticks[0] <= 1481.3 and ticks[-1] >= 1523.9
    gaps = {round(b - a, 6) for a, b in itertools.pairwise(ticks)}
    assert len(gaps) == 1 and gaps.pop() in (1, 2, 5, 10, 20, 50)
    assert len(value_ticks(1500, 1500)) >= 2  # a flat history still has an axis


def test_the_chart_is_accessible_svg_with_axes_and_joined_points():
    start = dt.datetime(2025, 1, 10, tzinfo=dt.UTC)
    points = [(start + dt.timedelta(days=9 * i), 1500 + (-1) ** i * i * 3) for i in range(8)]
    root = ET.fromstring(rating_chart_svg(points, title="Ana's rating", desc="Eight <points>", chart_id="c"))
    assert root.get("role") == "img" and root.get("aria-labelledby") == "c-title c-desc"
    assert root.find(SVG + "title").text == "Ana's rating" and root.find(SVG + "desc").text == "Eight <points>"
    line = root.find(f".//{SVG}polyline")
    assert len(line.get("points").split()) == len(points)
    xs = [float(pair.split(",")[0]) for pair in line.get("points").split()]
    assert xs == sorted(xs)
    assert root.findall(f".//{SVG}text[@class='tick-y']") and root.findall(f".//{SVG}text[@class='tick-x']")
    assert rating_chart_svg(points[:1], title="t", desc="d") == ""  # one point: nothing to draw


# --- the page -------------------------------------------------------------------------------------------


def test_the_chart_has_dated_ticks_spanning_the_history(client):
    ana = PlayerFactory(display_name="Ana")
    days = [dt.date(2024, 2, 12), dt.date(2024, 5, 3), dt.date(2024, 9, 20), dt.date(2025, 1, 8)]
    ledger(ana, days)
    response = client.get(reverse("matches:player", args=[ana.pk]))
    assert response.status_code == 200
    chart = chart_of(response)
    ticks = [dt.date.fromisoformat(t.get("data-date")) for t in chart.iter(SVG + "text") if t.get("class") == "tick-x"]
    assert ticks[0] <= days[0] and ticks[-1] >= days[-1] and len(ticks) >= 3
    labels = [t.text for t in chart.iter(SVG + "text") if t.get("class") == "tick-x"]
    assert all(re.search(r"20(24|25)", label) for label in labels), labels  # dated: each says its year
    ratings = [float(t.get("data-value")) for t in chart.iter(SVG + "text") if t.get("class") == "tick-y"]
    assert ratings[0] <= 1500 and ratings[-1] >= 1507  # 1500, 1505, 1502, 1507, 1504
    points = chart.find(f".//{SVG}polyline").get("points").split()
    assert len(points) == len(days) + 1  # his rating before the first match, then after each
    assert "Rating of Ana over time" in chart.find(SVG + "title").text
    assert "4 rated matches from 12 Feb 2024 to 8 Jan 2025" in chart.find(SVG + "desc").text
    text = text_of(response)
    assert "v Imported Ivan" in text and "8 Jan 2025" in text


def test_an_old_match_rated_late_never_runs_the_chart_backwards(client):
    # The ledger's order is the order his rating changed: a 2019 match imported after a 2024 one
    # is drawn at the date reached so far; the table still gives each match's own date.
    eve = PlayerFactory(display_name="Eve")
    ledger(eve, [dt.date(2024, 3, 1), dt.date(2019, 7, 14), dt.date(2024, 6, 1)])
    response = client.get(reverse("matches:player", args=[eve.pk]))
    xs = [float(pair.split(",")[0]) for pair in chart_of(response).find(f".//{SVG}polyline").get("points").split()]
    assert xs == sorted(xs) and len(xs) == 4
    ticks = [t.get("data-date") for t in chart_of(response).iter(SVG + "text") if t.get("class") == "tick-x"]
    assert ticks[0] >= "2024-01-01"
    assert "14 Jul 2019" in text_of(response)


def test_the_email_and_the_real_name_show_only_when_chosen(client):
    user = UserFactory(username="bea-private", email="bea@example.com", first_name="Beatrix", last_name="Ionescu")
    bea = PlayerFactory(user=user, display_name="Bea")
    url, api = reverse("matches:player", args=[bea.pk]), f"/api/v1/players/{bea.pk}/"

    page, data = client.get(url).content.decode(), client_for().get(api).data
    assert "bea@example.com" not in page and "Ionescu" not in page and "bea-private" not in page
    assert data["email"] is None and data["real_name"] is None

    user.email_public = True
    user.save()
    page, data = client.get(url).content.decode(), client_for().get(api).data
    assert 'href="mailto:bea@example.com"' in page and "Ionescu" not in page
    assert data["email"] == "bea@example.com" and data["real_name"] is None

    user.real_name_public, user.email_public = True, False
    user.save()
    page, data = client.get(url).content.decode(), client_for().get(api).data
    assert "Beatrix Ionescu" in page and "bea@example.com" not in page
    assert data["email"] is None and data["real_name"] == "Beatrix Ionescu"
    # The list of players shows neither, whatever he chose.
    user.email_public = True
    user.save()
    assert "bea@example.com" not in client_for().get("/api/v1/players/").content.decode()


def test_the_page_of_a_player_without_a_user_works(client):
    imported = PlayerFactory(user=None, display_name="Lasse From A File", country="SE")
    ledger(imported, [dt.date(2023, 6, 1), dt.date(2023, 6, 2)])
    response = client.get(reverse("matches:player", args=[imported.pk]))
    assert response.status_code == 200
    text = text_of(response)
    assert "Lasse From A File" in text and "Sweden" in text and "No club yet." in text and "No events yet." in text
    assert "Edit your profile" not in text
    assert len(chart_of(response).find(f".//{SVG}polyline").get("points").split()) == 3
    data = client_for().get(f"/api/v1/players/{imported.pk}/").data
    assert data["email"] is None and data["real_name"] is None


def test_the_page_lists_events_played_and_clubs(client):
    user = UserFactory(username="cleo")
    cleo = PlayerFactory(user=user, display_name="Cleo")
    home = Club.objects.create(name="Bucharest Backgammon", slug="bucharest-bg")
    other = Club.objects.create(name="Seoul Tavla", slug="seoul-tavla")
    never = Club.objects.create(name="Asked Only", slug="asked-only")
    from clubs.models import HomeClub

    HomeClub.objects.create(player=cleo, club=home)
    Membership.objects.create(club=other, user=user, role="organiser", status="active")
    Membership.objects.create(club=never, user=user, status="requested")
    spring = TournamentFactory(name="Spring Open", starts_on=dt.date(2025, 4, 5), status="finished")
    autumn = TournamentFactory(name="Autumn Cup", starts_on=dt.date(2025, 10, 1), status="running")
    left = TournamentFactory(name="Withdrawn Event", starts_on=dt.date(2025, 6, 1), status="open")
    Entry.objects.create(tournament=spring, side=_side(cleo))
    Entry.objects.create(tournament=autumn, side=_side(cleo))
    Entry.objects.create(tournament=left, side=_side(cleo), status=Entry.Status.WITHDRAWN)
    pairs = TournamentFactory(name="Pairs Night", starts_on=dt.date(2025, 2, 1), kind="pairs", status="open")
    Entry.objects.create(tournament=pairs, side=Side.objects.create(player_a=PlayerFactory(), player_b=cleo))
    teams = TournamentFactory(name="Team League", starts_on=dt.date(2025, 1, 1), kind="teams", status="open")
    team = Team.objects.create(tournament=teams, name="Cats", captain=PlayerFactory())
    TeamMember.objects.create(team=team, tournament=teams, player=cleo, reserve=True)
    Entry.objects.create(tournament=teams, team=team)

    response = client.get(reverse("matches:player", args=[cleo.pk]))
    page = response.content.decode()
    events = page[page.index('id="events-title"'):page.index('id="clubs-title"')]
    assert events.index("Autumn Cup") < events.index("Spring Open") < events.index("Pairs Night")  # the latest first
    assert events.index("Pairs Night") < events.index("Team League")  # in a pair, in a team (a reserve)
    assert "(under way)" in events and "(finished)" in events and "Withdrawn Event" not in events
    assert reverse("tournaments:detail", args=[spring.pk]) in events
    clubs = page[page.index('id="clubs-title"'):page.index('id="recent-title"')]
    assert "Bucharest Backgammon" in clubs and "(home club)" in clubs and "Seoul Tavla" in clubs
    assert "(organiser)" in clubs and "Asked Only" not in clubs
    assert reverse("clubs:detail", args=["seoul-tavla"]) in clubs


def _queries(client, player: Player) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("matches:player", args=[player.pk])).status_code == 200
    return len(queries)


def test_the_page_costs_the_same_queries_however_long_the_record(client):
    """A player with 3 matches and one with 60 (rating changes, events, clubs): the same count."""
    counts = []
    for size in (3, 60):
        user = UserFactory(username=f"long-{size}")
        someone = PlayerFactory(user=user, display_name=f"Player {size}")
        start = dt.date(2020, 1, 1)
        ledger(someone, [start + dt.timedelta(days=7 * i) for i in range(size)])
        for i in range(min(size, 12)):
            event = TournamentFactory(name=f"Event {size}-{i}", starts_on=start + dt.timedelta(days=30 * i))
            Entry.objects.create(tournament=event, side=_side(someone))
            club = Club.objects.create(name=f"Club {size}-{i}", slug=f"club-{size}-{i}")
            Membership.objects.create(club=club, user=user, status="active")
        counts.append(_queries(client, someone))
        client.force_login(user)
        counts.append(_queries(client, someone))  # signed in: his own page
        client.logout()
    assert counts[0] == counts[2] and counts[1] == counts[3], counts
    # 13 anonymous: the player (user, home club joined), the chart's points, the table's changes
    # (and the four prefetches of their players), the corrections, the events, the clubs, his
    # analysed matches' PRs and the recent matches with theirs.
    assert counts[0] <= 13, counts
