"""core.api.PlainOutput: an output serializer's answer is DRF's own, value for value — for the
match detail and summary over matches of every shape (scheduled, reported with logs, confirmed
with games, contested, a consultation pair, a money session, in an event) and for the values it
reads DRF's way (a missing attribute: a default, a null, or DRF's error)."""

from __future__ import annotations

import pytest
from rest_framework import serializers

from core import api as core_api
from core.api import PlainOutput
from matches.api.serializers import MatchDetailSerializer, MatchSummarySerializer
from matches.selectors.match import match_get
from matches.services.logs import log_from_json
from tests.factories import MatchFactory, PlayerFactory, SideFactory, TournamentFactory
from tests.matches.factories_api import client_for, json_games

pytestmark = pytest.mark.django_db


def _drf(serializer, instance, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(core_api, "PLAIN_OUTPUT", False)
        return serializer.to_representation(instance)


def _report(match, user, score, games=None):
    body = {"score": score, **({"games": games} if games is not None else {})}
    response = client_for(user).post(f"/api/v1/matches/{match.pk}/report/", body, format="json")
    assert response.status_code == 200, response.content


def matches_of_every_shape() -> list[int]:
    scheduled = MatchFactory(length=7)
    with_logs = MatchFactory(length=5)
    games = json_games(5, 1)
    score = list(log_from_json(games, with_logs.rules()).final_score)
    _report(with_logs, with_logs.side0.player_a.user, score, games)
    confirmed = MatchFactory(length=5)
    games = json_games(5, 3)
    score = list(log_from_json(games, confirmed.rules()).final_score)
    _report(confirmed, confirmed.side0.player_a.user, score, games)
    _report(confirmed, confirmed.side1.player_a.user, score, games)
    contested = MatchFactory(length=3)
    _report(contested, contested.side0.player_a.user, [3, 1])
    _report(contested, contested.side1.player_a.user, [1, 3])
    pair = MatchFactory(length=5, side1=SideFactory(player_b=PlayerFactory()))
    money = MatchFactory(money=True)
    event = MatchFactory(length=5, event=TournamentFactory())
    return [m.pk for m in (scheduled, with_logs, confirmed, contested, pair, money, event)]


def test_the_match_detail_and_summary_are_drfs_own_for_matches_of_every_shape(monkeypatch):
    detail, summary = MatchDetailSerializer(), MatchSummarySerializer()
    for pk in matches_of_every_shape():
        match = match_get(pk)
        plain = detail.to_representation(match)
        assert plain == _drf(detail, match, monkeypatch)
        assert summary.to_representation(match) == _drf(summary, match, monkeypatch)
    # The last one: an event's scheduled match, with its event brief.
    assert plain["games"] == [] and plain["reports"] == [] and plain["event"]["name"].startswith("Open")


class Thing:
    name = "a thing"
    when = None


class ThingSerializer(PlainOutput, serializers.Serializer):
    name = serializers.CharField()
    nested = serializers.DictField(source="data", default={"none": True})
    missing = serializers.CharField(allow_null=True)
    optional = serializers.CharField(required=False)
    when = serializers.DateTimeField(allow_null=True)
    key = serializers.CharField(source="mapping.key")


def test_values_it_cannot_read_directly_are_read_drfs_way(monkeypatch):
    thing = Thing()
    thing.mapping = {"key": "from a dict"}
    serializer = ThingSerializer()
    plain = serializer.to_representation(thing)
    assert plain == _drf(serializer, thing, monkeypatch)
    assert plain == {"name": "a thing", "nested": {"none": True}, "missing": None, "when": None,
                     "key": "from a dict"}
    del thing.mapping
    with pytest.raises(AttributeError, match="Got AttributeError when attempting to get a value for field `key`"):
        serializer.to_representation(thing)
