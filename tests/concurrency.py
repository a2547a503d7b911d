"""Running service calls at the same moment, for the race tests (which need
``pytest.mark.django_db(transaction=True)``: each thread has its own connection and sees only
committed rows)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from django.db import connection

from core.errors import DomainError


def at_once(calls: Sequence[Callable[[], object]], *, timeout: float = 60) -> list[str | None]:
    """Run each call in its own thread, all released together by a barrier; return each call's
    outcome in order: ``"done"``, or the code of the DomainError (Conflict, NotAllowed) it raised.
    Any other exception fails the test in the thread and leaves None in its place."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[str | None] = [None] * len(calls)

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait()
            call()
            outcomes[index] = "done"
        except DomainError as error:
            outcomes[index] = error.code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    return outcomes
