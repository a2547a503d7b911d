"""API: disputes, statements, rulings, appeals, committees and votes, and an event's public rulings.

One view per operation: it reads the body with a strict serializer, calls one service (or reads),
and answers with what it reads back. The services decide who may act and hold every rule; a view
only decides who may *read* (``rulings.access``).

A dispute, its rulings and its appeals are private to the match's players, its director (the
match's or its event's organiser), staff and the members of its appeals' committees. Anyone else
gets a 404, as if it did not exist (like another user's import job): an outsider learns nothing,
not even that a match was disputed. An event's rulings (category, outcome, rule, date) are public.

Status codes: 200, 201 for what a POST creates (a dispute, a statement, a ruling, an appeal), 400
for a bad body (unknown or read-only field, wrong type; a service's refusal names its field in
``errors``), 401 anonymous, 403 for someone who may read but not act (a player ruling, the
director appealing, a non-member voting), 404 unknown or hidden, 409 when the state forbids it
(``dispute_closed``, ``appeal_window_closed``, ``already_appealed``, ``committee_named``,
``no_committee``, ``appeal_decided``, ``ruling_refused``), 429 when the writes come too fast.
"""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from core import throttles
from core.api import ApiErrorSerializer, BaseApi, Pagination, paginated_response
from core.parsers import JSONParser
from matches.models import Match
from rulings import access, selectors
from rulings.models import Appeal, Dispute, Ruling
from rulings.selectors import dispute_detail, rulings_of_event
from rulings.services.appeals import appeal_lodge, committee_name, vote_cast
from rulings.services.disputes import dispute_answer, dispute_open
from rulings.services.rulings import ruling_make
from tournaments.models import Tournament
from tournaments.selectors.event import tournament_get

from .serializers import (
    AppealInputSerializer,
    AppealSerializer,
    CommitteeInputSerializer,
    DisputeDetailSerializer,
    DisputeFilterSerializer,
    DisputeOpenSerializer,
    DisputeSummarySerializer,
    EventRulingSerializer,
    RulingInputSerializer,
    RulingSerializer,
    StatementInputSerializer,
    VoteInputSerializer,
)

TAGS = ["rulings"]
WRITE_ERRORS = {
    400: ApiErrorSerializer, 401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer,
    409: ApiErrorSerializer, 429: ApiErrorSerializer,
}
READ_ERRORS = {401: ApiErrorSerializer, 404: ApiErrorSerializer}

MISSING = {Dispute.DoesNotExist: gettext_lazy("there is no such dispute"),
           Ruling.DoesNotExist: gettext_lazy("there is no such ruling"),
           Appeal.DoesNotExist: gettext_lazy("there is no such appeal"),
           Match.DoesNotExist: gettext_lazy("there is no such match")}


class RulingsBaseApi(BaseApi):
    """The rulings API's views: JSON bodies, authenticated callers.

    A row that vanished between the view's read and the service's lock is a 404 like any unknown
    one (core/api.py lists a refusal's ``field`` in ``errors``, as for a bad body).
    """

    parser_classes = [JSONParser]
    permission_classes = [IsAuthenticated]

    def handle_exception(self, exc):
        for missing, message in MISSING.items():
            if isinstance(exc, missing):
                exc = NotFound(str(message))
        return super().handle_exception(exc)


def _read_body(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# --- reads ----------------------------------------------------------------------------------------


def dispute_loaded(dispute_id: int, user) -> Dispute:
    """The dispute with everything its detail shows (``selectors.dispute_detail``), if ``user``
    may read it; else a 404."""
    try:
        dispute = dispute_detail(dispute_id).dispute
    except Dispute.DoesNotExist:
        raise NotFound(gettext("there is no dispute %(id)s") % {"id": dispute_id}) from None
    if not access.dispute_visible(dispute, user):
        raise NotFound(gettext("there is no dispute %(id)s") % {"id": dispute_id})
    return dispute


def ruling_loaded(ruling_id: int, user) -> Ruling:
    """The ruling (``selectors.ruling_visible``), if ``user`` may read its dispute; else a 404."""
    ruling = selectors.ruling_visible(ruling_id, user)
    if ruling is None:
        raise NotFound(gettext("there is no ruling %(id)s") % {"id": ruling_id})
    return ruling


def appeal_loaded(appeal_id: int, user) -> Appeal:
    """The appeal (``selectors.appeal_visible``), if ``user`` may read its dispute; else a 404."""
    appeal = selectors.appeal_visible(appeal_id, user)
    if appeal is None:
        raise NotFound(gettext("there is no appeal %(id)s") % {"id": appeal_id})
    return appeal


def _dispute_response(dispute_id: int, user, status_code: int = status.HTTP_200_OK) -> Response:
    return Response(DisputeDetailSerializer(dispute_loaded(dispute_id, user)).data, status=status_code)


def _appeal_response(appeal_id: int, user, status_code: int = status.HTTP_200_OK) -> Response:
    appeal = appeal_loaded(appeal_id, user)
    data = AppealSerializer(appeal, context={"sees_votes": access.sees_votes(appeal, user)}).data
    return Response(data, status=status_code)


# --- disputes -------------------------------------------------------------------------------------


class DisputeListApi(RulingsBaseApi):
    pagination_class = Pagination  # the schema shows the page, as the answer is
    @extend_schema(operation_id="disputes_list", tags=TAGS, summary="Disputes: a director's queue, a player's own",
                   description="Newest first, paginated. A director sees the disputes of the matches he directs "
                               "(as the match's or the event's organiser), staff every dispute, a player those of "
                               "his own matches, a committee member those he sits on an appeal of. Filter by "
                               "status, category, event and match; a bad filter is a 400 naming it.",
                   parameters=[DisputeFilterSerializer],
                   responses={200: DisputeSummarySerializer(many=True), 400: ApiErrorSerializer, 401: ApiErrorSerializer})
    def get(self, request):
        query = DisputeFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        queryset = selectors.dispute_list(request.user, query.filters())
        return paginated_response(request=request, view=self, queryset=queryset,
                                  serializer_class=DisputeSummarySerializer)


class DisputeOpenApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="disputes_create", tags=TAGS, summary="Open a dispute (a player of the match, "
                                                                       "or its director)",
                   description="A category, a statement and, for a moment of a game, game_number and move_number "
                               "(the action of the game's log); log carries the game as played when it differs from "
                               "the record. The position at that moment is recorded with the dispute.",
                   request=DisputeOpenSerializer, responses={201: DisputeDetailSerializer, **WRITE_ERRORS})
    def post(self, request):
        data = _read_body(DisputeOpenSerializer, request)
        dispute = dispute_open(match_id=data["match"], user=request.user, category=data["category"],
                               statement=data["statement"], game_number=data.get("game_number"),
                               move_number=data.get("move_number"), log=data.get("log"))
        return _dispute_response(dispute.pk, request.user, status.HTTP_201_CREATED)


class DisputeCollectionApi(DisputeListApi, DisputeOpenApi):
    """``/disputes/`` routes by method: GET is :class:`DisputeListApi`, POST :class:`DisputeOpenApi`
    (Django routes by path only); only the POST is throttled."""

    def get_throttles(self):
        operation = DisputeOpenApi if self.request is not None and self.request.method == "POST" else DisputeListApi
        return [throttle() for throttle in operation.throttle_classes]


class DisputeDetailApi(RulingsBaseApi):
    @extend_schema(operation_id="disputes_retrieve", tags=TAGS, summary="A dispute with its statements, rulings "
                                                                         "and appeals",
                   description="For the match's players, its director, staff and the members of its appeals' "
                               "committees; 404 for anyone else.",
                   responses={200: DisputeDetailSerializer, **READ_ERRORS})
    def get(self, request, dispute_id: int):
        return _dispute_response(dispute_id, request.user)


class StatementCreateApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="disputes_statements_create", tags=TAGS, summary="Answer a dispute (a party, "
                                                                                   "or the director)",
                   description="Adds a statement; answers with the dispute.",
                   request=StatementInputSerializer, responses={201: DisputeDetailSerializer, **WRITE_ERRORS})
    def post(self, request, dispute_id: int):
        dispute_loaded(dispute_id, request.user)
        data = _read_body(StatementInputSerializer, request)
        dispute_answer(dispute_id=dispute_id, user=request.user, text=data["text"])
        return _dispute_response(dispute_id, request.user, status.HTTP_201_CREATED)


class RulingCreateApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="disputes_rulings_create", tags=TAGS, summary="Rule on a dispute (the director)",
                   description="The outcome with its details (params), the rule applied and the reasoning. The "
                               "ruling is applied at once (a corrected score, an awarded match, penalty points...) "
                               "and recorded for good; 409 ruling_refused when the event can no longer take it. "
                               "Answers with the dispute.",
                   request=RulingInputSerializer, responses={201: DisputeDetailSerializer, **WRITE_ERRORS})
    def post(self, request, dispute_id: int):
        dispute_loaded(dispute_id, request.user)
        data = _read_body(RulingInputSerializer, request)
        ruling_make(dispute_id=dispute_id, user=request.user, outcome=data["outcome"], params=data["params"],
                    rule=data["rule"], reasoning=data["reasoning"])
        return _dispute_response(dispute_id, request.user, status.HTTP_201_CREATED)


# --- rulings --------------------------------------------------------------------------------------


class RulingDetailApi(RulingsBaseApi):
    @extend_schema(operation_id="rulings_retrieve", tags=TAGS, summary="A ruling",
                   description="Who can see its dispute can see it; 404 for anyone else.",
                   responses={200: RulingSerializer, **READ_ERRORS})
    def get(self, request, ruling_id: int):
        return Response(RulingSerializer(ruling_loaded(ruling_id, request.user)).data)


class AppealLodgeApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="rulings_appeal", tags=TAGS, summary="Appeal a ruling (a player of the match)",
                   description="Within the event's appeal window (appeal_window_closes on the ruling): 409 "
                               "appeal_window_closed after it, already_appealed the second time. Answers with the "
                               "appeal.",
                   request=AppealInputSerializer, responses={201: AppealSerializer, **WRITE_ERRORS})
    def post(self, request, ruling_id: int):
        ruling_loaded(ruling_id, request.user)
        data = _read_body(AppealInputSerializer, request)
        appeal = appeal_lodge(ruling_id=ruling_id, user=request.user, grounds=data["grounds"])
        return _appeal_response(appeal.pk, request.user, status.HTTP_201_CREATED)


# --- appeals --------------------------------------------------------------------------------------


class AppealDetailApi(RulingsBaseApi):
    @extend_schema(operation_id="appeals_retrieve", tags=TAGS, summary="An appeal: grounds, committee, decision",
                   description="Who can see its dispute can see it (404 for anyone else); ``votes`` are shown to "
                               "the committee and the director only, null for the parties.",
                   responses={200: AppealSerializer, **READ_ERRORS})
    def get(self, request, appeal_id: int):
        return _appeal_response(appeal_id, request.user)


class CommitteeNameApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="appeals_committee", tags=TAGS, summary="Name the appeal's committee (the director)",
                   description="3 or 5 user ids, none of them the ruling director or a player of the match "
                               "(400 bad_committee naming the member); 409 committee_named the second time.",
                   request=CommitteeInputSerializer, responses={200: AppealSerializer, **WRITE_ERRORS})
    def post(self, request, appeal_id: int):
        appeal_loaded(appeal_id, request.user)
        data = _read_body(CommitteeInputSerializer, request)
        committee_name(appeal_id=appeal_id, user=request.user, member_ids=data["members"])
        return _appeal_response(appeal_id, request.user)


class VoteCastApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="appeals_vote", tags=TAGS, summary="Vote on an appeal (a committee member)",
                   description="uphold, overturn, or replace with a new ruling (outcome, params, rule, reasoning). "
                               "A member may change his vote until the appeal is decided: the vote that makes a "
                               "majority decides it at once. Answers with the appeal.",
                   request=VoteInputSerializer, responses={200: AppealSerializer, **WRITE_ERRORS})
    def post(self, request, appeal_id: int):
        appeal_loaded(appeal_id, request.user)
        data = _read_body(VoteInputSerializer, request)
        vote_cast(appeal_id=appeal_id, user=request.user, **data)
        return _appeal_response(appeal_id, request.user)


# --- an event's rulings ---------------------------------------------------------------------------


class EventRulingsApi(RulingsBaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_rulings", tags=["tournaments"], summary="The event's rulings (public)",
                   description="Every ruling made on a match of the event, oldest first: category, outcome, rule, "
                               "status and date. No statement, no reasoning, nobody's name.",
                   responses={200: EventRulingSerializer(many=True), 404: ApiErrorSerializer})
    def get(self, request, tournament_id: int):
        try:
            tournament_get(tournament_id)
        except Tournament.DoesNotExist:
            raise NotFound(f"there is no tournament {tournament_id}") from None
        return Response(EventRulingSerializer(rulings_of_event(tournament_id), many=True).data)


urlpatterns = [
    path("disputes/", DisputeCollectionApi.as_view(), name="api-disputes"),
    path("disputes/<int:dispute_id>/", DisputeDetailApi.as_view(), name="api-dispute"),
    path("disputes/<int:dispute_id>/statements/", StatementCreateApi.as_view(), name="api-dispute-statements"),
    path("disputes/<int:dispute_id>/rulings/", RulingCreateApi.as_view(), name="api-dispute-rulings"),
    path("rulings/<int:ruling_id>/", RulingDetailApi.as_view(), name="api-ruling"),
    path("rulings/<int:ruling_id>/appeal/", AppealLodgeApi.as_view(), name="api-ruling-appeal"),
    path("appeals/<int:appeal_id>/", AppealDetailApi.as_view(), name="api-appeal"),
    path("appeals/<int:appeal_id>/committee/", CommitteeNameApi.as_view(), name="api-appeal-committee"),
    path("appeals/<int:appeal_id>/votes/", VoteCastApi.as_view(), name="api-appeal-votes"),
    path("tournaments/<int:tournament_id>/rulings/", EventRulingsApi.as_view(), name="api-tournament-rulings"),
]
