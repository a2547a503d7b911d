"""A clock brought in mid-match from the pages (RULES.md §9): the director's form
on the match page, the reduced reserve shown before it is applied (US clock rules 2013, in our
words: one minute less per point already played), POST-redirect-GET, refusals on the field they
name, and nobody but the match's director."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit.models import AuditEntry
from matches.models import Match
from matches.services.penalties import match_penalty_give
from tests.factories import MatchFactory
from tests.matches.factories_api import make_cast

pytestmark = pytest.mark.django_db


def text_of(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(match) -> str:
    return reverse("matches:clock_introduce", args=[match.pk])


def send(client, match, *, confirm: bool = False, shown: str = "", **fields):
    data = {"clock-score0": 2, "clock-score1": 1, "clock-seconds_per_point": 120, "clock-delay_seconds": 12,
            **{f"clock-{name}": value for name, value in fields.items()}}
    if confirm:
        data["confirm"] = "1"
    if shown:
        data["clock-shown"] = shown
    return client.post(url(match), data)


def clock_of(match) -> tuple:
    match.refresh_from_db()
    return (match.clock_policy, match.clock_reserve_seconds, match.clock_seconds_per_point, match.clock_delay_seconds)


def test_the_director_sees_the_reduced_reserve_then_brings_the_clock_in():
    """US clock rules 2013 (in our words): at 2-1 in a 5-point match, 10 minutes less 3."""
    cast = make_cast()
    client = signed_in(cast.organiser)
    detail = client.get(reverse("matches:detail", args=[cast.match.pk])).content.decode()
    assert f'action="{url(cast.match)}"' in detail and 'name="clock-score0" value="0"' in detail
    shown = send(client, cast.match)
    assert shown.status_code == 200
    assert ("At 2-1, 3 points played: each side gets 7 minutes, the full reserve of 10 minutes less one minute per "
            "point played (3 minutes), with a delay of 12 seconds per move.") in text_of(shown)
    assert 'name="clock-shown" value="2-1-120-12"' in shown.content.decode()
    assert clock_of(cast.match) == ("", None, None, None)  # shown, not applied
    assert not AuditEntry.objects.filter(action="match.clock_introduced").exists()
    applied = send(client, cast.match, confirm=True, shown="2-1-120-12")
    assert applied.status_code == 302
    assert applied["Location"] == reverse("matches:detail", args=[cast.match.pk]) + "#clock"
    assert clock_of(cast.match) == ("required", 420, 120, 12)
    assert AuditEntry.objects.filter(match_id=cast.match.pk, action="match.clock_introduced").count() == 1
    after = client.get(applied["Location"])
    words = text_of(after)
    assert "The clock is in at 2-1: each side has 7 minutes, with a delay of 12 seconds per move." in words
    assert "Clocks required: 7 minutes for each side" in words
    assert 'id="clock-introduce"' not in after.content.decode()  # the clock is in: no second form


def test_the_page_of_its_own_starts_from_the_score_as_it_stands_and_the_matchs_clock():
    cast = make_cast(clock_policy="allowed", clock_seconds_per_point=90, clock_reserve_seconds=450,
                     clock_delay_seconds=8)
    Match.objects.filter(pk=cast.match.pk).update(status=Match.Status.IN_PLAY)
    match_penalty_give(cast.match.pk, 1, 1, "late", cast.organiser, score=(1, 2))
    page = signed_in(cast.organiser).get(url(cast.match))
    assert page.status_code == 200
    body = page.content.decode()
    assert 'name="clock-score0" value="2"' in body and 'name="clock-score1" value="2"' in body
    assert 'name="clock-seconds_per_point" value="90"' in body and 'name="clock-delay_seconds" value="8"' in body
    assert "The match's clock now: Clocks allowed: 450 seconds for each side" in text_of(page)
    assert 'name="confirm"' not in body  # the reserve comes first


def test_values_changed_after_the_reserve_was_shown_are_shown_again_not_applied():
    cast = make_cast()
    client = signed_in(cast.organiser)
    answer = send(client, cast.match, confirm=True, shown="2-1-120-12", score0=3)
    assert answer.status_code == 200
    words = text_of(answer)
    assert "The values changed since their reserve was shown." in words
    assert "At 3-1, 4 points played: each side gets 6 minutes" in words
    assert 'name="clock-shown" value="3-1-120-12"' in answer.content.decode()
    assert clock_of(cast.match) == ("", None, None, None)
    assert send(client, cast.match, confirm=True).status_code == 200  # nothing shown yet: shown first
    assert clock_of(cast.match) == ("", None, None, None)


def test_the_reserve_never_falls_below_one_points_reserve_and_the_page_says_why():
    cast = make_cast(length=3)
    answer = send(signed_in(cast.organiser), cast.match, score0=2, score1=2, seconds_per_point=60)
    assert ("At 2-2, 4 points played: each side gets 1 minute, one point's reserve, the least a side is given "
            "(the full reserve of 3 minutes less 4 minutes would be less), with a delay of 12 seconds per "
            "move.") in text_of(answer)


@pytest.mark.parametrize(("fields", "field", "words"), [
    ({"score0": 5}, "score0", "score: the score of a match under way: two whole numbers below the length"),
    ({"score1": -1}, "score1", "Ensure this value is greater than or equal to 0"),
    ({"seconds_per_point": 0}, "seconds_per_point", "Ensure this value is greater than or equal to 1"),
    ({"delay_seconds": 601}, "delay_seconds", "Ensure this value is less than or equal to 600"),
    ({"delay_seconds": "soon"}, "delay_seconds", "Enter a whole number"),
])
@pytest.mark.parametrize("confirm", [False, True])
def test_bad_values_are_refused_on_the_field_they_name_and_nothing_changes(fields, field, words, confirm):
    cast = make_cast()
    answer = send(signed_in(cast.organiser), cast.match, confirm=confirm, shown="2-1-120-12", **fields)
    assert answer.status_code == 400
    body = answer.content.decode()
    # The error list sits in the field's own paragraph, before its label.
    assert re.search(r'<p><ul class="errorlist"[^>]*>\s*<li>' + re.escape(html.escape(words, quote=True)) +
                     r'.*?</ul><label for="id_clock-' + field + '"', body, re.S), body
    assert clock_of(cast.match) == ("", None, None, None)


def test_a_confirmed_match_gets_no_clock():
    confirmed = make_cast()
    Match.objects.filter(pk=confirmed.match.pk).update(status=Match.Status.CONFIRMED, score0=5, score1=1, winner=0)
    client = signed_in(confirmed.organiser)
    page = client.get(url(confirmed.match))
    assert page.status_code == 200 and "this match's result is already confirmed" in text_of(page)
    assert 'id="clock-introduce"' not in page.content.decode()
    refused = send(client, confirmed.match, confirm=True, shown="2-1-120-12")
    assert refused.status_code == 409 and "this match's result is already confirmed" in text_of(refused)
    assert clock_of(confirmed.match) == ("", None, None, None)


def test_a_money_session_gets_no_clock():
    money = make_cast(length=0, rated=False)
    client = signed_in(money.organiser)
    page = client.get(url(money.match))
    assert page.status_code == 200 and "A money session is not played with a clock." in text_of(page)
    refused = send(client, money.match, score0=0, score1=0)
    assert refused.status_code == 400 and "length: a money session is not played with a clock" in text_of(refused)
    assert clock_of(money.match) == ("", None, None, None)


@pytest.mark.parametrize("who", ["alice", "bob", "carol", "other_organiser"])
def test_nobody_but_the_matchs_director_sees_the_form_or_brings_in_a_clock(who):
    cast = make_cast()
    client = signed_in(cast.user(who))
    assert 'id="clock-introduce"' not in client.get(reverse("matches:detail", args=[cast.match.pk])).content.decode()
    assert client.get(url(cast.match)).status_code == 403
    assert send(client, cast.match, confirm=True, shown="2-1-120-12").status_code == 403
    assert clock_of(cast.match) == ("", None, None, None)


def test_staff_may_and_the_anonymous_are_sent_to_sign_in():
    cast = make_cast()
    answer = Client().get(url(cast.match))
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    assert send(signed_in(cast.staff), cast.match, confirm=True, shown="2-1-120-12").status_code == 302
    assert clock_of(cast.match) == ("required", 420, 120, 12)


def test_a_match_with_a_required_clock_shows_no_form_on_its_page():
    cast = make_cast(clock_policy="required", clock_seconds_per_point=120, clock_reserve_seconds=600,
                     clock_delay_seconds=12)
    page = signed_in(cast.organiser).get(reverse("matches:detail", args=[cast.match.pk])).content.decode()
    assert 'id="clock-introduce"' not in page and 'id="clock"' in page


def test_the_form_adds_no_query_to_the_directors_match_page():
    """The form starts from the penalties the page reads already: the director's page of a match
    that shows it reads as many queries as one that does not (a required clock)."""
    counts = []
    for clock in ({"clock_policy": "required", "clock_seconds_per_point": 120, "clock_reserve_seconds": 600,
                   "clock_delay_seconds": 12}, {}):
        match = MatchFactory(length=5, status=Match.Status.IN_PLAY, **clock)
        client = signed_in(match.organiser)
        with CaptureQueriesContext(connection) as queries:
            body = client.get(reverse("matches:detail", args=[match.pk])).content.decode()
        counts.append((len(queries), 'id="clock-introduce"' in body))
    assert counts[0][0] == counts[1][0] and [shown for _, shown in counts] == [False, True], counts
