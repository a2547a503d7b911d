"""Rows written by statements compiled once (core/bulk.py: row_insert, row_update), and several
rows' statements sent in one round trip (writes_batched): what the ORM would write, in fewer
queries, and never out of order."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, transaction

from core.bulk import key_statement, row_insert, row_update, writes_batched
from core.models import OutboxTask
from core.prepared import statements_execute

pytestmark = pytest.mark.django_db

HEARTBEAT = "core.tasks.worker_heartbeat_task"


def task(**fields) -> OutboxTask:
    return OutboxTask(**{"task": HEARTBEAT, "args": ["quick"], "queue": "quick", **fields})


def test_a_row_inserted_is_the_row_the_orm_would_write(django_assert_num_queries):
    with django_assert_num_queries(1):
        row = row_insert(task(args=[1, "reported"]))
    assert row.pk is not None and not row._state.adding and row.created_at is not None
    stored = OutboxTask.objects.get(pk=row.pk)
    assert (stored.task, stored.args, stored.queue, stored.sent_at, stored.attempts, stored.last_error) == (
        HEARTBEAT, [1, "reported"], "quick", None, 0, "")


def test_a_row_updated_writes_only_its_fields_and_refuses_a_row_that_is_gone():
    row = row_insert(task())
    row.attempts, row.last_error = 3, "not written"
    row_update(row, ["attempts"])
    stored = OutboxTask.objects.get(pk=row.pk)
    assert (stored.attempts, stored.last_error) == (3, "")
    OutboxTask.objects.filter(pk=row.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        row_update(row, ["attempts"])


def test_writes_made_later_in_a_batch_go_in_one_query_when_it_ends(django_assert_num_queries):
    kept = row_insert(task())
    with transaction.atomic(), django_assert_num_queries(1), writes_batched():
        first, second = row_insert(task(), later=True), row_insert(task(), later=True)
        kept.attempts = 2
        row_update(kept, ["attempts"], later=True)
        assert first.pk is None  # not sent yet
    assert second.pk == first.pk + 1
    assert list(OutboxTask.objects.order_by("pk").values_list("attempts", flat=True)) == [2, 0, 0]


def test_a_key_taken_from_the_sequence_names_the_row_before_its_insert_is_sent(django_assert_num_queries):
    from django.db import connection

    with connection.cursor() as cursor:
        [[(taken,)], [(second,)]] = statements_execute(cursor, [key_statement(OutboxTask), key_statement(OutboxTask)])
    assert second == taken + 1
    with transaction.atomic(), django_assert_num_queries(1), writes_batched():
        row = row_insert(task(pk=second), later=True)
        assert row.pk == second  # known before the batch goes: an audit entry may name it
        other = row_insert(task(), later=True)
    assert OutboxTask.objects.get(pk=second).task == HEARTBEAT
    assert other.pk == second + 1  # the sequence goes on after the keys taken from it
    assert taken not in set(OutboxTask.objects.values_list("pk", flat=True))  # a key not used is a gap


def test_an_update_of_a_row_inserted_later_in_the_batch_sends_the_batch_first_for_its_key():
    with transaction.atomic(), writes_batched():
        row = row_insert(task(), later=True)
        row.attempts = 2
        row_update(row, ["attempts"], later=True)
    assert OutboxTask.objects.get(pk=row.pk).attempts == 2


def test_any_other_statement_in_the_block_sends_the_batch_first_so_it_sees_the_writes(django_assert_num_queries):
    with transaction.atomic(), writes_batched():
        row = row_insert(task(), later=True)
        with django_assert_num_queries(2):  # the batch, then the read
            assert OutboxTask.objects.filter(task=HEARTBEAT).count() == 1
        assert row.pk is not None


def test_a_write_the_batch_cannot_make_raises_and_the_transaction_rolls_back():
    gone = row_insert(task())
    OutboxTask.objects.filter(pk=gone.pk).delete()
    with pytest.raises(DatabaseError), transaction.atomic(), writes_batched():
        row_insert(task(), later=True)
        row_update(gone, ["attempts"], later=True)
    assert not OutboxTask.objects.exists()


def test_an_exception_in_the_block_sends_nothing(django_assert_num_queries):
    with pytest.raises(LookupError), transaction.atomic(), writes_batched():
        row_insert(task(), later=True)
        with django_assert_num_queries(0):
            raise LookupError("the change fails before its writes were sent")
    assert not OutboxTask.objects.exists()


def test_outside_a_batch_a_write_made_later_is_made_at_once(django_assert_num_queries):
    with django_assert_num_queries(1):
        row = row_insert(task(), later=True)
    assert row.pk is not None and OutboxTask.objects.filter(pk=row.pk).exists()


def test_nested_blocks_share_the_outermost_batch(django_assert_num_queries):
    with transaction.atomic(), django_assert_num_queries(1), writes_batched():
        with writes_batched():
            inner = row_insert(task(), later=True)
        assert inner.pk is None  # the inner block's end sends nothing
        row_insert(task(), later=True)
    assert inner.pk is not None and OutboxTask.objects.count() == 2
