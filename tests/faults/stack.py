"""The fault-test harness: Crawford in its production shape on servers of its own, to stop and start.

A :class:`Stack` owns a Redis (:class:`RedisServer`), a PostgreSQL cluster (:class:`PostgresServer`)
and the service under gunicorn (:class:`Service`) with ``DJANGO_DEBUG=false``, all on free ports of
127.0.0.1 and never the shared servers on 5432/6379, plus any Celery worker or beat a test starts
(:meth:`Stack.worker`, :meth:`Stack.beat`). Emails go to files (Django's file-based backend) that
:meth:`Stack.emails` reads back; :meth:`Stack.sql` checks invariants on the private database.

Typical use in a test (the ``stack`` fixture of tests/faults/conftest.py builds it once per session
and puts Redis and PostgreSQL back up after each test)::

    def test_something(stack):
        stack.redis.stop()
        assert stack.get(f"/api/v1/matches/{stack.demo.match_id}/").status_code == 200
        worker = stack.worker(queues="celery")        # python -m celery -A config worker, ready
        stack.redis.start()                            # same port, empty (no persistence)
        worker.kill()                                  # SIGKILL to its whole process group
        assert stack.sql("SELECT count(*) FROM matches_match")[0][0] > 0
        assert len(stack.emails()) == 3

Every process is started in a session of its own with its output in a file under the stack's
folder (``Process.log()``), and everything is stopped, killed if need be, and removed by
:meth:`Stack.close`, whatever the tests did.
"""

from __future__ import annotations

import contextlib
import email
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import psycopg
import redis
import requests

BASE_DIR = Path(__file__).resolve().parent.parent.parent
#: 50+ characters, as DEBUG off requires; only ever used by the stack's own service.
SECRET_KEY = "faults-only-" + "k7Qzp2vL9wX4rT8mN1bY6cU3eH5jF0gD7sA2oI9" * 2


#: Given to every process of the stack (gunicorn, workers, beat alike, so that they agree): the
#: periodic jobs every second and a stalled import found after 3 s, so that a scenario recovers in
#: seconds rather than minutes; gunicorn skips the broker for 1 s after a failed publish. The
#: throttles are raised: the scenarios send hundreds of requests from one address and a few users,
#: and the throttles have tests of their own (tests/test_throttling.py).
FAULT_TIMINGS = {
    "CRAWFORD_OUTBOX_RELAY_SECONDS": "1", "CRAWFORD_OUTBOX_GRACE_SECONDS": "1",
    "CRAWFORD_OUTBOX_BROKER_DOWN_SECONDS": "1", "CRAWFORD_IMPORT_SWEEP_SECONDS": "1",
    "CRAWFORD_IMPORT_STALL_SECONDS": "3", "CRAWFORD_HEARTBEAT_SECONDS": "1",
    # An imported match is analysed: at 0-ply, a second or two, so a scenario's analyses end.
    "CRAWFORD_ANALYSIS_MAX_PLIES": "0",
    "CRAWFORD_THROTTLE_ANON": "100000/minute", "CRAWFORD_THROTTLE_USER": "100000/minute",
    "CRAWFORD_THROTTLE_REPORTS": "100000/minute", "CRAWFORD_THROTTLE_UPLOADS": "100000/hour",
}


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on just now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(what: str, ready, *, timeout: float = 60.0, interval: float = 0.1, log=None):
    """Call ``ready()`` until it returns something true (returned); fail after ``timeout`` seconds
    with ``what`` and, when given, the text ``log()`` returns."""
    deadline = time.monotonic() + timeout
    while True:
        result = ready()
        if result:
            return result
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not after {timeout:.0f} s" + (f"\n{log()}" if log else ""))
        time.sleep(interval)


class Process:
    """A subprocess of the stack, in a process group of its own, its output in ``log_path``."""

    def __init__(self, name: str, args: list[str], *, env: dict[str, str], log_path: Path, cwd: Path = BASE_DIR):
        self.name, self.args, self.env, self.cwd, self.log_path = name, args, env, cwd, log_path
        self.popen: subprocess.Popen | None = None

    def start(self) -> Process:
        with open(self.log_path, "ab") as log:
            self.popen = subprocess.Popen(self.args, cwd=self.cwd, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL, start_new_session=True)
        return self

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def log(self) -> str:
        """Everything the process has written so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def wait_for_log(self, pattern: str, *, timeout: float = 60.0) -> None:
        """Wait until the log matches the regular expression ``pattern``; fail if the process ends."""

        def seen():
            if re.search(pattern, self.log()):
                return True
            if not self.alive:
                raise RuntimeError(f"{self.name} ended before {pattern!r}:\n{self.log()}")
            return False

        wait_for(f"{self.name} to log {pattern!r}", seen, timeout=timeout, log=self.log)

    def signal(self, signum: int) -> None:
        """Send ``signum`` to the whole process group (a prefork worker's children too)."""
        if self.popen is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signum)

    def kill(self) -> None:
        """SIGKILL, as the out-of-memory killer or a pulled plug would; waits for it to be gone."""
        self.signal(signal.SIGKILL)
        if self.popen is not None:
            self.popen.wait(timeout=30)

    def terminate(self, *, timeout: float = 30.0) -> None:
        """SIGTERM (a warm shutdown), then SIGKILL if it is still there after ``timeout`` seconds."""
        if not self.alive:
            return
        self.signal(signal.SIGTERM)
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        # What is left of the group (a prefork child) goes too.
        self.signal(signal.SIGKILL)


class RedisServer:
    """``redis-server`` on a free port, nothing persisted: a restart comes back empty."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = Process("redis", ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                         "--save", "", "--appendonly", "no", "--daemonize", "no",
                                         "--dir", str(folder)],
                               env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, log_path=folder / "redis.log",
                               cwd=folder)

    @property
    def running(self) -> bool:
        return self.process.alive

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=5)

    def start(self) -> None:
        """Start it (on the same port as before) and wait until it answers."""
        if self.running:
            return
        self.process.start()

        def pong():
            try:
                return self.client().ping()
            except redis.RedisError:
                if not self.process.alive:
                    raise RuntimeError(f"redis-server ended:\n{self.process.log()}") from None
                return False

        wait_for("Redis to answer", pong, timeout=30, log=self.process.log)

    def stop(self) -> None:
        """Stop it at once (SIGKILL: no goodbye to its clients, as a crash or a network cut)."""
        self.process.kill()

    def pause(self) -> None:
        """Freeze it (SIGSTOP): connections are still taken by the kernel but nothing answers, as
        a Redis that hangs or a network that drops packets."""
        self.process.signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Let a paused Redis go on (SIGCONT; harmless when it was not paused)."""
        self.process.signal(signal.SIGCONT)

    def keys(self, pattern: str = "*") -> list[str]:
        """The keys stored now that match ``pattern``."""
        return sorted(key.decode() for key in self.client().scan_iter(pattern))


class PostgresServer:
    """A PostgreSQL cluster of its own (initdb in a temporary folder, trust auth, a free port).

    Run as root, the server runs as the ``postgres`` OS user (``runuser``), which owns the folder."""

    def __init__(self, folder: Path, *, database: str = "crawford"):
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.database = database
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/{database}"
        self.log_path = folder / "postgres.log"
        binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name))
        if not binaries:
            raise RuntimeError("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
        self.bin = Path(binaries[-1])
        self._as_owner: list[str] = []
        if os.geteuid() == 0:
            self._as_owner = ["runuser", "-u", "postgres", "--"]
            import pwd

            owner = pwd.getpwnam("postgres")
            os.chown(folder, owner.pw_uid, owner.pw_gid)
        self._run([str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                   "--no-sync", "--no-instructions"])
        self.running = False

    def _run(self, args: list[str]) -> None:
        result = subprocess.run([*self._as_owner, *args], capture_output=True, text=True, timeout=120,
                                stdin=subprocess.DEVNULL)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed:\n{result.stdout}\n{result.stderr}\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def start(self) -> None:
        """Start it (on the same port as before) and wait until it takes connections."""
        if self.running:
            return
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off "
                   "-c full_page_writes=off -c synchronous_commit=off -c max_connections=200")
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log_path), "-o", options,
                   "-w", "-t", "60", "start"])
        self.running = True

    def stop(self, *, mode: str = "fast") -> None:
        """``pg_ctl stop -m fast`` (sessions are ended, as in a restart) or ``immediate`` (a crash)."""
        if not self.running:
            return
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop"])
        self.running = False

    def destroy(self) -> None:
        """Stop the server whatever state it is in (``immediate``), for the teardown."""
        if (self.data / "postmaster.pid").exists():
            subprocess.run([*self._as_owner, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w",
                            "stop"], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
        self.running = False

    def create_database(self) -> None:
        with psycopg.connect(f"postgres://postgres@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.database}"')

    def sql(self, query: str, *params) -> list[tuple]:
        """The rows of ``query`` on the service's database (autocommit; none for a statement)."""
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            cursor = conn.execute(query, params or None)
            return cursor.fetchall() if cursor.description else []


@dataclass
class Demo:
    """Where the demo data (``manage.py demo_data``) put what the tests read."""

    match_id: int
    club_slug: str
    chouette_id: int
    organiser: str = "organiser"
    player: str = "alice"
    password: str = "crawford-demo"


class Browser:
    """A signed-in browser for the pages. The production service marks its cookies Secure and the
    stack speaks plain HTTP, so the cookies are kept here and sent by hand."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, **kwargs) -> requests.Response:
        headers = {**kwargs.pop("headers", {}), "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        response = requests.request(method, self.base_url + path, headers=headers, allow_redirects=False,
                                    timeout=kwargs.pop("timeout", 30), **kwargs)
        self.cookies.update({cookie.name: cookie.value for cookie in response.cookies})
        return response

    def get(self, path: str, **kwargs) -> requests.Response:
        return self.request("GET", path, **kwargs)

    def sign_in(self, username: str, password: str) -> requests.Response:
        """The sign-in page, as a person uses it: the form, its CSRF token, the POST (a 302 when it works)."""
        form = self.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text)
        if form.status_code != 200 or token is None:
            return form
        return self.request("POST", "/accounts/login/", data={"username": username, "password": password,
                                                              "csrfmiddlewaretoken": token.group(1)})


class Service:
    """``gunicorn config.wsgi`` (gthread, 2 workers of 2 threads) on a free port; or, given
    ``config``, gunicorn with that settings file (the production shape's config/gunicorn.conf.py) and only
    the port changed."""

    def __init__(self, stack: Stack, *, workers: int = 2, threads: int = 2, config: Path | None = None,
                 name: str = "gunicorn"):
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        if config is not None:
            options = ["-c", str(config)]
        else:
            options = ["config.wsgi", "--worker-class", "gthread", "--workers", str(workers), "--threads",
                       str(threads), "--timeout", "60", "--graceful-timeout", "5"]
        self.process = Process(name, [
            sys.executable, "-m", "gunicorn", *options, "--bind", f"127.0.0.1:{self.port}", "--no-control-socket",
        ], env=stack.env(), log_path=stack.folder / f"{name}.log")

    def start(self) -> None:
        self.process.start()

        def answers():
            if not self.process.alive:
                raise RuntimeError(f"gunicorn ended:\n{self.process.log()}")
            try:
                return requests.get(self.base_url + "/accounts/login/", timeout=5).status_code == 200
            except (requests.ConnectionError, requests.Timeout):
                # Not listening yet, or its first answer (the app loading) slower than 5 s on a
                # busy machine: either way, ask again until the minute is up.
                return False

        wait_for("gunicorn to answer", answers, timeout=60, log=self.process.log)

    def stop(self) -> None:
        self.process.terminate(timeout=15)


#: The production shape (docs/production.md): gunicorn's settings and nginx's site.
GUNICORN_CONF = BASE_DIR / "config" / "gunicorn.conf.py"
NGINX_SITE = BASE_DIR / "config" / "nginx" / "crawford.conf"
NGINX = "/usr/sbin/nginx"


def render_nginx(folder: Path, *, port: int, upstream_port: int) -> Path:
    """The repository's nginx site (config/nginx/crawford.conf) made runnable in ``folder``: its
    ``listen`` on 127.0.0.1:``port``, its upstream on ``upstream_port``, inside an nginx.conf of
    the folder's own (pid, logs and temporary files there, one worker, logging at ``info`` so
    that the clients nginx times out are in error.log; access.log names the upstream each request
    went to, ``upstream=-`` for none). Run as root, its workers stay root (the
    folder is root's); otherwise nginx runs as whoever starts it. The main file's path."""
    site = NGINX_SITE.read_text()
    site, listens = re.subn(r"^(\s*)listen 80;$", rf"\g<1>listen 127.0.0.1:{port};", site, flags=re.M)
    site, listens6 = re.subn(r"^\s*listen \[::\]:80;\n", "", site, flags=re.M)
    site, upstreams = re.subn(r"server 127\.0\.0\.1:8000;", f"server 127.0.0.1:{upstream_port};", site)
    if (listens, listens6, upstreams) != (1, 1, 1):
        raise RuntimeError(f"{NGINX_SITE}: expected one 'listen 80;', one 'listen [::]:80;' and one "
                           f"'server 127.0.0.1:8000;', found {listens}, {listens6}, {upstreams}")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "crawford.conf").write_text(site)
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    main = folder / "nginx.conf"
    main.write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"worker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} info;\n"
        + "events { worker_connections 1024; }\n"
        + "http {\n    log_format upstream '$request_method $request_uri $status upstream=$upstream_addr';\n"
        + f"    access_log {folder / 'access.log'} upstream;\n{temp}\n    include {folder / 'crawford.conf'};\n}}\n")
    return main


class Nginx:
    """nginx in front of ``upstream_port`` with the repository's site (:func:`render_nginx`), in
    the foreground, on a free port."""

    def __init__(self, folder: Path, *, upstream_port: int):
        self.folder = folder
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.conf = render_nginx(folder, port=self.port, upstream_port=upstream_port)
        self.process = Process("nginx", [NGINX, "-p", str(folder), "-c", str(self.conf), "-e",
                                         str(folder / "error.log"), "-g", "daemon off;"],
                               env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, log_path=folder / "nginx.out",
                               cwd=folder)

    def start(self) -> Nginx:
        self.process.start()

        def listening():
            if not self.process.alive:
                raise RuntimeError(f"nginx ended:\n{self.process.log()}\n{self.error_log()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return True
            except OSError:
                return False

        wait_for("nginx to listen", listening, timeout=30, log=self.error_log)
        return self

    def error_log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def access_log(self) -> list[str]:
        """One line a request: ``METHOD URI STATUS upstream=ADDRESS`` (``-`` when nginx answered it)."""
        path = self.folder / "access.log"
        return path.read_text(errors="replace").splitlines() if path.exists() else []

    def stop(self) -> None:
        self.process.terminate(timeout=10)


class Stack:
    """Redis, PostgreSQL, the service, and the workers and beat a test starts (see the module)."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="crawford-faults-"))
        os.chmod(self.folder, 0o755)  # the postgres user reaches its own folder inside
        (self.folder / "emails").mkdir()
        (self.folder / "pg").mkdir()
        self.processes: list[Process] = []
        self.redis = RedisServer(self.folder)
        try:
            self.postgres = PostgresServer(self.folder / "pg")
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        self.service: Service | None = None
        self.demo: Demo | None = None

    # --- the environment ------------------------------------------------------------------------

    def env(self, **extra: str) -> dict[str, str]:
        """The production environment of every process of the stack (``extra`` on top): DEBUG off,
        the private servers, emails as files in the stack's folder. Nothing of this process's
        environment leaks in but PATH and HOME."""
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
            "PYTHONUNBUFFERED": "1", "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": SECRET_KEY, "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_SECURE_SSL_REDIRECT": "false", "DJANGO_SECURE_HSTS_SECONDS": "0",
            "DATABASE_URL": self.postgres.url, "REDIS_URL": self.redis.url,
            "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "DJANGO_EMAIL_FILE_PATH": str(self.folder / "emails"),
            "DJANGO_STATIC_ROOT": str(self.folder / "static"), "CRAWFORD_MEDIA_ROOT": str(self.folder / "media"),
            **FAULT_TIMINGS,
            **extra,
        }

    def manage(self, *args: str, env: dict[str, str] | None = None, timeout: float = 300) -> str:
        """Run ``manage.py args`` in the stack's environment; its output (fails on a non-zero exit)."""
        result = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=self.env(**(env or {})),
                                capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        if result.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result.stdout

    def shell(self, code: str, **kwargs) -> str:
        """Run Python ``code`` in ``manage.py shell`` on the private database (the models are imported
        already); what it prints."""
        return self.manage("shell", "--verbosity", "0", "-c", code, **kwargs)

    # --- building and tearing down ---------------------------------------------------------------

    def start(self) -> Stack:
        """Start Redis and PostgreSQL, migrate, collect the static files, load the demo data and
        start gunicorn."""
        self.redis.start()
        self.postgres.start()
        self.postgres.create_database()
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        # The demo's result emails and ratings go through Celery: no worker runs yet, they wait in Redis.
        self.manage("demo_data")
        self.redis.client().flushall()
        self.demo = self._find_demo()
        self.service = Service(self)
        self.service.start()
        return self

    def _find_demo(self) -> Demo:
        [(match_id,)] = self.sql("SELECT min(id) FROM matches_match")
        [(slug, chouette_id)] = self.sql(
            "SELECT c.slug, s.id FROM clubs_chouettesession s JOIN clubs_club c ON c.id = s.club_id ORDER BY s.id LIMIT 1")
        return Demo(match_id=match_id, club_slug=slug, chouette_id=chouette_id)

    def ensure_up(self) -> None:
        """Redis and PostgreSQL running again, and no worker or beat left from a test."""
        for process in self.processes:
            process.terminate(timeout=10)
        self.processes.clear()
        self.redis.resume()
        self.redis.start()
        self.postgres.start()

    def close(self) -> None:
        """Stop everything, kill what does not stop, remove the folder; every step is taken even
        when one before it fails (the first failure is raised at the end)."""
        steps = [*(process.terminate for process in self.processes),
                 *([self.service.stop] if self.service is not None else []),
                 self.postgres.destroy, self.redis.stop]
        failures = []
        for step in steps:
            try:
                step()
            except Exception as error:
                failures.append(error)
        shutil.rmtree(self.folder, ignore_errors=True)
        if failures:
            raise failures[0]

    # --- what the tests use -----------------------------------------------------------------------

    def url(self, path: str) -> str:
        return self.service.base_url + path

    def get(self, path: str, **kwargs) -> requests.Response:
        kwargs.setdefault("timeout", 30)
        return requests.get(self.url(path), allow_redirects=False, **kwargs)

    def post(self, path: str, **kwargs) -> requests.Response:
        kwargs.setdefault("timeout", 30)
        return requests.post(self.url(path), allow_redirects=False, **kwargs)

    def token(self, username: str, password: str) -> str:
        """An API token through ``POST /api/v1/auth/token/``; use as ``headers={"Authorization": f"Token {t}"}``."""
        response = self.post("/api/v1/auth/token/", json={"username": username, "password": password})
        response.raise_for_status()
        return response.json()["token"]

    def browser(self) -> Browser:
        """A browser for the pages (sign in with ``browser.sign_in(username, password)``)."""
        return Browser(self.service.base_url)

    def sql(self, query: str, *params) -> list[tuple]:
        """Rows of ``query`` on the private database: check invariants, count rows."""
        return self.postgres.sql(query, *params)

    def emails(self) -> list[Message]:
        """Every email the stack's processes have sent so far (the file-based backend's files), in
        the order they were written: by the files' modification times, since their names (a time to
        the second and a number) do not sort in that order within one second."""
        messages = []
        files = (self.folder / "emails").glob("*.log")
        for path in sorted(files, key=lambda path: (path.stat().st_mtime_ns, path.name)):
            for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
                if chunk.strip():
                    messages.append(email.message_from_bytes(chunk))
        return messages

    def worker(self, *, queues: str | None = None, concurrency: int = 1, pool: str = "prefork",
               env: dict[str, str] | None = None, name: str | None = None, args: tuple[str, ...] = ()) -> Process:
        """A ``python -m celery -A config worker`` on the stack's Redis and database, ready to take
        tasks (``queues``: comma-separated, Celery's own default when None). Stopped after the test;
        ``kill()`` it to pull the plug, ``terminate()`` for a warm shutdown."""
        name = name or f"worker{len(self.processes)}"
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO", "-n", f"{name}@%h",
                   f"--pool={pool}", f"--concurrency={concurrency}", "--without-gossip", "--without-mingle", *args]
        if queues:
            command += ["-Q", queues]
        process = Process(name, command, env=self.env(**(env or {})), log_path=self.folder / f"{name}.log").start()
        self.processes.append(process)
        process.wait_for_log(rf"{re.escape(name)}@\S+ ready\.")
        return process

    def beat(self, *, env: dict[str, str] | None = None, args: tuple[str, ...] = ()) -> Process:
        """``python -m celery -A config beat`` with a schedule file of its own, started; stopped after the test."""
        name = f"beat{len(self.processes)}"
        command = [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
                   "-s", str(self.folder / f"{name}-schedule"), "--pidfile=", *args]
        process = Process(name, command, env=self.env(**(env or {})), log_path=self.folder / f"{name}.log").start()
        self.processes.append(process)
        process.wait_for_log(r"beat: Starting")
        return process
