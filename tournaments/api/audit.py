"""API: an event's audit log (``GET /api/v1/tournaments/{id}/audit/``).

Only the event's organiser (its director) and staff read it: 401 anonymous, 403 anyone else, 404
an unknown tournament (after the 401: an anonymous caller learns nothing). Paginated newest first,
narrowed by ``action`` (``entry.withdrawn``, or ``entry.`` for every entry action), ``object_type``,
``match`` and ``actor``. Entries name people by username only, never by email or user id.
"""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated

from audit.selectors import AuditFilters, audit_of_event
from core.api import ApiErrorSerializer, BaseApi, Pagination, StrictInputSerializer, paginated_response
from tournaments.errors import not_organiser
from tournaments.models import Tournament
from tournaments.services.common import runs

TAGS = ["audit"]


class AuditFilterSerializer(StrictInputSerializer):
    allowed_extra = ("page", "page_size", "format")

    action = serializers.CharField(required=False, max_length=64,
                                   help_text="an action (entry.withdrawn), or an entity's actions ending with a dot (entry.)")
    object_type = serializers.CharField(required=False, max_length=64, help_text="app.Model, e.g. matches.Match")
    match = serializers.IntegerField(required=False, min_value=1, help_text="a match id")
    actor = serializers.CharField(required=False, max_length=150, help_text="a username, or system")

    class Meta:
        ref_name = "AuditFilter"

    def filters(self) -> AuditFilters:
        data = self.validated_data
        return AuditFilters(action=data.get("action", ""), object_type=data.get("object_type", ""),
                            match_id=data.get("match"), actor=data.get("actor", ""))


class AuditEntrySerializer(serializers.Serializer):
    """One change: when, who (a username; ``system`` for a task), what, on which object, and the
    object's summary before and after (null: it did not exist before, or is gone after)."""

    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    actor = serializers.CharField(source="actor_name")
    action = serializers.CharField()
    object_type = serializers.CharField()
    object_id = serializers.IntegerField(allow_null=True)
    tournament_id = serializers.IntegerField(allow_null=True)
    match_id = serializers.IntegerField(allow_null=True)
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    note = serializers.CharField()

    class Meta:
        ref_name = "AuditEntry"


class TournamentAuditApi(BaseApi):
    permission_classes = [IsAuthenticated]
    pagination_class = Pagination  # the schema shows the page, as the answer is

    @extend_schema(operation_id="tournaments_audit", tags=TAGS, summary="An event's audit log (organiser, staff)",
                   description="Every change of the event, its entries, draw, rounds, pairings and matches (results, "
                               "disputes, rulings): who, when, what, before and after. Newest first, paginated. 401 "
                               "anonymous, 403 anyone but the organiser and staff; a bad filter is a 400 naming it.",
                   parameters=[AuditFilterSerializer],
                   responses={200: AuditEntrySerializer(many=True), 400: ApiErrorSerializer, 401: ApiErrorSerializer,
                              403: ApiErrorSerializer, 404: ApiErrorSerializer})
    def get(self, request, tournament_id: int):
        tournament = Tournament.objects.filter(pk=tournament_id).only("pk", "organiser_id").first()
        if tournament is None:
            raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id})
        if not runs(tournament, request.user):
            raise not_organiser()
        filters = AuditFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return paginated_response(request=request, view=self, queryset=audit_of_event(tournament, filters.filters()),
                                  serializer_class=AuditEntrySerializer)


urlpatterns = [
    path("tournaments/<int:tournament_id>/audit/", TournamentAuditApi.as_view(), name="api-tournament-audit"),
]
