"""The site's icon: a small SVG among the static files, named by every page's <link rel="icon">,
and /favicon.ico (which browsers ask of every site) sending there: no page's visit ends in a 404."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.factories import drawn

pytestmark = pytest.mark.django_db

ICON = "favicon.svg"
LINK = re.compile(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">')


def test_the_icon_is_a_small_svg_among_the_static_files():
    found = finders.find(ICON)
    assert found, f"{ICON} is not one of the service's static files"
    with open(found, "rb") as source:
        data = source.read()
    assert len(data) < 2048
    assert ElementTree.fromstring(data).tag == "{http://www.w3.org/2000/svg}svg"


def test_favicon_ico_answers_with_the_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response.url == static(ICON)
    # Browsers keep it, not forever: the icon's address changes with it where static files are hashed.
    assert "max-age=86400" in response["Cache-Control"]
    assert client.post("/favicon.ico").status_code == 405


def test_every_kind_of_page_names_the_icon():
    tournament, _players = drawn(4)
    signed_in = Client()
    signed_in.force_login(UserFactory(username="alice"))
    pages = [("/", Client()), ("/", signed_in), (reverse("login"), Client()), ("/api/redoc/", Client()),
             (reverse("tournaments:projector", args=[tournament.pk]), Client()),
             (reverse("tournaments:embed_bracket", args=[tournament.pk]), Client())]
    named = []
    for path, client in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        named.append((path, LINK.findall(response.content.decode())))
    assert named == [(path, [static(ICON)]) for path, _client in pages]
