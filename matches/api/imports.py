"""API: .mat imports. POST /imports/ starts a background import of one or many files (or .zip
archives); GET /imports/{id}/ reports its progress and what became of each file."""

from django.conf import settings
from django.urls import path, reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core import throttles
from core.api import ApiErrorSerializer, StrictInputSerializer

from .. import errors
from ..services.imports import import_job_create, import_job_get, import_job_percent


class ImportFileOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    error = serializers.JSONField(allow_null=True, help_text="{line, game, message} when the file failed")
    match = serializers.IntegerField(source="match_id", allow_null=True)


class ImportJobOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    done = serializers.IntegerField()
    total = serializers.IntegerField()
    percent = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    url = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField()
    files = ImportFileOutput(many=True, source="files.all")

    def get_percent(self, job) -> int:
        return import_job_percent(job)

    def get_url(self, job) -> str:
        return self.context["request"].build_absolute_uri(reverse("import-detail", args=[job.pk]))

    def get_page(self, job) -> str:
        return self.context["request"].build_absolute_uri(reverse("matches:import_progress", args=[job.pk]))


class ImportCreateInput(StrictInputSerializer):
    files = serializers.ListField(
        child=serializers.FileField(allow_empty_file=True), allow_empty=False,
        help_text=".mat or .txt match files, or .zip archives of them; repeat the field for each file",
        error_messages={"empty": "choose at least one .mat or .zip file",
                        "required": "choose at least one .mat or .zip file"},
    )


class ImportCreateApi(APIView):
    """Start importing match files: 202 with the job's id and the URL to follow its progress."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]
    throttle_classes = throttles.UPLOADS

    @extend_schema(operation_id="imports_create", tags=["imports"], summary="Import .mat files in the background",
                   request={"multipart/form-data": ImportCreateInput}, responses={202: ImportJobOutput})
    def post(self, request):
        serializer = ImportCreateInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        limit = settings.MAX_UPLOAD_BYTES
        uploads = []
        for upload in serializer.validated_data["files"]:
            # Refuse before reading: the upload already sits in a temporary file.
            if upload.size > limit:
                raise errors.upload_too_large(upload.name, upload.size, limit)
            uploads.append((upload.name, upload.read()))
        job = import_job_create(owner=request.user, files=uploads)
        job = import_job_get(job_id=job.pk, user=request.user)
        body = ImportJobOutput(job, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class ImportDetailApi(APIView):
    """An import's progress; only its owner and staff may see it (others get 404)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="imports_retrieve", tags=["imports"], summary="An import's progress and results",
                   responses={200: ImportJobOutput, 404: ApiErrorSerializer})
    def get(self, request, job_id: int):
        job = import_job_get(job_id=job_id, user=request.user)
        return Response(ImportJobOutput(job, context={"request": request}).data)


urlpatterns = [
    path("imports/", ImportCreateApi.as_view(), name="import-create"),
    path("imports/<int:job_id>/", ImportDetailApi.as_view(), name="import-detail"),
]
