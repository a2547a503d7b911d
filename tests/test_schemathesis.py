"""The whole API against its own OpenAPI schema, with schemathesis: every operation of
/api/schema/ (so a route added later is covered without a line here), as a player and as an
organiser signed in by token, with a few generated requests each, valid and invalid. Every answer
must be no server error, a documented status code with the documented content type, and a body
that matches the documented schema; and a request outside the schema (a string for a number, a
number past its maximum, an unknown property, an empty enum) must be refused with a 4xx
(``negative_data_rejection``): the API accepts nothing its schema does not describe.

Generated ids rarely name a row, so each request whose path names objects is sent twice: as
generated, and with the ids of real objects of a small world (a scheduled match, a confirmed one
with games, a drawn event and a drawn team event with their entries, teams and team match, an
import, a club with its members, a season, a night and a chouette with a game, a dispute with a ruling under appeal). A
path parameter this file does not know keeps its generated value: name it in ``World.ids``.

Each (operation, role) is one pytest test in its own savepoint: its writes are rolled back."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from decimal import Decimal

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.db import transaction
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation.meta import TestPhase
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.services import api_token_create
from chouette.services import chouette_game_record, chouette_start
from clubs.models import ClubNight, Membership, Season
from matches.models import ImportJob
from matches.services.claims import claim_request
from matches.services.logs import log_from_mat
from matches.services.matches import player_create, side_for
from matches.services.reporting import claim_make, match_confirm, match_report
from rulings.services.appeals import appeal_lodge
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make
from tests.chouette.factories import quick
from tests.clubs.factories import club_cast
from tests.factories import MatchFactory, UserFactory, api_token
from tests.matches.factories_api import make_cast, mat_text
from tests.tournaments.factories import drawn, player
from tournaments.models import Entry, Pairing, Tournament
from tournaments.services import entry_check_in, tournament_draw
from tournaments.services.teams import team_create
from webhooks.models import Delivery
from webhooks.services import subscription_create

pytestmark = pytest.mark.django_db

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance, negative_data_rejection]

#: Few examples per operation keep the run under two minutes on two cores; derandomized, the same
#: requests every run (a failure is reproducible, and the suite is never flaky).
EXAMPLES = settings(max_examples=5, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))

# The schema as the app serves it, loaded once at collection (the view reads no table).
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
# Methods a path does not have answer 405: the permission matrix holds every route to it, so the
# coverage phase does not send them again here.
schema.config.phases.coverage.unexpected_methods = set()


@dataclass
class World:
    users: dict
    ids: dict[str, list[int]]

    def real_path_parameters(self, generated: dict) -> dict | None:
        """The generated path parameters with every known id replaced by a real one (chosen by
        the generated values, so each example may name a different object); None when the path
        names nothing known."""
        known = [name for name in generated if name in self.ids]
        if not known:
            return None
        pick = random.Random(repr(sorted(generated.items(), key=str)))
        return {**generated, **{name: pick.choice(self.ids[name]) for name in known}}


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """Like Django's test client, keep the request signals from closing the test's database
    connection: it is inside the test's transaction, which every request must see."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The world, built once for the module in a transaction rolled back at its end: each test runs
    in a savepoint inside it (pytest-django's own), so what one test writes, the next never sees."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


def build_world() -> World:
    cast = make_cast()
    alice, bob = cast.match.side0.player_a, cast.match.side1.player_a

    played = MatchFactory(side0=cast.match.side0, side1=cast.match.side1, organiser=cast.organiser, length=3)
    text, score, _ = mat_text(3, seed=0)
    log = log_from_mat("match.mat", text.encode(), played.rules())
    match_report(match_id=played.pk, user=cast.alice, claim=claim_make(played, score, log))
    match_confirm(match_id=played.pk, user=cast.bob)

    event, _ = drawn(4, players=[alice, bob, player("dave"), player("erin")], organiser=cast.organiser)
    team_event = Tournament.objects.create(name="Team cup", organiser=cast.organiser,
                                           kind=Tournament.Kind.TEAMS, status=Tournament.Status.CLOSED)
    aces = team_create(tournament_id=team_event.pk, user=cast.organiser, name="Aces", captain_id=alice.pk,
                       member_ids=[player("frank").pk, player("grace").pk])
    bears = team_create(tournament_id=team_event.pk, user=cast.organiser, name="Bears", captain_id=bob.pk,
                        member_ids=[player("heidi").pk, player("ivan").pk])
    for team, captain in ((aces, cast.alice), (bears, cast.bob)):
        entry_check_in(tournament_id=team_event.pk, entry_id=team.entry.pk, user=captain)
    tournament_draw(tournament_id=team_event.pk, user=cast.organiser)

    members = club_cast(name="Schema Club", owner=cast.alice, organiser=cast.organiser,
                        members=[cast.carol, UserFactory(username="mia")], requester=cast.other_organiser,
                        invitee=UserFactory(username="ivy"), outsider=cast.staff)
    club = members.club
    season = Season.objects.create(club=club, name="Spring", starts_on=dt.date(2025, 3, 1), ends_on=dt.date(2025, 5, 31))
    night = ClubNight.objects.create(club=club, date=dt.date(2025, 3, 4), opened_by=cast.organiser)
    seats = [members.player(user).pk for user in members.active_users]
    chouette = chouette_start(club_id=club.pk, user=cast.organiser, name="Big table", stake=Decimal("2.50"),
                              rolloff=[[[seat, 6 - i] for i, seat in enumerate(seats)]])
    chouette_game_record(club_id=club.pk, chouette_id=chouette.pk, user=cast.organiser, kind="quick",
                         record=quick("box", cubes={seats[1]: 2}))

    dispute = dispute_open(match_id=cast.match.pk, user=cast.alice, category="conduct",
                           statement="Bob rolled before I had picked up my dice.")
    ruling = ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome="warning", params={"side": 1},
                         rule="RULES 9: conduct, a warning", reasoning="A first premature roll.")
    appeal = appeal_lodge(ruling_id=ruling.pk, user=cast.bob, grounds="She had picked them up.")
    UserFactory(username="kim"), UserFactory(username="lee")  # who may sit on its committee
    # A player known from imported files, entered in the organiser's event, claimed by zed.
    lasse = player_create(display_name="lasse")
    Entry.objects.create(tournament=Tournament.objects.create(name="Claims cup", organiser=cast.organiser),
                         side=side_for([lasse]))
    claim = claim_request(player_id=lasse.pk, user=UserFactory(username="zed"))
    webhook = subscription_create(user=cast.organiser, url="https://hooks.example.org/crawford", events=["results"],
                                  tournament=event)
    delivery = Delivery.objects.create(subscription=webhook, event="results", payload={"type": "result.confirmed"})

    ids = {
        "match_id": [cast.match.pk, played.pk],
        "number": [1, 2],
        "player_id": [alice.pk, bob.pk, lasse.pk],
        "claim_id": [claim.pk],
        "tournament_id": [event.pk, team_event.pk],
        "entry_id": [event.entries.get(side__player_a=alice).pk, aces.entry.pk],
        "team_id": [aces.pk, bears.pk],
        "pairing_id": list(Pairing.objects.filter(tournament=team_event).values_list("pk", flat=True)[:1]),
        "job_id": [ImportJob.objects.create(owner=cast.alice).pk],
        "club_id": [club.pk],
        "season_id": [season.pk],
        "night_id": [night.pk],
        "chouette_id": [chouette.pk],
        "game_number": [1, 2],
        "membership_id": list(Membership.objects.filter(club=club).values_list("pk", flat=True)),
        "dispute_id": [dispute.pk],
        "ruling_id": [ruling.pk],
        "appeal_id": [appeal.pk],
        "subscription_id": [webhook.pk],
        "delivery_id": [delivery.pk],
        "token_id": [api_token_create(user=cast.alice, name="script")[0].pk],  # the player's (alice's)
    }
    return World(users={"player": cast.alice, "organiser": cast.organiser}, ids=ids)


@pytest.fixture(params=["player", "organiser"])
def headers(request, world) -> dict:
    return {"Authorization": f"Token {api_token(world.users[request.param])}"}


@schema.parametrize()
@EXAMPLES
def test_every_operation_answers_as_the_schema_says(case, headers, world):
    real = world.real_path_parameters(case.path_parameters or {})
    # The coverage phase's cases (every boundary of every bounded field, in and out of range) are
    # many: each is sent once, to a real object when the path names one. The fuzzed ones are sent
    # with their generated ids too.
    if real is None or case._meta is None or case._meta.phase.name != TestPhase.COVERAGE:
        case.call_and_validate(headers=headers, checks=CHECKS)
    if real is not None:
        case.path_parameters = real
        case.call_and_validate(headers=headers, checks=CHECKS)


def test_the_schema_documents_the_errors_of_the_plumbing_on_every_operation():
    """config/schema.py: what authentication, throttles, CSRF, body parsing, pagination and an
    unreachable database can answer is documented wherever it can happen (schemathesis then holds
    every answer to it)."""
    operations = [(method, operation) for item in schema.raw_schema["paths"].values()
                  for method, operation in item.items()]
    assert operations
    for method, operation in operations:
        codes = set(operation["responses"])
        assert {"401", "429", "503"} <= codes, operation["operationId"]
        if method in {"post", "put", "patch", "delete"}:
            assert "403" in codes, operation["operationId"]
        if "requestBody" in operation:
            assert {"400", "413", "415"} <= codes, operation["operationId"]
        if any(p["name"] == "page" for p in operation.get("parameters", [])):
            assert "404" in codes, operation["operationId"]
    token = schema.raw_schema["paths"]["/api/v1/auth/token/"]["post"]["responses"]
    assert token["429"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ApiError"}
