"""Settings come from the environment only: each case runs Django in a fresh process with exactly
the variables given (plus PATH and HOME), as a server or a laptop would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "k7#Qz-p2!vL9@wX4$rT8^mN1&bY6*cU3(eH5)jF0_gD7+sA2=oI9"
PRODUCTION = {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": SECRET_KEY, "DJANGO_ALLOWED_HOSTS": "crawford.example"}

# Prints the settings the process ended up with; never touches the database.
SHOW = """
import json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.conf import settings
from config.celery import app
db = settings.DATABASES["default"]
print(json.dumps({
    "debug": settings.DEBUG,
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST"), "conn_max_age": db.get("CONN_MAX_AGE"),
    "cache": settings.CACHES["default"]["BACKEND"], "cache_location": settings.CACHES["default"].get("LOCATION"),
    "broker": app.conf.broker_url, "result_backend": app.conf.result_backend,
    "eager": app.conf.task_always_eager, "serializer": app.conf.task_serializer,
    "allowed_hosts": settings.ALLOWED_HOSTS, "email_backend": settings.EMAIL_BACKEND,
    "analysis_max_plies": settings.ANALYSIS_MAX_PLIES,
}))
"""


def run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    """Run ``python args`` in the project directory with only PATH, HOME and ``env`` set."""
    clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"), **env}
    return subprocess.run([sys.executable, *args], cwd=BASE_DIR, env=clean, capture_output=True, text=True,
                          timeout=120)


def show(**env: str) -> dict:
    result = run(["-c", SHOW], **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_production_environment_passes_the_deployment_checks():
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_a_production_environment_with_its_services_passes_the_deployment_checks():
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION,
                 DATABASE_URL="postgres://crawford:secret@db.crawford.example:5432/crawford",
                 REDIS_URL="redis://cache.crawford.example:6379/0")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"DJANGO_DEBUG": "false", "DJANGO_ALLOWED_HOSTS": "crawford.example"}, "DJANGO_SECRET_KEY must be set"),
        ({"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": SECRET_KEY}, "DJANGO_ALLOWED_HOSTS must be set"),
        ({**PRODUCTION, "DJANGO_SECRET_KEY": "short"}, "DJANGO_SECRET_KEY must be at least 50 characters"),
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG='maybe' is not a boolean"),
        ({"CONN_MAX_AGE": "forever"}, "CONN_MAX_AGE='forever' is not an integer"),
    ],
    ids=["no secret key", "no allowed hosts", "a short secret key", "a junk boolean", "a junk integer"],
)
def test_bad_settings_fail_loudly(env, named):
    result = run(["-c", SHOW], DATABASE_URL="postgres://db.example/crawford", **env)
    assert result.returncode != 0
    assert "django.core.exceptions.ImproperlyConfigured" in result.stderr and named in result.stderr


def test_nothing_set_gives_a_laptop_run_with_sqlite_and_eager_celery():
    shown = show()
    assert shown["debug"] is True
    assert shown["engine"] == "django.db.backends.sqlite3" and shown["name"] == str(BASE_DIR / "db.sqlite3")
    assert shown["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert (shown["eager"], shown["broker"], shown["serializer"]) == (True, "memory://", "json")
    assert shown["email_backend"] == "django.core.mail.backends.console.EmailBackend"
    assert "localhost" in shown["allowed_hosts"]


def test_database_url_selects_postgresql():
    shown = show(DATABASE_URL="postgres://crawford:secret@db.example:5433/crawford", CONN_MAX_AGE="30")
    assert shown["engine"] == "core.postgresql"
    assert (shown["name"], shown["host"], shown["conn_max_age"]) == ("crawford", "db.example", 30)


def test_redis_url_selects_the_redis_cache_broker_and_result_backend():
    shown = show(REDIS_URL="redis://cache.example:6379/2")
    assert shown["cache"] == "core.cache.FailOpenRedisCache"
    assert shown["cache_location"] == "redis://cache.example:6379/2"
    assert shown["broker"] == shown["result_backend"] == "redis://cache.example:6379/2"
    assert shown["eager"] is False


def test_production_values_come_from_the_environment():
    shown = show(**{**PRODUCTION, "DJANGO_ALLOWED_HOSTS": "crawford.example, www.crawford.example"})
    assert shown["debug"] is False
    assert shown["allowed_hosts"] == ["crawford.example", "www.crawford.example"]
    assert shown["email_backend"] == "django.core.mail.backends.smtp.EmailBackend"


def test_a_laptop_analyses_at_0_ply_and_a_site_with_a_broker_at_the_events_depth():
    """Without a broker the analysis runs in the request that confirmed the result (seconds at
    0-ply, minutes at 2-ply); with one, on the analysis queue at up to 2 plies; either can be set."""
    assert show()["analysis_max_plies"] == 0
    assert show(REDIS_URL="redis://cache.example:6379/2")["analysis_max_plies"] == 2
    assert show(CRAWFORD_ANALYSIS_MAX_PLIES="1")["analysis_max_plies"] == 1
