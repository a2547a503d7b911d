"""The one POST of a delivery: the standard library's urllib (``requests`` is not a dependency of the
service), a 5-second timeout, no redirects followed (a 3xx is an answer that is not a success), no
proxy, and in production only to public addresses.

The receiver's host is resolved once per attempt, every address it resolves to is checked (a name
may resolve to one public and one private address, or to another address than when the webhook
was made: DNS changes), and the connection goes to a checked address, never through a second
lookup that could answer differently. An address is public when it is global once what it embeds
is taken out: IPv4 in IPv6 (``::ffff:127.0.0.1``, the deprecated ``::127.0.0.1``), 6to4, Teredo
and NAT64 carry an IPv4 address that is checked as itself. The numeric forms of IPv4 the resolver
takes (``2130706433``, ``0x7f.1``, ``0177.0.0.1``) are read as the address they mean.
"""

from __future__ import annotations

import functools
import http.client
import ipaddress
import re
import socket
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

TIMEOUT_SECONDS = 5
#: How much of a receiver's refusal or a network error the log keeps.
ERROR_KEPT = 300
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
REFUSED = "refused: the address is not a public one"

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated ::a.b.c.d (RFC 4291)
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
#: A host the resolver (inet_aton) reads as IPv4: decimal, octal or hex parts, one to four of them.
_NUMERIC_V4 = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]+)){0,3}\.?", re.IGNORECASE)


def local_http_allowed() -> bool:
    """Whether plain http to this computer (localhost, 127.0.0.1, ::1) is allowed: while
    developing (DEBUG) and in the tests (``WEBHOOKS_LOCAL_HTTP``); never in production."""
    return bool(getattr(settings, "WEBHOOKS_LOCAL_HTTP", settings.DEBUG))


def _embedded_v4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (mapped, compatible, 6to4, Teredo, NAT64)."""
    found = []
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    if ip in _IPV4_COMPATIBLE:
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)  # its server and its client
    if any(ip in network for network in _NAT64):
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return found


def public_ip(ip: IPAddress) -> bool:
    """Whether ``ip`` is an address of the public internet: global, not multicast, and every IPv4
    address it embeds public too. (Python alone rates ``::127.0.0.1``, ``2002:7f00:1::`` and
    ``64:ff9b::7f00:1`` global.)"""
    if not ip.is_global or ip.is_multicast or ip.is_unspecified or ip.is_loopback or ip.is_link_local \
            or ip.is_reserved or ip.is_private:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.is_site_local or ip in _IPV4_COMPATIBLE:
            return False
        return all(public_ip(inner) for inner in _embedded_v4(ip))
    return True


def literal_ip(host: str) -> IPAddress | None:
    """The address ``host`` is written as (an IPv6 address in or out of its brackets, its zone
    dropped; IPv4 in any form the resolver reads), or None for a name."""
    bare = host.strip("[]").split("%", 1)[0]
    try:
        return ipaddress.ip_address(bare)
    except ValueError:
        pass
    if _NUMERIC_V4.fullmatch(bare):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(bare.rstrip(".")))
        except OSError:
            return None
    return None


def private_address(address: str) -> bool:
    """Whether ``address`` (an IP address in any of :func:`literal_ip`'s forms) is this computer's,
    a private network's or otherwise not on the public internet. False for a name."""
    ip = literal_ip(address)
    return ip is not None and not public_ip(ip)


def resolve(host: str, port: int | None = None) -> list[IPAddress]:
    """Every address ``host`` stands for: itself when it is written as one, else what the resolver
    answers (``socket.getaddrinfo``), in its order, without repeats. Raises OSError when the name
    is not found."""
    ip = literal_ip(host)
    if ip is not None:
        return [ip]
    found: list[IPAddress] = []
    for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        address = literal_ip(str(info[4][0]))
        if address is not None and address not in found:
            found.append(address)
    if not found:
        raise OSError(f"no address for {host}")
    return found


def host_refusal(host: str) -> str | None:
    """Why a delivery may not go to ``host`` in production (``REFUSED``: one of its addresses is
    not public), or None. A name that is not found now is no refusal here: the delivery resolves it
    again. Raises nothing."""
    if host.lower().rstrip(".") in LOCAL_HOSTS:
        return REFUSED
    try:
        addresses = resolve(host)
    except (OSError, UnicodeError):
        return None
    return None if all(public_ip(ip) for ip in addresses) else REFUSED


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


def connect(addresses: list[IPAddress], port: int, timeout: float) -> socket.socket:
    """A TCP connection to the first of ``addresses`` that answers, each connected to as itself
    (no lookup). Raises OSError (the last address's) when none answers."""
    error: OSError = OSError("no address to connect to")
    for address in addresses:
        sock = socket.socket(socket.AF_INET6 if address.version == 6 else socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.settimeout(timeout)
            sock.connect((str(address), port))
        except OSError as refused:
            sock.close()
            error = refused
        else:
            return sock
    raise error


def _timeout(value) -> float:
    return TIMEOUT_SECONDS if value is socket._GLOBAL_DEFAULT_TIMEOUT else value


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """http.client's connection to the checked ``addresses``: the Host header stays the URL's."""

    def __init__(self, host, *, addresses: list[IPAddress], **kwargs):
        super().__init__(host, **kwargs)
        self.addresses = addresses

    def connect(self):
        self.sock = connect(self.addresses, self.port, _timeout(self.timeout))


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """The same over TLS: the certificate is checked against the URL's host name (SNI too)."""

    def __init__(self, host, *, addresses: list[IPAddress], **kwargs):
        super().__init__(host, **kwargs)
        self.addresses = addresses

    def connect(self):
        sock = connect(self.addresses, self.port, _timeout(self.timeout))
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class _PinnedHTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, addresses: list[IPAddress]):
        super().__init__()
        self.addresses = addresses

    def http_open(self, req):
        return self.do_open(functools.partial(_PinnedHTTPConnection, addresses=self.addresses), req)


class _PinnedHTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, addresses: list[IPAddress]):
        super().__init__(context=ssl.create_default_context())
        self.addresses = addresses

    def https_open(self, req):
        return self.do_open(functools.partial(_PinnedHTTPSConnection, addresses=self.addresses), req,
                            context=self._context)


def _opener(addresses: list[IPAddress]) -> urllib.request.OpenerDirector:
    # No proxy: a proxy would make its own lookup of the host, past the check.
    return urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirects,
                                       _PinnedHTTPHandler(addresses), _PinnedHTTPSHandler(addresses))


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float = TIMEOUT_SECONDS) -> Answer:
    """POST ``body`` to ``url``, connecting to an address of its host checked just before (in
    production: every address the host resolves to is public, else nothing is sent); never
    raises: the answer's status, or None and why."""
    host = urlsplit(url).hostname or ""
    try:
        addresses = resolve(host)
    except (OSError, UnicodeError) as error:
        return Answer(None, f"{type(error).__name__}: {error}"[:ERROR_KEPT])
    if not local_http_allowed() and (host.lower().rstrip(".") in LOCAL_HOSTS
                                     or not all(public_ip(ip) for ip in addresses)):
        return Answer(None, REFUSED)
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json", "User-Agent": "Crawford-Webhooks/1",
                                              **headers})
    try:
        with _opener(addresses).open(request, timeout=timeout) as response:
            return Answer(response.status)
    except urllib.error.HTTPError as error:
        return Answer(error.code, f"HTTP {error.code} {error.reason}"[:ERROR_KEPT])
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as error:
        reason = getattr(error, "reason", error)
        return Answer(None, f"{type(reason).__name__}: {reason}"[:ERROR_KEPT])
