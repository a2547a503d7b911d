"""API: a director corrects a result of his event, with a dry run first; a finished event is
reopened (``tournaments.services.corrections``, ``events.event_reopen``).

``POST tournaments/<id>/matches/<match>/correct/`` with ``{"score": [a, b]}``: with
``?dry_run=1`` (or ``"dry_run": true``) nothing changes and the answer lists every later match the
correction would reset (``resets``, each saying whether its match is removed) and every player to
tell (``tell``); without it the correction is made, exactly as the dry run said (send back the dry
run's ``keys`` as ``expected``: if the bracket has moved since, 409 ``cascade_changed`` and nothing
changes).
Status codes: 200; 400 bad body, bad score, a match not of this event's draw; 401; 403 not the
event's director; 404 unknown event or match; 409 a finished event (reopen it), a reset match
with a dispute or being reported right now, a rating change that cannot be undone.
"""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core.api import StrictInputSerializer
from matches.api.serializers import ScoreField
from matches.models import Match
from tournaments.services.corrections import result_correct, result_correction_preview
from tournaments.services.events import event_reopen

from . import permissions
from .events import TAGS, WRITE_ERRORS, TournamentBaseApi, body_serializer, tournament_or_404
from .serializers.events import TOURNAMENT_READ_ONLY, TournamentSerializer


class CorrectionInputSerializer(StrictInputSerializer):
    read_only_names = ("resets", "applied", "summary", "tell")

    score = ScoreField(help_text="the corrected final score, side 0's first")
    statement = serializers.CharField(required=False, allow_blank=True, max_length=2000,
                                      help_text="why (kept in the audit log)")
    dry_run = serializers.BooleanField(required=False, default=False,
                                       help_text="true: change nothing, answer what the correction would reset")
    expected = serializers.ListField(child=serializers.CharField(max_length=40), required=False, allow_null=True,
                                     max_length=1000, help_text="the dry run's keys: refused (409) if they changed")

    class Meta:
        ref_name = "TournamentCorrection"


class ResetSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="the pairing's draw key, e.g. main-2-1")
    flight = serializers.CharField()
    round = serializers.IntegerField(source="round_number")
    round_name = serializers.CharField()
    before = serializers.ListField(child=serializers.CharField(allow_null=True), help_text="players' names before")
    after = serializers.ListField(child=serializers.CharField(allow_null=True),
                                  help_text="players' names after (null: still to be decided)")
    removed = serializers.BooleanField(help_text="its match is removed (else only its players change)")
    voided = serializers.CharField(allow_null=True, help_text="who had won the result it loses")
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    started = serializers.BooleanField(help_text="it had started or been reported with the wrong player")
    match = serializers.IntegerField(source="match_id", allow_null=True, help_text="the match reset (removed)")
    sentence = serializers.CharField()


class CorrectionSerializer(serializers.Serializer):
    applied = serializers.BooleanField(help_text="false for a dry run")
    match = serializers.IntegerField(source="match_id")
    key = serializers.CharField()
    round_name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    old_winner = serializers.CharField(allow_null=True)
    new_winner = serializers.CharField()
    same_winner = serializers.BooleanField()
    score = serializers.ListField(child=serializers.IntegerField())
    summary = serializers.CharField()
    keys = serializers.ListField(child=serializers.CharField(), help_text="send back as expected")
    resets = ResetSerializer(many=True)
    tell = serializers.ListField(child=serializers.CharField(),
                                 help_text="the players to tell: the corrected match's, then everyone in a reset match")
    started = serializers.SerializerMethodField()

    def get_started(self, correction) -> list[str]:
        return [line.key for line in correction.started]


class ResultCorrectApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_result_correct", tags=TAGS, summary="Correct a result (dry run first)",
                   description=__doc__, request=CorrectionInputSerializer,
                   parameters=[OpenApiParameter("dry_run", bool, description="1: change nothing")],
                   responses={200: CorrectionSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int, match_id: int):
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body = body_serializer(CorrectionInputSerializer, request).validated_data
        query = request.query_params.get("dry_run")
        if query not in (None, "0", "1", "true", "false"):
            raise ValidationError({"dry_run": [_("dry_run is 1 or 0")]})
        dry_run = body["dry_run"] or query in ("1", "true")
        try:
            if dry_run:
                correction = result_correction_preview(match_id=match_id, user=request.user, score=body["score"],
                                                       tournament_id=tournament.pk)
            else:
                correction = result_correct(match_id=match_id, user=request.user, score=body["score"],
                                            tournament_id=tournament.pk, statement=body.get("statement", ""),
                                            expected=body.get("expected"))
        except Match.DoesNotExist:
            raise NotFound(_("there is no match %(match)s") % {"match": match_id}) from None
        return Response(CorrectionSerializer(correction).data)


class ReopenInputSerializer(StrictInputSerializer):
    read_only_names = TOURNAMENT_READ_ONLY

    note = serializers.CharField(required=False, allow_blank=True, max_length=2000,
                                 help_text="why (kept in the audit log)")

    class Meta:
        ref_name = "TournamentReopen"


class TournamentReopenApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_reopen", tags=TAGS, summary="Reopen a finished tournament",
                   description="Back to running so that its results can be corrected (audited); 409 not_finished "
                               "for an event that is not finished.",
                   request=ReopenInputSerializer, responses={200: TournamentSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body = body_serializer(ReopenInputSerializer, request).validated_data
        event_reopen(tournament_id=tournament.pk, user=request.user, note=body.get("note", ""))
        return Response(TournamentSerializer(tournament_or_404(tournament.pk)).data)


urlpatterns = [
    path("tournaments/<int:tournament_id>/matches/<int:match_id>/correct/", ResultCorrectApi.as_view(),
         name="api-tournament-result-correct"),
    path("tournaments/<int:tournament_id>/reopen/", TournamentReopenApi.as_view(), name="api-tournament-reopen"),
]
