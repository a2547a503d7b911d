"""Pages: .mat imports in two steps, with their progress.

/imports/ is an upload form (many files at once, .zip archives allowed; ``?event=<id>`` for an
organiser's import into his event); after the upload, /imports/<id>/ shows the job's progress bar
and what became of each file. Once the files are checked, /imports/<id>/players/ asks who each
name is (a player, a new guest player, or skip its matches); the matches are then written and
the progress page shows each file's result. The progress page polls the API every second with a
few lines of JavaScript, and refreshes itself without it.
"""

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext_lazy as _

from core.errors import DomainError
from core.pages import error_status, error_text, form_refuse

from ..models import ImportJob
from ..services.imports.jobs import import_file_result, import_job_get, import_job_names, import_job_percent
from ..services.imports.names import REASONS, import_job_map, import_job_suggested_mapping
from ..services.imports.upload import TooLarge, import_job_create


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """A file field that takes several files (Django's documented recipe)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".mat,.txt,.zip"}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class ImportForm(forms.Form):
    files = MultipleFileField(
        label=_("Match files"), help_text=_(".mat files, or .zip archives of them"),
        error_messages={"required": _("choose at least one .mat or .zip file")},
    )
    event = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


def _uploads(files) -> list:
    """``(name, bytes)`` of each upload; one over the limit is not read: it fails alone."""
    limit = settings.MAX_UPLOAD_BYTES
    return [(upload.name, TooLarge(upload.size) if upload.size > limit else upload.read()) for upload in files]


@login_required
def import_upload(request):
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
    else:
        event = request.GET.get("event", "")
        form = ImportForm(initial={"event": int(event)} if event.isdigit() else {})
    if form.is_bound and form.is_valid():
        event = form.cleaned_data.get("event")
        try:
            job = import_job_create(owner=request.user, files=_uploads(form.cleaned_data["files"]),
                                    context={"event": event} if event else None)
        except DomainError as error:
            form_refuse(form, error)
            return render(request, "matches/import.html", {"form": form}, status=error_status(error))
        return redirect("matches:import_progress", job_id=job.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "matches/import.html", {"form": form}, status=status)


@login_required
def import_progress(request, job_id: int):
    job = import_job_get(job_id=job_id, user=request.user)
    files = [(file, import_file_result(file)) for file in job.files.all()]
    return render(request, "matches/import.html", {"job": job, "files": files, "percent": import_job_percent(job)})


def _rows(job: ImportJob, players: dict, chosen: dict) -> list[dict]:
    """Each name with its choices, the likely players first (what the page lists)."""
    rows = []
    for index, entry in enumerate(job.names):
        name = entry["name"]
        current = str(chosen.get(name, ""))
        options = []
        for candidate in entry["candidates"]:
            player = players.get(candidate["player"])
            if player is not None:
                options.append({"value": str(player.pk), "player": player,
                                "reason": REASONS.get(candidate["reason"], "")})
        rows.append({"field": f"choice-{index}", "name": name, "matches": entry["matches"], "options": options,
                     "current": current})
    return rows


@login_required
def import_players(request, job_id: int):
    """Who is each name of the import: GET lists the names with their likely players; POST maps
    them and sends the import on (to its progress page), or shows the refusal naming the name."""
    job, players = import_job_names(job_id=job_id, user=request.user)
    if job.status != ImportJob.Status.MAPPING:
        return redirect("matches:import_progress", job_id=job.pk)
    chosen = import_job_suggested_mapping(job)
    problem, status = None, 200
    if request.method == "POST":
        chosen = {entry["name"]: request.POST.get(f"choice-{index}", "")
                  for index, entry in enumerate(job.names)}
        try:
            import_job_map(job_id=job.pk, user=request.user, mapping=chosen)
        except DomainError as error:
            problem, status = error_text(error), error_status(error)
        else:
            return redirect("matches:import_progress", job_id=job.pk)
    return render(request, "matches/import_players.html",
                  {"job": job, "rows": _rows(job, players, chosen), "problem": problem}, status=status)


urlpatterns = [
    path("imports/", import_upload, name="import"),
    path("imports/<int:job_id>/", import_progress, name="import_progress"),
    path("imports/<int:job_id>/players/", import_players, name="import_players"),
]
