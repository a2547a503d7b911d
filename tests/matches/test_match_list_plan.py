"""The match list reads a page in the index of newest matches: a page costs its rows, not a sort of
every match (a list at 16,000 matches once sorted all of them for each page of 25)."""

import pytest
from django.db import connection, transaction

from matches.selectors.match import match_list
from tests.factories import MatchFactory

pytestmark = pytest.mark.django_db


def _plan(queryset) -> str:
    sql, params = queryset.query.sql_with_params()
    with transaction.atomic(), connection.cursor() as cursor:
        # A test table is tiny, where sorting it is cheaper than any index: forbid the sort (and
        # the full scan) so that the plan shows whether an index can give the order at all.
        cursor.execute("SET LOCAL enable_sort = off")
        # An incremental sort on another index's leading column is a sort too (PostgreSQL 13+).
        cursor.execute("SET LOCAL enable_incremental_sort = off")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_a_page_of_the_public_match_list_is_read_in_the_newest_first_index():
    for _ in range(3):
        MatchFactory()
    plan = _plan(match_list(viewer=None)[:25])
    assert "match_newest_first" in plan, plan
    assert "Sort" not in plan.split("->")[0], plan
