"""The production shape (docs/production.md) behind nginx: idle and slow clients never reach gunicorn.

gunicorn runs with the repository's settings file (config/gunicorn.conf.py: gthread, 4 workers of
4 threads) and nginx with the repository's site (config/nginx/crawford.conf), both on free ports
of the stack's own PostgreSQL and Redis. The same load is sent through nginx and straight to
gunicorn: 64 connections opened and left silent (a browser's spare keep-alive connections), 16
slowloris connections (a request's first line, then a header byte a second, never ending), and
while they are open, 30 ordinary GETs at once (an API list and a page; a request not answered in
10 s counts as failed). Through nginx every GET answers and nginx closes each slowloris
connection after its header timeout; straight to gunicorn the idle and slow connections hold
every thread and the GETs time out (printed, for the comparison, not asserted: that is the
problem nginx is there for).
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest
import requests

from tests.faults.stack import GUNICORN_CONF, Nginx, Service, wait_for

pytestmark = pytest.mark.slow

IDLE = 64
SLOWLORIS = 16
ORDINARY = 30
#: A GET not answered within this many seconds failed.
REQUEST_TIMEOUT = 10
#: config/nginx/crawford.conf's client_header_timeout.
HEADER_TIMEOUT = 10
#: How long a slowloris client keeps going if nobody closes it.
SLOWLORIS_CAP = HEADER_TIMEOUT + 8


@dataclass
class Load:
    """What the idle, slowloris and ordinary clients met at one address."""

    statuses: list = field(default_factory=list)  # each GET's status, or the exception's name
    seconds: list = field(default_factory=list)  # each GET's time to its answer or failure
    wall: float = 0.0  # from the first GET sent to the last answered or failed
    slow_closed: list = field(default_factory=list)  # seconds until the server closed each slowloris connection, or None

    @property
    def answered(self) -> int:
        return sum(status == 200 for status in self.statuses)

    def summary(self, name: str) -> str:
        closed = [s for s in self.slow_closed if s is not None]
        return (f"{name}: {self.answered}/{len(self.statuses)} GETs answered 200 in {self.wall:.1f} s "
                f"(slowest {max(self.seconds):.1f} s; others: {sorted(set(map(str, self.statuses)) - {'200'})}); "
                f"slowloris closed by the server: {len(closed)}/{len(self.slow_closed)}"
                + (f" after {min(closed):.1f}-{max(closed):.1f} s" if closed else ""))


def slowloris(port: int, stop: threading.Event, results: list, index: int) -> None:
    """Send a request's first line and Host, then a byte of a header that never ends every second,
    until the server closes the connection (the seconds it took go into ``results[index]``) or
    :data:`SLOWLORIS_CAP` or ``stop``."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        try:
            sock.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            while time.monotonic() - start < SLOWLORIS_CAP and not stop.is_set():
                readable, _, _ = select.select([sock], [], [], 1.0)
                if readable and not sock.recv(4096):
                    break
                sock.send(b"x")
            else:
                return
        except OSError:  # reset by the server, or a write to a closed connection
            pass
        results[index] = time.monotonic() - start


def get(url: str) -> tuple[object, float]:
    start = time.monotonic()
    try:
        status = requests.get(url, timeout=REQUEST_TIMEOUT, allow_redirects=False).status_code
    except requests.RequestException as error:
        status = type(error).__name__
    return status, time.monotonic() - start


def send_load(port: int, paths: list[str]) -> Load:
    """The idle and slowloris connections to ``port``, then the ordinary GETs while they are open;
    every connection closed before it returns."""
    load = Load(slow_closed=[None] * SLOWLORIS)
    stop = threading.Event()
    idle = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(IDLE)]
    slow = [threading.Thread(target=slowloris, args=(port, stop, load.slow_closed, i), daemon=True)
            for i in range(SLOWLORIS)]
    try:
        for thread in slow:
            thread.start()
        time.sleep(1.5)  # every connection taken by the server
        urls = [f"http://127.0.0.1:{port}{paths[i % len(paths)]}" for i in range(ORDINARY)]
        start = time.monotonic()
        with ThreadPoolExecutor(max_workers=ORDINARY) as pool:
            for status, seconds in pool.map(get, urls):
                load.statuses.append(status)
                load.seconds.append(seconds)
        load.wall = time.monotonic() - start
        for thread in slow:
            thread.join(timeout=SLOWLORIS_CAP + 5)
    finally:
        stop.set()
        for sock in idle:
            with contextlib.suppress(OSError):
                sock.close()
        for thread in slow:
            thread.join(timeout=5)
    return load


@pytest.fixture
def production(stack):
    """gunicorn with config/gunicorn.conf.py and nginx with config/nginx/crawford.conf in front."""
    service = Service(stack, config=GUNICORN_CONF, name="gunicorn-conf")
    proxy = Nginx(stack.folder / "nginx", upstream_port=service.port)
    try:
        service.start()
        proxy.start()
        yield service, proxy
    finally:
        proxy.stop()
        service.stop()


def test_idle_and_slow_clients_wait_in_nginx_not_in_gunicorns_threads(stack, production):
    service, proxy = production
    paths = ["/api/v1/matches/", "/accounts/login/"]
    assert all(requests.get(proxy.base_url + path, timeout=REQUEST_TIMEOUT).status_code == 200 for path in paths)

    through_nginx = send_load(proxy.port, paths)
    straight = send_load(service.port, paths)
    print("\n" + through_nginx.summary("through nginx") + "\n" + straight.summary("straight to gunicorn"))

    assert through_nginx.statuses == [200] * ORDINARY, through_nginx.summary("through nginx")
    # nginx closed every slowloris connection itself, after its header timeout (its error log
    # says why), while they were still sending.
    assert None not in through_nginx.slow_closed, through_nginx.summary("through nginx")
    assert proxy.error_log().count("client timed out") >= SLOWLORIS
    # gunicorn is whole again once the clients are gone.
    assert requests.get(service.base_url + paths[0], timeout=REQUEST_TIMEOUT).status_code == 200


def test_a_body_over_the_limit_is_refused_by_nginx_before_the_service(stack, production):
    service, proxy = production
    limit = 20 * 1024 * 1024  # CRAWFORD_MAX_REQUEST_BYTES's default, the stack's
    body = b"x" * (limit + 1)
    api = requests.post(proxy.base_url + "/api/v1/imports/", data=body,
                        headers={"Content-Type": "application/octet-stream"}, timeout=30)
    page = requests.post(proxy.base_url + "/accounts/login/", data=body,
                         headers={"Content-Type": "application/x-www-form-urlencoded"}, timeout=30)
    within = requests.post(proxy.base_url + "/accounts/login/", data=b"x" * 1024,
                           headers={"Content-Type": "application/x-www-form-urlencoded"}, timeout=30)

    assert api.status_code == 413
    assert api.json() == {"detail": "the request body is over the limit of 20.0 MB", "code": "body_too_large"}
    assert page.status_code == 413
    # nginx answered both itself, without a connection to gunicorn; a body within the limit goes
    # on to the service (its CSRF check refuses it there).
    assert "client intended to send too large body" in proxy.error_log()
    # nginx writes a request's line when it is done with it: a refused body's line may come after
    # the next request's (it reads the rest of the body to throw it away), so the lines are
    # waited for and compared in any order.
    expected = sorted(["POST /api/v1/imports/ 413 upstream=-", "POST /accounts/login/ 413 upstream=-",
                       f"POST /accounts/login/ {within.status_code} upstream=127.0.0.1:{service.port}"])
    wait_for("nginx's access log to have the three requests",
             lambda: len([line for line in proxy.access_log() if line.startswith("POST ")]) >= 3, timeout=30)
    assert sorted(line for line in proxy.access_log() if line.startswith("POST ")) == expected
