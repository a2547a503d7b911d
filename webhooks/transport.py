"""The one POST of a delivery: the standard library's urllib (``requests`` is not a dependency of the
service), a 5-second timeout, no redirects followed (a 3xx is an answer that is not a success), and
in production only to public addresses: a name that resolves to this computer or a private network
is refused before anything is sent (an organiser's URL must not reach the service's own network).
"""

from __future__ import annotations

import ipaddress
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

TIMEOUT_SECONDS = 5
#: How much of a receiver's refusal or a network error the log keeps.
ERROR_KEPT = 300
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def local_http_allowed() -> bool:
    """Whether plain http to this computer (localhost, 127.0.0.1, ::1) is allowed: while
    developing (DEBUG) and in the tests (``WEBHOOKS_LOCAL_HTTP``); never in production."""
    return bool(getattr(settings, "WEBHOOKS_LOCAL_HTTP", settings.DEBUG))


def private_address(address: str) -> bool:
    """Whether the IP address ``address`` is this computer's, a private network's or otherwise not
    on the public internet."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    return not ip.is_global or ip.is_multicast


@dataclass(frozen=True)
class Answer:
    status_code: int | None  # None: no answer (refused, timed out, unreachable)
    error: str = ""

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # the 3xx itself is the answer


_opener = urllib.request.build_opener(_NoRedirects)


def _resolves_privately(host: str) -> bool:
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError:
        return False  # the POST itself fails with the reason
    return any(private_address(info[4][0]) for info in infos)


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float = TIMEOUT_SECONDS) -> Answer:
    """POST ``body`` to ``url``; never raises: the answer's status, or None and why."""
    host = urlsplit(url).hostname or ""
    if not local_http_allowed() and (host in LOCAL_HOSTS or _resolves_privately(host)):
        return Answer(None, "refused: the address is not a public one")
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json", "User-Agent": "Crawford-Webhooks/1",
                                              **headers})
    try:
        with _opener.open(request, timeout=timeout) as response:
            return Answer(response.status)
    except urllib.error.HTTPError as error:
        return Answer(error.code, f"HTTP {error.code} {error.reason}"[:ERROR_KEPT])
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        return Answer(None, f"{type(reason).__name__}: {reason}"[:ERROR_KEPT])
