"""API: POST /api/v1/imports/ (start an import) and GET /api/v1/imports/{id}/ (its progress).

Cast: the owner uploads; carol is another user; staff may read any import; anonymous may do
nothing."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.conf import settings

from matches.models import ImportFile, ImportJob, Match
from matches.services.imports import import_job_run
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MAT_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "mat"
URL = "/api/v1/imports/"


def upload(name: str, data: bytes) -> io.BytesIO:
    handle = io.BytesIO(data)
    handle.name = name
    return handle


def mat(name: str) -> bytes:
    return (MAT_DIR / name).read_bytes()


def zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.fixture
def owner():
    return UserFactory(username="owner")


@pytest.fixture
def carol():
    return UserFactory(username="carol")


@pytest.fixture
def staff():
    return UserFactory(username="staff", staff=True)


def post(api_client, user, files: list[tuple[str, bytes]]):
    if user is not None:
        api_client.force_authenticate(user)
    return api_client.post(URL, {"files": [upload(name, data) for name, data in files]}, format="multipart")


@pytest.fixture
def job(api_client, owner):
    """A finished import of the owner's: one file imported, one failed."""
    response = post(api_client, owner, [("good.mat", mat("galaxy_3pt_match1161689.mat")),
                                        ("bad.mat", b" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: junk\n")])
    api_client.force_authenticate(None)
    return import_job_run(job_id=response.data["id"])


# --- POST ---------------------------------------------------------------------------------------------


def test_it_starts_an_import_and_answers_202_with_where_to_follow_it(api_client, owner,
                                                                     django_capture_on_commit_callbacks):
    files = [("a.mat", mat("galaxy_1pt_match1501137.mat")),
             ("more.zip", zipped({"b.mat": mat("galaxy_3pt_match1161689.mat"), "c.txt": mat("gnubg_3pt_test_match01.mat")}))]
    with django_capture_on_commit_callbacks() as callbacks:
        response = post(api_client, owner, files)
    assert response.status_code == 202, response.data
    job = ImportJob.objects.get()
    body = response.data
    assert (body["id"], body["status"], body["done"], body["total"], body["percent"]) == (job.pk, "queued", 0, 3, 0)
    assert body["url"] == f"http://testserver/api/v1/imports/{job.pk}/" == response["Location"]
    assert body["page"] == f"http://testserver/imports/{job.pk}/"
    assert [f["name"] for f in body["files"]] == ["a.mat", "more.zip/b.mat", "more.zip/c.txt"]
    assert {f["status"] for f in body["files"]} == {"pending"}
    assert job.owner == owner and len(callbacks) == 1  # the task is dispatched after commit
    assert not Match.objects.exists()  # the work is done by the task, not the request


def test_anonymous_may_not_import(api_client):
    response = post(api_client, None, [("a.mat", mat("galaxy_1pt_match1501137.mat"))])
    assert response.status_code == 401 and response.data["code"] == "not_authenticated"
    assert not ImportJob.objects.exists()


def test_no_files_is_a_400_naming_the_field(api_client, owner):
    api_client.force_authenticate(owner)
    response = api_client.post(URL, {}, format="multipart")
    assert response.status_code == 400
    assert "files" in response.data["errors"] and "choose at least one" in response.data["detail"]
    # Strict like every input: a field it does not take is named too.
    response = api_client.post(URL, {"note": "nothing"}, format="multipart")
    assert response.status_code == 400 and response.data["errors"] == {"note": ["unknown field"]}
    assert not ImportJob.objects.exists()


def test_an_oversized_file_is_a_400_naming_it_and_nothing_is_saved(api_client, owner, settings):
    settings.MAX_UPLOAD_BYTES = 5000
    response = post(api_client, owner, [("small.mat", mat("edge_gnubg_1pt_roll_then_resign.mat")),
                                        ("huge.mat", mat("galaxy_17pt_match9102134.mat"))])
    assert response.status_code == 400
    assert (response.data["code"], response.data["file"]) == ("upload_too_large", "huge.mat")
    assert "huge.mat" in response.data["detail"] and "5000" in response.data["detail"]
    assert not ImportJob.objects.exists() and not ImportFile.objects.exists()


def test_a_bad_zip_is_a_400_naming_it_and_nothing_is_saved(api_client, owner):
    response = post(api_client, owner, [("a.mat", mat("galaxy_1pt_match1501137.mat")), ("broken.zip", b"PK\x03\x04junk")])
    assert response.status_code == 400
    assert (response.data["code"], response.data["file"]) == ("bad_zip", "broken.zip")
    assert "broken.zip" in response.data["detail"]
    assert not ImportJob.objects.exists() and not ImportFile.objects.exists()


def test_a_zip_climbing_out_of_itself_is_a_400(api_client, owner):
    response = post(api_client, owner, [("trap.zip", zipped({"../../etc/cron.mat": b"x"}))])
    assert response.status_code == 400 and response.data["code"] == "zip_unsafe_path"
    assert response.data["file"] == "trap.zip" and not ImportJob.objects.exists()


def test_another_file_type_is_a_400(api_client, owner):
    response = post(api_client, owner, [("notes.docx", b"PK\x03\x04")])
    assert response.status_code == 400 and response.data["file"] == "notes.docx"


def test_a_json_body_is_refused(api_client, owner):
    api_client.force_authenticate(owner)
    response = api_client.post(URL, {"files": ["a.mat"]}, format="json")
    assert response.status_code == 415 and not ImportJob.objects.exists()


def test_the_list_url_has_no_get(api_client, owner):
    api_client.force_authenticate(owner)
    assert api_client.get(URL).status_code == 405


# --- GET ----------------------------------------------------------------------------------------------


def test_the_owner_sees_the_progress_and_each_files_result(api_client, owner, job):
    api_client.force_authenticate(owner)
    response = api_client.get(f"{URL}{job.pk}/")
    assert response.status_code == 200
    body = response.data
    assert (body["status"], body["done"], body["total"], body["percent"]) == ("done", 2, 2, 100)
    assert body["finished_at"] is not None
    good, bad = body["files"]
    match = Match.objects.get()
    assert (good["name"], good["status"], good["error"], good["match"]) == ("good.mat", "imported", None, match.pk)
    assert (bad["name"], bad["status"], bad["match"]) == ("bad.mat", "failed", None)
    assert bad["error"]["line"] == 5 and bad["error"]["game"] == 1 and "junk" in bad["error"]["message"]


def test_progress_is_reported_while_the_job_runs(api_client, owner):
    from matches.services.imports import import_file_process

    response = post(api_client, owner, [(f"{n}.mat", mat(name)) for n, name in enumerate(
        ["galaxy_1pt_match1501137.mat", "galaxy_3pt_match1161689.mat", "gnubg_3pt_test_match01.mat"])])
    first = ImportFile.objects.order_by("pk").first()
    import_file_process(file_id=first.pk)
    body = api_client.get(f"{URL}{response.data['id']}/").data
    assert (body["status"], body["done"], body["total"], body["percent"]) == ("queued", 1, 3, 33)
    assert [f["status"] for f in body["files"]] == ["imported", "pending", "pending"]


def test_another_user_gets_404(api_client, carol, job):
    api_client.force_authenticate(carol)
    response = api_client.get(f"{URL}{job.pk}/")
    assert response.status_code == 404 and response.data["code"] == "not_found"


def test_staff_may_read_any_import(api_client, staff, job):
    api_client.force_authenticate(staff)
    response = api_client.get(f"{URL}{job.pk}/")
    assert response.status_code == 200 and response.data["id"] == job.pk


def test_anonymous_gets_401(api_client, job):
    assert api_client.get(f"{URL}{job.pk}/").status_code == 401


def test_an_unknown_import_is_404(api_client, owner):
    api_client.force_authenticate(owner)
    assert api_client.get(f"{URL}999999/").status_code == 404


def test_progress_reads_a_fixed_number_of_queries(api_client, owner, django_assert_max_num_queries):
    response = post(api_client, owner, [(f"{n}.mat", b"junk") for n in range(20)])
    import_job_run(job_id=response.data["id"])
    # session/token auth aside: the job, then its files in one query, whatever their number
    with django_assert_max_num_queries(3):
        assert api_client.get(f"{URL}{response.data['id']}/").status_code == 200
