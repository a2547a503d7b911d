"""The demo is loaded once per test module, not once per test.

A module's ``loaded`` fixture (module scope) asks for :func:`module_db`: the database opened to the
module's fixtures, in one transaction that stays open while the module's tests run and is rolled
back when the module ends. Each test (``django_db``) runs in its own savepoint inside it, rolled
back after the test as pytest-django always does, so every test sees the demo exactly as it was
loaded, whatever the tests before it wrote (a second load, a sign-in). After the rollback the
fixture counts the rows of every table again: a module that left a row behind fails there, so
nothing of the demo reaches another module's tests.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import transaction


def row_counts() -> dict[str, int]:
    """How many rows each model's table holds."""
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


@pytest.fixture(scope="module")
def module_db(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        before = row_counts()
        with transaction.atomic():
            yield
            transaction.set_rollback(True)
        after = row_counts()
        assert {label: (before.get(label), count) for label, count in after.items() if count != before.get(label)} == {}
