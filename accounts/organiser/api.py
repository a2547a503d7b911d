"""API of the organiser role: a player asks to become an organiser; staff approve or refuse.

- ``GET /api/v1/organiser-requests/``: your own requests, newest first (staff: everyone's),
  ``?status=open|approved|refused``; paginated.
- ``POST /api/v1/organiser-requests/`` ``{"statement": "..."}``: ask (201); 409 ``already_organiser``
  or ``request_open``.
- ``POST /api/v1/organiser-requests/{id}/approve/`` (no body) and ``.../refuse/``
  ``{"reason": "..."}``: staff only (403 ``not_staff`` before the body is read); 404 for an
  unknown request; 409 ``already_decided`` when it was decided the other way; deciding again the
  same way changes nothing (200).

The applicant is named by his display name, never his username or email.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core.api import ApiErrorSerializer, BaseApi, Pagination, StrictInputSerializer, paginated_response
from core.parsers import JSONParser

from ..models_requests import REASON_MAX, STATEMENT_MAX, OrganiserRequest
from . import selectors, services

TAGS = ["organisers"]
WRITE_ERRORS = {400: ApiErrorSerializer, 401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer,
                409: ApiErrorSerializer}


class OrganiserRequestSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    applicant = serializers.CharField(source="user.display_name", help_text="the applicant's display name")
    statement = serializers.CharField(help_text="which club or event he runs, in his words")
    status = serializers.ChoiceField(choices=OrganiserRequest.Status.choices)
    reason = serializers.CharField(help_text="why it was refused (empty unless refused)")
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "OrganiserRequest"


class OrganiserRequestInputSerializer(StrictInputSerializer):
    statement = serializers.CharField(max_length=STATEMENT_MAX, help_text="which club or event you run")

    class Meta:
        ref_name = "OrganiserRequestInput"


class OrganiserRefuseSerializer(StrictInputSerializer):
    reason = serializers.CharField(max_length=REASON_MAX, help_text="why: the player is shown it")

    class Meta:
        ref_name = "OrganiserRefuseInput"


class OrganiserNoBodySerializer(StrictInputSerializer):
    """No field: an empty object (or no body at all)."""

    class Meta:
        ref_name = "OrganiserNoBody"


class OrganiserRequestFilterSerializer(StrictInputSerializer):
    allowed_extra = ("page", "page_size", "format")
    status = serializers.ChoiceField(choices=OrganiserRequest.Status.choices, required=False)

    class Meta:
        ref_name = "OrganiserRequestFilter"


def _read(serializer_class, data) -> dict:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _answer(request_id: int, user, code: int = status.HTTP_200_OK) -> Response:
    fresh = selectors.organiser_request_get(request_id=request_id, user=user)
    return Response(OrganiserRequestSerializer(fresh).data, status=code)


class OrganiserBaseApi(BaseApi):
    """Signed-in users only; JSON bodies; an unknown request (or another's) is a 404."""

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    def handle_exception(self, exc):
        if isinstance(exc, OrganiserRequest.DoesNotExist):
            exc = NotFound("there is no such organiser request")
        return super().handle_exception(exc)


class OrganiserRequestCollectionApi(OrganiserBaseApi):
    pagination_class = Pagination  # the schema shows the page, as the answer is

    @extend_schema(operation_id="organiser_requests_list", tags=TAGS, summary="Requests to become an organiser",
                   description="Your own, newest first; staff see everyone's. Paginated.",
                   parameters=[OrganiserRequestFilterSerializer],
                   responses={200: OrganiserRequestSerializer(many=True), 400: ApiErrorSerializer,
                              401: ApiErrorSerializer})
    def get(self, request):
        filters = _read(OrganiserRequestFilterSerializer, request.query_params)
        return paginated_response(request=request, view=self,
                                  queryset=selectors.organiser_request_list(user=request.user,
                                                                            status=filters.get("status")),
                                  serializer_class=OrganiserRequestSerializer)

    @extend_schema(operation_id="organiser_requests_create", tags=TAGS, summary="Ask to become an organiser",
                   description="Say which club or event you run; staff decide. 409 already_organiser (you are "
                               "one, or staff), 409 request_open (one is waiting already).",
                   request=OrganiserRequestInputSerializer,
                   responses={201: OrganiserRequestSerializer, **WRITE_ERRORS})
    def post(self, request):
        body = _read(OrganiserRequestInputSerializer, request.data)
        made = services.organiser_request(user=request.user, statement=body["statement"])
        return _answer(made.pk, request.user, status.HTTP_201_CREATED)


class StaffDecisionApi(OrganiserBaseApi):
    """Staff decide a request: their right is checked before the body is read."""

    input_serializer = OrganiserNoBodySerializer

    def decide(self, request, organiser_request_id: int, service):
        if not request.user.is_staff:
            raise services.not_staff()
        body = _read(self.input_serializer, request.data)
        decided = service(request_id=organiser_request_id, user=request.user, **body)
        return _answer(decided.pk, request.user)


class OrganiserApproveApi(StaffDecisionApi):
    @extend_schema(operation_id="organiser_requests_approve", tags=TAGS, summary="Approve a request (staff)",
                   description="The applicant becomes an organiser and is told by email. 409 already_decided for "
                               "a refused request.",
                   request=OrganiserNoBodySerializer, responses={200: OrganiserRequestSerializer, **WRITE_ERRORS})
    def post(self, request, organiser_request_id: int):
        return self.decide(request, organiser_request_id, services.organiser_approve)


class OrganiserRefuseApi(StaffDecisionApi):
    input_serializer = OrganiserRefuseSerializer

    @extend_schema(operation_id="organiser_requests_refuse", tags=TAGS, summary="Refuse a request (staff)",
                   description="With the reason the applicant is shown (and sent by email); his role is unchanged. "
                               "409 already_decided for an approved request.",
                   request=OrganiserRefuseSerializer, responses={200: OrganiserRequestSerializer, **WRITE_ERRORS})
    def post(self, request, organiser_request_id: int):
        return self.decide(request, organiser_request_id, services.organiser_refuse)


urlpatterns = [
    path("organiser-requests/", OrganiserRequestCollectionApi.as_view(), name="api-organiser-requests"),
    path("organiser-requests/<int:organiser_request_id>/approve/", OrganiserApproveApi.as_view(),
         name="api-organiser-request-approve"),
    path("organiser-requests/<int:organiser_request_id>/refuse/", OrganiserRefuseApi.as_view(),
         name="api-organiser-request-refuse"),
]
