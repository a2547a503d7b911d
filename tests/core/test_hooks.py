"""core.hooks: a hook's entries run by order, then name, whatever order they were connected in;
connecting a name again replaces its entry; a payload must be exactly the hook's; collect leaves
out the answers that are None; and the map says who offers each hook and who listens, in order.

The hooks made here are taken out of the house's list again (``HOOKS``), so the README's map
(tests/core/test_hook_map.py) never sees them."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from core import hooks
from core.hooks import Hook


@pytest.fixture(autouse=True)
def own_hooks(monkeypatch):
    monkeypatch.setattr(hooks, "HOOKS", [])


@dataclass(frozen=True)
class Described:
    name: str
    order: int = 0


def test_callbacks_run_by_order_then_name_not_by_connection_order():
    hook = Hook("told", ("value",))
    ran = []
    hook.connect(lambda value: ran.append(("late", value)), name="b.late", order=20)
    hook.connect(lambda value: ran.append(("second", value)), name="b.records", order=10)
    hook.connect(lambda value: ran.append(("first", value)), name="a.records", order=10)
    hook.send(value=1)
    assert ran == [("first", 1), ("second", 1), ("late", 1)]
    assert hook.receivers() == ["a.records", "b.records", "b.late"]


def test_connecting_or_registering_a_name_again_replaces_its_entry():
    hook = Hook("told", ("value",))
    ran = []
    hook.connect(lambda value: ran.append("old"), name="x", order=1)
    hook.connect(lambda value: ran.append("new"), name="x", order=1)
    hook.send(value=1)
    assert ran == ["new"]
    listed = Hook("listed")
    listed.register(Described("b", 1))
    listed.register(Described("a", 2))
    listed.register(Described("b", 3))
    assert listed.entries() == [Described("a", 2), Described("b", 3)]
    assert listed.get("b") == Described("b", 3) and listed.get("c") is None
    listed.disconnect("b")
    assert list(listed) == [Described("a", 2)]


def test_a_payload_must_be_exactly_the_hooks():
    hook = Hook("told", ("match", "actor"))
    hook.connect(lambda **payload: None, name="x")
    for wrong in ({"match": 1}, {"match": 1, "actor": 2, "other": 3}, {}):
        with pytest.raises(TypeError, match="told is sent with match, actor"):
            hook.send(**wrong)
        with pytest.raises(TypeError):
            hook.collect(**wrong)
    hook.send(match=1, actor=2)


def test_collect_gives_every_answer_in_order_leaving_out_none():
    hook = Hook("asked", ("value",))
    hook.connect(lambda value: value * 10, name="b", order=1)
    hook.connect(lambda value: None, name="a", order=1)
    hook.connect(lambda value: value, name="c", order=0)
    hook.connect(lambda value: 0, name="d", order=2)  # a falsy answer is an answer
    assert hook.collect(value=2) == [2, 20, 0]


def test_an_exception_stops_the_others_and_reaches_the_caller():
    hook = Hook("told", ("value",))
    ran = []

    def refuse(value):
        raise ValueError("refused")

    hook.connect(refuse, name="a")
    hook.connect(lambda value: ran.append(value), name="b")
    with pytest.raises(ValueError):
        hook.send(value=1)
    assert ran == []


def test_the_map_names_who_offers_and_who_listens_in_order():
    offered = Hook("told", ("value",), module="lower.hooks")
    Hook("quiet", module="lower.hooks")
    offered.connect(print, name="upper.second", order=20)
    offered.connect(print, name="upper.first", order=10)
    here = __name__
    assert hooks.hook_map() == (
        "lower.hooks.quiet\n"
        "    (nobody listens)\n"
        "lower.hooks.told\n"
        f"     10  upper.first  <- {here}\n"
        f"     20  upper.second  <- {here}\n"
    )
