"""Dates, times and numbers as each language writes them (config/formats/<language>, Django's
formats where ours say nothing), lists joined with the language's own separators (core.text), and
countries by their names (django-countries): rendered through templates and on the pages."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import translation

from audit.services import audit_record
from core.templatetags.moments import seconds_format
from core.text import join_clauses, join_list
from tests.factories import PlayerFactory, TournamentFactory

MOMENT = dt.datetime(2026, 12, 7, 14, 30, 5, tzinfo=dt.UTC)

SHOWN = Template(
    "{% load moments %}"
    "{{ at|date:'DATE_FORMAT' }}|{{ at|date:'DATETIME_FORMAT' }}|{{ at|datetime_seconds }}|{{ at|date:'SHORT_DATE_FORMAT' }}"
    "|{{ at|date:'YEAR_MONTH_FORMAT' }}|{{ at|date:'MONTH_DAY_FORMAT' }}|{{ at|time:'TIME_FORMAT' }}"
    "|{{ rating }}|{{ rating|floatformat:2 }}|{{ pool|floatformat:'2g' }}|{{ count|floatformat:'g' }}"
)


def shown(language: str) -> list[str]:
    with translation.override(language):
        return SHOWN.render(Context({"at": MOMENT, "rating": 1543.87, "pool": Decimal("12500.5"),
                                     "count": 12500})).split("|")


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["7 Dec 2026", "7 Dec 2026 14:30", "7 Dec 2026 14:30:05", "2026-12-07", "Dec 2026", "7 Dec", "14:30",
            "1543.87", "1543.87", "12,500.50", "12,500"]),
    ("ko", ["2026년 12월 7일", "2026년 12월 7일 14:30", "2026년 12월 7일 14:30:05", "2026. 12. 7.", "2026년 12월",
            "12월 7일", "14:30", "1543.87", "1543.87", "12,500.50", "12,500"]),
    # Latin digits, the decimal point and the thousands comma (config/formats/ar/formats.py says why).
    ("ar", ["7 ديسمبر 2026", "7 ديسمبر 2026، 14:30", "7 ديسمبر 2026، 14:30:05", "07\u200f/12\u200f/2026",
            "ديسمبر 2026", "7 ديسمبر", "14:30", "1543.87", "1543.87", "12,500.50", "12,500"]),
    # The months in lower case; the decimal comma and the thousands point.
    ("ro", ["7 decembrie 2026", "7 decembrie 2026, 14:30", "7 decembrie 2026, 14:30:05", "07.12.2026",
            "decembrie 2026", "7 decembrie", "14:30", "1543,87", "1543,87", "12.500,50", "12.500"]),
])
def test_dates_times_and_numbers_are_written_as_each_language_writes_them(language, expected):
    assert shown(language) == expected


def test_a_romanian_month_is_lower_case_in_every_month_and_format():
    with translation.override("ro"):
        days = [dt.date(2026, month, 1) for month in range(1, 13)]
        written = [Template("{{ d|date:'DATE_FORMAT' }}").render(Context({"d": day})) for day in days]
    assert written[0] == "1 ianuarie 2026" and written[4] == "1 mai 2026" and written[11] == "1 decembrie 2026"
    assert all(text == text.lower() for text in written), written


def test_a_language_without_a_seconds_format_writes_its_datetime_format():
    assert seconds_format("ko") == "Y년 n월 j일 H:i:s"
    assert seconds_format("fr") is None  # not one of ours: the page's DATETIME_FORMAT then


def test_lists_are_joined_with_the_languages_own_comma_and_semicolon():
    with translation.override("ar"):
        assert join_list(["Ana", "", "Bob", None, 3]) == "Ana، Bob، 3"
        assert join_clauses(["main: 7", "consolation: 5"]) == "main: 7؛ consolation: 5"
    with translation.override("ko"):
        assert join_list(["Ana", "Bob"]) == "Ana, Bob" and join_clauses(["a", "b"]) == "a; b"
    page = Template("{% load lists %}{{ names|join_list }}|{% for n in names %}{{ n }}{% if not forloop.last %}"
                    "{% comma %}{% endif %}{% endfor %}|a{% semicolon %}b")
    with translation.override("ar"):
        assert page.render(Context({"names": ["<b>", "Bob"]})) == "&lt;b&gt;، Bob|&lt;b&gt;، Bob|a؛ b"


@pytest.mark.django_db
def test_the_audit_log_in_arabic_writes_its_moments_with_arabic_months_not_isolated_left_to_right(time_machine):
    tournament = TournamentFactory(name="Cairo Open")
    time_machine.move_to(MOMENT, tick=False)
    audit_record(actor=tournament.organiser, action="tournament.entries_opened", object_type="tournaments.Tournament",
                 object_id=tournament.pk, tournament_id=tournament.pk)
    client = Client()
    client.force_login(tournament.organiser)
    page = client.get(reverse("tournaments:audit", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="ar")
    assert page.status_code == 200
    cell = re.search(r'<td><time datetime="2026-12-07T14:30:05\+00:00">(.*?)</time></td>', page.content.decode())
    assert cell and cell.group(1) == "7 ديسمبر 2026، 14:30:05"  # no <bdi dir="ltr"> around it
    korean = client.get(reverse("tournaments:audit", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="ko")
    assert "<time datetime=\"2026-12-07T14:30:05+00:00\">2026년 12월 7일 14:30:05</time>" in korean.content.decode()


@pytest.mark.django_db
def test_the_player_directory_names_each_country_in_the_readers_language(django_assert_max_num_queries):
    PlayerFactory(display_name="Ada Lovelace", country="GB")
    PlayerFactory(display_name="Chidi Okafor", country="NG")
    PlayerFactory(display_name="Nobody Known", country="")
    with django_assert_max_num_queries(6):
        page = Client().get(reverse("matches:directory"), HTTP_ACCEPT_LANGUAGE="ko")
    cells = re.findall(r'<a href="/players/\d+/">([^<]+)</a></td>\s*<td>([^<]*)</td>', page.content.decode())
    assert dict(cells) == {"Ada Lovelace": "영국", "Chidi Okafor": "나이지리아", "Nobody Known": ""}
    english = Client().get(reverse("matches:directory"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<td>United Kingdom</td>" in english and "<td>GB</td>" not in english
