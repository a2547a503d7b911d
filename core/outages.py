"""Telling the log that a service we depend on (Redis, PostgreSQL) is down, without drowning it.

While Redis or the database is down every request meets the failure, and a line per request would
bury everything else in the log. An :class:`OutageLog` writes the first failure at once, then at
most one line every ``interval`` seconds per process, each saying how many failures it left out;
when the service answers again it says so once, with how long the outage lasted as this process
saw it.
"""

from __future__ import annotations

import logging
import threading
from time import monotonic


class OutageLog:
    """The log lines of one dependency's outages, for one process (thread-safe)."""

    def __init__(self, logger: logging.Logger, what: str, *, interval: float = 60.0):
        self.logger = logger
        self.what = what
        self.interval = interval
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._last_logged = 0.0
        self._unlogged = 0

    @property
    def down(self) -> bool:
        """Whether the last thing heard of the dependency was a failure."""
        return self._down_since is not None

    def failed(self, error: BaseException, *, consequence: str) -> None:
        """Count one failure; log it (``consequence`` says what the service does instead) unless a
        line was written less than ``interval`` seconds ago."""
        now = monotonic()
        with self._lock:
            if self._down_since is None:
                self._down_since = now
            elif now - self._last_logged < self.interval:
                self._unlogged += 1
                return
            unlogged, self._unlogged, self._last_logged = self._unlogged, 0, now
        more = f" ({unlogged} more failures since the last message)" if unlogged else ""
        self.logger.warning("%s is unavailable (%s: %s); %s%s", self.what, type(error).__name__, error, consequence, more)

    def recovered(self) -> None:
        """Note that the dependency answered; logs once when it had been failing."""
        if self._down_since is None:  # the common case, read without the lock
            return
        now = monotonic()
        with self._lock:
            if self._down_since is None:
                return
            since, unlogged = self._down_since, self._unlogged
            self._down_since, self._unlogged, self._last_logged = None, 0, 0.0
        more = f" ({unlogged} more failures since the last message)" if unlogged else ""
        self.logger.warning("%s answers again after %.1f s%s", self.what, now - since, more)
