"""Sending an email once: a task may be delivered twice (late acks, a retry after a lost
connection), so each announcement is claimed in the cache (``cache.add``) before it is sent.

The claim is taken only once every message is built, with everything it needs read from the
database (recipients, their languages, the texts): a failure before the claim leaves nothing
behind, and the retry builds and sends again. Any failure after it (the mail backend, anything
else) releases it, so a retry sends. A claim left by a failure between the two would keep the
announcement from ever going out while it lives (a day): the email would be lost for good.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.cache import cache
from django.core.mail import EmailMessage, get_connection

#: Long enough to outlive every retry and redelivery of a task.
CLAIM_SECONDS = 24 * 3600


def send_once(key: str, messages: Sequence[EmailMessage], *, seconds: int = CLAIM_SECONDS) -> bool:
    """Send ``messages`` (built already: nothing is read here) unless the announcement ``key``
    is claimed: claim it, send, and release the claim on any failure. Returns False when it was
    claimed already (sent, or being sent, by another delivery), True when sent now.

    Raises whatever the mail backend raises (the claim released: the caller's retry sends)."""
    if not cache.add(key, 1, seconds):
        return False
    try:
        get_connection().send_messages(list(messages))
    except BaseException:
        cache.delete(key)
        raise
    return True
