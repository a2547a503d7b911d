"""core.labels and the API's error body: a field is named in a sentence by its label, in the
reader's language; a key no field has is quoted as it was sent; the body's ``errors`` keep the
fields' names."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext_lazy
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from core.api import StrictInputSerializer, exception_handler
from core.errors import DomainError
from core.labels import field_label, field_refusal


class _Season(StrictInputSerializer):
    starts_on = serializers.DateField(label=gettext_lazy("First day"))
    ends_on = serializers.DateField(label=gettext_lazy("Last day"))
    note = serializers.CharField(required=False)


def _body(exc) -> dict:
    return exception_handler(exc, {}).data


def test_a_field_is_named_by_its_label_and_an_unknown_key_quoted():
    labels = {"ends_on": gettext_lazy("Last day")}
    with translation.override("en"):
        assert field_label(labels, "ends_on") == "Last day"
        assert field_label(labels, "colour") == "“colour”"
        assert field_refusal("Last day", "the season ends before it starts") == (
            "Last day: the season ends before it starts")


@pytest.mark.parametrize(("data", "detail", "errors"), [
    ({"starts_on": "2025-06-01"}, "Last day: This field is required.", {"ends_on": ["This field is required."]}),
    ({"starts_on": "2025-06-01", "ends_on": "2025-06-02", "colour": "red"}, "“colour”: unknown field",
     {"colour": ["unknown field"]}),
    ({"starts_on": "2025-06-01", "ends_on": "2025-06-02", "note": 5}, "Note: Not a valid string.",
     {"note": ["Not a valid string."]}),
])
def test_a_serializers_refusal_names_the_field_by_its_label_in_the_detail(data, detail, errors):
    with translation.override("en"):
        serializer = _Season(data=data)
        with pytest.raises(ValidationError) as raised:
            serializer.is_valid(raise_exception=True)
        body = _body(raised.value)
    assert body == {"detail": detail, "code": "invalid", "errors": errors}


def test_the_detail_names_the_field_in_the_readers_language():
    with translation.override("ko"):
        label = str(gettext_lazy("Last day"))
        serializer = _Season(data={"starts_on": "2025-06-01"})
        with pytest.raises(ValidationError) as raised:
            serializer.is_valid(raise_exception=True)
        body = _body(raised.value)
    assert label != "Last day" and body["detail"].startswith(f"{label}: ") and list(body["errors"]) == ["ends_on"]


def test_a_domain_refusal_keeps_its_field_and_its_sentence_beside_it():
    error = DomainError("Last day: the season ends before it starts", sentence="the season ends before it starts",
                        code="bad_season", field="ends_on")
    assert _body(error) == {"detail": "Last day: the season ends before it starts", "code": "bad_season",
                            "field": "ends_on", "errors": {"ends_on": ["the season ends before it starts"]}}
