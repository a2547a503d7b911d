"""Crawford's one settings module, driven by the environment (see .env.example).

Nothing set gives a laptop run: DEBUG on, a SQLite file, a local-memory cache, and tasks run from
the outbox table by worker processes that ``runserver`` starts (core/local_worker.py).
``DATABASE_URL`` selects PostgreSQL (psycopg 3), ``REDIS_URL`` Redis as the Celery broker, result
backend and cache. With ``DJANGO_DEBUG=false`` the secret key and allowed hosts
must be given; production differs from development only by these values.
"""

import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# --- core ------------------------------------------------------------------------------------
DEBUG = env_bool("DJANGO_DEBUG", True)
if DEBUG:
    SECRET_KEY = env_str("DJANGO_SECRET_KEY", "dev-only-insecure-key-never-use-in-production")
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
else:
    SECRET_KEY = env_str("DJANGO_SECRET_KEY", required=True)
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", required=True)
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be at least 50 characters with DEBUG off")

INSTALLED_APPS = [
    # The house's bottom layer: the task outbox, the local workers and the workers' heartbeats.
    # First, so that its runserver (which starts the local workers) wraps whitenoise's.
    "core",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    # Only for its table, which the accounts migration that moved the tokens reads: the API's tokens
    # are accounts.ApiToken (accounts/authentication.py).
    "rest_framework.authtoken",
    "axes",
    # Accounts: sign-up, email verification, password reset, email change (accounts/adapter.py).
    "allauth",
    "allauth.account",
    "drf_spectacular",
    # Swagger UI and ReDoc from our own static files, pinned with the package (SPECTACULAR_SETTINGS).
    "drf_spectacular_sidecar",
    # Country codes and their names in every language (a player's country: matches.countries).
    "django_countries",
    "audit",
    "accounts",
    "matches",
    # GNU Backgammon's analysis of recorded matches: above matches, below the events.
    "analysis",
    "tournaments",
    "clubs",
    "chouette",
    "rulings",
    # Webhooks: an event's or a club's results, pairings and rulings posted to a URL (on top of them all).
    "webhooks",
    # Above every app: the demo data (manage.py demo_data) fills them all through their services.
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.RequestSizeLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session, before CommonMiddleware (Django's order): the language cookie set by the
    # switcher (/i18n/setlang/), else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # After CommonMiddleware has checked the host: what a request causes (an outbox row, an email
    # sent later by a task) knows the address it came to (core/links.py).
    "core.middleware.RequestOriginMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "core.middleware.LockedMiddleware",
    # PostgreSQL unreachable or restarting: 503 with Retry-After, not a server error.
    "core.middleware.DatabaseUnavailableMiddleware",
    # A signed-in user reads the language he chose, before the cookie; signing out clears the cookie (core/i18n.py).
    "core.middleware.UserLanguageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # allauth's: keeps its sign-in stages (a sign-in waiting for its email verification) per request.
    "allauth.account.middleware.AccountMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
AUTH_USER_MODEL = "accounts.User"
# The lockout backend comes first: it refuses a locked-out username and address before any
# password is checked (see "sign-in lockout" below). allauth's backend is Django's ModelBackend
# that also takes the account's email address in place of the username (accounts/backends.py: never
# an address he asked to change to and has not verified).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.AuthenticationBackend",
]
# A password is at least 10 characters, not a common one, not all digits, not like the username.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "matches:mine"
LOGOUT_REDIRECT_URL = "login"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGE_CODE and LANGUAGE_BIDI for base.html's <html lang dir>, LANGUAGES for the switcher.
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database --------------------------------------------------------------------------------
# Services own their transactions (explicit atomic blocks); ATOMIC_REQUESTS stays off so that
# tasks and management commands get the same guarantees as requests.
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    # A kept connection is checked before each request's first query: after PostgreSQL restarts,
    # a request gets a new connection instead of an error on the dead one.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("CONN_MAX_AGE", 60),
                                                  conn_health_checks=True)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Django's backend, with a health check that needs no round trip while the connection's
        # socket is quiet (core/postgresql/base.py).
        DATABASES["default"]["ENGINE"] = "core.postgresql"
        # No row lock is waited for longer than this (core/locking.py): past it the request is
        # answered 409 with Retry-After and changes nothing, instead of hanging behind another.
        LOCK_TIMEOUT_MS = env_int("CRAWFORD_LOCK_TIMEOUT_MS", 10_000)
        DATABASES["default"].setdefault("OPTIONS", {})["options"] = f"-c lock_timeout={LOCK_TIMEOUT_MS}"
else:
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The laptop's SQLite file is written by the web server and by its task workers, each a process
    # of its own (core/local_worker.py): write-ahead logging lets pages read while a worker writes,
    # and every transaction takes the write lock when it begins (IMMEDIATE), so two writers queue
    # for it (up to the timeout) instead of one failing at once with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20,
         "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- cache, Celery ---------------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    # Fails open (core/cache.py): with Redis down, reads miss and writes are skipped, so pages and
    # the API answer from the database. No cache call waits longer than the socket timeouts, and
    # after a failure none tries Redis again for retry_seconds.
    # One Redis client (and pool of connections) per process, shared by every thread's cache
    # object: no client is built per operation (core/cache.py, PooledRedisCacheClient).
    # Every key starts with the prefix (tests give each of their processes its own, so that they
    # share one Redis database); clearing the cache removes only its own keys (core/cache.py).
    CACHES = {"default": {"BACKEND": "core.cache.FailOpenRedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": env_str("CRAWFORD_CACHE_KEY_PREFIX", ""),
                          "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5, "retry_seconds": 5}}}
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = None
    # No broker configured: nothing is ever sent to one (a task called directly runs in-process).
    CELERY_TASK_ALWAYS_EAGER = True
# Without a broker (no REDIS_URL: the laptop) the outbox table is the queue: worker processes of
# this machine run its rows (core/local_worker.py; `manage.py runserver` starts one per queue,
# `manage.py outbox_worker` runs one alone), never the web server's request threads. A worker polls
# for new rows every LOCAL_WORKER_POLL_MS.
LOCAL_TASKS = env_bool("CRAWFORD_LOCAL_TASKS", not REDIS_URL)
LOCAL_WORKER_POLL_SECONDS = env_int("CRAWFORD_LOCAL_WORKER_POLL_MS", 250) / 1000
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
# Nobody reads a task's result (tasks change rows, the rows are the result); storing none also
# spares every dispatch the result backend's subscription, which retries for ~19 s when Redis is down.
CELERY_TASK_IGNORE_RESULT = True
# The quick tasks' limits (emails, ratings, rulings notices, the relay, the sweeper, heartbeats).
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 300)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 360)
# Imports have limits of their own, longer: a job of a thousand files takes minutes
# (matches/tasks_imports.py). Their soft limit ends the job cleanly (its remaining files failed
# with a reason); the hard limit kills the worker's child.
IMPORT_SOFT_TIME_LIMIT = env_int("CRAWFORD_IMPORT_SOFT_TIME_LIMIT", 1740)
IMPORT_TIME_LIMIT = env_int("CRAWFORD_IMPORT_TIME_LIMIT", 1800)
# The analysis of one match (analysis/tasks.py) has its own limits too: a 25-point match at 2-ply
# takes minutes on one core. The soft limit fails the run with a reason a person reads; the hard
# one kills the worker's child (the task goes back to the queue, and its next run fails it:
# analysis.services).
ANALYSIS_TIME_LIMIT = env_int("CRAWFORD_ANALYSIS_TIME_LIMIT", 1800)
ANALYSIS_SOFT_TIME_LIMIT = env_int("CRAWFORD_ANALYSIS_SOFT_TIME_LIMIT", max(ANALYSIS_TIME_LIMIT - 60, 1))
# How deep a match outside any event is analysed (0, 1 or 2 plies); an event says its own
# (Tournament.analysis_plies). A run writes its progress at most every ANALYSIS_PROGRESS_SECONDS.
ANALYSIS_PLIES = env_int("CRAWFORD_ANALYSIS_PLIES", 2)
if ANALYSIS_PLIES not in (0, 1, 2):
    raise ImproperlyConfigured(f"CRAWFORD_ANALYSIS_PLIES={ANALYSIS_PLIES} is not 0, 1 or 2")
ANALYSIS_PROGRESS_SECONDS = env_int("CRAWFORD_ANALYSIS_PROGRESS_MS", 500) / 1000
# How many processes share the games of one match's analysis (its worker and helpers it starts
# once and keeps: analysis.gnubg_adapter). Each game's figures are the same however many; a long
# match is done that many times sooner where the cores are free. 1: the worker alone.
ANALYSIS_PROCESSES = env_int("CRAWFORD_ANALYSIS_PROCESSES", 2)
if ANALYSIS_PROCESSES < 1:
    raise ImproperlyConfigured(f"CRAWFORD_ANALYSIS_PROCESSES={ANALYSIS_PROCESSES} is below 1")
# The analyses' sweeper (every ANALYSIS_SWEEP_SECONDS) sends again an analysis running without
# progress for ANALYSIS_STALL_SECONDS (its worker died: a run writes its progress as gnubg
# finishes each game, at most every ANALYSIS_PROGRESS_SECONDS, and one game takes well under a
# minute at 2-ply), at most ANALYSIS_MAX_REDISPATCH times; then it fails with a reason.
ANALYSIS_SWEEP_SECONDS = env_int("CRAWFORD_ANALYSIS_SWEEP_SECONDS", 30)
ANALYSIS_STALL_SECONDS = env_int("CRAWFORD_ANALYSIS_STALL_SECONDS", 300)
ANALYSIS_MAX_REDISPATCH = env_int("CRAWFORD_ANALYSIS_MAX_REDISPATCH", 2)
# The deepest analysis this site runs, whatever an event asks. Without a broker one local worker
# process analyses every match in turn (core/local_worker.py): 0-ply takes half a second for a
# 7-point match, 2-ply ten seconds or more, so a laptop (no REDIS_URL) analyses at 0-ply unless
# told otherwise and a Saturday's matches are analysed as fast as they are played.
ANALYSIS_MAX_PLIES = env_int("CRAWFORD_ANALYSIS_MAX_PLIES", 2 if REDIS_URL else 0)
if ANALYSIS_MAX_PLIES not in (0, 1, 2):
    raise ImproperlyConfigured(f"CRAWFORD_ANALYSIS_MAX_PLIES={ANALYSIS_MAX_PLIES} is not 0, 1 or 2")
# Tests only: the number of first attempts of each analysis run that fail with a transient
# database error before any work, so that a real worker's retry can be seen (tests/analysis).
ANALYSIS_FAIL_FIRST = env_int("CRAWFORD_ANALYSIS_FAIL_FIRST", 0)
# The analyses a player's own match-file imports queue by themselves, per uploading user and
# rolling 24 hours: past this many the imported match is simply not analysed on its own (its
# director may still ask for it). Staff's imports and an event's own (its director importing for
# it) are not counted. Those analyses also wait behind every other (a lower priority: the
# broker's priority lists below).
ANALYSIS_UPLOADS_PER_DAY = env_int("CRAWFORD_ANALYSIS_UPLOADS_PER_DAY", 20)
# A task is acknowledged when it has run, not when it is received, and a task whose worker died
# (kill -9, out of memory) goes back to the queue: with the outbox and idempotent tasks, running a
# task twice is harmless, losing it is not.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Redis gives an unacknowledged message to another worker after the visibility timeout: it must be
# longer than the longest task may run (the imports' hard limit), or a running import would be
# handed to a second worker while the first still works on it.
#
# A message's priority (OutboxTask.priority, 0 to 9) puts it in one of a queue's lists on Redis:
# kombu keeps a list per step of BROKER_PRIORITY_STEPS (a priority goes to the highest step not
# above it; step 0 is the queue's own name, the others its name, BROKER_PRIORITY_SEP and the
# step) and a worker takes from them in the steps' order: the LOWER number is served first.
# Given here explicitly (kombu's own defaults) because /health/ counts a queue's waiting messages
# over the same lists (core.health.queue_lengths).
BROKER_PRIORITY_STEPS = [0, 3, 6, 9]
BROKER_PRIORITY_SEP = "\x06\x16"
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": max(IMPORT_TIME_LIMIT, ANALYSIS_TIME_LIMIT,
                                                                CELERY_TASK_TIME_LIMIT) + 60,
                                   "priority_steps": BROKER_PRIORITY_STEPS, "sep": BROKER_PRIORITY_SEP}
# One message at a time per worker process: a long import never holds quick tasks behind it.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# --- queues and the task outbox (core/outbox.py) ------------------------------------------------
# Three queues: "imports" for the long import jobs, "analysis" for GNU Backgammon's analysis of a
# match (CPU-bound, minutes; its workers may run on other machines: docs/production.md, "Production shape"),
# "quick" for everything else, so neither delays another user's email or rating. Each queue's real name is the prefix plus
# its name: the tests give their workers a prefix of their own so that no two runs share a queue.
QUEUE_PREFIX = env_str("CRAWFORD_QUEUE_PREFIX", "")
QUEUES = ("quick", "imports", "analysis")
# The queue of each task that does not go to "quick".
TASK_QUEUES = {"matches.tasks_imports.import_job_run_task": "imports",
               "analysis.tasks.match_analysis_task": "analysis"}
CELERY_TASK_DEFAULT_QUEUE = f"{QUEUE_PREFIX}quick"
CELERY_TASK_ROUTES = {name: {"queue": f"{QUEUE_PREFIX}{queue}"} for name, queue in TASK_QUEUES.items()}
# A dispatch after commit gives the broker this long to answer, and tries once: when Redis is
# down the request is answered at once and the task waits in the outbox for the relay. After a
# failure the broker is taken to be down for OUTBOX_BROKER_DOWN_SECONDS (no dispatch is tried).
BROKER_TIMEOUT_SECONDS = env_int("CRAWFORD_BROKER_TIMEOUT_MS", 1000) / 1000
OUTBOX_BROKER_DOWN_SECONDS = env_int("CRAWFORD_OUTBOX_BROKER_DOWN_SECONDS", 5)
# The relay (beat, every OUTBOX_RELAY_SECONDS) sends the rows not sent OUTBOX_GRACE_SECONDS after
# they were written (younger ones are still being dispatched after their commit) and sends again
# the rows sent but not done after OUTBOX_RESEND_SECONDS of their queue: longer than a task of
# that queue may run, so a task still running is not sent twice; a message lost with Redis (it
# keeps nothing on disk here) is sent again then. At most OUTBOX_BATCH rows a run, and a row is
# sent at most OUTBOX_MAX_ATTEMPTS times (then a person looks: /health/ counts them).
OUTBOX_RELAY_SECONDS = env_int("CRAWFORD_OUTBOX_RELAY_SECONDS", 30)
OUTBOX_GRACE_SECONDS = env_int("CRAWFORD_OUTBOX_GRACE_SECONDS", 10)
# Each web server process also runs the relay on a thread of its own (beat's relay aside): a
# stopped beat then loses nothing (core/outbox.py relay_in_process_start, config/wsgi.py).
OUTBOX_RELAY_IN_WEB = env_bool("CRAWFORD_OUTBOX_RELAY_IN_WEB", True)
# Redis keeps its queues in memory here: the relay asks its uptime, and sends again at once every
# row sent before it last started and not done (lost with the restart), rather than after the
# queue's resend time (half an hour for analyses and imports).
OUTBOX_RESEND_AFTER_BROKER_RESTART = env_bool("CRAWFORD_OUTBOX_RESEND_AFTER_BROKER_RESTART", True)
_RESEND = env_int("CRAWFORD_OUTBOX_RESEND_SECONDS", 0)
OUTBOX_RESEND_SECONDS = {"quick": _RESEND or CELERY_TASK_TIME_LIMIT + 60,
                         "imports": _RESEND or CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] + 60,
                         "analysis": _RESEND or CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] + 60}
OUTBOX_BATCH = env_int("CRAWFORD_OUTBOX_BATCH", 500)
OUTBOX_MAX_ATTEMPTS = env_int("CRAWFORD_OUTBOX_MAX_ATTEMPTS", 10)
# Rows done are kept this many days (to see what was sent), then pruned (hourly).
OUTBOX_KEEP_DAYS = env_int("CRAWFORD_OUTBOX_KEEP_DAYS", 7)
# Each queue's workers record a heartbeat every HEARTBEAT_SECONDS; /health/ calls a queue stale
# when its last one is older than HEARTBEAT_STALE_SECONDS (a busy imports worker is stale too:
# it takes no new job until its import ends).
HEARTBEAT_SECONDS = env_int("CRAWFORD_HEARTBEAT_SECONDS", 30)
HEARTBEAT_STALE_SECONDS = env_int("CRAWFORD_HEARTBEAT_STALE_SECONDS", 4 * HEARTBEAT_SECONDS)
# /health/ is degraded when an outbox row has waited unsent this long, or has been sent and not done
# this long past its queue's resend time (core/health.py outbox_overdue), and when an analysis has
# been running without progress for ANALYSIS_STUCK_SECONDS (its worker died, or hangs).
HEALTH_OUTBOX_STALE_SECONDS = env_int("CRAWFORD_HEALTH_OUTBOX_STALE_SECONDS", 120)
# /health/ is degraded when a queue holds messages and none of its workers took any (its heartbeat,
# itself a message of the queue) for this long.
HEALTH_QUEUE_IDLE_SECONDS = env_int("CRAWFORD_HEALTH_QUEUE_IDLE_SECONDS", 60)
ANALYSIS_STUCK_SECONDS = env_int("CRAWFORD_ANALYSIS_STUCK_SECONDS", 300)
# The sweeper (every IMPORT_SWEEP_SECONDS) sends again an import queued or running without
# progress for IMPORT_STALL_SECONDS (its worker died: it resumes at its first pending file), at
# most IMPORT_MAX_REDISPATCH times; then its remaining files fail with a reason and it is done.
# A file takes at most a few seconds within the parse limits (MAX_LOG_GAMES, MAX_LOG_ACTIONS), so
# two minutes without one done means the job's worker is gone.
IMPORT_SWEEP_SECONDS = env_int("CRAWFORD_IMPORT_SWEEP_SECONDS", 30)
IMPORT_STALL_SECONDS = env_int("CRAWFORD_IMPORT_STALL_SECONDS", 120)
IMPORT_MAX_REDISPATCH = env_int("CRAWFORD_IMPORT_MAX_REDISPATCH", 3)

# Webhooks (webhooks/services.py): the waits in seconds after a delivery's 1st, 2nd ... failed
# attempt; one attempt more than waits, then the delivery fails for good. Plain http to this
# computer is taken only with DEBUG on (WEBHOOKS_LOCAL_HTTP, webhooks/transport.py).
WEBHOOKS_BACKOFF = tuple(int(wait) for wait in env_list("CRAWFORD_WEBHOOKS_BACKOFF", ["30", "120", "600", "3600", "21600"]))


def _env_rate(name: str, default: str) -> str:
    """A DRF throttle rate such as ``30/minute`` (per second, minute, hour or day) from the environment."""
    value = env_str(name, default)
    if not re.fullmatch(r"[1-9][0-9]*/(s|sec|second|m|min|minute|h|hour|d|day)", value):
        raise ImproperlyConfigured(f"{name}={value!r} is not a rate like 30/minute")
    return value


# --- REST API --------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.PlayerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # DRF's parsers, with a JSON parser that bounds a body's size and nesting (core/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["core.parsers.JSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_PAGINATION_CLASS": "core.api.Pagination",
    "PAGE_SIZE": 25,
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_THROTTLE_CLASSES": ["core.throttles.AnonThrottle", "core.throttles.UserThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        scope: _env_rate(f"CRAWFORD_THROTTLE_{scope.upper()}", default)
        for scope, default in (("anon", "600/minute"), ("user", "1200/minute"), ("reports", "30/minute"),
                               ("disputes", "10/minute"), ("uploads", "20/hour"), ("accounts", "20/minute"),
                               # An event's bracket images and paper sheets drawn afresh (a kept one
                               # is not counted): per user, and lower per anonymous address.
                               ("renders", "60/minute"), ("renders_anon", "10/minute"))
    },
    # Without it DRF would take any client's X-Forwarded-For at its word; behind one proxy
    # (docs/production.md, "Production shape") set CRAWFORD_NUM_PROXIES=1.
    "NUM_PROXIES": env_int("CRAWFORD_NUM_PROXIES", 0),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Crawford API",
    "DESCRIPTION": "Backgammon matches, results, match files and ratings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # The error answers that come from the plumbing (authentication, throttles, CSRF, body parsing,
    # pagination) are documented on every operation they can reach.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "config.schema.document_common_errors"],
    # Two fields named "decision" (an appeal's, a match consent's) take different choices.
    "ENUM_NAME_OVERRIDES": {"DecisionEnum": "rulings.models.Appeal.Decision",
                            "ConsentDecisionEnum": "matches.services.consent.DECISIONS",
                            "ChouetteRecordKindEnum": "chouette.api.serializers.RECORD_KINDS",
                            "TournamentKindEnum": "tournaments.models.Tournament.Kind"},
    # The docs pages load Swagger UI and ReDoc from the service's own static files (no CDN: they
    # work offline and behind a strict CSP), the versions pinned by drf-spectacular-sidecar.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- sign-in lockout (django-axes) ------------------------------------------------------------
# After CRAWFORD_LOGIN_FAILURE_LIMIT failed sign-ins for one username from one address (the page
# and the API token endpoint alike), that pair is refused for CRAWFORD_LOGIN_COOLOFF_MINUTES with
# a 429. The pair, not the username alone: a stranger cannot lock a player out of his account.
AXES_FAILURE_LIMIT = env_int("CRAWFORD_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("CRAWFORD_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Attempts during a lockout do not restart it: the Retry-After we answer stays true.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "core.throttles.client_ip"
# An email address typed to sign in counts against its account's username (accounts/lockout.py).
AXES_USERNAME_CALLABLE = "accounts.lockout.lockout_username"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
# Failed attempts are kept in the database (what the lockout needs, visible in the admin); a log of
# every successful sign-in would grow without end and hold addresses we have no use for.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_DISABLE_ACCESS_LOG = True

# --- accounts (django-allauth) ----------------------------------------------------------------
# Sign-up asks a username, an email address, a password (twice) and the display name others see
# (accounts/forms.py); sign-in takes the username or the email address. An account signs in only
# once its address is verified (the link in the email). Every email goes through the task outbox
# (accounts/adapter.py). A person has one address: changing it sends a link to the new one, and
# the old one stays until the new one is verified.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"login": "accounts.forms.SignInForm", "signup": "accounts.forms.SignUpForm",
                 "reset_password": "accounts.forms.PasswordResetForm", "add_email": "accounts.forms.EmailChangeForm",
                 "change_password": "accounts.forms.PasswordChangeForm", "set_password": "accounts.forms.PasswordSetForm",
                 "reset_password_from_key": "accounts.forms.PasswordResetKeyForm",
                 "reauthenticate": "accounts.forms.ConfirmPasswordForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
# Signed in until he signs out (two weeks, Django's session age), as before allauth: no "remember me".
ACCOUNT_SESSION_REMEMBER = True
# The sign-in page stays a form for someone signed in (sent there by a page his account cannot
# open, he may sign in as another); the sign-up page sends him home (accounts/views.py).
ACCOUNT_AUTHENTICATED_LOGIN_REDIRECTS = False
# allauth names a user by his display name (accounts/adapter.py), never by his username.
ACCOUNT_USER_DISPLAY = "accounts.adapter.user_display"
# Confirming it is him again (before a sensitive change) is by his password only: no sign-in code
# (its pages are not routed, accounts/urls.py).
ACCOUNT_REAUTHENTICATION_METHODS = ("password",)
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Crawford] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = env_int("CRAWFORD_EMAIL_CONFIRMATION_DAYS", 3)
# allauth's own limits where they count per email address (how many verification and reset emails
# one inbox gets); the per-address limits of sign-in, sign-up and reset are the API's throttles
# (scope "accounts", on the pages too: accounts/throttling.py), and failed sign-ins are
# django-axes' (below), so allauth's own are off: one count, one 429, one Retry-After.
ACCOUNT_RATE_LIMITS = {
    "login": None, "login_failed": None, "signup": None, "reset_password_from_key": None,
    "reset_password": env_str("CRAWFORD_RESET_EMAILS_PER_ADDRESS", "5/h/key"),
    "confirm_email": env_str("CRAWFORD_VERIFICATION_EMAILS_PER_ADDRESS", "1/3m/key"),
}

# --- links in emails (core/links.py) -----------------------------------------------------------
# Where the site is served (https://crawford.example.org): every link in every email is built on
# it (emails are sent by workers, away from any request). Empty (a laptop), a link is built on the
# address of the request that caused the email, kept on its outbox row.
CRAWFORD_SITE_URL = env_str("CRAWFORD_SITE_URL", "")

# --- invitations of walk-in players (matches/services/invitations.py) --------------------------
# How long an invitation's link works; a new invitation replaces the player's open one.
CRAWFORD_INVITATION_DAYS = env_int("CRAWFORD_INVITATION_DAYS", 30)
# How many invitations one user may send in 24 hours, and how many one address may receive in 24
# hours whoever sends them: an invitation is an email to an address the sender typed, so without
# a limit anyone who runs a club could send a stranger any number of them.
CRAWFORD_INVITATIONS_PER_SENDER = env_int("CRAWFORD_INVITATIONS_PER_SENDER", 20)
CRAWFORD_INVITATIONS_PER_ADDRESS = env_int("CRAWFORD_INVITATIONS_PER_ADDRESS", 3)

# --- uploads ---------------------------------------------------------------------------------
# A match file or an import is at most 2 MB (and a game log at most 10,000 actions): enough for
# any real match, small enough that a request cannot tie up a worker.
MAX_UPLOAD_BYTES = env_int("CRAWFORD_MAX_UPLOAD_BYTES", 2 * 1024 * 1024)
MAX_LOG_ACTIONS = env_int("CRAWFORD_MAX_LOG_ACTIONS", 10_000)
# The most games one match file may hold: an N-point match has at most 2N - 1 games (49 in a
# 25-point match) and a long money session a few hundred. Games without actions (a resignation at
# the start) are three short lines each, so without this bound a 2 MB file holds 40,000 of them and
# the action limit never stops it.
MAX_LOG_GAMES = env_int("CRAWFORD_MAX_LOG_GAMES", 500)
# How long a ruling on a match outside an event may be appealed (an event sets its own).
APPEAL_MINUTES = env_int("CRAWFORD_APPEAL_MINUTES", 60)
# The whole body of one request: an import of several files at most (config/middleware.py).
MAX_REQUEST_BYTES = env_int("CRAWFORD_MAX_REQUEST_BYTES", 10 * MAX_UPLOAD_BYTES)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES + 64 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES + 64 * 1024
MEDIA_ROOT = Path(env_str("CRAWFORD_MEDIA_ROOT", str(BASE_DIR / "media")))

# --- an event's renders (tournaments/drawings/renders.py) ---------------------------------------
# The bracket's SVG and PNG and the paper sheets (PDF) are kept in the cache once drawn, under the
# event's version, for RENDER_CACHE_SECONDS: as the pages' cached reads, that bounds how long a
# renamed player shows under his old name (a rename does not move the version). A round's
# scoresheets of more than RENDER_TASK_SCORESHEETS matches (a page a match), and a draw sheet,
# results sheet or bracket SVG or PNG of more than RENDER_TASK_MATCHES (a box or a line a match),
# are drawn by a task on the quick queue, not in the request: the page answers 202 and asks again
# until the file is kept.
RENDER_CACHE_SECONDS = env_int("CRAWFORD_RENDER_CACHE_SECONDS", 300)
RENDER_TASK_SCORESHEETS = env_int("CRAWFORD_RENDER_TASK_SCORESHEETS", 32)
RENDER_TASK_MATCHES = env_int("CRAWFORD_RENDER_TASK_MATCHES", 256)

# --- email -----------------------------------------------------------------------------------
EMAIL_BACKEND = env_str(
    "DJANGO_EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
# Where django.core.mail.backends.filebased.EmailBackend writes (the fault tests count emails there).
EMAIL_FILE_PATH = env_str("DJANGO_EMAIL_FILE_PATH")
EMAIL_HOST = env_str("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 25)
# An SMTP relay's account and encryption (sign-up and password reset emails need a real relay).
EMAIL_HOST_USER = env_str("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("DJANGO_EMAIL_USE_SSL", False)
# A mail server that does not answer fails the task (retried by the outbox), never hangs a worker.
EMAIL_TIMEOUT = env_int("DJANGO_EMAIL_TIMEOUT", 10)
# Where the file-based email backend (DJANGO_EMAIL_BACKEND=...filebased.EmailBackend) writes.
EMAIL_FILE_PATH = env_str("DJANGO_EMAIL_FILE_PATH", str(BASE_DIR / "sent-emails"))
DEFAULT_FROM_EMAIL = env_str("DJANGO_DEFAULT_FROM_EMAIL", "Crawford <noreply@crawford.invalid>")

# --- static files, i18n ----------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
LANGUAGE_CODE = "en"
# The catalogs: locale/<language>/LC_MESSAGES/django.po (pages, messages) and djangojs.po (scripts).
LOCALE_PATHS = [BASE_DIR / "locale"]
# The languages a user may prefer (accounts.User.Language): each named in itself.
LANGUAGES = [("en", "English"), ("ko", "한국어"), ("ar", "العربية"), ("ro", "Română")]
# The switcher's choice (/i18n/setlang/) lives in this cookie for a year, or until he signs out
# (core.middleware.UserLanguageMiddleware clears it): sent only over HTTPS in production, never read
# by a script (the JavaScript catalog comes from the server).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SECURE = not DEBUG
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Dates and numbers in each language's own way (config/formats/<language>, over Django's): templates
# name a format (date:"DATE_FORMAT", "DATETIME_FORMAT", "SHORT_DATE_FORMAT", |datetime_seconds),
# never spell one out; English keeps the house's "2 Dec 2026". USE_THOUSAND_SEPARATOR stays off:
# it would group every number a template writes, ids in links included; a figure that wants its
# thousands grouped asks for it (floatformat:"2g").
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- security (checked by `manage.py check --deploy` with DEBUG off) -----------------------------
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
    # django-axes announces itself on every start and every reset at INFO; its lockouts are WARNING.
    "loggers": {"axes": {"level": "WARNING"}},
}
