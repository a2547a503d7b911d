"""``manage.py import_mat FILE... [--owner USERNAME]``: a synchronous import with one line per file,
a summary, and exit status 1 when a file failed."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command, execute_from_command_line
from django.core.management.base import CommandError

from accounts.models import User
from matches.models import ImportJob, Match
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MAT_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "mat"
GOOD = MAT_DIR / "galaxy_3pt_match1161689.mat"
OTHER = MAT_DIR / "gnubg_7pt_charlot1_charlot2.mat"


@pytest.fixture
def bad(tmp_path) -> Path:
    path = tmp_path / "bad.mat"
    path.write_bytes(b" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5      52: junk\n")
    return path


def run(*args) -> str:
    out = io.StringIO()
    call_command("import_mat", *[str(a) for a in args], stdout=out)
    return out.getvalue()


def test_it_imports_files_and_prints_one_line_each_and_a_summary():
    admin = UserFactory(username="admin", is_superuser=True, is_staff=True)
    output = run(GOOD, OTHER)
    first, second = Match.objects.order_by("pk")
    lines = output.strip().splitlines()
    assert lines[0] == f"imported   {GOOD.name} -> match {first.pk}"
    assert lines[1] == f"imported   {OTHER.name} -> match {second.pk}"
    job = ImportJob.objects.get()
    assert lines[2] == f"2 files: 2 imported, 0 duplicate, 0 failed (import job {job.pk})"
    assert job.status == "done" and job.owner == admin and first.created_by == admin


def test_a_second_run_reports_duplicates_and_succeeds():
    run(GOOD)
    output = run(GOOD)
    match = Match.objects.get()
    assert f"duplicate  {GOOD.name} -> match {match.pk}" in output
    assert "1 file: 0 imported, 1 duplicate, 0 failed" in output


def test_a_failed_file_prints_its_line_and_message_and_exits_with_status_1(bad):
    out = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_mat", str(GOOD), str(bad), stdout=out)
    assert caught.value.returncode == 1 and "1 of 2 files failed" in str(caught.value)
    output = out.getvalue()
    assert "imported   galaxy_3pt_match1161689.mat" in output
    assert 'failed     bad.mat: line 5, game 1: cannot read the play "junk"' in output
    assert "2 files: 1 imported, 0 duplicate, 1 failed" in output
    assert Match.objects.count() == 1  # the good file is imported all the same


def test_the_exit_status_is_1_from_the_command_line(bad, capsys):
    with pytest.raises(SystemExit) as caught:
        execute_from_command_line(["manage.py", "import_mat", str(bad)])
    assert caught.value.code == 1
    captured = capsys.readouterr()
    assert "failed     bad.mat: line 5" in captured.out and "1 of 1 files failed" in captured.err


def test_the_exit_status_is_0_when_all_files_import(capsys):
    execute_from_command_line(["manage.py", "import_mat", str(GOOD)])  # no SystemExit: status 0
    assert "1 imported" in capsys.readouterr().out


def test_it_expands_zip_archives(tmp_path, bad):
    archive = tmp_path / "club.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.write(GOOD, "night/one.mat")
        zipped.write(bad, "night/bad.mat")
    with pytest.raises(CommandError):
        run(archive)
    assert Match.objects.count() == 1
    assert set(ImportJob.objects.get().files.values_list("name", "status")) == {
        ("club.zip/night/one.mat", "imported"), ("club.zip/night/bad.mat", "failed"),
    }


def test_without_a_superuser_the_importer_user_owns_the_import():
    run(GOOD)
    importer = User.objects.get(username="importer")
    assert ImportJob.objects.get().owner == importer and not importer.has_usable_password()
    run(OTHER)
    assert User.objects.filter(username="importer").count() == 1


def test_the_owner_option_names_the_owner():
    carol = UserFactory(username="carol")
    UserFactory(username="admin", is_superuser=True)
    run(GOOD, "--owner", "carol")
    assert ImportJob.objects.get().owner == carol and Match.objects.get().created_by == carol


def test_an_unknown_owner_is_an_error_and_nothing_is_saved():
    with pytest.raises(CommandError, match="no user named 'nobody'"):
        run(GOOD, "--owner", "nobody")
    assert not ImportJob.objects.exists()


def test_a_missing_file_is_an_error_and_nothing_is_saved(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        run(GOOD, tmp_path / "missing.mat")
    assert not ImportJob.objects.exists()


def test_a_bad_archive_is_an_error_naming_it_and_nothing_is_saved(tmp_path):
    archive = tmp_path / "broken.zip"
    shutil.copy(GOOD, archive)  # a .mat file that calls itself a zip
    with pytest.raises(CommandError, match=r"broken\.zip is not a readable zip archive"):
        run(GOOD, archive)
    assert not ImportJob.objects.exists() and not Match.objects.exists()
