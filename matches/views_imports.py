"""Pages: .mat imports with their progress.

/imports/ is an upload form (many files at once, .zip archives allowed); after the upload,
/imports/<id>/ shows the job's progress bar and what became of each file. The progress page polls
the API every second with a few lines of JavaScript, and refreshes itself without it.
"""

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path

from core.errors import DomainError
from core.pages import error_status, form_refuse

from .services.imports import import_job_create, import_job_get, import_job_percent


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
        label="Match files", help_text=".mat files, or .zip archives of them",
        error_messages={"required": "choose at least one .mat or .zip file"},
    )

    def clean_files(self):
        limit = settings.MAX_UPLOAD_BYTES
        for upload in self.cleaned_data["files"]:
            if upload.size > limit:
                raise forms.ValidationError(f"{upload.name} is {upload.size} bytes; the limit is {limit}")
        return self.cleaned_data["files"]


@login_required
def import_upload(request):
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    if form.is_bound and form.is_valid():
        uploads = [(upload.name, upload.read()) for upload in form.cleaned_data["files"]]
        try:
            job = import_job_create(owner=request.user, files=uploads)
        except DomainError as error:
            form_refuse(form, error)
            return render(request, "matches/import.html", {"form": form}, status=error_status(error))
        return redirect("matches:import_progress", job_id=job.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "matches/import.html", {"form": form}, status=status)


@login_required
def import_progress(request, job_id: int):
    job = import_job_get(job_id=job_id, user=request.user)
    return render(request, "matches/import.html", {"job": job, "percent": import_job_percent(job)})


urlpatterns = [
    path("imports/", import_upload, name="import"),
    path("imports/<int:job_id>/", import_progress, name="import_progress"),
]
