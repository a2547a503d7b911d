"""Fixtures of the fault tests: one :class:`tests.faults.stack.Stack` per session (Redis,
PostgreSQL and gunicorn of its own, the demo data loaded), put back up after every test.

The stack takes about a minute to build (a fresh cluster, migrations, static files, the demo), so
it is built once, by the first test that asks for it, and torn down when the session ends, even
after a failure. A test may stop Redis or PostgreSQL, start workers and beat: after it,
``stack.ensure_up()`` stops its workers and starts the servers again, so the next test begins with
everything up. Every test here is marked ``slow``. Run in parallel (``-n``), they all go to one
worker (tests/conftest.py, ``ONE_WORKER``), which builds the stack once, and no two of them stop and
start servers or time a recovery at the same moment."""

from __future__ import annotations

import pytest

from tests.faults.stack import Stack


@pytest.fixture(scope="session")
def stack_session():
    stack = Stack()
    try:
        stack.start()
        yield stack
    finally:
        stack.close()


@pytest.fixture
def stack(stack_session):
    """The session's stack, everything up; servers restarted and workers stopped after the test."""
    stack_session.ensure_up()
    yield stack_session
    stack_session.ensure_up()
