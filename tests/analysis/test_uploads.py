"""The analyses a player's own match-file imports queue by themselves: at most
CRAWFORD_ANALYSIS_UPLOADS_PER_DAY per uploading user and rolling day (past it the match is simply
not analysed, its page and the API say so, and its director may still ask), recorded against him
(``queued_for``) and sent behind every other analysis (the outbox's priority); staff's imports and
an event's own (its director importing for it) are neither counted nor put behind."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from analysis import services
from analysis.models import MatchAnalysis
from analysis.services import (
    UPLOADS_PRIORITY,
    match_analyses_sweep,
    match_analysis_request,
    match_analysis_run,
    match_analysis_time_limit,
    uploads_queued_today,
)
from core.models import OutboxTask
from matches.models import Game, ImportJob, Match
from matches.services.imports.jobs import import_job_run
from matches.services.imports.names import import_job_map
from matches.services.imports.upload import import_job_create
from tests.analysis.conftest import confirm_with_file
from tests.analysis.test_pages import page, text_of
from tests.factories import PlayerFactory, SideFactory, TournamentFactory, UserFactory
from tests.matches.factories_api import client_for, make_cast
from tests.matches.test_imports_mapping import generated
from tournaments.models import Entry

pytestmark = pytest.mark.django_db
TASK = "analysis.tasks.match_analysis_task"


def imported(owner, count: int, *, seed: int = 0, context: dict | None = None, mapping: dict | None = None) -> list:
    """``count`` distinct match files between lasse and winnerdave imported by ``owner`` through the
    services (as the tasks run them), their names mapped by ``mapping`` (else to guests); the
    matches written, in the files' order."""
    files = [(f"m{seed + index}.mat", generated("lasse", "winnerdave", seed + index)) for index in range(count)]
    job = import_job_run(job_id=import_job_create(owner=owner, files=files, dispatch=False, context=context).pk)
    assert job.status == ImportJob.Status.MAPPING
    import_job_map(job_id=job.pk, user=owner, mapping=mapping or {"lasse": "guest", "winnerdave": "guest"},
                   dispatch=False)
    job = import_job_run(job_id=job.pk)
    assert job.status == ImportJob.Status.DONE
    matches = list(job.files.order_by("pk").values_list("match_id", flat=True))
    assert len(matches) == count and None not in matches
    return matches


def analysed(match_ids: list[int]) -> dict[int, tuple]:
    """Each match with an analysis: (who it counts against, its task's priority)."""
    rows = {row.pk: row for row in MatchAnalysis.objects.filter(pk__in=match_ids)}
    tasks = {task.args[0]: task.priority for task in OutboxTask.objects.filter(task=TASK, args__0__in=match_ids)}
    return {pk: (row.queued_for_id, tasks[pk]) for pk, row in rows.items()}


def test_a_players_uploads_queue_at_most_the_days_cap_behind_the_others(settings):
    settings.ANALYSIS_UPLOADS_PER_DAY = 2
    player = UserFactory(username="uploader")
    first = imported(player, 3)
    assert analysed(first) == {first[0]: (player.pk, UPLOADS_PRIORITY), first[1]: (player.pk, UPLOADS_PRIORITY)}
    assert UPLOADS_PRIORITY == 9 and uploads_queued_today(player.pk) == 2
    # A second upload the same day: nothing more is analysed on its own.
    later = imported(player, 2, seed=10)
    assert not MatchAnalysis.objects.filter(pk__in=[first[2], *later]).exists()
    assert not OutboxTask.objects.filter(task=TASK, args__0__in=[first[2], *later]).exists()
    # Another player has his own day.
    other = UserFactory(username="another")
    assert set(analysed(imported(other, 2, seed=20)).values()) == {(other.pk, UPLOADS_PRIORITY)}


def test_the_day_is_rolling(settings):
    settings.ANALYSIS_UPLOADS_PER_DAY = 2
    player = UserFactory(username="uploader")
    first = imported(player, 2)
    assert not analysed(imported(player, 1, seed=10))
    now = timezone.now()
    # 23 hours later the first two still count; 24 hours and a minute later they no longer do.
    MatchAnalysis.objects.filter(pk__in=first).update(requested_at=now - timedelta(hours=23))
    assert not analysed(imported(player, 1, seed=20))
    MatchAnalysis.objects.filter(pk__in=first).update(requested_at=now - timedelta(hours=24, minutes=1))
    assert uploads_queued_today(player.pk) == 0
    assert set(analysed(imported(player, 3, seed=30)).values()) == {(player.pk, UPLOADS_PRIORITY)}
    assert uploads_queued_today(player.pk) == 2


def test_staffs_imports_are_neither_counted_nor_put_behind(settings):
    settings.ANALYSIS_UPLOADS_PER_DAY = 1
    staff = UserFactory(username="stan", staff=True)
    matches = imported(staff, 3)
    assert analysed(matches) == dict.fromkeys(matches, (None, 0))
    assert uploads_queued_today(staff.pk) == 0


def test_an_events_own_imports_are_neither_counted_nor_put_behind(settings):
    settings.ANALYSIS_UPLOADS_PER_DAY = 1
    event = TournamentFactory(name="Spring Open")
    entrants = {}
    for name in ("lasse", "winnerdave"):
        entrants[name] = PlayerFactory(display_name=name).pk
        Entry.objects.create(tournament=event, side=SideFactory(player_a_id=entrants[name]))
    matches = imported(event.organiser, 3, context={"event": event.pk}, mapping=entrants)
    assert analysed(matches) == dict.fromkeys(matches, (None, 0))
    # The same organiser importing outside his event is a player uploading: counted, and put behind.
    own = imported(event.organiser, 2, seed=10)
    assert analysed(own) == {own[0]: (event.organiser.pk, UPLOADS_PRIORITY)}


def test_a_player_directing_an_event_of_his_own_making_is_still_a_player_uploading(settings):
    # Anyone may make a club and an event on its calendar: directing it does not lift the bound.
    settings.ANALYSIS_UPLOADS_PER_DAY = 1
    event = TournamentFactory(name="My Own Open", organiser=UserFactory(username="self-made"))
    assert event.organiser.role != "organiser"
    entrants = {}
    for name in ("lasse", "winnerdave"):
        entrants[name] = PlayerFactory(display_name=name).pk
        Entry.objects.create(tournament=event, side=SideFactory(player_a_id=entrants[name]))
    matches = imported(event.organiser, 2, context={"event": event.pk}, mapping=entrants)
    assert analysed(matches) == {matches[0]: (event.organiser.pk, UPLOADS_PRIORITY)}


def test_past_the_cap_the_page_and_the_api_say_not_analysed_and_a_director_may_still_ask(settings):
    settings.ANALYSIS_UPLOADS_PER_DAY = 1
    player = UserFactory(username="uploader")
    queued, skipped = imported(player, 2)
    staff = UserFactory(username="stan", staff=True)
    assert "Waiting for an analysis worker" in text_of(page(staff, f"/matches/{queued}/"))
    assert "This match has not been analysed." in text_of(page(staff, f"/matches/{skipped}/"))
    body = client_for(staff).get(f"/api/v1/matches/{skipped}/analysis/").json()
    assert (body["status"], body["status_text"]) == ("none", "Not analysed")
    # Asked for by its director (staff here: the importer plays in none of these), it is analysed,
    # first in the queue; and it counts against nobody.
    row = match_analysis_request(skipped, actor=staff)
    assert (row.status, row.queued_for_id) == ("queued", None)
    assert analysed([skipped]) == {skipped: (None, 0)}
    assert client_for(staff).get(f"/api/v1/matches/{skipped}/analysis/").json()["status"] == "queued"


def test_a_directors_request_takes_an_upload_off_the_players_count_and_out_of_the_back(settings):
    settings.ANALYSIS_UPLOADS_PER_DAY = 1
    player = UserFactory(username="uploader")
    (match_id,) = imported(player, 1)
    staff = UserFactory(username="stan", staff=True)
    match_analysis_request(match_id, actor=staff, plies=0)
    assert MatchAnalysis.objects.get(pk=match_id).queued_for_id is None and uploads_queued_today(player.pk) == 0
    tasks = list(OutboxTask.objects.filter(task=TASK, args__0=match_id).order_by("pk").values_list("priority",
                                                                                                  flat=True))
    assert tasks == [UPLOADS_PRIORITY, 0]


def test_a_confirmation_queues_first_and_counts_against_nobody(settings):
    settings.ANALYSIS_UPLOADS_PER_DAY = 0
    cast = make_cast(length=3)
    confirm_with_file(cast.match, cast.alice, cast.bob)
    assert analysed([cast.match.pk]) == {cast.match.pk: (None, 0)}


def test_the_count_is_one_query_on_its_index():
    player = UserFactory(username="uploader")
    with CaptureQueriesContext(connection) as queries:
        assert uploads_queued_today(player.pk) == 0
    assert len(queries) == 1
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        try:
            cursor.execute("EXPLAIN " + queries[0]["sql"])
            plan = "\n".join(line for (line,) in cursor.fetchall())
        finally:
            cursor.execute("RESET enable_seqscan")
    assert "analysis_queued_for" in plan, plan


def test_an_import_past_the_cap_keeps_the_match_whole(settings):
    settings.ANALYSIS_UPLOADS_PER_DAY = 0
    player = UserFactory(username="uploader")
    (match_id,) = imported(player, 1)
    match = Match.objects.get(pk=match_id)
    assert match.status == "confirmed" and Game.objects.filter(match=match).exists()
    assert not MatchAnalysis.objects.exists()


def priorities(match_id: int) -> list[int]:
    return list(OutboxTask.objects.filter(task=TASK, args__0=match_id).order_by("pk").values_list("priority", flat=True))


def test_an_upload_sent_again_keeps_its_place_behind_and_its_player(settings, monkeypatch):
    settings.ANALYSIS_PLIES = 1
    player = UserFactory(username="uploader")
    (match_id,) = imported(player, 1)
    # Out of time at 1-ply: queued again one ply lower.
    row = match_analysis_time_limit(match_id, generation=1)
    assert (row.status, row.plies, row.lowered_from, row.queued_for_id) == ("queued", 0, 1, player.pk)
    # Its worker died: the sweeper sends it again.
    MatchAnalysis.objects.filter(pk=match_id).update(status="running", attempt=1,
                                                     progressed_at=timezone.now() - timedelta(hours=1))
    assert match_analyses_sweep() == (1, 0)
    # Its games changed while it ran: queued again for the games as they are.
    real = services.analyse_match

    def games_changed_meanwhile(*args, **kwargs):
        result = real(*args, **kwargs)
        game = Game.objects.filter(match_id=match_id).order_by("-number").first()
        Game.objects.filter(pk=game.pk).update(log=game.log[:-1])
        return result

    monkeypatch.setattr(services, "analyse_match", games_changed_meanwhile)
    row = match_analysis_run(match_id, generation=1)
    assert (row.status, row.generation, row.queued_for_id) == ("queued", 2, player.pk)
    assert priorities(match_id) == [UPLOADS_PRIORITY] * 4
