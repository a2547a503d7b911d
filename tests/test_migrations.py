"""The committed migrations match the models: nothing is left for makemigrations to write; and the
migrations that moved a match's context out of matches carry its rows, both ways."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BASE_DIR = Path(__file__).resolve().parent.parent


def test_the_migrations_are_committed_and_in_step_with_the_models():
    # The test process's environment points at PostgreSQL, which makemigrations consults for the
    # history; with nothing set it would create an empty SQLite file in the project instead.
    result = subprocess.run(
        [sys.executable, "manage.py", "makemigrations", "--check", "--dry-run", "--no-input"],
        cwd=BASE_DIR, env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, f"missing migrations:\n{result.stdout}{result.stderr}"
    assert "No changes detected" in result.stdout


# --- the data the context migrations carry ----------------------------------------------------------
#
# A match's event, club and club night and a player's home club moved from matches' columns to link
# rows of tournaments (EventMatch) and clubs (ClubMatch, HomeClub): the migrations carry every row
# there and, backwards, into the columns again. Checked here on historical models, from the last
# state with the columns.

BEFORE = [("matches", "0003_match_club"), ("tournaments", "0004_tournament_appeal_minutes"),
          ("clubs", "0002_members_nights_seasons_chouettes")]
AFTER = [("matches", "0004_context_held_above")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


def _old_rows(apps) -> dict:
    """A small world at the old state: an event's matches (one whose organiser is not the event's),
    a club's match at a night, a night's match without its club (never written by the services),
    a friendly match, players with and without a home club (one without a user)."""
    User = apps.get_model("accounts", "User")
    Player, Side, Match = (apps.get_model("matches", name) for name in ("Player", "Side", "Match"))
    Tournament = apps.get_model("tournaments", "Tournament")
    Club, ClubNight = apps.get_model("clubs", "Club"), apps.get_model("clubs", "ClubNight")
    olga, otto = (User.objects.create(username=name, role="organiser") for name in ("olga", "otto"))
    club = Club.objects.create(name="Riverside", slug="riverside")
    night = ClubNight.objects.create(club=club, date="2025-03-04", opened_by=olga)
    event = Tournament.objects.create(name="Open", organiser=olga)
    players = [Player.objects.create(display_name=f"P{i}", user=User.objects.create(username=f"p{i}"),
                                     club=club if i % 2 else None) for i in range(4)]
    ghost = Player.objects.create(display_name="Ghost", club=club)
    sides = [Side.objects.create(player_a=p) for p in players]

    def match(a, b, **fields):
        return Match.objects.create(side0=sides[a], side1=sides[b], length=5, **fields)

    return {
        "in_event": match(0, 1, event=event, organiser=olga),
        "in_event_by_otto": match(2, 3, event=event, organiser=otto),
        "at_night": match(0, 2, club=club, club_night=night),
        "night_only": match(1, 3, club_night=night),
        "friendly": match(0, 3),
        "event": event, "club": club, "night": night, "players": players, "ghost": ghost,
    }


@pytest.mark.django_db(transaction=True)
def test_the_context_migrations_carry_every_link_and_back():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        old = _old_rows(_migrate(BEFORE))
        apps = _migrate(AFTER)
        EventMatch, ClubMatch = apps.get_model("tournaments", "EventMatch"), apps.get_model("clubs", "ClubMatch")
        HomeClub, Match = apps.get_model("clubs", "HomeClub"), apps.get_model("matches", "Match")
        assert set(EventMatch.objects.values_list("match_id", "tournament_id")) == {
            (old["in_event"].pk, old["event"].pk), (old["in_event_by_otto"].pk, old["event"].pk)}
        assert set(ClubMatch.objects.values_list("match_id", "club_id", "night_id")) == {
            (old["at_night"].pk, old["club"].pk, old["night"].pk),
            (old["night_only"].pk, old["club"].pk, old["night"].pk)}  # the night's club
        assert set(HomeClub.objects.values_list("player_id", "club_id")) == {
            (old["players"][1].pk, old["club"].pk), (old["players"][3].pk, old["club"].pk),
            (old["ghost"].pk, old["club"].pk)}
        # Who organises a match is left alone: the event's organiser directs it through the event.
        assert Match.objects.get(pk=old["in_event_by_otto"].pk).organiser.username == "otto"

        apps = _migrate(BEFORE)
        Match, Player = apps.get_model("matches", "Match"), apps.get_model("matches", "Player")
        columns = {m.pk: (m.event_id, m.club_id, m.club_night_id) for m in Match.objects.all()}
        event, club, night = old["event"].pk, old["club"].pk, old["night"].pk
        assert columns == {
            old["in_event"].pk: (event, None, None), old["in_event_by_otto"].pk: (event, None, None),
            old["at_night"].pk: (None, club, night), old["night_only"].pk: (None, club, night),
            old["friendly"].pk: (None, None, None),
        }
        assert dict(Player.objects.filter(club__isnull=False).values_list("pk", "club_id")) == {
            old["players"][1].pk: club, old["players"][3].pk: club, old["ghost"].pk: club}
    finally:
        MigrationExecutor(connection).migrate(latest)


# An event's club moved from ``Tournament.club`` to the club's own record (clubs.ClubEvent).
EVENTS_BEFORE = [("tournaments", "0005_eventmatch"), ("clubs", "0004_chouette_tables_move_to_chouette")]
EVENTS_AFTER = [("tournaments", "0006_remove_tournament_club")]


@pytest.mark.django_db(transaction=True)
def test_the_event_club_migrations_carry_every_calendar_entry_and_back():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        apps = _migrate(EVENTS_BEFORE)
        User, Club = apps.get_model("accounts", "User"), apps.get_model("clubs", "Club")
        Tournament = apps.get_model("tournaments", "Tournament")
        olga = User.objects.create(username="olga", role="organiser")
        riverside, harbour = (Club.objects.create(name=name, slug=name.lower()) for name in ("Riverside", "Harbour"))
        events = {name: Tournament.objects.create(name=name, organiser=olga, club=club)
                  for name, club in (("Spring", riverside), ("Summer", harbour), ("Open", None))}

        apps = _migrate(EVENTS_AFTER)
        ClubEvent = apps.get_model("clubs", "ClubEvent")
        assert set(ClubEvent.objects.values_list("tournament_id", "club_id")) == {
            (events["Spring"].pk, riverside.pk), (events["Summer"].pk, harbour.pk)}

        apps = _migrate(EVENTS_BEFORE)
        Tournament = apps.get_model("tournaments", "Tournament")
        assert dict(Tournament.objects.values_list("pk", "club_id")) == {
            events["Spring"].pk: riverside.pk, events["Summer"].pk: harbour.pk, events["Open"].pk: None}
    finally:
        MigrationExecutor(connection).migrate(latest)


# Consent for the record (matches.services.consent): existing matches keep counting where nobody
# could have put them on another's record; an import counts only for the importer's own side.
CONSENT_BEFORE = [("matches", "0004_context_held_above"), ("tournaments", "0006_remove_tournament_club"),
                  ("clubs", "0005_clubevent")]
CONSENT_AFTER = [("matches", "0005_match_consent"), ("tournaments", "0007_event_matches_consented"),
                 ("clubs", "0006_club_matches_consented")]


@pytest.mark.django_db(transaction=True)
def test_the_consent_migrations_consent_what_already_counted():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        apps = _migrate(CONSENT_BEFORE)
        User = apps.get_model("accounts", "User")
        Player, Side, Match = (apps.get_model("matches", name) for name in ("Player", "Side", "Match"))
        Report = apps.get_model("matches", "Report")
        Tournament, EventMatch = apps.get_model("tournaments", "Tournament"), apps.get_model("tournaments", "EventMatch")
        Club, ClubMatch = apps.get_model("clubs", "Club"), apps.get_model("clubs", "ClubMatch")
        olga = User.objects.create(username="olga", role="organiser")
        users = [User.objects.create(username=f"p{i}") for i in range(2)]
        sides = [Side.objects.create(player_a=Player.objects.create(display_name=f"P{i}", user=users[i]))
                 for i in range(2)]

        def match(**fields):
            return Match.objects.create(side0=sides[0], side1=sides[1], length=5, **fields)

        in_event = match(rated=False, organiser=olga, created_by=olga)
        EventMatch.objects.create(match=in_event, tournament=Tournament.objects.create(name="Open", organiser=olga))
        in_club = match(rated=False, created_by=olga)
        ClubMatch.objects.create(match=in_club, club=Club.objects.create(name="Riverside", slug="riverside"))
        rated = match(rated=True, organiser=olga, created_by=olga)
        imported = match(rated=False, organiser=users[1], created_by=users[1], source_hash="a" * 64,
                         status="confirmed", score0=5, score1=1, winner=0)
        imported_by_outsider = match(rated=False, organiser=olga, created_by=olga, source_hash="b" * 64)
        friendly = match(rated=False, organiser=olga, created_by=olga)
        reported = match(rated=False, organiser=olga, created_by=olga)
        Report.objects.create(match=reported, side=1, reporter=users[1], score0=1, score1=5)
        own = match(rated=False, created_by=users[0])

        apps = _migrate(CONSENT_AFTER)
        Match = apps.get_model("matches", "Match")
        consents = dict((pk, (c0, c1)) for pk, c0, c1 in Match.objects.values_list("pk", "consent0", "consent1"))
        given, pending = "given", "pending"
        assert consents == {
            in_event.pk: (given, given), in_club.pk: (given, given), rated.pk: (given, given),
            imported.pk: (pending, given), imported_by_outsider.pk: (pending, pending),
            friendly.pk: (pending, pending), reported.pk: (pending, given), own.pk: (given, pending),
        }
    finally:
        MigrationExecutor(connection).migrate(latest)


@pytest.mark.django_db(transaction=True)
def test_a_kept_test_database_recording_a_migration_the_code_lacks_is_found_so_it_is_made_anew():
    from django.db import connection

    from tests.conftest import kept_database_unknown_migrations

    kept = connection.settings_dict["NAME"]  # this run's test database, kept by --reuse-db
    assert kept_database_unknown_migrations(kept) == []
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO django_migrations (app, name, applied) VALUES ('matches', '9999_gone', now())")
    try:
        assert kept_database_unknown_migrations(kept) == [("matches", "9999_gone")]
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM django_migrations WHERE name = '9999_gone'")


# API tokens moved from DRF's table (the key itself) to accounts.ApiToken (only its digest).
TOKENS_BEFORE = [("accounts", "0003_organiser_requests"), ("authtoken", "0004_alter_tokenproxy_options")]
TOKENS_AFTER = [("accounts", "0004_api_tokens_sessions_generation")]


@pytest.mark.django_db(transaction=True)
def test_the_token_migration_keeps_every_token_working_and_keeps_no_key():
    import hashlib

    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        apps = _migrate(TOKENS_BEFORE)
        User, Token = apps.get_model("accounts", "User"), apps.get_model("authtoken", "Token")
        keys = {}
        for name in ("ann", "ben"):
            user = User.objects.create(username=name)
            keys[user.pk] = Token.objects.create(user=user, key=hashlib.sha1(name.encode()).hexdigest()).key
        apps = _migrate(TOKENS_AFTER)
        ApiToken, Token = apps.get_model("accounts", "ApiToken"), apps.get_model("authtoken", "Token")
        assert {(t.user_id, t.key_digest) for t in ApiToken.objects.all()} == {
            (user_id, hashlib.sha256(key.encode()).hexdigest()) for user_id, key in keys.items()}
        assert not Token.objects.exists()
    finally:
        MigrationExecutor(connection).migrate(latest)
