"""Imports in two steps: no player is created nor named until the importer maps each name of the
files (to a player, a new guest player, or skip); the likely players come first; an import for an
event accepts only its entrants; the importer directs only the matches he plays in (an event's
import: the event's director); one bad file in a batch is refused alone; the mapping page reads a
fixed number of queries whatever the number of names."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from engine.formats.mat_check import match_from_actions
from engine.formats.mat_write import write_mat
from engine.match import MatchRules
from engine.randomgame import random_match_games
from matches.models import ImportFile, ImportJob, Match, Player
from matches.services.imports.jobs import import_job_run
from matches.services.imports.names import import_candidates, import_job_map
from matches.services.imports.upload import import_job_create
from tests.factories import MatchFactory, PlayerFactory, SideFactory, TournamentFactory, UserFactory
from tests.matches.test_imports import with_bad_play_in_game_2
from tournaments.models import Acceptance, Entry, EventMatch

pytestmark = pytest.mark.django_db

MAT_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "mat"
LASSE_WINNERDAVE = "galaxy_3pt_match1161689.mat"   # lasse v winnerdave
ILJAR_LASSE = "galaxy_1pt_match1501137.mat"       # iljar v lasse
SOLNZE_LASSE = "studio_3pt_solnze_lasse.mat"      # solnze v Lasse


def mat(name: str) -> bytes:
    return (MAT_DIR / name).read_bytes()


def generated(first: str, second: str, seed: int) -> bytes:
    """A finished 3-point match file between ``first`` and ``second``."""
    check = match_from_actions((first, second), MatchRules(3), random_match_games(random.Random(seed), 3))
    return write_mat(check).encode()


def checked(owner, files, **kwargs) -> ImportJob:
    """The first step (as the task runs it): the files checked, the names collected."""
    return import_job_run(job_id=import_job_create(owner=owner, files=files, dispatch=False, **kwargs).pk)


def written(job: ImportJob, mapping: dict) -> ImportJob:
    import_job_map(job_id=job.pk, user=job.owner, mapping=mapping, dispatch=False)
    return import_job_run(job_id=job.pk)


@pytest.fixture
def owner():
    return UserFactory(username="owner")


# --- nothing written until the names are mapped --------------------------------------------------


def test_checking_creates_no_player_and_no_match_until_the_names_are_mapped(owner):
    PlayerFactory(display_name="lasse")
    players = Player.objects.count()
    job = checked(owner, [("a.mat", mat(LASSE_WINNERDAVE)), ("b.mat", mat(ILJAR_LASSE))])
    assert job.status == ImportJob.Status.MAPPING
    assert [(entry["name"], entry["matches"]) for entry in job.names] == [("lasse", 2), ("winnerdave", 1),
                                                                          ("iljar", 1)]
    assert Player.objects.count() == players and not Match.objects.exists()
    assert set(job.files.values_list("status", flat=True)) == {ImportFile.Status.CHECKED}
    assert all(bytes(content) == b"" for content in job.files.values_list("content", flat=True))
    job = written(job, {"lasse": "guest", "winnerdave": "guest", "iljar": "guest"})
    assert job.status == ImportJob.Status.DONE and Match.objects.count() == 2
    assert Player.objects.count() == players + 3


def test_a_guest_player_is_created_once_per_name_with_no_account(owner):
    job = written(checked(owner, [("a.mat", mat(LASSE_WINNERDAVE)), ("b.mat", mat(ILJAR_LASSE))]),
                  {"lasse": "guest", "winnerdave": "guest", "iljar": "guest"})
    guests = Player.objects.filter(display_name="lasse")
    assert guests.count() == 1 and guests.get().user is None and job.guests["lasse"] == guests.get().pk
    first, second = (Match.objects.with_sides().get(pk=f.match_id) for f in job.files.order_by("pk"))
    assert first.side0.player_a == second.side1.player_a == guests.get()


def test_mapping_to_an_existing_player_plays_him_and_creates_nobody(owner):
    lasse, dave = PlayerFactory(display_name="Lasse V."), PlayerFactory(display_name="Dave")
    job = written(checked(owner, [("a.mat", mat(LASSE_WINNERDAVE))]), {"lasse": lasse.pk, "winnerdave": dave.pk})
    match = Match.objects.with_sides().get(pk=job.files.get().match_id)
    assert (match.side0.player_a, match.side1.player_a) == (lasse, dave)
    assert Player.objects.count() == 2
    assert (match.consent0, match.consent1) == ("pending", "pending")  # on their records once they confirm


def test_skipping_a_name_skips_the_matches_it_plays_in_and_imports_the_others(owner):
    job = written(checked(owner, [("a.mat", mat(LASSE_WINNERDAVE)), ("b.mat", mat(ILJAR_LASSE))]),
                  {"lasse": "guest", "winnerdave": "skip", "iljar": "guest"})
    first, second = job.files.order_by("pk")
    assert (first.status, first.match_id, second.status) == ("skipped", None, "imported")
    assert not Player.objects.filter(display_name="winnerdave").exists()
    assert Match.objects.count() == 1 and job.status == ImportJob.Status.DONE and job.done == 2
    everything_skipped = written(checked(owner, [("c.mat", mat(SOLNZE_LASSE))]), {"solnze": "skip", "Lasse": "guest"})
    assert everything_skipped.files.get().status == "skipped" and not Player.objects.filter(display_name="Lasse").exists()


# --- the likely players first ---------------------------------------------------------------------


def test_the_likely_players_come_first_in_order(owner):
    exact = PlayerFactory(display_name="Lasse")
    case = PlayerFactory(display_name="lasse")
    accent = PlayerFactory(display_name="Låsse")
    similar = PlayerFactory(display_name="Lassie")
    PlayerFactory(display_name="Bob")  # nothing to do with it: not offered
    own = PlayerFactory(user=owner, display_name="Owen")
    zed, yan, xu = (PlayerFactory(display_name=name) for name in ("Zed", "Yan", "Xu"))
    MatchFactory(side0=SideFactory(player_a=own), side1=SideFactory(player_a=zed))  # he played Zed
    MatchFactory(organiser=owner, side0=SideFactory(player_a=yan), side1=SideFactory(player_a=xu))  # he directs
    job = checked(owner, [("a.mat", mat(SOLNZE_LASSE))])
    offered = {entry["name"]: [(c["player"], c["reason"]) for c in entry["candidates"]] for entry in job.names}
    assert offered["Lasse"] == [(exact.pk, "exact"), (case.pk, "case"), (accent.pk, "accent"),
                                (similar.pk, "similar"), (own.pk, "you"), (zed.pk, "played"),
                                (yan.pk, "directs"), (xu.pk, "directs")]
    assert [reason for _, reason in offered["solnze"]][:1] == ["you"]  # no name like it: the players he knows


def test_candidates_are_at_most_ten_a_name():
    for number in range(15):
        PlayerFactory(display_name=f"lasse{number}")
    found = import_candidates(owner=UserFactory(), names=["lasse"])
    assert len(found["lasse"]) == 10 and {c["reason"] for c in found["lasse"]} == {"similar"}


# --- refusals: nothing written ---------------------------------------------------------------------


@pytest.mark.parametrize("mapping, name, words", [
    ({"lasse": "guest"}, "winnerdave", "choose a player for winnerdave"),
    ({"lasse": "guest", "winnerdave": 99999999}, "winnerdave", "winnerdave: there is no such player"),
    ({"lasse": "guest", "winnerdave": "maybe"}, "winnerdave", "winnerdave: choose a player"),
    ({"lasse": "guest", "winnerdave": "guest", "bob": "guest"}, "bob", "bob is not a name of this import"),
])
def test_a_bad_mapping_is_refused_naming_the_name_and_nothing_is_written(owner, mapping, name, words):
    job = checked(owner, [("a.mat", mat(LASSE_WINNERDAVE))])
    with pytest.raises(DomainError) as caught:
        import_job_map(job_id=job.pk, user=owner, mapping=mapping, dispatch=False)
    assert caught.value.status == 400 and caught.value.details["name"] == name and words in caught.value.message
    job.refresh_from_db()
    assert (job.status, job.mapping) == (ImportJob.Status.MAPPING, None)
    assert not Player.objects.exists() and not Match.objects.exists()


def test_two_names_of_one_match_may_not_be_the_same_player(owner):
    player = PlayerFactory(display_name="lasse")
    job = checked(owner, [("a.mat", mat(LASSE_WINNERDAVE))])
    with pytest.raises(DomainError, match="lasse and winnerdave play each other"):
        import_job_map(job_id=job.pk, user=owner, mapping={"lasse": player.pk, "winnerdave": player.pk})


def test_a_job_is_mapped_once_and_only_by_its_owner(owner):
    job = checked(owner, [("a.mat", mat(LASSE_WINNERDAVE))])
    from django.http import Http404

    with pytest.raises(Http404):
        import_job_map(job_id=job.pk, user=UserFactory(), mapping={"lasse": "guest", "winnerdave": "guest"})
    written(job, {"lasse": "guest", "winnerdave": "guest"})
    with pytest.raises(Conflict):
        import_job_map(job_id=job.pk, user=owner, mapping={"lasse": "guest", "winnerdave": "guest"})


# --- who directs the imported matches ----------------------------------------------------------------


def test_an_importer_who_played_in_none_of_the_matches_is_not_their_director():
    organiser = UserFactory(username="org", organiser=True)  # an organiser would direct a match he creates
    job = written(checked(organiser, [("a.mat", mat(LASSE_WINNERDAVE))]), {"lasse": "guest", "winnerdave": "guest"})
    match = Match.objects.get(pk=job.files.get().match_id)
    assert match.organiser is None and match.created_by == organiser


def test_an_importer_who_played_the_match_directs_it_and_his_side_is_confirmed(owner):
    own = PlayerFactory(user=owner, display_name="Lasse")
    job = checked(owner, [("a.mat", mat(LASSE_WINNERDAVE))])
    assert job.names[0]["candidates"][0] == {"player": own.pk, "reason": "case"}
    job = written(job, {"lasse": own.pk, "winnerdave": "guest"})
    match = Match.objects.get(pk=job.files.get().match_id)
    assert match.organiser == owner and (match.consent0, match.consent1) == ("given", "pending")


# --- an organiser's import for his event -------------------------------------------------------------


@pytest.fixture
def event():
    event = TournamentFactory(name="Spring Open")
    for name in ("lasse", "winnerdave"):
        entrant = PlayerFactory(display_name=name)
        Entry.objects.create(tournament=event, side=SideFactory(player_a=entrant))
        # He signed up himself: the event vouches for his results.
        Acceptance.objects.create(tournament=event, player=entrant, how=Acceptance.How.SIGNED_UP)
    return event


def test_an_events_import_offers_its_entrants_only_and_its_director_directs_the_matches(event):
    stranger = PlayerFactory(display_name="lasse")  # the same name, not entered
    job = checked(event.organiser, [("a.mat", mat(LASSE_WINNERDAVE))], context={"event": event.pk})
    entered = Entry.objects.filter(tournament=event).values("side__player_a")
    entrants = {p.display_name: p for p in Player.objects.filter(pk__in=entered)}
    offered = {entry["name"]: [c["player"] for c in entry["candidates"]] for entry in job.names}
    assert offered["lasse"][0] == entrants["lasse"].pk and stranger.pk not in offered["lasse"]
    job = written(job, {"lasse": entrants["lasse"].pk, "winnerdave": entrants["winnerdave"].pk})
    match = Match.objects.get(pk=job.files.get().match_id)
    assert match.organiser == event.organiser and EventMatch.objects.get(match=match).tournament == event
    assert (match.consent0, match.consent1) == ("given", "given")  # the event vouches for its matches
    assert AuditEntry.objects.get(action="import.mapped").tournament_id == event.pk


def test_mapping_a_name_to_a_player_of_another_event_is_refused_and_nothing_written(event):
    other = TournamentFactory(name="Other Open")
    outsider = PlayerFactory(display_name="lasse")
    Entry.objects.create(tournament=other, side=SideFactory(player_a=outsider))
    players = Player.objects.count()
    job = checked(event.organiser, [("a.mat", mat(LASSE_WINNERDAVE))], context={"event": event.pk})
    with pytest.raises(DomainError) as caught:
        import_job_map(job_id=job.pk, user=event.organiser, mapping={"lasse": outsider.pk, "winnerdave": "guest"})
    assert caught.value.status == 400 and caught.value.details["name"] == "lasse"
    assert "lasse: the player chosen has not entered this event" in caught.value.message
    assert Player.objects.count() == players and not Match.objects.exists()


def test_only_the_events_organiser_imports_into_it(event):
    with pytest.raises(NotAllowed):
        import_job_create(owner=UserFactory(), files=[("a.mat", mat(LASSE_WINNERDAVE))], context={"event": event.pk})
    with pytest.raises(DomainError, match="there is no event 99999999"):
        import_job_create(owner=event.organiser, files=[("a.mat", b"x")], context={"event": 99999999})
    assert not ImportJob.objects.exists()


# --- one bad file in a batch -------------------------------------------------------------------------


def test_a_batch_with_a_bad_file_imports_the_good_one_and_reports_the_bad_one_with_file_game_and_line(owner):
    bad, line = with_bad_play_in_game_2(mat("gnubg_3pt_test_match01.mat"))
    job = checked(owner, [("good.mat", mat(LASSE_WINNERDAVE)), ("bad.mat", bad), ("photo.png", b"\x89PNG")])
    assert [entry["name"] for entry in job.names] == ["lasse", "winnerdave"]  # the bad file's names are not asked
    job = written(job, {"lasse": "guest", "winnerdave": "guest"})
    good, bad_file, photo = job.files.order_by("pk")
    assert good.status == "imported" and Match.objects.count() == 1
    assert bad_file.status == "failed" and (bad_file.error["line"], bad_file.error["game"]) == (line, 2)
    assert photo.status == "failed" and "photo.png: only .mat, .txt and .zip files" in photo.error["message"]
    assert (job.status, job.done, job.total) == (ImportJob.Status.DONE, 3, 3)


# --- the pages ----------------------------------------------------------------------------------------


def test_the_mapping_page_lists_each_name_with_its_likely_players_and_imports_on_post(client, owner):
    lasse = PlayerFactory(display_name="lasse")
    job = checked(owner, [("a.mat", mat(LASSE_WINNERDAVE)), ("b.mat", mat(ILJAR_LASSE))])
    client.force_login(owner)
    response = client.get(f"/imports/{job.pk}/players/")
    html = response.content.decode()
    assert response.status_code == 200 and "Who are the players?" in html
    assert f'<option value="{lasse.pk}" selected>lasse (the same name)</option>' in html
    assert '<option value="guest" selected>A new guest player named winnerdave</option>' in html
    assert "Skip the 2 matches this name plays in" in html and "Skip the match this name plays in" in html
    response = client.post(f"/imports/{job.pk}/players/", {"choice-0": str(lasse.pk), "choice-1": "guest",
                                                           "choice-2": "skip"})
    assert response.status_code == 302 and response["Location"] == f"/imports/{job.pk}/"
    job = import_job_run(job_id=job.pk)
    assert list(job.files.order_by("pk").values_list("status", flat=True)) == ["imported", "skipped"]
    html = client.get(f"/imports/{job.pk}/").content.decode()
    assert "Accepted: one match of 4 games." in html and "you chose to skip a player" in html


def test_the_mapping_page_shows_a_refusal_naming_the_name_and_writes_nothing(client, event):
    outsider = PlayerFactory(display_name="lasse")
    job = checked(event.organiser, [("a.mat", mat(LASSE_WINNERDAVE))], context={"event": event.pk})
    client.force_login(event.organiser)
    response = client.post(f"/imports/{job.pk}/players/", {"choice-0": str(outsider.pk), "choice-1": "guest"})
    assert response.status_code == 400
    assert "lasse: the player chosen has not entered this event" in response.content.decode()
    assert not Match.objects.exists() and ImportJob.objects.get().status == ImportJob.Status.MAPPING


def test_the_mapping_page_is_the_owners_and_leads_back_once_mapped(client, owner):
    job = checked(owner, [("a.mat", mat(LASSE_WINNERDAVE))])
    client.force_login(UserFactory(username="carol"))
    assert client.get(f"/imports/{job.pk}/players/").status_code == 404
    client.force_login(owner)
    written(job, {"lasse": "guest", "winnerdave": "guest"})
    response = client.get(f"/imports/{job.pk}/players/")
    assert response.status_code == 302 and response["Location"] == f"/imports/{job.pk}/"


def page_queries(client, job) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/imports/{job.pk}/players/").status_code == 200
    return len(queries)


def test_the_mapping_page_reads_a_fixed_number_of_queries_whatever_the_number_of_names(
        client, owner, django_assert_num_queries):
    for number in range(12):
        PlayerFactory(display_name=f"player{number}a")
    small = checked(owner, [("one.mat", generated("player0a", "player0b", 1))])
    large = checked(owner, [(f"{n}.mat", generated(f"player{n}a", f"player{n}b", n)) for n in range(12)])
    assert (len(small.names), len(large.names)) == (2, 24)
    client.force_login(owner)
    page_queries(client, small)  # warm the session
    # The session, the user, the job, the candidate players: whatever the number of names.
    with django_assert_num_queries(4):
        client.get(f"/imports/{large.pk}/players/")
    assert page_queries(client, small) == page_queries(client, large) == 4


def test_the_upload_page_for_an_event_carries_the_event(client, event):
    client.force_login(event.organiser)
    html = client.get(f"/imports/?event={event.pk}").content.decode()
    assert f'name="event" value="{event.pk}"' in html and "only its entrants can be chosen" in html
    upload = io.BytesIO(mat(LASSE_WINNERDAVE))
    upload.name = "a.mat"
    response = client.post("/imports/", {"files": [upload], "event": event.pk})
    assert response.status_code == 302 and ImportJob.objects.get().context == {"event": event.pk}


def test_the_match_list_and_the_event_page_link_to_the_import_page(client, event):
    client.force_login(event.organiser)
    assert 'href="/imports/"' in client.get("/").content.decode()
    assert f'href="/imports/?event={event.pk}"' in client.get(f"/events/{event.pk}/").content.decode()
    client.force_login(UserFactory(username="carol"))
    assert "/imports/?event=" not in client.get(f"/events/{event.pk}/").content.decode()
