"""A match's page shows its director the match's history from the audit log, each change as a
sentence naming the sides (never an action's name, a model, an id or JSON); its players and the
public do not see it."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.services.reporting import claim_make, match_report
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make
from tests.matches.factories_api import make_cast

pytestmark = pytest.mark.django_db

FORBIDDEN = ("{", "}", "_", "matches.", "rulings.", "object_id", "&quot;:", "[")


def page_as(user, match) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("matches:detail", args=[match.pk])).content.decode()


def history(page: str) -> list[str]:
    section = page.split('id="history-title"', 1)[1].split("</section>", 1)[0]
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r'<td class="sentence">(.*?)</td>', section, re.S)]


def test_the_director_sees_the_matchs_history_as_sentences_and_nobody_else_does():
    cast = make_cast()
    match = cast.match
    alice, bob = match.side0.name, match.side1.name
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=cast.bob, claim=claim_make(match, (3, 5), None))
    director = page_as(cast.organiser, match)
    assert 'id="history-title"' in director
    sentences = history(director)
    assert f"Alice reported 5-3 for {alice}." in sentences
    assert f"Bob reported 3-5 for {bob}." in sentences
    assert "A dispute was opened over the score: the reports disagree (bob contested)." in sentences
    for sentence in sentences:
        for token in FORBIDDEN:
            assert token not in sentence, (token, sentence)
    assert "<code>match.reported</code>" not in director
    for outsider in (None, cast.alice, cast.bob, cast.carol, cast.other_organiser):
        assert 'id="history-title"' not in page_as(outsider, match)


def test_a_ruling_in_the_history_says_what_the_director_decided():
    cast = make_cast()
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=cast.bob, claim=claim_make(match, (5, 3), None))
    dispute = dispute_open(match_id=match.pk, user=cast.bob, category="score_disagreement",
                           statement="It was 5-1, not 5-3.")
    ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome="score_corrected", params={"score": [5, 1]},
                rule="9.3", reasoning="The scoresheet says 5-1.")
    sentences = history(page_as(cast.organiser, match))
    assert "Score corrected from 5-3 to 5-1, by otto, rule 9.3." in sentences
    assert "Bob opened a dispute about a score disagreement, the whole match." in sentences
    for sentence in sentences:
        for token in FORBIDDEN:
            assert token not in sentence, (token, sentence)


def test_the_history_reads_in_a_fixed_number_of_queries(django_assert_num_queries):
    cast = make_cast()
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    client = Client()
    client.force_login(cast.organiser)
    url = reverse("matches:detail", args=[match.pk])
    client.get(url)
    with CaptureQueriesContext(connection) as counted:
        client.get(url)
    before = len(counted.captured_queries)
    match_report(match_id=match.pk, user=cast.bob, claim=claim_make(match, (3, 5), None))
    with django_assert_num_queries(before):  # more entries, the same queries
        client.get(url)


def test_the_disputes_on_the_match_page_are_named_by_category_and_date_never_by_id():
    cast = make_cast()
    match = cast.match
    dispute = dispute_open(match_id=match.pk, user=cast.alice, category="score_disagreement",
                           statement="the score is wrong")
    page = page_as(cast.alice, match)
    section = page.split('id="disputes-title"', 1)[1].split("</section>", 1)[0]
    items = [re.sub(r"<[^>]+>", "", item).strip() for item in re.findall(r"<li>(.*?)</li>", section, re.S)]
    assert len(items) == 1
    assert f"#{dispute.pk}" not in section
    assert items[0].startswith(f"{dispute.get_category_display()}, opened on ")
