"""A local receiver for the webhook tests: an http.server in a thread on 127.0.0.1, a free port,
that answers each POST with the next status of its script (200 once the script is spent) and keeps
every request it got (headers and body)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    script: list[int] = field(default_factory=list)
    requests: list[Received] = field(default_factory=list)

    def answer(self) -> int:
        return self.script.pop(0) if self.script else 200


@pytest.fixture
def receiver(settings):
    """A receiver at ``receiver.url``; http to 127.0.0.1 is allowed for the test (as in DEBUG)."""
    settings.WEBHOOKS_LOCAL_HTTP = True
    state = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            state.requests.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()},
                                           self.rfile.read(length)))
            code = state.answer()
            self.send_response(code)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/crawford"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
