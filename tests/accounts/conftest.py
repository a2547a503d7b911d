"""Shared by the accounts tests: allauth's per-address email limits and the throttles live in the
cache, so each test starts with an empty one; emails go through the outbox and its task runs at
once (``outbox_inline``)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.cache import cache

from tests.matches.factories_ratings import run_tasks_inline


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def outbox_inline(monkeypatch, django_capture_on_commit_callbacks):
    """Run every outbox task (the account emails) right after its commit, in this process, as a
    worker would; use as ``with outbox_inline(): ...`` around the requests."""
    run_tasks_inline(monkeypatch)

    def block():
        return django_capture_on_commit_callbacks(execute=True)

    return block


def last_link(pattern: str = r"https?://testserver(/\S+)") -> str:
    """The path of the last link in the last email sent."""
    assert mail.outbox, "no email was sent"
    links = re.findall(pattern, mail.outbox[-1].body)
    assert links, f"no link in {mail.outbox[-1].body!r}"
    return links[-1]
