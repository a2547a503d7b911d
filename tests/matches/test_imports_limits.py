"""Imports within limits, one bad file failing alone: a file past the game or action limit fails at
the line that passed it without being replayed; a NUL byte quoted from a file, or in a file's name,
is stored visibly instead of making the row (and the job after it) fail; a file whose outcome the
database still refuses fails with a generic reason and the job goes on."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.db import DataError, IntegrityError

from audit.models import AuditEntry
from matches.models import ImportFile, ImportJob, Match, Report
from matches.services.imports import files as import_files
from matches.services.imports.jobs import import_job_run
from matches.services.imports.names import import_job_map
from matches.services.imports.upload import import_job_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MAT_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "mat"
FIRST = "galaxy_1pt_match1501137.mat"            # 1 game
MIDDLE = "gnubg_3pt_test_match01.mat"            # 3 games
THIRD = "studio_3pt_solnze_lasse.mat"            # 2 games
PLAY = b"53: 8/3 6/3"  # the first play of galaxy_1pt_match1501137.mat, on its line 16


def mat(name: str) -> bytes:
    return (MAT_DIR / name).read_bytes()


def with_nul_in_a_play() -> bytes:
    data = mat(FIRST)
    assert data.count(PLAY) == 1
    return data.replace(PLAY, b"53: 8/3\x00 6/3")


def zipped(members: dict[str, bytes], *, renames: dict[bytes, bytes] | None = None) -> bytes:
    """A zip of ``members``; ``renames`` then patches names in its bytes (zipfile will not write a
    NUL in a name: a crafted archive can hold one)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    data = buffer.getvalue()
    for old, new in (renames or {}).items():
        assert len(old) == len(new) and data.count(old) == 2  # the local header and the central directory
        data = data.replace(old, new)
    return data


@pytest.fixture
def owner():
    return UserFactory(username="owner")


def run(owner, files: list[tuple[str, bytes]], mapping: dict | None = None) -> ImportJob:
    """Check the files, map every name (to a new guest player unless ``mapping`` says otherwise),
    and write the matches: both steps of an import, as the task runs them."""
    job = import_job_run(job_id=import_job_create(owner=owner, files=files, dispatch=False).pk)
    if job.status == ImportJob.Status.MAPPING:
        chosen = {entry["name"]: "guest" for entry in job.names} | (mapping or {})
        import_job_map(job_id=job.pk, user=owner, mapping=chosen, dispatch=False)
        job = import_job_run(job_id=job.pk)
    return job


@pytest.fixture
def replayed(monkeypatch):
    """The number of games each check_mat call replayed: a file past a limit is never replayed."""
    counts = []
    real = import_files.check_mat

    def counting(read, **kwargs):
        counts.append(len(read.games))
        return real(read, **kwargs)

    monkeypatch.setattr(import_files, "check_mat", counting)
    return counts


# --- the limits ------------------------------------------------------------------------------------


def test_a_file_past_the_game_limit_fails_at_its_game_line_unreplayed_and_the_others_import(owner, settings,
                                                                                              replayed):
    settings.MAX_LOG_GAMES = 2
    job = run(owner, [("one.mat", mat(FIRST)), ("three.mat", mat(MIDDLE)), ("two.mat", mat(THIRD))])
    files = {f.name: f for f in job.files.all()}
    assert files["one.mat"].status == files["two.mat"].status == ImportFile.Status.IMPORTED
    failed = files["three.mat"]
    line = mat(MIDDLE).decode().splitlines().index(" Game 3") + 1
    assert failed.status == ImportFile.Status.FAILED and failed.match_id is None
    assert failed.error == {"line": line, "game": 3,
                            "message": f"game 3 at line {line} is past the limit of 2 games"}
    assert replayed == [1, 2]  # one.mat and two.mat; three.mat stopped while it was read
    assert (job.status, job.done) == (ImportJob.Status.DONE, 3)


def test_a_file_past_the_action_limit_fails_at_the_line_that_passed_it(owner, settings, replayed):
    settings.MAX_LOG_ACTIONS = 20
    job = run(owner, [("long.mat", mat(FIRST))])
    failed = job.files.get()
    # Each turn line of the file's only game holds two rolls and two plays (fewer when a roll is
    # not played): line 16 is the first turn, the 20 actions are passed on line 21.
    assert failed.status == ImportFile.Status.FAILED
    assert failed.error == {"line": 21, "game": 1, "message": "game 1 passes the limit of 20 actions at line 21"}
    assert replayed == [] and not Match.objects.exists()


# --- NUL bytes -------------------------------------------------------------------------------------


def test_a_nul_byte_in_a_quoted_line_fails_its_file_alone_with_a_readable_error(owner):
    job = run(owner, [("first.mat", mat(MIDDLE)), ("middle.mat", with_nul_in_a_play()), ("third.mat", mat(THIRD))])
    first, middle, third = job.files.order_by("pk")
    assert first.status == third.status == ImportFile.Status.IMPORTED
    assert middle.status == ImportFile.Status.FAILED and middle.match_id is None
    assert (middle.error["line"], middle.error["game"]) == (16, 1)
    assert "8/3\\x00 6/3" in middle.error["message"] and "\x00" not in middle.error["message"]
    assert (job.status, job.done, job.total) == (ImportJob.Status.DONE, 3, 3)
    assert Match.objects.count() == 2


def test_a_nul_byte_in_a_file_name_is_stored_visibly_inside_a_zip_and_out(owner):
    archive = zipped({"club/first.mat": mat(MIDDLE), "club/midXdle.mat": mat(FIRST), "club/third.mat": mat(THIRD)},
                     renames={b"club/midXdle.mat": b"club/mid\x00dle.mat"})
    job = run(owner, [("club.zip", archive), ("odd\x00name.mat", with_nul_in_a_play())])
    names = list(job.files.order_by("pk").values_list("name", "status"))
    assert names == [("club.zip/club/first.mat", "imported"), ("club.zip/club/mid\\x00dle.mat", "imported"),
                     ("club.zip/club/third.mat", "imported"), ("odd\\x00name.mat", "failed")]
    imported = Match.objects.get(pk=job.files.get(name="club.zip/club/mid\\x00dle.mat").match_id)
    report = Report.objects.get(match=imported)
    assert (report.origin, report.origin_name, report.statement) == ("imported", "club.zip/club/mid\\x00dle.mat", "")
    assert AuditEntry.objects.get(match_id=imported.pk, action="match.imported").note == \
        "imported from club.zip/club/mid\\x00dle.mat"


# --- an outcome the database refuses ----------------------------------------------------------------


def test_an_error_the_database_refuses_fails_the_file_with_a_generic_reason_and_the_job_goes_on(owner, monkeypatch):
    job = import_job_create(owner=owner, files=[("first.mat", mat(MIDDLE)), ("middle.mat", with_nul_in_a_play()),
                                                ("third.mat", mat(THIRD))], dispatch=False)
    # A message that still holds a NUL when it reaches PostgreSQL.
    monkeypatch.setattr(import_files, "_failure", lambda error: {"line": None, "game": None, "message": "\x00"})
    job = import_job_run(job_id=job.pk)
    import_job_map(job_id=job.pk, user=owner, mapping={entry["name"]: "guest" for entry in job.names}, dispatch=False)
    job = import_job_run(job_id=job.pk)
    first, middle, third = job.files.order_by("pk")
    assert first.status == third.status == ImportFile.Status.IMPORTED
    assert middle.status == ImportFile.Status.FAILED and bytes(middle.content) == b""
    assert middle.error == {"line": None, "game": None, "message": "this file's result could not be saved"}
    assert (job.status, job.done) == (ImportJob.Status.DONE, 3)


@pytest.mark.parametrize("refusal", [DataError, IntegrityError])
def test_an_imported_file_whose_outcome_cannot_be_saved_keeps_no_match(owner, monkeypatch, refusal):
    real = import_files._store

    def refusing(file_id, outcome):
        if outcome.status == ImportFile.Status.IMPORTED and ImportFile.objects.get(pk=file_id).name == "middle.mat":
            raise refusal("refused")
        real(file_id, outcome)

    monkeypatch.setattr(import_files, "_store", refusing)
    job = run(owner, [("first.mat", mat(MIDDLE)), ("middle.mat", mat(FIRST)), ("third.mat", mat(THIRD))])
    first, middle, third = job.files.order_by("pk")
    assert (first.status, middle.status, third.status) == ("imported", "failed", "imported")
    assert middle.match_id is None and middle.error["message"] == "this file's result could not be saved"
    assert Match.objects.count() == 2  # middle.mat's match went with its outcome
    assert not Report.objects.filter(origin_name="middle.mat").exists()
