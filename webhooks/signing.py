"""How a delivery is written and signed, and how a receiver checks it (the same functions: the
tests verify with them, and a receiver written in Python may copy them).

The body is the payload as compact JSON, its keys sorted (``body_of``): a redelivery of the same
payload sends the very same bytes. The signature header is

    X-Crawford-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the secret>

as Stripe's and Challonge's are made: a receiver recomputes it with the subscription's secret,
compares in constant time, and refuses a ``t`` older than a few minutes (a replayed delivery).
"""

from __future__ import annotations

import hashlib
import hmac
import json

SIGNATURE_HEADER = "X-Crawford-Signature"
EVENT_HEADER = "X-Crawford-Event"
DELIVERY_HEADER = "X-Crawford-Delivery"
#: A receiver should refuse a signature older than this (seconds); :func:`verify`'s default.
TOLERANCE_SECONDS = 300


def body_of(payload: dict) -> bytes:
    """The bytes posted for ``payload``: compact JSON, keys sorted, UTF-8."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of ``"<timestamp>.<body>"`` under ``secret``."""
    return hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("ascii") + body, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret, timestamp, body)}"


def verify(secret: str, header: str, body: bytes, *, now: float, tolerance: int = TOLERANCE_SECONDS) -> bool:
    """Whether ``header`` (X-Crawford-Signature) signs ``body`` under ``secret`` and is no older
    than ``tolerance`` seconds at ``now`` (unix time)."""
    parts = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > tolerance:
        return False
    return hmac.compare_digest(parts.get("v1", ""), signature(secret, timestamp, body))
