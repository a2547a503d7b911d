"""A match's page shows its director the match's history from the audit log; its players and the
public do not see it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.services.reporting import claim_make, match_report
from tests.matches.factories_api import make_cast

pytestmark = pytest.mark.django_db


def page_as(user, match) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("matches:detail", args=[match.pk])).content.decode()


def test_the_director_sees_the_matchs_history_and_nobody_else_does():
    cast = make_cast()
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    match_report(match_id=match.pk, user=cast.bob, claim=claim_make(match, (3, 5), None))
    director = page_as(cast.organiser, match)
    assert 'id="history-title"' in director
    for action in ("match.reported", "dispute.opened"):
        assert f"<code>{action}</code>" in director
    for outsider in (None, cast.alice, cast.bob, cast.carol, cast.other_organiser):
        assert 'id="history-title"' not in page_as(outsider, match)
