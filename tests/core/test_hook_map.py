"""The house's hook map (core.hooks.hook_map), built once every app is ready: which app offers each
hook (in its hooks.py), which apps listen (from their receivers.py) and in which order. The README
shows exactly this map, under "The hook map"."""

from __future__ import annotations

import re
from pathlib import Path

from core import hooks

README = Path(__file__).resolve().parent.parent.parent / "README.md"


def house_hooks() -> list[hooks.Hook]:
    """The hooks the apps offer (a test's own hooks left out)."""
    return [hook for hook in hooks.HOOKS if not hook.module.startswith("tests.")]


def readme_map() -> str:
    found = re.search(r"^#+ The hook map\n.*?^```\n(.*?)^```$", README.read_text(encoding="utf-8"), re.S | re.M)
    assert found, "README.md has no fenced block under a heading 'The hook map'"
    return found.group(1)


def test_the_readme_shows_the_whole_hook_map(monkeypatch):
    monkeypatch.setattr(hooks, "HOOKS", house_hooks())
    for hook in hooks.HOOKS:  # what a test connected for its own length is no part of the house
        monkeypatch.setattr(hook, "_entries", {e.name: e for e in hook.ordered() if not e.module.startswith("tests.")})
    assert readme_map() == hooks.hook_map()


def test_each_app_offers_its_hooks_in_hooks_py_and_listens_in_receivers_py():
    for hook in house_hooks():
        assert hook.module.endswith(".hooks"), f"{hook.name} is offered by {hook.module}"
        for entry in hook.ordered():
            if not entry.module.startswith("tests."):
                assert entry.module.endswith(".receivers"), f"{hook.name}: {entry.name} connected by {entry.module}"

