"""API: POST /api/v1/imports/ (start an import: the files are checked), GET /api/v1/imports/{id}/
(its progress, its files' results, its names with their likely players) and POST
/api/v1/imports/{id}/mapping/ (who each name is; the matches are then written).

Cast: the owner uploads; carol is another user; staff may read any import; anonymous may do
nothing."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.template.defaultfilters import filesizeformat

from matches.models import ImportFile, ImportJob, Match, Player
from matches.services.imports.jobs import import_job_run
from tests.factories import PlayerFactory, SideFactory, TournamentFactory, UserFactory
from tournaments.models import Entry

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
    import_job_run(job_id=response.data["id"])
    mapped = api_client.post(f"{URL}{response.data['id']}/mapping/", {"mapping": {"lasse": "guest", "winnerdave": "guest"}},
                             format="json")
    assert mapped.status_code == 202, mapped.data
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


def refused_alone(response, name: str, code: str) -> dict:
    """The upload was accepted (202); the file ``name`` is refused in it, alone, naming it."""
    assert response.status_code == 202, response.data
    files = {f["name"]: f for f in response.data["files"]}
    refused = files[name]
    assert (refused["status"], refused["error"]["code"], refused["matches"]) == ("failed", code, 0)
    assert name in refused["error"]["message"] and refused["result"].startswith(f"Refused: {name}: ")
    assert all(f["status"] == "pending" for other, f in files.items() if other != name)
    return refused


def test_an_oversized_file_is_refused_alone_naming_it_and_unread(api_client, owner, settings):
    settings.MAX_UPLOAD_BYTES = 5000
    response = post(api_client, owner, [("small.mat", mat("edge_gnubg_1pt_roll_then_resign.mat")),
                                        ("huge.mat", mat("galaxy_17pt_match9102134.mat"))])
    refused = refused_alone(response, "huge.mat", "upload_too_large")
    size = len(mat("galaxy_17pt_match9102134.mat"))
    assert refused["error"]["message"] == f"huge.mat is {filesizeformat(size)}; the limit is {filesizeformat(5000)}"
    assert bytes(ImportFile.objects.get(name="huge.mat").content) == b""


def test_a_bad_zip_is_refused_alone_naming_it(api_client, owner):
    response = post(api_client, owner, [("a.mat", mat("galaxy_1pt_match1501137.mat")), ("broken.zip", b"PK\x03\x04junk")])
    refused_alone(response, "broken.zip", "bad_zip")


def test_a_zip_climbing_out_of_itself_is_refused_alone(api_client, owner):
    response = post(api_client, owner, [("trap.zip", zipped({"../../etc/cron.mat": b"x"}))])
    refused_alone(response, "trap.zip", "zip_unsafe_path")
    assert ImportJob.objects.get().total == 1


def test_another_file_type_is_refused_alone(api_client, owner):
    refused_alone(post(api_client, owner, [("notes.docx", b"PK\x03\x04")]), "notes.docx", "bad_file_type")


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
    assert (good["matches"], good["result"]) == (1, "Accepted: one match of 4 games.")
    assert (bad["name"], bad["status"], bad["match"], bad["matches"]) == ("bad.mat", "failed", None, 0)
    assert bad["error"]["line"] == 5 and bad["error"]["game"] == 1 and "junk" in bad["error"]["message"]
    assert bad["result"].startswith("Refused: bad.mat, game 1, line 5: ")


def test_progress_is_reported_while_the_job_runs(api_client, owner):
    from matches.services.imports.files import import_file_check, import_file_process

    response = post(api_client, owner, [(f"{n}.mat", mat(name)) for n, name in enumerate(
        ["galaxy_1pt_match1501137.mat", "galaxy_3pt_match1161689.mat", "gnubg_3pt_test_match01.mat"])])
    first = ImportFile.objects.order_by("pk").first()
    import_file_check(file_id=first.pk)
    body = api_client.get(f"{URL}{response.data['id']}/").data
    assert (body["status"], body["checked"], body["done"], body["total"], body["percent"]) == ("queued", 1, 0, 3, 33)
    assert body["progress_text"] == "1 of 3 files checked" and body["mapped"] is False
    assert [f["status"] for f in body["files"]] == ["checked", "pending", "pending"]
    import_job_run(job_id=response.data["id"])
    names = [entry["name"] for entry in api_client.get(f"{URL}{response.data['id']}/").data["names"]]
    api_client.post(f"{URL}{response.data['id']}/mapping/", {"mapping": dict.fromkeys(names, "guest")}, format="json")
    import_file_process(file_id=first.pk)
    body = api_client.get(f"{URL}{response.data['id']}/").data
    assert (body["status"], body["done"], body["percent"], body["progress_text"]) == ("queued", 1, 33,
                                                                                       "1 of 3 files imported")
    assert [f["status"] for f in body["files"]] == ["imported", "checked", "checked"]


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


def test_the_names_and_their_candidates_read_a_fixed_number_of_queries(api_client, owner, django_assert_num_queries):
    PlayerFactory(display_name="lasse")
    small = post(api_client, owner, [("a.mat", mat("galaxy_3pt_match1161689.mat"))]).data["id"]
    large = post(api_client, owner, [(name, mat(name)) for name in (
        "galaxy_1pt_match1501137.mat", "galaxy_3pt_match1161689.mat", "gnubg_3pt_test_match01.mat",
        "studio_5pt_magic_lasse.mat", "galaxy_5pt_match9012369.mat")]).data["id"]
    for job_id in (small, large):
        import_job_run(job_id=job_id)
    for job_id, names in ((small, 2), (large, 8)):
        # The job, its files, the candidate players: whatever the number of names.
        with django_assert_num_queries(3):
            assert len(api_client.get(f"{URL}{job_id}/").data["names"]) == names


# --- the mapping ------------------------------------------------------------------------------------------


def test_the_job_shows_the_names_with_their_likely_players_and_the_mapping_writes_the_matches(api_client, owner):
    lasse = PlayerFactory(display_name="lasse")
    response = post(api_client, owner, [("a.mat", mat("galaxy_3pt_match1161689.mat")),
                                        ("b.mat", mat("galaxy_1pt_match1501137.mat"))])
    job_id = response.data["id"]
    import_job_run(job_id=job_id)
    body = api_client.get(f"{URL}{job_id}/").data
    assert (body["status"], body["status_text"]) == ("mapping", "Waiting for you to choose the players")
    assert body["mapping_url"] == f"http://testserver/api/v1/imports/{job_id}/mapping/"
    assert [(entry["name"], entry["matches"]) for entry in body["names"]] == [("lasse", 2), ("winnerdave", 1),
                                                                              ("iljar", 1)]
    assert body["names"][0]["candidates"][0] == {"player": lasse.pk, "name": "lasse", "reason": "exact",
                                                 "reason_text": "the same name"}
    assert [f["players"] for f in body["files"]] == [["lasse", "winnerdave"], ["iljar", "lasse"]]
    assert Player.objects.count() == 1 and not Match.objects.exists()

    response = api_client.post(f"{URL}{job_id}/mapping/", {"mapping": {"lasse": lasse.pk, "winnerdave": "guest",
                                                           "iljar": "skip"}}, format="json")
    assert response.status_code == 202, response.data
    assert (response.data["status"], response.data["mapped"], response.data["mapping"]) == (
        "queued", True, {"lasse": lasse.pk, "winnerdave": "guest", "iljar": "skip"})
    import_job_run(job_id=job_id)
    body = api_client.get(f"{URL}{job_id}/").data
    assert body["status"] == "done" and [f["status"] for f in body["files"]] == ["imported", "skipped"]
    match = Match.objects.with_sides().get()
    assert match.side0.player_a == lasse and match.side1.player_a.display_name == "winnerdave"
    assert Player.objects.count() == 2


@pytest.fixture
def event_job(api_client):
    event = TournamentFactory(name="Spring Open")
    for name in ("lasse", "winnerdave"):
        Entry.objects.create(tournament=event, side=SideFactory(player_a=PlayerFactory(display_name=name)))
    response = post(api_client, event.organiser, [("a.mat", mat("galaxy_3pt_match1161689.mat"))])
    assert response.status_code == 202
    ImportJob.objects.filter(pk=response.data["id"]).update(context={"event": event.pk})
    import_job_run(job_id=response.data["id"])
    return event, response.data["id"]


def test_an_import_for_an_event_is_started_by_its_organiser_only(api_client):
    event = TournamentFactory()
    api_client.force_authenticate(UserFactory())
    files = [upload("a.mat", mat("galaxy_3pt_match1161689.mat"))]
    response = api_client.post(URL, {"files": files, "event": event.pk}, format="multipart")
    assert response.status_code == 403 and not ImportJob.objects.exists()
    api_client.force_authenticate(event.organiser)
    files = [upload("a.mat", mat("galaxy_3pt_match1161689.mat"))]
    response = api_client.post(URL, {"files": files, "event": event.pk}, format="multipart")
    assert response.status_code == 202 and response.data["context"] == {"event": event.pk}


def test_mapping_to_a_player_of_another_event_is_a_400_naming_the_name_and_nothing_is_written(api_client, event_job):
    _event, job_id = event_job
    outsider = PlayerFactory(display_name="lasse")
    Entry.objects.create(tournament=TournamentFactory(name="Other"), side=SideFactory(player_a=outsider))
    players = Player.objects.count()
    response = api_client.post(f"{URL}{job_id}/mapping/", {"mapping": {"lasse": outsider.pk, "winnerdave": "guest"}},
                               format="json")
    assert response.status_code == 400
    assert (response.data["code"], response.data["field"]) == ("bad_mapping", "lasse")
    assert list(response.data["errors"]) == ["lasse"]
    assert "lasse: the player chosen has not entered this event" in response.data["detail"]
    assert Player.objects.count() == players and not Match.objects.exists()
    assert ImportJob.objects.get(pk=job_id).mapping is None


@pytest.mark.parametrize("body, name", [
    ({"lasse": 99999999, "winnerdave": "guest"}, "lasse"),
    ({"lasse": "guest"}, "winnerdave"),
    ({"lasse": "guest", "winnerdave": "guest", "zed": "guest"}, "zed"),
])
def test_an_unknown_player_or_name_is_a_400_naming_the_name(api_client, owner, body, name):
    job_id = post(api_client, owner, [("a.mat", mat("galaxy_3pt_match1161689.mat"))]).data["id"]
    import_job_run(job_id=job_id)
    response = api_client.post(f"{URL}{job_id}/mapping/", {"mapping": body}, format="json")
    assert response.status_code == 400 and response.data["field"] == name and name in response.data["detail"]
    assert not Player.objects.exists() and ImportJob.objects.get(pk=job_id).status == "mapping"


def test_the_mapping_is_the_owners_once(api_client, owner, carol):
    job_id = post(api_client, owner, [("a.mat", mat("galaxy_3pt_match1161689.mat"))]).data["id"]
    early = api_client.post(f"{URL}{job_id}/mapping/", {"mapping": {"lasse": "guest", "winnerdave": "guest"}}, format="json")
    assert early.status_code == 409 and early.data["code"] == "not_mapping"  # not checked yet
    import_job_run(job_id=job_id)
    api_client.force_authenticate(carol)
    assert api_client.post(f"{URL}{job_id}/mapping/", {"mapping": {"lasse": "guest"}}, format="json").status_code == 404
    api_client.force_authenticate(owner)
    body = {"lasse": "guest", "winnerdave": "guest"}
    assert api_client.post(f"{URL}{job_id}/mapping/", {"mapping": body}, format="json").status_code == 202
    assert api_client.post(f"{URL}{job_id}/mapping/", {"mapping": body}, format="json").status_code == 409
    api_client.force_authenticate(None)
    assert api_client.post(f"{URL}{job_id}/mapping/", {"mapping": body}, format="json").status_code == 401
