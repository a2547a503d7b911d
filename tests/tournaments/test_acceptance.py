"""A rating moves only by results its players stand behind: an event vouches for an entrant with
an account only when he entered it himself or accepted the organiser's entry of him, and only
when the event is really run for him (an organiser with the role, or a club he is a member of);
its director confirms for him only then; a director's result in an event not run for its
players leaves their consent to them."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from clubs.models import ClubEvent
from clubs.services.clubs import club_create
from clubs.services.members import membership_accept, membership_invite
from core.errors import NotAllowed
from core.outbox import OutboxTask
from engine.match import MatchRules
from matches.models import Match, RatingChange
from matches.services.imports.jobs import import_job_run
from matches.services.imports.names import import_job_map
from matches.services.imports.upload import import_job_create
from matches.services.matches import match_create
from matches.services.reporting import Claim, match_override
from tests.factories import TournamentFactory, UserFactory
from tests.matches.factories_api import client_for, mat_text
from tests.matches.factories_ratings import run_tasks_inline
from tests.tournaments.factories import enter, player
from tournaments.models import Acceptance, Entry, Tournament
from tournaments.services import entry_add, entry_sign_up
from tournaments.services.acceptance import ENTRY_INVITED_TASK, entry_accept
from tournaments.services.notifications import entry_invited_notify
from tournaments.services.teams import team_create

pytestmark = pytest.mark.django_db

GIVEN, PENDING = Match.Consent.GIVEN, Match.Consent.PENDING


@pytest.fixture
def dispatched(monkeypatch):
    return run_tasks_inline(monkeypatch)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return django_capture_on_commit_callbacks  # short: "with committed(execute=True)"


@pytest.fixture
def bob():
    return player("bob", rating=1412.59)


@pytest.fixture
def carol():
    return player("carol", rating=1500)


def _ok(response, status=200):
    assert response.status_code == status, response.content.decode()[:500]
    return response.json()


def _amys_event_with(client, amy, *entrants) -> tuple[int, list[Match]]:
    """Amy, a plain player, makes a club and an event on it through the API, enters ``entrants``
    without their knowledge, checks everyone in and draws: the attack's set-up."""
    club = _ok(client.post("/api/v1/clubs/", {"name": "Amy's Backroom"}, format="json"), 201)
    event = _ok(client.post("/api/v1/tournaments/", {"name": "Amy Open", "club": club["id"]}, format="json"), 201)
    tid = event["id"]
    _ok(client.post(f"/api/v1/tournaments/{tid}/open/", {}, format="json"))
    for who in entrants:
        _ok(client.post(f"/api/v1/tournaments/{tid}/entries/", {"player_ids": [who.pk]}, format="json"), 201)
    _ok(client.post(f"/api/v1/tournaments/{tid}/close/", {}, format="json"))
    for entry in Entry.objects.filter(tournament_id=tid):
        _ok(client.post(f"/api/v1/tournaments/{tid}/entries/{entry.pk}/check-in/", {}, format="json"))
    _ok(client.post(f"/api/v1/tournaments/{tid}/draw/", {}, format="json"))
    return tid, list(Match.objects.filter(event_link__tournament_id=tid).order_by("pk"))


# --- the two attacks, through the API ---------------------------------------------------------------


def test_a_plain_players_self_made_event_cannot_move_an_entrants_rating(bob, dispatched, committed):
    amy = UserFactory(username="amy")
    client = client_for(amy)
    tid, matches = _amys_event_with(client, amy, bob, player("dave"))
    match = next(m for m in matches if bob.pk in (m.side0.player_a_id, m.side1.player_a_id))
    bobs = 0 if match.side0.player_a_id == bob.pk else 1
    assert match.consents[bobs] == PENDING  # her entry of him is an invitation, not his word

    score = [0, 0]
    score[bobs] = match.length  # whichever way: no result of hers reaches his record
    with committed(execute=True):
        _ok(client.post(f"/api/v1/matches/{match.pk}/override/", {"score": score}, format="json"))
    bob.refresh_from_db()
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.consents[bobs] == PENDING
    assert bob.rating == pytest.approx(1412.59) and not RatingChange.objects.filter(player=bob).exists()

    # Even his acceptance does not: she runs no event for him (no organiser role, not his club).
    _ok(client_for(bob.user).post(f"/api/v1/tournaments/{tid}/accept/", {}, format="json"))
    match.refresh_from_db()
    bob.refresh_from_db()
    assert match.consents[bobs] == PENDING and bob.rating == pytest.approx(1412.59)
    # The players' own confirmations are their word.
    dave = match.sides[1 - bobs].player_a
    for who in (bob, dave):
        with committed(execute=True):
            _ok(client_for(who.user).post(f"/api/v1/matches/{match.pk}/consent/", {"decision": "confirm"},
                                          format="json"))
    assert RatingChange.objects.filter(player=bob, match=match).count() == 1


def test_a_director_of_an_event_he_was_entered_in_cannot_consent_for_him(bob, carol):
    amy = UserFactory(username="amy")
    client = client_for(amy)
    tid, _matches = _amys_event_with(client, amy, bob, carol)
    assert not Acceptance.objects.filter(tournament_id=tid).exists()
    # A second account imports a match naming bob and carol.
    mallory = player("mallory")
    text, _score, _games = mat_text(3, seed=5, players=("Bob", "Carol"))
    job = import_job_create(owner=mallory.user, files=[("m.mat", text.encode())], dispatch=False)
    import_job_run(job_id=job.pk)
    import_job_map(job_id=job.pk, user=mallory.user, mapping={"Bob": bob.pk, "Carol": carol.pk}, dispatch=False)
    import_job_run(job_id=job.pk)
    imported = Match.objects.get(source_hash__isnull=False)
    assert imported.consents == (PENDING, PENDING)

    for side in (0, 1):
        response = client.post(f"/api/v1/matches/{imported.pk}/consent/", {"decision": "confirm", "side": side},
                               format="json")
        assert response.status_code in (403, 404), response.content  # hidden from her, or refused
    imported.refresh_from_db()
    assert imported.consents == (PENDING, PENDING)
    assert not AuditEntry.objects.filter(action="match.consent_given", match_id=imported.pk).exists()
    assert imported.pk not in {m["id"] for m in client_for(None).get(
        "/api/v1/matches/", {"player": bob.pk}).json()["results"]}

    # Once bob accepts an event really run for him, its director may answer for him.
    olga = UserFactory(username="olga", organiser=True)
    real = TournamentFactory(organiser=olga, status=Tournament.Status.OPEN)
    entry_add(tournament_id=real.pk, user=olga, player_ids=[bob.pk])
    assert client_for(olga).post(f"/api/v1/matches/{imported.pk}/consent/", {"decision": "confirm", "side": 0},
                                 format="json").status_code in (403, 404)
    _ok(client_for(bob.user).post(f"/api/v1/tournaments/{real.pk}/accept/", {}, format="json"))
    _ok(client_for(olga).post(f"/api/v1/matches/{imported.pk}/consent/", {"decision": "confirm", "side": 0},
                              format="json"))
    imported.refresh_from_db()
    assert imported.consents == (GIVEN, PENDING)


# --- who the event vouches for ------------------------------------------------------------------------


def test_an_organisers_entry_is_an_invitation_his_acceptance_rates_the_confirmed_matches(bob, carol, dispatched,
                                                                                        committed):
    olga = UserFactory(username="olga", organiser=True)
    event = TournamentFactory(organiser=olga, status=Tournament.Status.OPEN)
    entry_add(tournament_id=event.pk, user=olga, player_ids=[bob.pk])
    entry_sign_up(tournament_id=event.pk, user=carol.user)
    assert set(Acceptance.objects.filter(tournament=event).values_list("player_id", "how")) == {
        (carol.pk, Acceptance.How.SIGNED_UP)}
    match = match_create(created_by=olga, sides=([bob], [carol]), rules=MatchRules(5), context={"event": event})
    assert match.consents == (PENDING, GIVEN)
    with committed(execute=True):
        match_override(match_id=match.pk, user=olga, claim=Claim((5, 1)))
    assert not RatingChange.objects.exists()

    with committed(execute=True):
        body = _ok(client_for(bob.user).post(f"/api/v1/tournaments/{event.pk}/accept/", {}, format="json"))
    assert (body["player"], body["how"]) == (bob.pk, "accepted")
    match.refresh_from_db()
    assert match.consents == (GIVEN, GIVEN)
    assert RatingChange.objects.filter(match=match).count() == 2
    entry = AuditEntry.objects.get(action="entry.accepted", tournament_id=event.pk)
    assert entry.after["matches"] == [match.pk]
    # Twice: nothing more.
    with committed(execute=True):
        _ok(client_for(bob.user).post(f"/api/v1/tournaments/{event.pk}/accept/", {}, format="json"))
    assert AuditEntry.objects.filter(action="entry.accepted").count() == 1
    assert RatingChange.objects.filter(match=match).count() == 2


def test_accepting_an_event_one_is_not_in_is_refused(bob):
    event = TournamentFactory(status=Tournament.Status.OPEN)
    response = client_for(bob.user).post(f"/api/v1/tournaments/{event.pk}/accept/", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "not_entered")
    assert client_for(None).post(f"/api/v1/tournaments/{event.pk}/accept/", {}, format="json").status_code == 401
    assert not Acceptance.objects.exists()


def test_staff_entries_and_guests_are_vouched_for(bob):
    stan = UserFactory(username="stan", staff=True)
    olga = UserFactory(username="olga", organiser=True)
    event = TournamentFactory(organiser=olga, status=Tournament.Status.OPEN)
    entry_add(tournament_id=event.pk, user=stan, player_ids=[bob.pk])
    guest = player("gus")
    guest.user = None
    guest.save(update_fields=["user"])
    match = match_create(created_by=olga, sides=([bob], [guest]), rules=MatchRules(3), context={"event": event})
    assert match.consents == (GIVEN, GIVEN)
    assert Acceptance.objects.get(player=bob).how == Acceptance.How.STAFF


def test_a_club_owners_event_is_run_for_his_members_only(bob, carol):
    cleo = UserFactory(username="cleo")  # no organiser role
    club = club_create(user=cleo, name="Riverside")
    membership_invite(club_id=club.pk, user=cleo, username=bob.user.username)
    membership_accept(club_id=club.pk, user=bob.user)
    event = TournamentFactory(organiser=cleo, status=Tournament.Status.OPEN)
    ClubEvent.objects.create(tournament=event, club=club)
    entry_sign_up(tournament_id=event.pk, user=bob.user)
    entry_sign_up(tournament_id=event.pk, user=carol.user)
    event = Tournament.objects.get(pk=event.pk)
    match = match_create(created_by=cleo, sides=([bob], [carol]), rules=MatchRules(3), context={"event": event})
    assert match.consents == (GIVEN, PENDING)  # carol entered herself, but is no member of cleo's club


def test_a_directors_result_in_an_event_not_run_for_the_players_takes_their_consent_back(bob, carol, dispatched,
                                                                                         committed):
    amy = UserFactory(username="amy")
    event = TournamentFactory(organiser=amy, status=Tournament.Status.OPEN)
    enter(event, [bob, carol])  # both entered themselves
    match = match_create(created_by=amy, sides=([bob], [carol]), rules=MatchRules(3), context={"event": event})
    assert match.consents == (PENDING, PENDING)  # she has no organiser role: the event is not run for them
    for who, score in ((bob, [3, 1]), (carol, [3, 1])):
        with committed(execute=True):
            _ok(client_for(who.user).post(f"/api/v1/matches/{match.pk}/report/", {"score": score}, format="json"))
    match.refresh_from_db()
    assert match.consents == (GIVEN, GIVEN) and RatingChange.objects.filter(match=match).count() == 2
    bob.refresh_from_db()
    rated = bob.rating

    with committed(execute=True):
        match_override(match_id=match.pk, user=amy, claim=Claim((0, 3)))
    match.refresh_from_db()
    bob.refresh_from_db()
    assert match.consents == (PENDING, PENDING)
    assert not RatingChange.objects.filter(match=match).exists()
    assert bob.rating < rated  # the win she turned into a loss counts no more: back to before it
    assert AuditEntry.objects.filter(action="match.consent_reset", match_id=match.pk).count() == 2


def test_in_an_event_run_for_its_players_the_directors_result_keeps_their_consent(bob, carol, dispatched,
                                                                                  committed):
    olga = UserFactory(username="olga", organiser=True)
    event = TournamentFactory(organiser=olga, status=Tournament.Status.OPEN)
    enter(event, [bob, carol])
    match = match_create(created_by=olga, sides=([bob], [carol]), rules=MatchRules(3), context={"event": event})
    assert match.consents == (GIVEN, GIVEN)
    with committed(execute=True):
        match_override(match_id=match.pk, user=olga, claim=Claim((3, 0)))
    with committed(execute=True):
        match_override(match_id=match.pk, user=olga, claim=Claim((0, 3)))
    match.refresh_from_db()
    assert match.consents == (GIVEN, GIVEN)
    assert RatingChange.objects.filter(match=match).count() == 2


def test_checking_ones_own_entry_in_accepts_it(bob):
    olga = UserFactory(username="olga", organiser=True)
    event = TournamentFactory(organiser=olga, status=Tournament.Status.OPEN)
    entry = entry_add(tournament_id=event.pk, user=olga, player_ids=[bob.pk])
    assert not Acceptance.objects.exists()
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.CLOSED)
    _ok(client_for(bob.user).post(f"/api/v1/tournaments/{event.pk}/entries/{entry.pk}/check-in/", {},
                                  format="json"))
    assert Acceptance.objects.get(player=bob).how == Acceptance.How.ACCEPTED


def test_entry_accept_refuses_a_user_without_a_player():
    event = TournamentFactory(status=Tournament.Status.OPEN)
    with pytest.raises(NotAllowed) as refused:
        entry_accept(tournament_id=event.pk, user=UserFactory(username="nobody"))
    assert refused.value.code == "no_player"


def test_the_event_page_asks_an_entered_player_to_accept_and_its_button_does(bob, carol):
    olga = UserFactory(username="olga", organiser=True, first_name="Olga", last_name="Petrova")
    event = TournamentFactory(organiser=olga, status=Tournament.Status.OPEN)
    entry_add(tournament_id=event.pk, user=olga, player_ids=[bob.pk])
    entry_sign_up(tournament_id=event.pk, user=carol.user)
    url = reverse("tournaments:detail", args=[event.pk])
    asked = "Accept the entry"

    page = _page(bob.user, url)
    assert asked in page and f"{olga.display_name} entered you in this event." in page
    assert asked not in _page(carol.user, url) and asked not in _page(None, url)

    client = Client()
    client.force_login(bob.user)
    response = client.post(reverse("tournaments:accept", args=[event.pk]))
    assert response.status_code == 302
    assert Acceptance.objects.filter(tournament=event, player=bob, how=Acceptance.How.ACCEPTED).exists()
    assert asked not in _page(bob.user, url)
    # Someone not in it is told so, with a 4xx, on the page.
    stranger = Client()
    stranger.force_login(player("dave").user)
    refused = stranger.post(reverse("tournaments:accept", args=[event.pk]))
    assert refused.status_code == 400 and "you are not entered in this event" in refused.content.decode()


def _page(user, url) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_player_someone_else_entered_is_told_once_by_email_and_at_most_five_times_a_day(bob, carol):
    olga = UserFactory(username="olga", organiser=True, first_name="Olga", last_name="Petrova")
    events = [TournamentFactory(organiser=olga, status=Tournament.Status.OPEN, name=f"Open {i}") for i in range(6)]
    entry_add(tournament_id=events[0].pk, user=olga, player_ids=[bob.pk])
    entry_sign_up(tournament_id=events[0].pk, user=carol.user)  # herself: nothing to tell
    rows = OutboxTask.objects.filter(task=ENTRY_INVITED_TASK)
    assert [tuple(row.args) for row in rows] == [(events[0].pk, bob.pk, olga.pk)]

    mail.outbox.clear()
    assert entry_invited_notify(tournament_id=events[0].pk, player_id=bob.pk) == 1
    assert entry_invited_notify(tournament_id=events[0].pk, player_id=bob.pk) == 0  # once
    (message,) = mail.outbox
    assert message.to == [bob.user.email] and message.subject == "You were entered in Open 0"
    assert f"{olga.display_name} entered you in the event Open 0." in message.body
    assert reverse("tournaments:detail", args=[events[0].pk]) in message.body

    for event in events[1:]:
        entry_add(tournament_id=event.pk, user=olga, player_ids=[bob.pk])
    told = [entry_invited_notify(tournament_id=event.pk, player_id=bob.pk) for event in events[1:]]
    assert told == [1, 1, 1, 1, 0]  # five a day
    entry_accept(tournament_id=events[1].pk, user=bob.user)
    cache.clear()
    assert entry_invited_notify(tournament_id=events[1].pk, player_id=bob.pk) == 0  # he answered already


def test_the_entry_notice_is_in_the_players_language(bob):
    bob.user.preferred_language = "ro"
    bob.user.save(update_fields=["preferred_language"])
    olga = UserFactory(username="olga", organiser=True)
    event = TournamentFactory(organiser=olga, status=Tournament.Status.OPEN, name="Cupa")
    entry_add(tournament_id=event.pk, user=olga, player_ids=[bob.pk])
    mail.outbox.clear()
    assert entry_invited_notify(tournament_id=event.pk, player_id=bob.pk) == 1
    assert mail.outbox[0].subject == "Ați fost înscris în Cupa"


def test_a_captain_entering_a_member_is_named_as_the_one_who_entered_him(bob, carol):
    olga = UserFactory(username="olga", organiser=True)
    event = TournamentFactory(organiser=olga, status=Tournament.Status.OPEN, kind=Tournament.Kind.TEAMS, board_count=2)
    team_create(tournament_id=event.pk, user=carol.user, name="Aces", captain_id=carol.pk, member_ids=[bob.pk])
    assert Acceptance.objects.filter(tournament=event, player=carol, how=Acceptance.How.SIGNED_UP).exists()
    (row,) = OutboxTask.objects.filter(task=ENTRY_INVITED_TASK)
    mail.outbox.clear()
    assert entry_invited_notify(tournament_id=row.args[0], player_id=row.args[1], by_id=row.args[2]) == 1
    assert f"{carol.display_name} entered you in the event {event.name}." in mail.outbox[0].body
