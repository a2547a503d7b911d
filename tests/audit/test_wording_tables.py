"""Each app words its own audit actions: one table per app on audit's ``sentences`` hook, no action
or value worded by two tables, every table read once into one lookup by action."""

from __future__ import annotations

from types import SimpleNamespace

from audit import describe, hooks
from matches import wording as match_wording

APPS_THAT_WRITE = {"accounts", "analysis", "chouette", "clubs", "matches", "rulings", "tournaments", "webhooks"}


def entry(action: str):
    return SimpleNamespace(action=action, before=None, after=None, note="", actor_name="olga", actor_id=7)


def test_each_app_that_writes_to_the_log_registers_its_own_table():
    assert set(hooks.sentences.receivers()) == APPS_THAT_WRITE
    assert all(isinstance(table, hooks.Wording) for table in hooks.sentences.entries())


def test_no_action_and_no_value_is_worded_by_two_tables():
    actions: dict[str, str] = {}
    values: dict[str, str] = {}
    for table in hooks.sentences.entries():
        for action in table.actions:
            assert action not in actions, f"{action} is worded by {actions[action]} and {table.name}"
            actions[action] = table.name
        for raw in table.values:
            assert raw not in values, f"{raw} is said by {values[raw]} and {table.name}"
            values[raw] = table.name


def test_an_action_is_found_in_the_one_lookup_the_tables_were_read_into():
    assert describe.lookup() is describe.lookup()
    assert describe.describer_of("match.reported").sentence is match_wording.reported_sentence
    assert describe.describer_of("dispute.changed_in_admin").action == "*.changed_in_admin"
    assert describe.describer_of("widget.polished") is None


def test_a_table_registered_late_is_read_once_the_lookup_is_forgotten():
    table = hooks.Wording("test", {"widget.polished": ("Widget polished", lambda entry, sides: "it shines")},
                          values={"very_shiny": "gleaming"})
    describe.lookup()  # read before the table comes
    hooks.sentences.register(table)
    try:
        assert describe.describe(entry("widget.polished")) == "Widget polished, by olga."
        describe.lookup_forget()
        assert describe.describe(entry("widget.polished")) == "It shines."
        assert describe.action_label("widget.polished") == "Widget polished"
        assert describe.value("very_shiny") == "gleaming"
    finally:
        hooks.sentences.disconnect("test")
        describe.lookup_forget()
    assert describe.describe(entry("widget.polished")) == "Widget polished, by olga."
