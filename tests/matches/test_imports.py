""".mat imports: jobs of files and zip archives, one match per match file, duplicates, failures that
name the line, idempotent processing and tasks, the upload and progress pages, and a real worker."""

from __future__ import annotations

import io
import random
import re
import threading
import time
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.db import OperationalError, connection

from core.errors import DomainError
from core.models import OutboxTask
from core.tasks import MAX_RETRIES
from engine.formats.mat_check import match_from_actions
from engine.formats.mat_write import write_mat
from engine.match import MatchRules
from engine.randomgame import random_match_games
from engine.scores import capped_score
from matches.models import Game, ImportFile, ImportJob, Match, Player, Report
from matches.services.imports import files as import_files
from matches.services.imports import upload as import_upload
from matches.services.imports.files import import_file_check, import_file_process
from matches.services.imports.jobs import import_file_result, import_job_percent, import_job_run
from matches.services.imports.names import import_job_map
from matches.services.imports.upload import import_job_create
from matches.services.logs import log_from_json
from matches.tasks import import_job_run_task
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

MAT_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "mat"

# Every real file: (length, games, final score) as the engine computes it. These agree with GNU
# Backgammon's reading in ../shared/data/mat/SOURCES.md except for the Galaxy file with "Losses 2
# point" and "Wins 2 point and the match" on one line, which gnubg cannot parse (it leaves the
# last game unfinished at 0-1); the engine reads the whole line: 0-3.
REAL_FILES = {
    "edge_galaxy_3pt_capped_wins_match1004844.mat": (3, 2, (5, 0)),
    "edge_galaxy_3pt_gnubg_invalid_move_match2516058.mat": (3, 3, (3, 1)),
    "edge_galaxy_3pt_losses_and_wins_one_line_match2900236.mat": (3, 2, (0, 3)),
    "edge_galaxy_5pt_capped_wins_losses_match10147827.mat": (5, 3, (7, 0)),
    "edge_gnubg_1pt_roll_then_resign.mat": (1, 1, (1, 0)),
    "edge_studio_3pt_wins_4016_mrpurple_lasse.mat": (3, 2, (0, 13)),
    "galaxy_17pt_match8170603.mat": (17, 18, (12, 18)),
    "galaxy_17pt_match9102134.mat": (17, 14, (18, 6)),
    "galaxy_1pt_match1501137.mat": (1, 1, (1, 0)),
    "galaxy_3pt_match1161689.mat": (3, 4, (2, 3)),
    "galaxy_3pt_match2561306.mat": (3, 3, (5, 2)),
    "galaxy_3pt_match3485516.mat": (3, 4, (2, 5)),
    "galaxy_5pt_match10827373.mat": (5, 4, (4, 6)),
    "galaxy_5pt_match1484923.mat": (5, 4, (2, 5)),
    "galaxy_5pt_match9012369.mat": (5, 4, (5, 4)),
    "galaxy_7pt_match11696104.mat": (7, 6, (6, 8)),
    "galaxy_7pt_match11995639.mat": (7, 6, (7, 6)),
    "galaxy_7pt_match12778454.mat": (7, 6, (6, 7)),
    "gnubg_3pt_test_match01.mat": (3, 3, (1, 4)),
    "gnubg_7pt_charlot1_charlot2.mat": (7, 4, (9, 2)),
    "studio_11pt_llabba_petruhl.mat": (11, 8, (8, 12)),
    "studio_13pt_heretik_llabba.mat": (13, 8, (4, 16)),
    "studio_13pt_llabba_diablodeldados.mat": (13, 10, (13, 8)),
    "studio_3pt_solnze_lasse.mat": (3, 2, (3, 0)),
    "studio_5pt_magic_lasse.mat": (5, 8, (4, 5)),
    "studio_7pt_llabba_gorkipelin.mat": (7, 6, (12, 4)),
    "studio_7pt_maciel_llabba.mat": (7, 7, (4, 10)),
    "studio_9pt_llabba_bigeagle32.mat": (9, 3, (9, 1)),
    "xg_7pt_hsbt_paris_2023.mat": (7, 7, (7, 4)),
}


def mat(name: str) -> bytes:
    return (MAT_DIR / name).read_bytes()


def zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def with_bad_play_in_game_2(data: bytes) -> tuple[bytes, int]:
    """The file with game 2's first turn line replaced by an illegal play; and that line's number."""
    lines = data.decode("utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == "Game 2")
    index = next(i for i in range(start, len(lines)) if re.match(r"\s*1\)", lines[i]))
    lines[index] = "  1) 31: 24/1"
    return "\n".join(lines).encode("utf-8"), index + 1


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


def checked(owner, files: list[tuple[str, bytes]]) -> ImportJob:
    """The first step: the files checked, the job waiting for its mapping."""
    return import_job_run(job_id=import_job_create(owner=owner, files=files, dispatch=False).pk)


def map_guests(job: ImportJob, **mapping) -> ImportJob:
    """Map every name of the job to a new guest player, unless ``mapping`` says otherwise."""
    job.refresh_from_db()
    return import_job_map(job_id=job.pk, user=job.owner, mapping={entry["name"]: "guest" for entry in job.names}
                          | mapping, dispatch=False)


# --- one match per real file -------------------------------------------------------------------


def test_the_table_covers_every_real_file():
    assert sorted(p.name for p in MAT_DIR.glob("*.mat")) == sorted(REAL_FILES)


def test_it_imports_every_real_file_as_one_match_with_its_final_score_and_games(owner):
    job = run(owner, [(name, mat(name)) for name in sorted(REAL_FILES)])
    assert (job.status, job.done, job.total) == (ImportJob.Status.DONE, len(REAL_FILES), len(REAL_FILES))
    assert job.finished_at is not None
    files = {f.name: f for f in job.files.all()}
    for name, (length, games, score) in REAL_FILES.items():
        file = files[name]
        assert file.status == ImportFile.Status.IMPORTED, (name, file.error)
        match = Match.objects.with_sides().get(pk=file.match_id)
        # Shown capped at the length; the file's full score kept.
        assert (match.length, (match.score0, match.score1)) == (length, capped_score(length, score)), name
        assert match.full_score == score, name
        assert match.games.count() == games, name
        assert list(match.games.values_list("number", flat=True)) == list(range(1, games + 1))
        assert match.status == Match.Status.CONFIRMED and match.rated is False and match.crawford is True
        assert match.winner == (0 if score[0] >= length else 1)
        assert match.source_hash and len(match.source_hash) == 64
        # The owner played in none of these matches: he is not made their director.
        assert match.organiser is None and match.created_by == owner
        report = match.reports.get()
        assert (report.status, report.side, report.reporter, report.score, report.full_score) == (
            Report.Status.CONFIRMED, None, owner, capped_score(length, score), score)
        # The stored logs are the engine's JSON actions: they replay to the same score.
        assert log_from_json(report.games, match.rules()).final_score == score, name
        assert [g.log for g in match.games.all()] == report.games
        assert bytes(file.content) == b""  # the bytes are dropped once processed
    assert Match.objects.count() == len(REAL_FILES)


def test_game_rows_carry_score_crawford_flag_and_ending(owner):
    job = run(owner, [("m.mat", mat("galaxy_3pt_match2561306.mat"))])
    match = Match.objects.get(pk=job.files.get().match_id)
    rows = list(match.games.values_list("number", "score0", "score1", "crawford", "winner", "points"))
    # 3-point match: game 2 starts at 0-2 (Crawford), game 3 at 2-2 is post-Crawford; 5-2 at the end.
    assert [row[:4] for row in rows] == [(1, 0, 0, False), (2, 0, 2, True), (3, 2, 2, False)]
    assert sum(points for *_, winner, points in rows if winner == 0) == 5
    assert {e for e in match.games.values_list("ending", flat=True)} <= {e for e, _ in Game.ENDINGS}


def test_it_plays_the_mapped_players_and_creates_one_guest_per_name(owner):
    known = PlayerFactory(display_name="lasse")
    job = run(owner, [("a.mat", mat("galaxy_3pt_match1161689.mat")), ("b.mat", mat("studio_3pt_solnze_lasse.mat"))],
              mapping={"lasse": known.pk})
    first = Match.objects.with_sides().get(source_hash__isnull=False, side0__player_a=known)
    assert first.side1.player_a.display_name == "winnerdave" and first.side1.player_a.user is None
    # "Lasse" (Studio) was mapped to a guest: a new player, with no user.
    second = Match.objects.with_sides().exclude(pk=first.pk).get()
    assert (second.side0.player_a.display_name, second.side1.player_a.display_name) == ("solnze", "Lasse")
    assert second.side1.player_a != known
    assert Player.objects.filter(display_name="lasse").count() == 1
    assert job.guests == {name: Player.objects.get(display_name=name).pk for name in ("winnerdave", "solnze", "Lasse")}


def test_it_keeps_the_files_crawford_rule(owner):
    text = mat("galaxy_3pt_match2561306.mat").replace(b'[Crawford "On"]', b'[Crawford "Off"]')
    job = run(owner, [("on.mat", mat("galaxy_3pt_match2561306.mat")), ("off.mat", text)])
    on, off = (Match.objects.get(pk=f.match_id) for f in job.files.order_by("pk"))
    assert (on.crawford, off.crawford) == (True, False)
    assert not off.games.filter(crawford=True).exists()
    assert on.source_hash != off.source_hash  # other rules, another match


def test_it_takes_the_event_date_tag_as_the_day_played(owner):
    job = run(owner, [("x.mat", mat("xg_7pt_hsbt_paris_2023.mat"))])
    match = Match.objects.get(pk=job.files.get().match_id)
    assert match.played_on is not None and match.played_on.year == 2023


# --- duplicates ----------------------------------------------------------------------------------


def test_the_same_file_twice_is_one_match(owner):
    data = mat("galaxy_5pt_match9012369.mat")
    first = run(owner, [("a.mat", data), ("again.mat", data)])
    imported, again = first.files.order_by("pk")
    assert (imported.status, again.status) == (ImportFile.Status.IMPORTED, ImportFile.Status.DUPLICATE)
    assert again.match_id == imported.match_id and again.error is None
    later = run(UserFactory(), [("later.mat", data)])
    assert later.files.get().status == ImportFile.Status.DUPLICATE
    assert later.files.get().match_id == imported.match_id
    assert Match.objects.count() == 1 and Report.objects.count() == 1 and Player.objects.count() == 2


def test_line_ends_byte_order_mark_and_tags_do_not_make_another_match(owner):
    lf = mat("galaxy_5pt_match9012369.mat")
    assert b"\r\n" not in lf
    crlf = lf.replace(b"\n", b"\r\n")
    bom_no_tags = b"\xef\xbb\xbf" + b"\n".join(line for line in lf.split(b"\n") if not line.startswith(b";"))
    xg = mat("xg_7pt_hsbt_paris_2023.mat")
    assert xg.startswith(b"\xef\xbb\xbf") and b"\r\n" in xg
    xg_plain = xg[3:].replace(b"\r\n", b"\n")
    job = run(owner, [("lf.mat", lf), ("crlf.mat", crlf), ("bom.txt", bom_no_tags), ("xg.mat", xg),
                      ("xg-plain.mat", xg_plain)])
    statuses = list(job.files.order_by("pk").values_list("status", flat=True))
    assert statuses == ["imported", "duplicate", "duplicate", "imported", "duplicate"]
    assert Match.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_imports_of_the_same_match_racing_make_one_match(monkeypatch):
    owner = UserFactory(username="racer")
    data = mat("galaxy_3pt_match1161689.mat")
    jobs = [map_guests(checked(owner, [(f"{n}.mat", data)])) for n in range(2)]
    files = [job.files.get().pk for job in jobs]
    barrier = threading.Barrier(2)
    real_players = import_files._players_for

    def players_then_wait(file, job):
        players = real_players(file, job)
        barrier.wait(timeout=20)  # both found no match of the hash, neither has written: a true race
        return players

    failures = []

    def process(file_id):
        try:
            import_file_process(file_id=file_id)
        except Exception as error:  # asserted below
            failures.append(error)
        finally:
            connection.close()

    monkeypatch.setattr(import_files, "_players_for", players_then_wait)
    threads = [threading.Thread(target=process, args=(file_id,)) for file_id in files]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    statuses = sorted(ImportFile.objects.filter(pk__in=files).values_list("status", flat=True))
    assert statuses == ["duplicate", "imported"]
    assert Match.objects.count() == 1
    assert set(ImportFile.objects.filter(pk__in=files).values_list("match_id", flat=True)) == {Match.objects.get().pk}
    # The loser's guest players went back with its match: no twin "lasse".
    assert Player.objects.count() == 2


# --- failures ------------------------------------------------------------------------------------


def test_a_zip_with_good_and_bad_files_imports_the_good_ones_and_names_the_bad_line(owner):
    bad, line = with_bad_play_in_game_2(mat("gnubg_3pt_test_match01.mat"))
    archive = zipped({
        "club/one.mat": mat("galaxy_1pt_match1501137.mat"),
        "club/bad.mat": bad,
        "club/two.txt": mat("galaxy_3pt_match3485516.mat"),
        "README.md": b"not a match",
        "__MACOSX/club/._one.mat": b"resource fork",
    })
    job = run(owner, [("club.zip", archive)])
    files = {f.name: f for f in job.files.all()}
    assert sorted(files) == ["club.zip/club/bad.mat", "club.zip/club/one.mat", "club.zip/club/two.txt"]
    assert files["club.zip/club/one.mat"].status == files["club.zip/club/two.txt"].status == "imported"
    failed = files["club.zip/club/bad.mat"]
    assert failed.status == ImportFile.Status.FAILED and failed.match_id is None
    assert failed.error["line"] == line and failed.error["game"] == 2
    assert "24/1" in failed.error["message"] and not failed.error["message"].startswith("line ")
    assert (job.status, job.done, job.total) == ("done", 3, 3)
    assert Match.objects.count() == 2


@pytest.mark.parametrize(
    ("content", "line", "game", "words"),
    [
        (b"", 1, None, "match length"),
        (b" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5      52: junk\n", 5, 1, "junk"),
        (b" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5      52: 13/8 13/11\n", 3, 1, "never ends"),
        (b" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n", 3, 1,
         "unfinished at 1-0"),
        (b" 1 point match\n\n Game 1\n a : 0   a : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n", None, None,
         "both sides"),
    ],
    ids=["empty", "unreadable-play", "unfinished-game", "unfinished-match", "same-player-twice"],
)
def test_a_failed_file_stores_line_game_and_message(owner, content, line, game, words):
    job = run(owner, [("x.mat", content)])
    file = job.files.get()
    assert file.status == ImportFile.Status.FAILED
    assert (file.error["line"], file.error["game"]) == (line, game)
    assert words in file.error["message"]
    assert job.status == ImportJob.Status.DONE and job.done == 1
    assert not Match.objects.exists() and not Player.objects.exists()


def test_an_unexpected_error_fails_the_file_and_the_others_go_on(owner, monkeypatch):
    calls = []
    real = import_files._match_write

    def broken_once(*args):
        calls.append(1)
        if len(calls) == 1:
            raise KeyError("bug")
        return real(*args)

    monkeypatch.setattr(import_files, "_match_write", broken_once)
    job = run(owner, [("a.mat", mat("galaxy_1pt_match1501137.mat")), ("b.mat", mat("galaxy_3pt_match1161689.mat"))])
    first, second = job.files.order_by("pk")
    assert first.status == "failed" and "internal error" in first.error["message"]
    assert second.status == "imported"
    assert Match.objects.count() == 1


def test_a_database_outage_is_not_a_failed_file_but_an_error_to_retry(owner, monkeypatch):
    def down(*args):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(import_files, "check_mat", down)
    job = import_job_create(owner=owner, files=[("a.mat", mat("galaxy_1pt_match1501137.mat"))], dispatch=False)
    with pytest.raises(OperationalError):
        import_job_run(job_id=job.pk)
    file = job.files.get()
    assert file.status == "pending" and bytes(file.content) != b""
    job.refresh_from_db()
    assert (job.status, job.checked, job.done) == ("running", 0, 0)
    monkeypatch.undo()
    assert import_job_run(job_id=job.pk).status == "mapping"
    map_guests(job)
    monkeypatch.setattr(import_files, "_match_write", down)
    with pytest.raises(OperationalError):
        import_job_run(job_id=job.pk)
    assert job.files.get().status == "checked" and not Player.objects.exists()
    monkeypatch.undo()
    assert import_job_run(job_id=job.pk).status == "done"
    assert job.files.get().status == "imported"


# --- idempotency and progress ----------------------------------------------------------------------


def test_processing_a_file_twice_changes_nothing(owner):
    job = import_job_create(owner=owner, files=[("a.mat", mat("galaxy_3pt_match1161689.mat"))], dispatch=False)
    file_id = job.files.get().pk
    assert import_file_check(file_id=file_id).status == import_file_check(file_id=file_id).status == "checked"
    job.refresh_from_db()
    assert (job.checked, job.done) == (1, 0)
    import_job_run(job_id=job.pk)
    map_guests(job)
    first = import_file_process(file_id=file_id)
    again = import_file_process(file_id=file_id)
    assert first.status == again.status == ImportFile.Status.IMPORTED and again.match_id == first.match_id
    job.refresh_from_db()
    assert job.done == 1 and Match.objects.count() == 1 and Report.objects.count() == 1


def test_progress_counts_the_processed_files(owner):
    names = ["galaxy_1pt_match1501137.mat", "galaxy_3pt_match1161689.mat", "galaxy_3pt_match3485516.mat"]
    job = import_job_create(owner=owner, files=[(n, mat(n)) for n in names], dispatch=False)
    assert (job.status, job.done, job.total, import_job_percent(job)) == ("queued", 0, 3, 0)
    import_file_check(file_id=job.files.order_by("pk").first().pk)
    job.refresh_from_db()
    assert (job.checked, job.done, job.total, import_job_percent(job)) == (1, 0, 3, 33)
    job = import_job_run(job_id=job.pk)
    assert (job.status, job.checked, job.done, import_job_percent(job)) == ("mapping", 3, 0, 100)
    map_guests(job)
    import_file_process(file_id=job.files.order_by("pk").first().pk)
    job.refresh_from_db()
    assert (job.status, job.done, import_job_percent(job)) == ("queued", 1, 33)
    job = import_job_run(job_id=job.pk)
    assert (job.status, job.done, job.total, import_job_percent(job)) == ("done", 3, 3, 100)
    assert Match.objects.count() == 3


def test_the_task_run_twice_gives_the_same_result(owner):
    names = ["galaxy_1pt_match1501137.mat", "galaxy_3pt_match1161689.mat"]
    job = import_job_create(owner=owner, files=[(n, mat(n)) for n in names] + [("bad.mat", b"junk")],
                            dispatch=False)
    assert import_job_run_task(job.pk) == import_job_run_task(job.pk) == "mapping"
    job.refresh_from_db()
    assert (job.checked, job.done, len(job.names)) == (3, 1, 3) and not Player.objects.exists()
    map_guests(job)
    assert import_job_run_task(job.pk) == "done"
    job.refresh_from_db()
    snapshot = (job.status, job.done, job.finished_at, list(job.files.order_by("pk").values_list("status", "match_id",
                                                                                                  "error")))
    assert import_job_run_task(job.pk) == "done"
    job.refresh_from_db()
    assert (job.status, job.done, job.finished_at, list(job.files.order_by("pk").values_list(
        "status", "match_id", "error"))) == snapshot
    assert Match.objects.count() == 2 and Report.objects.count() == 2 and Game.objects.count() == 1 + 4


def test_the_task_retries_a_transient_error_and_then_finishes(owner, monkeypatch):
    from matches import tasks_imports

    calls = []
    real = tasks_imports.import_job_run

    def flaky(*, job_id):
        calls.append(job_id)
        if len(calls) == 1:
            raise OperationalError("could not obtain lock")
        return real(job_id=job_id)

    monkeypatch.setattr(tasks_imports, "import_job_run", flaky)
    job = import_job_create(owner=owner, files=[("a.mat", mat("galaxy_1pt_match1501137.mat"))], dispatch=False)
    result = import_job_run_task.apply(args=[job.pk])
    assert result.successful() and len(calls) == 2
    assert job.files.get().status == "checked"
    map_guests(job)
    assert import_job_run_task.apply(args=[job.pk]).successful()
    assert job.files.get().status == "imported"


def test_when_retries_run_out_the_pending_files_fail_and_the_job_ends(owner, monkeypatch):
    from matches import tasks_imports

    calls = []

    def down(*, job_id):
        calls.append(job_id)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(tasks_imports, "import_job_run", down)
    job = import_job_create(owner=owner, files=[("a.mat", mat("galaxy_1pt_match1501137.mat"))], dispatch=False)
    result = import_job_run_task.apply(args=[job.pk])
    assert result.failed() and len(calls) == MAX_RETRIES + 1
    job.refresh_from_db()
    assert (job.status, job.done) == ("done", 1)
    file = job.files.get()
    assert file.status == "failed" and "upload it again" in file.error["message"]


def test_a_domain_bug_in_the_task_is_not_retried(owner, monkeypatch):
    from matches import tasks_imports

    calls = []

    def broken(*, job_id):
        calls.append(job_id)
        raise ValueError("bug")

    monkeypatch.setattr(tasks_imports, "import_job_run", broken)
    job = import_job_create(owner=owner, files=[("a.mat", mat("galaxy_1pt_match1501137.mat"))], dispatch=False)
    assert import_job_run_task.apply(args=[job.pk]).failed() and len(calls) == 1
    job.refresh_from_db()
    assert job.status == "done" and job.files.get().status == "failed"


def test_the_task_for_a_deleted_job_does_nothing(owner):
    assert import_job_run_task(987654) is None


# --- creating a job: bad input saves nothing ---------------------------------------------------------


def test_it_writes_the_job_in_the_outbox_and_dispatches_it_after_commit(owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        job = import_job_create(owner=owner, files=[("a.mat", mat("galaxy_1pt_match1501137.mat"))])
    assert len(callbacks) == 1
    row = OutboxTask.objects.get()
    # Written marked sent (core/outbox.py): the publish itself is the callback after the commit.
    assert (row.task, row.args, row.queue, row.done_at) == ("matches.tasks_imports.import_job_run_task", [job.pk],
                                                             "imports", None)
    assert (job.status, job.total, job.files.get().status) == ("queued", 1, "pending")


def bad_upload(files, code: str, file: str | None):
    """The uploaded file ``file`` is refused alone (its reason naming it); the others are kept."""
    job = import_job_create(owner=UserFactory(), files=files, dispatch=False)
    refused = job.files.get(status=ImportFile.Status.FAILED)
    assert refused.error["code"] == code, refused.error
    assert refused.name == file and file in refused.error["message"]
    kept = [name for name, _ in files if name != file]
    assert sorted(job.files.filter(status="pending").values_list("name", flat=True)) == sorted(kept)
    assert (job.total, job.checked, job.done) == (len(files), 1, 1)
    assert file in import_file_result(refused)
    return refused.error


def test_it_refuses_no_files():
    with pytest.raises(DomainError) as caught:
        import_job_create(owner=UserFactory(), files=[], dispatch=False)
    assert caught.value.code == "no_files"
    assert not ImportJob.objects.exists() and not ImportFile.objects.exists()


def test_it_refuses_a_file_over_the_upload_limit(settings):
    settings.MAX_UPLOAD_BYTES = 1000
    bad_upload([("ok.mat", b"x"), ("big.mat", b"x" * 1001)], "upload_too_large", "big.mat")


def test_it_refuses_other_file_types():
    bad_upload([("photo.png", b"\x89PNG")], "bad_file_type", "photo.png")


def test_it_refuses_a_damaged_zip():
    archive = zipped({"a.mat": mat("galaxy_1pt_match1501137.mat")})
    bad_upload([("a.mat", b"fine"), ("broken.zip", archive[: len(archive) // 2])], "bad_zip", "broken.zip")
    bad_upload([("ok.mat", b"fine"), ("text.zip", b"not a zip at all")], "bad_zip", "text.zip")


def test_it_refuses_a_zip_with_a_corrupted_member():
    data = mat("galaxy_17pt_match9102134.mat")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("a.mat", data)
    raw = bytearray(buffer.getvalue())
    offset = raw.index(data[:40]) + 100
    raw[offset] = ord("#") if raw[offset] != ord("#") else ord("!")  # the CRC no longer matches
    bad_upload([("crc.zip", bytes(raw))], "bad_zip", "crc.zip")


@pytest.mark.parametrize("member", ["../evil.mat", "/etc/evil.mat", "a/../../evil.mat", "C:/evil.mat", "..\\evil.mat"])
def test_it_refuses_a_zip_whose_member_climbs_out(member):
    bad_upload([("trap.zip", zipped({"ok.mat": b"x", member: b"x"}))], "zip_unsafe_path", "trap.zip")


def test_it_refuses_a_zip_bomb_member(settings):
    settings.MAX_UPLOAD_BYTES = 100_000
    bomb = zipped({"bomb.mat": b"0" * 5_000_000})
    assert len(bomb) < settings.MAX_UPLOAD_BYTES  # small archive, huge member
    error = bad_upload([("bomb.zip", bomb)], "upload_too_large", "bomb.zip")
    assert "bomb.zip/bomb.mat" in error["message"]


def test_it_measures_what_a_member_really_expands_to_not_what_its_header_says(settings):
    settings.MAX_UPLOAD_BYTES = 100_000
    bomb = bytearray(zipped({"bomb.mat": b"0" * 1_000_000}))
    # Make both headers claim 10 bytes: the reader must still not return a million.
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = bomb.index(signature) + offset
        bomb[at:at + 4] = (10).to_bytes(4, "little")
    bad_upload([("liar.zip", bytes(bomb))], "bad_zip", "liar.zip")


def test_it_refuses_a_zip_over_the_total_uncompressed_limit(settings, monkeypatch):
    settings.MAX_UPLOAD_BYTES = 100_000
    monkeypatch.setattr(import_upload, "ZIP_MAX_TOTAL_FACTOR", 2)
    members = {f"m{n}.mat": bytes([48 + n]) * 90_000 for n in range(3)}  # each fine, 270 kB together
    bad_upload([("many.zip", zipped(members))], "zip_too_large", "many.zip")


def test_it_refuses_a_zip_with_too_many_entries(monkeypatch):
    monkeypatch.setattr(import_upload, "ZIP_MAX_MEMBERS", 3)
    bad_upload([("crowd.zip", zipped({f"m{n}.mat": b"x" for n in range(4)}))], "zip_too_large", "crowd.zip")


def test_it_refuses_a_zip_without_match_files():
    bad_upload([("docs.zip", zipped({"README.md": b"hello", "x.mat/": b""}))], "zip_empty", "docs.zip")


def test_it_keeps_only_the_uploaded_files_own_name(owner):
    job = import_job_create(owner=owner, files=[("C:\\Users\\me\\match.mat", b"x"), ("../../etc/x.mat", b"y")],
                            dispatch=False)
    assert list(job.files.order_by("pk").values_list("name", flat=True)) == ["match.mat", "x.mat"]


# --- pages -------------------------------------------------------------------------------------------


def test_the_upload_page_needs_a_sign_in(client):
    response = client.get("/imports/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_upload_page_shows_a_form_for_many_files(client, owner):
    client.force_login(owner)
    response = client.get("/imports/")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in html and re.search(r'<input[^>]*type="file"[^>]*multiple', html)


def test_uploading_files_leads_to_the_progress_page(client, owner, django_capture_on_commit_callbacks):
    client.force_login(owner)
    uploads = [
        ("a.mat", mat("galaxy_1pt_match1501137.mat")),
        ("b.zip", zipped({"b.mat": mat("galaxy_3pt_match1161689.mat")})),
    ]
    files = [(io.BytesIO(data), name) for name, data in uploads]
    for handle, name in files:
        handle.name = name
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post("/imports/", {"files": [handle for handle, _ in files]})
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/imports/{job.pk}/"
    assert len(callbacks) == 1 and job.owner == owner and job.total == 2

    html = client.get(f"/imports/{job.pk}/").content.decode()
    assert '<progress id="import-progress" value="0" max="2">' in html
    assert f"/api/v1/imports/{job.pk}/" in html and "setTimeout(tick, 1000)" in html
    assert '<meta http-equiv="refresh" content="2">' in html
    assert "a.mat" in html and "b.zip/b.mat" in html

    import_job_run(job_id=job.pk)
    html = client.get(f"/imports/{job.pk}/").content.decode()
    assert '<progress id="import-progress" value="2" max="2">' in html
    assert "Nothing is imported until you say who each player is." in html
    assert f'href="/imports/{job.pk}/players/"' in html and "setTimeout(tick" not in html
    assert not Match.objects.exists() and not Player.objects.exists()

    job.refresh_from_db()
    map_guests(job)
    import_job_run(job_id=job.pk)
    html = client.get(f"/imports/{job.pk}/").content.decode()
    assert '<progress id="import-progress" value="2" max="2">' in html
    assert "Imported" in html and "setTimeout(tick" not in html and 'http-equiv="refresh"' not in html
    assert f'href="/matches/{job.files.first().match_id}/"' in html
    assert "Accepted: one match of 1 game." in html


def test_the_progress_page_shows_the_failed_line(client, owner):
    job = run(owner, [("bad.mat", b" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5      52: junk\n")])
    client.force_login(owner)
    html = client.get(f"/imports/{job.pk}/").content.decode()
    assert "Refused: bad.mat, game 1, line 5: cannot read the play &quot;junk&quot;" in html


def test_uploading_a_bad_zip_with_a_good_file_refuses_the_zip_alone(client, owner):
    client.force_login(owner)
    handle = io.BytesIO(b"not a zip")
    handle.name = "broken.zip"
    good = io.BytesIO(mat("galaxy_1pt_match1501137.mat"))
    good.name = "good.mat"
    response = client.post("/imports/", {"files": [good, handle]})
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/imports/{job.pk}/"
    html = client.get(response["Location"]).content.decode()
    assert "Refused: broken.zip: broken.zip is not a readable zip archive" in html
    assert list(job.files.order_by("pk").values_list("name", "status")) == [("good.mat", "pending"),
                                                                            ("broken.zip", "failed")]


def test_uploading_nothing_shows_the_error(client, owner):
    client.force_login(owner)
    response = client.post("/imports/", {})
    assert response.status_code == 400 and "choose at least one" in response.content.decode()
    assert not ImportJob.objects.exists()


def test_another_users_progress_page_is_not_found(client, owner):
    job = run(owner, [("a.mat", mat("galaxy_1pt_match1501137.mat"))])
    client.force_login(UserFactory(username="carol"))
    assert client.get(f"/imports/{job.pk}/").status_code == 404
    client.force_login(UserFactory(username="staff", staff=True))
    assert client.get(f"/imports/{job.pk}/").status_code == 200


# --- a real worker -----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_an_import_job(celery_worker_process):
    owner = UserFactory(username="worker-owner")
    names = ["galaxy_1pt_match1501137.mat", "galaxy_3pt_match1161689.mat"]
    job = import_job_create(owner=owner, files=[(n, mat(n)) for n in names] + [("bad.mat", b"junk")])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status == ImportJob.Status.MAPPING:
            break
        time.sleep(0.5)
    assert job.status == ImportJob.Status.MAPPING, celery_worker_process.log()
    # Sent through the outbox, as the page and the API send it.
    import_job_map(job_id=job.pk, user=owner, mapping={entry["name"]: "guest" for entry in job.names})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status == ImportJob.Status.DONE:
            break
        time.sleep(0.5)
    assert job.status == ImportJob.Status.DONE, celery_worker_process.log()
    assert (job.done, job.total) == (3, 3)
    assert sorted(job.files.values_list("status", flat=True)) == ["failed", "imported", "imported"]
    assert Match.objects.count() == 2


def test_a_money_session_file_is_imported_as_an_unrated_money_match(owner):
    games = random_match_games(random.Random(7), 3)[:2]  # two finished games, played on as money
    session = match_from_actions(("Ann", "Ben"), MatchRules(0, beavers=True, raccoons=True), games)
    job = run(owner, [("money.mat", write_mat(session).encode())])
    file = job.files.get()
    assert file.status == ImportFile.Status.IMPORTED, file.error
    match = Match.objects.get(pk=file.match_id)
    assert (match.length, match.winner, match.rated, match.crawford) == (0, None, False, False)
    assert (match.score0, match.score1) == session.final_score and match.games.count() == 2
