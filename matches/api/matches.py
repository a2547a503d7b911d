"""API: matches (see matches.api): list and create, detail, the result (report, confirm, contest,
override), the games with every moment, and the match as a .mat file.

Every result endpoint answers with the match's detail. Status codes: 200 (a repeated identical
report too: it changes nothing), 400 for a bad body or a log the engine refuses (with ``file``,
``line``, ``game``, ``move``, ``side``, ``action`` and ``rule`` where they apply), 401 anonymous,
403 for anyone the operation is not for, 404 unknown match, 405 wrong method, 409 when the
match's state forbids it (already confirmed with another result, nothing to confirm).
"""

from __future__ import annotations

import threading

from django.conf import settings
from django.http import HttpResponse
from django.urls import path
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core import throttles
from core.api import (
    JSON,
    ApiErrorSerializer,
    BaseApi,
    BytesAnswer,
    Pagination,
    StrictInputSerializer,
    json_body,
    paginated_response,
)
from core.cache import answer_keep, answer_kept, cached_answer
from core.engine_messages import refusal_text
from core.errors import Conflict, NotAllowed
from core.parsers import JSONParser
from engine.actions import actions_from_json
from engine.errors import GameLogError, MatchError
from engine.formats.mat_check import match_from_actions
from engine.formats.mat_write import write_mat

from .. import errors, hooks
from ..models import Match, Report
from ..selectors.match import game_moments, match_answer, match_get_readable, match_list, match_readable, match_version
from ..selectors.players import player_list
from ..services.consent import DECISIONS, match_consent
from ..services.logs import file_sides, log_from_json, log_from_mat
from ..services.matches import MatchDate, match_create, match_rules, side_of_user
from ..services.reporting import (
    Claim,
    Draft,
    claim_make,
    match_confirm,
    match_contest,
    match_override,
    match_report,
)
from . import permissions
from .serializers import (
    ClaimJsonInputSerializer,
    ClaimMatInputSerializer,
    GameWithMomentsSerializer,
    MatchDetailSerializer,
    MatchSummarySerializer,
    SidePlayersField,
    fields_with,
    match_context_fields,
)

WRITE_ERRORS = {
    400: ApiErrorSerializer, 401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer,
    409: ApiErrorSerializer,
}


def _split_contexts(data: dict, names) -> tuple[dict, dict]:
    """The validated ``data`` without the contexts' fields (``names``), and those fields' values."""
    contexts = {name: data.pop(name) for name in list(data) if name in names}
    return data, contexts


def match_or_404(match_id: int, viewer, *, detail: bool = False, logs: bool = False) -> Match:
    """The match with its sides (and, with ``detail``, its games and live reports; with ``logs``
    the games' logs too), or a 404: also for a match ``viewer`` may not read (one awaiting its
    players' consent: ``selectors.match_readable``), whose existence is not told."""
    try:
        if detail or logs:
            return match_get_readable(match_id, viewer, logs=logs)
        match = Match.objects.for_claims().get(pk=match_id)
    except Match.DoesNotExist:
        raise _no_such_match(match_id) from None
    if not match_readable(match, viewer):
        raise _no_such_match(match_id)
    return match


# Every change to what the detail shows goes through a service that saves the match, so its
# updated_at is a version: the serialized detail is cached under it. Only a renamed player can
# show stale for up to DETAIL_CACHE_SECONDS.
DETAIL_CACHE_SECONDS = 300
#: The input fields that make a new match's rules (match_rules' arguments).
RULE_FIELDS = ("length", "crawford", "move_policy", "jacoby", "beavers", "raccoons", "automatic_doubles", "cube_cap")


_serializers = threading.local()


def _detail_data(match: Match) -> dict:
    """``match`` (as ``match_get`` or ``match_answer`` loads it) as the detail's serializer shows
    it. The serializer is made once per thread and only its output method used again: making one
    (a deep copy of every nested field) costs five times what serializing a match does."""
    serializer = getattr(_serializers, "detail", None)
    if serializer is None:
        serializer = _serializers.detail = MatchDetailSerializer()
    return serializer.to_representation(match)


def _detail_key(match_id: int, version) -> str:
    return f"api:match-detail:{match_id}:{version.timestamp()}"


def detail_answer(request, match_id: int) -> Response:
    """The match's detail as the bytes kept for its version (rendered once per version, by the
    first read or by the write that made it; a hit renders nothing). A read gets its ETag, and a
    304 for an ``If-None-Match`` naming it; a write's answer (a repeated report) only the bytes."""
    version = match_version(match_id, viewer=request.user)
    if version is None:
        raise NotFound(gettext("there is no match %(id)s") % {"id": match_id})

    def render() -> tuple[bytes, str]:
        return json_body(_detail_data(match_or_404(match_id, request.user, detail=True))), JSON

    key = _detail_key(match_id, version)
    if request.method in ("GET", "HEAD"):
        return cached_answer(request, key=key, render=render, timeout=DETAIL_CACHE_SECONDS,
                             respond=lambda body, _: BytesAnswer(body))
    return BytesAnswer(answer_kept(key, render, DETAIL_CACHE_SECONDS)[2])


def _answer(match: Match) -> Response:
    """The detail of ``match`` as a result service left it (see ``selectors.match_answer``): built
    from what the service loaded and changed, not read again, rendered once and kept under the
    version the change gave it, so the reads that follow find it."""
    body = json_body(_detail_data(match_answer(match)))
    answer_keep(_detail_key(match.pk, match.updated_at), body, JSON, DETAIL_CACHE_SECONDS)
    return BytesAnswer(body)


def _report_answer(request, report: Report, match_id: int) -> Response:
    """The answer to a report: built from the match the service changed, or, for a repeat (which
    read no match and changed nothing), the kept detail."""
    if Report.match.is_cached(report):
        return _answer(report.match)
    return detail_answer(request, match_id)


def _no_such_match(match_id: int) -> NotFound:
    return NotFound(gettext("there is no match %(id)s") % {"id": match_id})


# --- list and create ----------------------------------------------------------------------------


class MatchListApi(BaseApi):
    pagination_class = Pagination

    class FilterSerializer(StrictInputSerializer):
        allowed_extra = ("page", "page_size", "format")

        player = serializers.IntegerField(required=False, min_value=1, help_text="a player id: his matches")
        status = serializers.ChoiceField(required=False, choices=Match.Status.choices)
        # Here: the contexts' filters (``event``: a tournament id).
        date_from = serializers.DateField(required=False, help_text="created on or after (YYYY-MM-DD)")
        date_to = serializers.DateField(required=False, help_text="created on or before (YYYY-MM-DD)")

        class Meta:
            ref_name = "MatchFilter"

        def get_fields(self):
            return fields_with(super().get_fields(), match_context_fields("filter_fields"), after="status")

        def validate(self, data):
            if "date_from" in data and "date_to" in data and data["date_from"] > data["date_to"]:
                raise serializers.ValidationError({"date_to": ["date_to is before date_from"]})
            return data

    @extend_schema(operation_id="matches_list", tags=["matches"], summary="Matches, newest first",
                   description="Paginated; filter by player, status, event and creation date. A bad filter value "
                               "is a 400 naming the filter. A match a player has not confirmed yet (an import "
                               "naming him, an organiser's match outside any event) is listed only for its "
                               "creator, its players and staff until both sides have confirmed it.",
                   parameters=[FilterSerializer], responses={200: MatchSummarySerializer(many=True), 400: ApiErrorSerializer})
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        data, contexts = _split_contexts(dict(filters.validated_data), match_context_fields("filter_fields"))
        return paginated_response(request=request, view=self, queryset=match_list(viewer=request.user, **data, contexts=contexts),
                                  serializer_class=MatchSummarySerializer)


class MatchCreateApi(BaseApi):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        read_only_names = ("id", "status", "score", "score0", "score1", "winner", "rated", "organiser",
                           "created_by", "confirmed_at", "games", "reports", "created_at", "consent")

        side0 = SidePlayersField()
        side1 = SidePlayersField()
        # GNU Backgammon plays matches up to 64 points: every match here can be exported and checked.
        length = serializers.IntegerField(min_value=0, max_value=64, help_text="points to win; 0 for a money session")
        crawford = serializers.BooleanField(default=True)
        move_policy = serializers.ChoiceField(choices=Match.MovePolicy.choices, default=Match.MovePolicy.LEGAL)
        jacoby = serializers.BooleanField(default=False, help_text="money sessions only")
        beavers = serializers.BooleanField(default=False, help_text="money sessions only")
        raccoons = serializers.BooleanField(default=False, help_text="money sessions only; needs beavers")
        automatic_doubles = serializers.IntegerField(default=0, min_value=0, max_value=6, help_text="money sessions only")
        cube_cap = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=32768,
                                            help_text="a power of two; null: no cap")
        # Here: what the match belongs to, from the registered contexts (``event``; ``club``, ``club_night``).
        scheduled_at = serializers.DateTimeField(required=False, allow_null=True)

        class Meta:
            ref_name = "MatchCreate"

        def get_fields(self):
            return fields_with(super().get_fields(), match_context_fields("input_fields"), after="cube_cap")

        def validate(self, data):
            ids = data["side0"] + data["side1"]
            found = player_list().in_bulk(ids)
            for name in ("side0", "side1"):
                missing = [pk for pk in data[name] if pk not in found]
                if missing:
                    raise serializers.ValidationError({name: [f"there is no player {missing[0]}"]})
                data[name] = [found[pk] for pk in data[name]]
            return data

    @extend_schema(operation_id="matches_create", tags=["matches"], summary="Schedule a match",
                   description="Sides are player ids ([id], or [id, id] for a consultation pair). A player may create "
                               "a match he plays in; organisers and staff any match. Only an event's organiser may "
                               "add a match to the event.",
                   request=InputSerializer, responses={201: MatchDetailSerializer, **WRITE_ERRORS})
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data, contexts = _split_contexts(dict(serializer.validated_data), hooks.match_context_inputs())
        permissions.check_may_create(request.user, data["side0"] + data["side1"], contexts)
        rules = match_rules(**{name: data[name] for name in RULE_FIELDS if name in data})
        match = match_create(created_by=request.user, sides=(data["side0"], data["side1"]), rules=rules,
                             when=MatchDate(scheduled_at=data.get("scheduled_at")), context=contexts)
        return Response(_detail_data(match_or_404(match.pk, request.user, detail=True)), status=status.HTTP_201_CREATED)


class MatchCollectionApi(MatchListApi, MatchCreateApi):
    """``/matches/`` routes by method: GET is :class:`MatchListApi`, POST :class:`MatchCreateApi`.

    Django routes by path only, so the two operations share this class; each keeps its own
    serializers, permissions and parsers (chosen per method below).
    """

    def get_permissions(self):
        operation = MatchCreateApi if self.request is not None and self.request.method == "POST" else MatchListApi
        return [permission() for permission in operation.permission_classes]

    def get_parsers(self):
        return [parser() for parser in MatchCreateApi.parser_classes]


# --- detail -------------------------------------------------------------------------------------


class MatchDetailApi(BaseApi):
    @extend_schema(operation_id="matches_retrieve", tags=["matches"], summary="A match with its games and reports",
                   responses={200: MatchDetailSerializer, 404: ApiErrorSerializer})
    def get(self, request, match_id: int):
        return detail_answer(request, match_id)


# --- the result ---------------------------------------------------------------------------------


def _json_claim(request) -> dict:
    serializer = ClaimJsonInputSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _claim_from_request(request, match: Match, data: dict | None = None) -> tuple[Claim, str]:
    """Read a result from a JSON body or a multipart form with a .mat file; return the checked claim
    and the statement. Raises ValidationError (400) for a bad body, DomainError and the engine's
    errors (400, naming file, line, game, move, side and rule) for a log that does not hold or does
    not agree with the score."""
    if request.content_type.startswith("multipart/"):
        serializer = ClaimMatInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        upload = data["file"]
        # Refuse on the declared size, before reading the upload into memory.
        if upload.size > settings.MAX_UPLOAD_BYTES:
            raise errors.upload_too_large(upload.name, upload.size, settings.MAX_UPLOAD_BYTES)
        sides = file_sides(match, side=side_of_user(match, request.user), file_side=data.get("file_side"))
        log = log_from_mat(upload.name, upload.read(), match.rules(), start=match.start, sides=sides,
                           penalties=match.penalties_at())
        score = (data["score0"], data["score1"])
    else:
        data = data if data is not None else _json_claim(request)
        log = (log_from_json(data["games"], match.rules(), start=match.start, penalties=match.penalties_at())
               if "games" in data else None)
        score = data["score"]
    return claim_make(match, score, log, remaining=data.get("clock_remaining")), data.get("statement", "")


CLAIM_REQUEST = {"application/json": ClaimJsonInputSerializer, "multipart/form-data": ClaimMatInputSerializer}


class MatchReportApi(BaseApi):
    permission_classes = [IsAuthenticated]
    throttle_classes = throttles.REPORTS
    parser_classes = [JSONParser, MultiPartParser]

    @extend_schema(
        operation_id="matches_report", tags=["results"], summary="Report the final result (a side, or the organiser)",
        description="JSON with the score and optionally the game logs, or a multipart form with score0, score1 and "
                    "a .mat file. Matching reports of both sides confirm the result; a repeated identical report "
                    "changes nothing.",
        request=CLAIM_REQUEST, responses={200: MatchDetailSerializer, **WRITE_ERRORS},
    )
    def post(self, request, match_id: int):
        if request.content_type.startswith("multipart/"):
            match = match_or_404(match_id, request.user)
            permissions.check_may_report(match, request.user)
            claim, statement = _claim_from_request(request, match)
        else:
            # A JSON result is checked by the service under the match's lock, once the user is
            # known to be a party and the report not a repeat (a repeat replays no log): the match
            # and its reports are read once, and the answer is built from them.
            data = _json_claim(request)
            claim = Draft(tuple(data["score"]), data.get("games"), data.get("clock_remaining"))
            statement = data.get("statement", "")
        try:
            report = match_report(match_id=match_id, user=request.user, claim=claim, statement=statement)
        except Match.DoesNotExist:
            raise _no_such_match(match_id) from None
        except NotAllowed:
            match_or_404(match_id, request.user)  # a match hidden from him: a 404, as for no match
            raise
        return _report_answer(request, report, match_id)


def _answer_body_valid(serializer, match_id: int, user) -> None:
    """Validate the body of a confirmation or a contest. A bad body is refused as it always was:
    an unknown match (404) or an outsider (403) first, then the body (400)."""
    if not serializer.is_valid():
        permissions.check_may_answer(match_or_404(match_id, user), user)
        serializer.is_valid(raise_exception=True)


def _refusal_as_before(match_id: int, user) -> None:
    """The service refused an unknown match or a user who plays in no side: answer it as the API
    always has (404; 403 saying only players confirm or contest). The refusal's path only: the
    service has already decided nothing changes."""
    permissions.check_may_answer(match_or_404(match_id, user), user)


class MatchConfirmApi(BaseApi):
    permission_classes = [IsAuthenticated]
    throttle_classes = throttles.REPORTS
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        read_only_names = ("score", "status", "winner", "games")

        class Meta:
            ref_name = "MatchConfirm"

    @extend_schema(operation_id="matches_confirm", tags=["results"], summary="Confirm the other side's report",
                   description="A player confirms the other side's pending report. A side none of whose players "
                               "has an account (a walk-in) cannot: the match's director (its event's organiser, "
                               "staff) confirms for it, with the same effect.",
                   request=InputSerializer, responses={200: MatchDetailSerializer, **WRITE_ERRORS})
    def post(self, request, match_id: int):
        _answer_body_valid(self.InputSerializer(data=request.data), match_id, request.user)
        try:
            report = match_confirm(match_id=match_id, user=request.user)
        except (Match.DoesNotExist, NotAllowed):
            _refusal_as_before(match_id, request.user)
            raise
        return _report_answer(request, report, match_id)


class MatchContestApi(BaseApi):
    permission_classes = [IsAuthenticated]
    throttle_classes = throttles.REPORTS
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        read_only_names = ("score", "status", "winner", "games")

        statement = serializers.CharField(required=False, allow_blank=True, max_length=2000,
                                          help_text="why the report is wrong, for the organiser")

        class Meta:
            ref_name = "MatchContest"

    @extend_schema(operation_id="matches_contest", tags=["results"], summary="Contest the other side's report",
                   request=InputSerializer, responses={200: MatchDetailSerializer, **WRITE_ERRORS})
    def post(self, request, match_id: int):
        serializer = self.InputSerializer(data=request.data)
        _answer_body_valid(serializer, match_id, request.user)
        try:
            match = match_contest(match_id=match_id, user=request.user,
                                  statement=serializer.validated_data.get("statement", ""))
        except (Match.DoesNotExist, NotAllowed):
            _refusal_as_before(match_id, request.user)
            raise
        return _answer(match)


class MatchOverrideApi(BaseApi):
    permission_classes = [IsAuthenticated]
    throttle_classes = throttles.REPORTS
    parser_classes = [JSONParser, MultiPartParser]

    @extend_schema(operation_id="matches_override", tags=["results"], summary="Enter or override the result (organiser)",
                   description="Same body as the report. The match is confirmed with this result.",
                   request=CLAIM_REQUEST, responses={200: MatchDetailSerializer, **WRITE_ERRORS})
    def post(self, request, match_id: int):
        match = match_or_404(match_id, request.user)
        permissions.check_may_override(match, request.user)
        claim, statement = _claim_from_request(request, match)
        report = match_override(match_id=match.pk, user=request.user, claim=claim, statement=statement)
        return _report_answer(request, report, match.pk)


class MatchConsentApi(BaseApi):
    permission_classes = [IsAuthenticated]
    throttle_classes = throttles.REPORTS
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        read_only_names = ("consent", "status", "score", "winner")

        decision = serializers.ChoiceField(choices=DECISIONS,
                                           help_text="confirm: the match is on the side's record; decline: it is not "
                                                     "(the player himself only)")
        side = serializers.ChoiceField(choices=(0, 1), required=False,
                                       help_text="the side answered for: a director of an event or club its player "
                                                 "plays in, or staff; a player answers for his own side")

        class Meta:
            ref_name = "MatchConsent"

    @extend_schema(
        operation_id="matches_consent", tags=["results"], summary="Confirm or decline a match for a side's record",
        description="A match outside any event or club, or imported with a player's name, counts for his rating and "
                    "shows on his page only once his side has confirmed it. The player answers for his own side; a "
                    "director of an event or club the player plays in, or staff, may confirm for a side (give "
                    "side). When both sides have confirmed a confirmed rated match, its rating is applied. A repeat "
                    "changes nothing; declining a side that has confirmed is a 409.",
        request=InputSerializer, responses={200: MatchDetailSerializer, **WRITE_ERRORS},
    )
    def post(self, request, match_id: int):
        match = match_or_404(match_id, request.user)
        permissions.check_may_consent(match, request.user)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match_consent(match_id=match.pk, user=request.user, decision=data["decision"], side=data.get("side"))
        return detail_answer(request, match.pk)


# --- games and moments --------------------------------------------------------------------------


class MatchGameListApi(BaseApi):
    @extend_schema(operation_id="matches_games_list", tags=["games"], summary="Every game with every moment",
                   responses={200: GameWithMomentsSerializer(many=True), 404: ApiErrorSerializer})
    def get(self, request, match_id: int):
        match = match_or_404(match_id, request.user, logs=True)
        items = [{"game": game, "moments": game_moments(match, game)} for game in match.games.all()]
        return Response(GameWithMomentsSerializer(items, many=True).data)


class MatchGameDetailApi(BaseApi):
    @extend_schema(operation_id="matches_games_retrieve", tags=["games"], summary="One game with every moment",
                   responses={200: GameWithMomentsSerializer, 404: ApiErrorSerializer})
    def get(self, request, match_id: int, number: int):
        match = match_or_404(match_id, request.user, logs=True)
        game = next((g for g in match.games.all() if g.number == number), None)
        if game is None:
            raise NotFound(f"match {match_id} has no game {number}")
        return Response(GameWithMomentsSerializer({"game": game, "moments": game_moments(match, game)}).data)


# --- the .mat file ------------------------------------------------------------------------------


def _mat_text(match: Match) -> str:
    """The match's stored games as .mat text, as GNU Backgammon imports it.

    Raises Conflict (409) for a match without games and for games the format cannot hold (a
    condoned illegal play, an automatic double).
    """
    games = list(match.games.all())
    if not games:
        raise Conflict(gettext("this match has no recorded games, so there is no match file; a result reported with "
                               "game logs or a .mat file stores them"), code="no_games")
    players = (match.side0.name, match.side1.name)
    tags = {"Player 1": players[0], "Player 2": players[1], **hooks.mat_tags(match)}
    day = match.played_on or (match.confirmed_at.date() if match.confirmed_at else None)
    if day:
        tags["EventDate"] = day.strftime("%Y.%m.%d")
    try:
        checked = match_from_actions(players, match.rules(), [actions_from_json(g.log) for g in games], tags=tags,
                                     start=match.start, penalties=match.penalties_at())
        return write_mat(checked)
    except (MatchError, GameLogError) as error:
        raise Conflict(gettext("this match cannot be written as a .mat file: %(reason)s") % {
            "reason": refusal_text(error, located=True)}, code=error.code) from None


class MatchMatFileApi(BaseApi):
    def perform_content_negotiation(self, request, force=False):
        # The file is text/plain; errors are JSON. Never answer 406 for an Accept of text/plain.
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        operation_id="matches_mat", tags=["games"], summary="The match as a .mat file (download)",
        responses={(200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="the .mat text, as an attachment"),
                   404: ApiErrorSerializer, 409: ApiErrorSerializer},
    )
    def get(self, request, match_id: int):
        text = _mat_text(match_or_404(match_id, request.user, logs=True))
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="match-{match_id}.mat"'
        return response


urlpatterns = [
    path("matches/", MatchCollectionApi.as_view(), name="api-match-list"),
    path("matches/<int:match_id>/", MatchDetailApi.as_view(), name="api-match-detail"),
    path("matches/<int:match_id>/report/", MatchReportApi.as_view(), name="api-match-report"),
    path("matches/<int:match_id>/confirm/", MatchConfirmApi.as_view(), name="api-match-confirm"),
    path("matches/<int:match_id>/contest/", MatchContestApi.as_view(), name="api-match-contest"),
    path("matches/<int:match_id>/override/", MatchOverrideApi.as_view(), name="api-match-override"),
    path("matches/<int:match_id>/consent/", MatchConsentApi.as_view(), name="api-match-consent"),
    path("matches/<int:match_id>/games/", MatchGameListApi.as_view(), name="api-match-games"),
    path("matches/<int:match_id>/games/<int:number>/", MatchGameDetailApi.as_view(), name="api-match-game"),
    path("matches/<int:match_id>/mat/", MatchMatFileApi.as_view(), name="api-match-mat"),
]
