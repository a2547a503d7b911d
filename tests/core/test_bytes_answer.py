"""core.api.BytesAnswer: a JSON answer rendered once, sent as its bytes to a JSON client, rendered
again only for a client asking for another rendering; its ``data`` is the body decoded."""

from __future__ import annotations

import datetime as dt

from django.test import RequestFactory
from rest_framework.views import APIView

from core.api import BytesAnswer, json_body

DATA = {"name": "Ștefan", "when": dt.datetime(2026, 12, 2, 9, 30, tzinfo=dt.UTC), "score": [5, 3], "none": None}


class Answer(APIView):
    authentication_classes = []
    permission_classes = []
    throttle_classes = []

    def get(self, request):
        return BytesAnswer(json_body(DATA))



def get(**headers):
    response = Answer.as_view()(RequestFactory().get("/answer/", **headers))
    return response.render()


def test_a_json_client_gets_the_bytes_as_drf_renders_them():
    from rest_framework.renderers import JSONRenderer

    response = get(HTTP_ACCEPT="application/json")
    assert response.content == JSONRenderer().render(DATA)
    assert response["Content-Type"] == "application/json"
    assert response.data == {"name": "Ștefan", "when": "2026-12-02T09:30:00Z", "score": [5, 3], "none": None}


def test_an_indented_json_or_the_browsable_api_is_rendered_from_the_decoded_body():
    indented = get(HTTP_ACCEPT="application/json; indent=2")
    assert indented.content.startswith(b'{\n  "name"')
    page = get(HTTP_ACCEPT="text/html")
    assert page["Content-Type"].startswith("text/html") and "Ștefan" in page.content.decode()
