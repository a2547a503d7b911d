"""Every audit entry a test of this folder writes through the real services (events, entries,
teams, rounds, results, imports, the admin, rulings) is read back as a sentence after the test:
none may show a brace, an underscore, a model name, an id's field or JSON (see
``tests/audit/test_describe.py`` for every action the code writes)."""

from __future__ import annotations

import pytest

FORBIDDEN = ("{", "}", "_", "matches.", "tournaments.", "rulings.", "clubs.", "object_id", '":', "None", "True",
             "False")


@pytest.fixture(autouse=True)
def every_entry_reads_as_a_sentence(request):
    yield
    if request.node.get_closest_marker("django_db") is None:
        return
    from django.db import connection

    from audit.describe import describe
    from audit.models import AuditEntry

    if connection.needs_rollback or not connection.is_usable():
        return
    for entry in AuditEntry.objects.filter(action__contains="."):
        if entry.action.startswith("test."):
            continue
        sentence = describe(entry)
        for token in FORBIDDEN:
            assert token not in sentence, f"{entry.action}: {token!r} in {sentence!r}"
