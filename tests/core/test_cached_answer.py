"""core.cache.cached_answer: an answer kept as the bytes sent, with its ETag; rendered once per key,
then served from this process's memory or the shared cache; a 304 without a body for a client
that names its ETag; the process's copy lives no longer than the timeout."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache
from django.test import RequestFactory

from core import cache as core_cache
from core.cache import answer_etag, cached_answer


class Clock:
    def __init__(self, monkeypatch):
        self.now = 1000.0
        monkeypatch.setattr(core_cache, "monotonic", lambda: self.now)


@pytest.fixture
def clock(monkeypatch):
    monkeypatch.setattr(core_cache, "_local", core_cache.OrderedDict())
    return Clock(monkeypatch)


def answer(key: str, rendered: list, **headers):
    def render():
        rendered.append(1)
        return b'{"n": %d}' % len(rendered), "application/json"

    return cached_answer(RequestFactory().get("/x/", **headers), key=key, render=render, timeout=60)


def test_an_answer_is_rendered_once_and_sent_as_kept_with_its_etag(clock, monkeypatch):
    key, rendered = f"test:{uuid.uuid4().hex}", []
    first = answer(key, rendered)
    assert first.status_code == 200 and first.content == b'{"n": 1}' and first["ETag"] == answer_etag(b'{"n": 1}')
    assert first["Content-Type"] == "application/json" and first["Cache-Control"] == "no-cache"
    assert cache.get(key) == (first["ETag"], "application/json", b'{"n": 1}')  # the shared copy, as sent
    asked = []
    monkeypatch.setattr(core_cache.default_cache, "get", lambda *args, **kwargs: asked.append(args))
    again = answer(key, rendered)
    assert again.content == first.content and rendered == [1] and asked == []  # from this process's memory


def test_a_client_naming_the_etag_gets_a_304_without_the_body(clock):
    key, rendered = f"test:{uuid.uuid4().hex}", []
    etag = answer(key, rendered)["ETag"]
    unchanged = answer(key, rendered, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged["ETag"] == etag
    assert answer(key, rendered, HTTP_IF_NONE_MATCH='"other"').status_code == 200
    assert rendered == [1]


def test_another_process_finds_the_shared_copy_and_the_local_one_expires(clock):
    key, rendered = f"test:{uuid.uuid4().hex}", []
    first = answer(key, rendered)
    core_cache._local.clear()  # as in another worker
    assert answer(key, rendered).content == first.content and rendered == [1]
    clock.now += 61
    cache.delete(key)  # the shared copy timed out too
    assert answer(key, rendered).content == b'{"n": 2}'


def test_the_process_keeps_only_the_last_answers(clock, monkeypatch):
    monkeypatch.setattr(core_cache, "LOCAL_ANSWERS", 3)
    keys, rendered = [f"test:{uuid.uuid4().hex}" for _ in range(5)], []
    for key in keys:
        answer(key, rendered)
    assert list(core_cache._local) == keys[2:]


def test_an_answer_kept_by_a_write_is_what_the_next_read_serves_without_rendering(clock):
    key = f"test:{uuid.uuid4().hex}"
    kept = core_cache.answer_keep(key, b'{"kept": true}', "application/json", 60)
    assert kept == (answer_etag(b'{"kept": true}'), "application/json", b'{"kept": true}')
    rendered = []
    assert answer(key, rendered).content == b'{"kept": true}' and rendered == []
    core_cache._local.clear()  # another worker: the shared cache has it
    assert answer(key, rendered).content == b'{"kept": true}' and rendered == []


def test_clearing_the_cache_forgets_the_answers_kept_in_this_process(clock):
    key, rendered = f"test:{uuid.uuid4().hex}", []
    answer(key, rendered)
    cache.clear()
    assert answer(key, rendered).content == b'{"n": 2}' and len(rendered) == 2
