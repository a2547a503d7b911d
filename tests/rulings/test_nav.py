"""The event's pages link to its public rulings, and its director (only) to its audit log; the
site's header links to the clubs and, for a signed-in user, to his disputes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import drawn

pytestmark = pytest.mark.django_db


def test_the_event_page_links_to_its_rulings_for_all_and_to_its_audit_log_for_its_director():
    tournament, players = drawn(4)
    rulings, audit = reverse("rulings:event", args=[tournament.pk]), reverse("tournaments:audit", args=[tournament.pk])
    page = reverse("tournaments:detail", args=[tournament.pk])
    director = Client()
    director.force_login(tournament.organiser)
    player = Client()
    player.force_login(players[0].user)
    for client, sees_audit in ((Client(), False), (player, False), (director, True)):
        html = client.get(page).content.decode()
        assert f'href="{rulings}"' in html
        assert (f'href="{audit}"' in html) is sees_audit


def test_the_header_links_to_the_clubs_and_a_signed_in_user_to_his_disputes():
    _tournament, players = drawn(2)
    queue, clubs = reverse("rulings:queue"), reverse("clubs:list")
    anonymous = Client().get(reverse("tournaments:list")).content.decode()
    assert f'href="{clubs}"' in anonymous and f'href="{queue}"' not in anonymous
    client = Client()
    client.force_login(players[0].user)
    assert f'href="{queue}"' in client.get(reverse("tournaments:list")).content.decode()
