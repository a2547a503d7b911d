"""API: .mat imports in two steps. POST /imports/ starts checking one or many files (or .zip
archives) in the background; GET /imports/{id}/ reports its progress, each file's result and,
once the files are checked, each name they give with the players it likely is; POST
/imports/{id}/mapping/ says who each name is ({name: player id | "guest" | "skip"}) and starts
writing the matches."""

from django.conf import settings
from django.urls import path, reverse
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core import throttles
from core.api import ApiErrorSerializer, StrictInputSerializer
from core.parsers import JSONParser as CheckedJSONParser

from ..models import Player
from ..services.imports.jobs import (
    import_file_result,
    import_file_summary,
    import_job_get,
    import_job_percent,
    import_job_progress_text,
)
from ..services.imports.names import REASONS, import_job_map
from ..services.imports.upload import TooLarge, import_job_create


class ImportFileOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    status_text = serializers.CharField(source="get_status_display")
    error = serializers.JSONField(allow_null=True, help_text="{line, game, message} when the file was refused")
    match = serializers.IntegerField(source="match_id", allow_null=True)
    matches = serializers.SerializerMethodField(help_text="how many matches the file gave (0 or 1)")
    players = serializers.SerializerMethodField(help_text="the players' names the file gives, once checked")
    result = serializers.SerializerMethodField(help_text="the file's result as a sentence")

    def get_matches(self, file) -> int:
        return 1 if file.status == "imported" else 0

    def get_players(self, file) -> list[str]:
        return import_file_summary(file)[0]

    def get_result(self, file) -> str:
        return import_file_result(file)


class CandidateOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.SerializerMethodField()
    reason = serializers.CharField(help_text=", ".join(REASONS))
    reason_text = serializers.SerializerMethodField()

    def get_name(self, candidate) -> str:
        player = self.context["players"].get(candidate["player"])
        return player.display_name if player is not None else ""

    def get_reason_text(self, candidate) -> str:
        return str(REASONS.get(candidate["reason"], ""))


class NameOutput(serializers.Serializer):
    name = serializers.CharField()
    matches = serializers.IntegerField(help_text="how many of the checked files name it")
    candidates = CandidateOutput(many=True, help_text="the players it likely is, most likely first")


class ImportJobOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField(help_text="queued, running, mapping (waiting for the players) or done")
    status_text = serializers.CharField(source="get_status_display")
    mapped = serializers.SerializerMethodField()
    checked = serializers.IntegerField()
    done = serializers.IntegerField()
    total = serializers.IntegerField()
    percent = serializers.SerializerMethodField()
    progress_text = serializers.SerializerMethodField()
    context = serializers.JSONField(help_text='what the matches belong to: {"event": id}')
    names = NameOutput(many=True, help_text="each name of the checked files, once they are all checked")
    mapping = serializers.JSONField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    url = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField()
    mapping_url = serializers.SerializerMethodField()
    files = ImportFileOutput(many=True, source="files.all")

    def get_mapped(self, job) -> bool:
        return job.mapped_at is not None

    def get_percent(self, job) -> int:
        return import_job_percent(job)

    def get_progress_text(self, job) -> str:
        return import_job_progress_text(job)

    def get_url(self, job) -> str:
        return self.context["request"].build_absolute_uri(reverse("import-detail", args=[job.pk]))

    def get_page(self, job) -> str:
        return self.context["request"].build_absolute_uri(reverse("matches:import_progress", args=[job.pk]))

    def get_mapping_url(self, job) -> str:
        return self.context["request"].build_absolute_uri(reverse("import-mapping", args=[job.pk]))


def job_output(job, request) -> dict:
    """The job as the API answers it: the candidate players read in one query."""
    ids = {candidate["player"] for entry in job.names for candidate in entry["candidates"]}
    players = Player.objects.in_bulk(ids) if ids else {}
    return ImportJobOutput(job, context={"request": request, "players": players}).data


class ImportCreateInput(StrictInputSerializer):
    files = serializers.ListField(
        child=serializers.FileField(allow_empty_file=True), allow_empty=False,
        help_text=".mat or .txt match files, or .zip archives of them; repeat the field for each file",
        error_messages={"empty": gettext_lazy("choose at least one .mat or .zip file"),
                        "required": gettext_lazy("choose at least one .mat or .zip file")},
    )
    event = serializers.IntegerField(required=False, min_value=1,
                                     help_text="import into this event (its organiser or staff only)")


class ImportCreateApi(APIView):
    """Start checking match files: 202 with the job's id and the URL to follow its progress. A
    file refused (too large, another type, a damaged archive) is reported in the job, alone."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]
    throttle_classes = throttles.UPLOADS

    @extend_schema(operation_id="imports_create", tags=["imports"], summary="Check .mat files in the background",
                   request={"multipart/form-data": ImportCreateInput},
                   responses={202: ImportJobOutput, 400: ApiErrorSerializer, 403: ApiErrorSerializer})
    def post(self, request):
        serializer = ImportCreateInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        limit = settings.MAX_UPLOAD_BYTES
        # An upload over the limit is not read: it is refused in the job, alone.
        uploads = [(upload.name, TooLarge(upload.size) if upload.size > limit else upload.read())
                   for upload in serializer.validated_data["files"]]
        event = serializer.validated_data.get("event")
        job = import_job_create(owner=request.user, files=uploads, context={"event": event} if event else None)
        job = import_job_get(job_id=job.pk, user=request.user)
        body = job_output(job, request)
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class ImportDetailApi(APIView):
    """An import's progress, its files' results and its names; only its owner and staff may see
    it (others get 404)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="imports_retrieve", tags=["imports"], summary="An import's progress and results",
                   responses={200: ImportJobOutput, 404: ApiErrorSerializer})
    def get(self, request, job_id: int):
        job = import_job_get(job_id=job_id, user=request.user)
        return Response(job_output(job, request))


class ImportMappingInput(StrictInputSerializer):
    mapping = serializers.DictField(
        child=serializers.JSONField(), allow_empty=False,
        help_text='each name of the checked files to a player\'s id, "guest" (a new guest player of that name) '
                  'or "skip" (its matches are not imported)')


class ImportMappingApi(APIView):
    """Say who each name of a checked import is: the body maps every name to a player's id,
    "guest" (a new guest player of that name) or "skip" (its matches are not imported). 202: the
    matches are being written. A name missing or unknown, an unknown player, or a player who has
    not entered the import's event: 400 naming the name, nothing written."""

    permission_classes = [IsAuthenticated]
    parser_classes = [CheckedJSONParser]

    @extend_schema(operation_id="imports_mapping", tags=["imports"], summary="Map an import's names to players",
                   request=ImportMappingInput,
                   examples=[OpenApiExample("mapping", value={"mapping": {"lasse": 12, "mrpurple": "guest",
                                                                          "solnze": "skip"}}, request_only=True)],
                   responses={202: ImportJobOutput, 400: ApiErrorSerializer, 404: ApiErrorSerializer,
                              409: ApiErrorSerializer})
    def post(self, request, job_id: int):
        serializer = ImportMappingInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        import_job_map(job_id=job_id, user=request.user, mapping=dict(serializer.validated_data["mapping"]))
        job = import_job_get(job_id=job_id, user=request.user)
        body = job_output(job, request)
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


urlpatterns = [
    path("imports/", ImportCreateApi.as_view(), name="import-create"),
    path("imports/<int:job_id>/", ImportDetailApi.as_view(), name="import-detail"),
    path("imports/<int:job_id>/mapping/", ImportMappingApi.as_view(), name="import-mapping"),
]
