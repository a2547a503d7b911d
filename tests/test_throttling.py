"""API throttles (core/throttles.py): anonymous clients by address, users by account, and scoped
rates for reporting results, disputes and uploads. Over a rate the API answers 429 with
Retry-After and the error body, and does nothing; when the window has passed it answers again.

The suite runs with rates nobody reaches (tests/conftest.py); each test here lowers one with the
``throttle_rates`` fixture, which also empties the counters before and after."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.conf import settings
from django.test import Client
from django.urls import path
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from core import throttles
from matches.models import ImportJob, Report
from tests.matches.factories_api import client_for, make_cast
from tests.test_settings import run

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
THROTTLED = "Request was throttled. Expected available in {} seconds."


@pytest.fixture
def cast():
    return make_cast()


@pytest.fixture
def clock(time_machine):
    time_machine.move_to(START, tick=False)
    return time_machine


def report_url(cast, action: str = "report") -> str:
    return f"/api/v1/matches/{cast.match.pk}/{action}/"


def assert_throttled(response, wait: int) -> None:
    assert response.status_code == 429
    assert response["Retry-After"] == str(wait)
    assert response.json() == {"detail": THROTTLED.format(wait), "code": "throttled"}


# --- reports ---------------------------------------------------------------------------------------


def test_reports_over_the_rate_get_a_429_and_change_nothing(cast, throttle_rates, clock):
    throttle_rates(reports="2/minute")
    alice = client_for(cast.alice)
    assert alice.post(report_url(cast), {"score": [5, 3]}, format="json").status_code == 200
    assert alice.post(report_url(cast), {"score": [5, 3]}, format="json").status_code == 200  # a repeat: no change
    throttled = alice.post(report_url(cast), {"score": [5, 1]}, format="json")
    assert_throttled(throttled, 60)
    assert list(Report.objects.filter(match=cast.match).values_list("score0", "score1")) == [(5, 3)]


def test_report_confirm_contest_and_override_share_one_counter_per_user(cast, throttle_rates, clock):
    throttle_rates(reports="3/minute")
    alice = client_for(cast.alice)
    assert alice.post(report_url(cast), {"score": [5, 3]}, format="json").status_code == 200
    # Refused (she cannot answer her own report), yet counted: the throttle comes before the work.
    assert alice.post(report_url(cast, "confirm"), {}, format="json").status_code == 409
    assert alice.post(report_url(cast, "contest"), {}, format="json").status_code == 409
    assert_throttled(alice.post(report_url(cast, "override"), {"score": [5, 3]}, format="json"), 60)
    # Bob has his own counter: his confirmation goes through.
    assert client_for(cast.bob).post(report_url(cast, "confirm"), {}, format="json").status_code == 200


def test_when_the_window_has_passed_reports_are_taken_again(cast, throttle_rates, clock):
    throttle_rates(reports="1/minute")
    alice = client_for(cast.alice)
    assert alice.post(report_url(cast), {"score": [5, 3]}, format="json").status_code == 200
    clock.shift(dt.timedelta(seconds=45))
    assert_throttled(alice.post(report_url(cast), {"score": [5, 1]}, format="json"), 15)
    clock.shift(dt.timedelta(seconds=16))
    response = alice.post(report_url(cast), {"score": [5, 1]}, format="json")
    assert response.status_code == 200 and response.json()["reports"][0]["score"] == [5, 1]


def test_reading_a_match_does_not_use_up_the_reports_rate(cast, throttle_rates):
    throttle_rates(reports="1/minute")
    alice = client_for(cast.alice)
    for _ in range(3):
        assert alice.get(f"/api/v1/matches/{cast.match.pk}/").status_code == 200
    assert alice.post(report_url(cast), {"score": [5, 3]}, format="json").status_code == 200


# --- how the counters are kept ---------------------------------------------------------------------


@pytest.fixture
def throttle_commands(monkeypatch) -> list[tuple]:
    """The commands the throttles send to Redis (those naming a throttle's counter), as sent."""
    client = throttles._redis_client()
    assert client is not None, "the suite runs on Redis (tests/conftest.py)"
    # The script is in Redis's script cache, as on a server that has run it once: a Redis that has
    # just started (CI's) answers the first EVALSHA with NOSCRIPT, and redis-py sends it again.
    client.script_load(throttles._DECIDE)
    sent: list[tuple] = []
    real = client.execute_command

    def recorded(*args, **options):
        if any("throttle_" in str(arg) for arg in args[1:]):
            sent.append(args)
        return real(*args, **options)

    monkeypatch.setattr(client, "execute_command", recorded)
    return sent


def test_a_reports_counters_are_read_and_written_in_one_round_trip(cast, throttle_rates, clock, throttle_commands):
    throttle_rates(reports="2/minute")
    # Lowering the rates cleared the cache: the UNLINK of counters an earlier test left is not the
    # request's.
    throttle_commands.clear()
    alice = client_for(cast.alice)
    assert alice.post(report_url(cast), {"score": [5, 3]}, format="json").status_code == 200
    # One script call counts the request under both its counters (the user's and the reports').
    [(command, _sha, count, *keys_and_args)] = throttle_commands
    assert command in ("EVALSHA", "EVAL") and count == 2
    assert sorted(key.rsplit(":", 1)[-1] for key in keys_and_args[:2]) == [
        f"throttle_reports_{cast.alice.pk}", f"throttle_user_{cast.alice.pk}"]
    throttle_commands.clear()
    alice.post(report_url(cast), {"score": [5, 3]}, format="json")
    assert_throttled(alice.post(report_url(cast), {"score": [5, 1]}, format="json"), 60)
    assert len(throttle_commands) == 2  # one per request, the refused one too
    key = throttles.ReportsThrottle.cache_format % {"scope": "reports", "ident": cast.alice.pk}
    assert throttles.history_of(key) == [START.timestamp()] * 2  # the refused request is not counted


def test_on_a_cache_other_than_redis_the_counters_are_kept_in_it_and_refuse_the_same(cast, throttle_rates, clock,
                                                                                      settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "throttles-test"}}
    assert throttles._redis_client() is None
    throttle_rates(reports="1/minute")
    alice = client_for(cast.alice)
    assert alice.post(report_url(cast), {"score": [5, 3]}, format="json").status_code == 200
    clock.shift(dt.timedelta(seconds=20))
    assert_throttled(alice.post(report_url(cast), {"score": [5, 1]}, format="json"), 40)
    key = throttles.ReportsThrottle.cache_format % {"scope": "reports", "ident": cast.alice.pk}
    assert throttles.history_of(key) == [START.timestamp()]


# --- uploads ---------------------------------------------------------------------------------------


def mat_upload() -> io.BytesIO:
    handle = io.BytesIO(b" 1 point match\n\n Game 1\n Alice : 0                  Bob : 0\n")
    handle.name = "one.mat"
    return handle


def test_imports_over_the_rate_get_a_429_and_start_nothing(cast, throttle_rates, clock):
    throttle_rates(uploads="1/hour")
    organiser = client_for(cast.organiser)
    assert organiser.post("/api/v1/imports/", {"files": [mat_upload()]}, format="multipart").status_code == 202
    assert_throttled(organiser.post("/api/v1/imports/", {"files": [mat_upload()]}, format="multipart"), 3600)
    assert ImportJob.objects.count() == 1
    # Following the import's progress is a read, not an upload.
    job = ImportJob.objects.get()
    assert organiser.get(f"/api/v1/imports/{job.pk}/").status_code == 200


# --- anonymous and signed-in clients ------------------------------------------------------------------


def test_anonymous_clients_are_counted_by_address(cast, throttle_rates, clock):
    throttle_rates(anon="2/minute")
    anonymous = client_for(None)
    assert [anonymous.get("/api/v1/players/").status_code for _ in range(2)] == [200, 200]
    assert_throttled(anonymous.get("/api/v1/players/"), 60)
    assert anonymous.get("/api/v1/players/", REMOTE_ADDR="192.0.2.8").status_code == 200
    # A signed-in user from the same address is counted by his account, not the address.
    assert client_for(cast.carol).get("/api/v1/players/").status_code == 200


def test_signed_in_users_are_counted_by_account(cast, throttle_rates, clock):
    throttle_rates(user="2/minute")
    carol = client_for(cast.carol)
    assert [carol.get("/api/v1/players/").status_code for _ in range(2)] == [200, 200]
    assert_throttled(carol.get("/api/v1/players/", REMOTE_ADDR="192.0.2.9"), 60)
    assert client_for(cast.bob).get("/api/v1/players/").status_code == 200


def test_the_token_endpoint_is_throttled_per_address(throttle_rates, clock):
    throttle_rates(anon="1/minute")
    anonymous = client_for(None)
    assert anonymous.post("/api/v1/auth/token/", {"username": "x", "password": "y"}, format="json").status_code == 400
    assert_throttled(anonymous.post("/api/v1/auth/token/", {"username": "z", "password": "y"}, format="json"), 60)


# --- accounts: sign-in, sign-up, password reset and verification emails, API and pages alike ----------

ACCOUNT_ENDPOINTS = [
    ("/api/v1/auth/token/", {"username": "x", "password": "y"}),
    ("/api/v1/auth/login/", {"username": "x", "password": "y"}),
    ("/api/v1/auth/signup/", {"username": "newton", "display_name": "Isaac", "email": "isaac@example.org",
                              "password": "a-long-and-good-password"}),
    ("/api/v1/auth/email/verify/", {"key": "nope"}),
    ("/api/v1/auth/email/resend/", {"email": "isaac@example.org"}),
    ("/api/v1/auth/password/reset/", {"email": "isaac@example.org"}),
    ("/api/v1/auth/password/reset/confirm/", {"key": "1-nope", "password": "a-long-and-good-password"}),
]


@pytest.mark.parametrize(("url", "body"), ACCOUNT_ENDPOINTS)
def test_every_account_endpoint_is_throttled_per_address_by_the_accounts_scope(url, body, throttle_rates, clock):
    throttle_rates(accounts="1/minute")
    anonymous = client_for(None)
    assert anonymous.post(url, body, format="json").status_code != 429
    users = User.objects.count()
    assert_throttled(anonymous.post(url, body, format="json"), 60)
    assert User.objects.count() == users  # nothing made by the refused request
    assert anonymous.post(url, body, format="json", REMOTE_ADDR="192.0.2.8").status_code != 429


PAGE_POSTS = [
    ("/accounts/login/", {"username": "x", "password": "y"}),
    ("/accounts/signup/", {"username": "newton", "display_name": "Isaac", "email": "isaac@example.org",
                           "password1": "a-long-and-good-password", "password2": "a-long-and-good-password"}),
    ("/accounts/password/reset/", {"email": "isaac@example.org"}),
]


@pytest.mark.parametrize(("url", "body"), PAGE_POSTS)
def test_the_account_pages_posts_count_against_the_same_rates(url, body, throttle_rates, clock):
    throttle_rates(accounts="1/minute")
    client = Client()
    assert client.post(url, body).status_code != 429
    users = User.objects.count()
    refused = client.post(url, body)
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "Too many requests from your address. Try again in 60 seconds." in refused.content.decode()
    assert User.objects.count() == users
    assert client.get(url).status_code == 200  # reading the page is not counted
    # The API and the pages share the address's count.
    assert_throttled(client_for(None).post("/api/v1/auth/token/", {"username": "x", "password": "y"},
                                           format="json"), 60)


# --- disputes: the scope the rulings API puts on its views ----------------------------------------------


class DisputeProbeApi(APIView):
    """Stands in for a rulings endpoint: any view with ``throttles.DISPUTES``."""

    permission_classes = [IsAuthenticated]
    throttle_classes = throttles.DISPUTES

    def post(self, request):
        return Response({"ok": True})


urlpatterns = [path("api/v1/dispute-probe/", DisputeProbeApi.as_view())]


def test_a_view_with_the_disputes_scope_is_throttled_by_it(cast, throttle_rates, clock, settings):
    # Through the same settings fixture as the rates, so that both are undone together.
    settings.ROOT_URLCONF = __name__
    throttle_rates(disputes="2/minute")
    alice = client_for(cast.alice)
    assert [alice.post("/api/v1/dispute-probe/", {}, format="json").status_code for _ in range(2)] == [200, 200]
    assert_throttled(alice.post("/api/v1/dispute-probe/", {}, format="json"), 60)
    assert client_for(cast.bob).post("/api/v1/dispute-probe/", {}, format="json").status_code == 200


def test_every_scope_has_a_rate():
    assert set(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]) == set(throttles.SCOPES)
    assert {throttle.scope for throttle in (*throttles.REPORTS, *throttles.DISPUTES, *throttles.UPLOADS,
                                            *throttles.ACCOUNTS, *throttles.RENDERS)} == set(throttles.SCOPES)


# --- settings ----------------------------------------------------------------------------------------

SHOW_RATES = """
import json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.conf import settings
from django.test import Client
print(json.dumps({"rates": settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                  "proxies": settings.REST_FRAMEWORK["NUM_PROXIES"],
                  "limit": settings.AXES_FAILURE_LIMIT, "cool_off": settings.AXES_COOLOFF_TIME.total_seconds()}))
"""


def test_rates_and_the_lockout_come_from_the_environment():
    import json

    defaults = run(["-c", SHOW_RATES])
    assert defaults.returncode == 0, defaults.stderr
    assert json.loads(defaults.stdout.splitlines()[-1]) == {
        "rates": {"anon": "600/minute", "user": "1200/minute", "reports": "30/minute", "disputes": "10/minute",
                  "uploads": "20/hour", "accounts": "20/minute", "renders": "60/minute",
                  "renders_anon": "10/minute"},
        "proxies": 0, "limit": 5, "cool_off": 900.0,
    }
    changed = run(["-c", SHOW_RATES], CRAWFORD_THROTTLE_REPORTS="7/hour", CRAWFORD_NUM_PROXIES="1",
                  CRAWFORD_LOGIN_FAILURE_LIMIT="3", CRAWFORD_LOGIN_COOLOFF_MINUTES="30",
                  CRAWFORD_THROTTLE_RENDERS_ANON="3/minute")
    shown = json.loads(changed.stdout.splitlines()[-1])
    assert shown["rates"]["reports"] == "7/hour" and shown["proxies"] == 1
    assert shown["rates"]["renders_anon"] == "3/minute"
    assert (shown["limit"], shown["cool_off"]) == (3, 1800.0)


@pytest.mark.parametrize("rate", ["lots", "0/minute", "30/fortnight", "30 per minute"])
def test_a_junk_rate_fails_loudly(rate):
    result = run(["-c", SHOW_RATES], CRAWFORD_THROTTLE_UPLOADS=rate)
    assert result.returncode != 0
    assert f"CRAWFORD_THROTTLE_UPLOADS={rate!r} is not a rate like 30/minute" in result.stderr
