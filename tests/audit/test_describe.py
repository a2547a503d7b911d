"""Every audit action the code writes reads as a sentence: no braces, underscores, model names,
ids or raw JSON.

The actions are found in the source itself (``written_actions``): every string that a call to an
audit writer passes as its action (``action=``, any argument of a function named ``*audit*``
and of the event's ``_set_status``), every ``"action": "..."`` of
``audit_record_many``'s entries, and every action chosen into a variable named ``action``. A new
action without a describer fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.utils import translation

from audit.describe import action_label, as_sentence, describe, describer_of

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "audit", "chouette", "clubs", "core", "demo", "matches", "rulings", "tournaments", "webhooks")
ACTION_SHAPE = r"^[a-z_]+\.[a-z_]+$"
FORBIDDEN = ("{", "}", "_", "matches.", "tournaments.", "rulings.", "object_id", '":', "[", "None", "True", "False")


def _strings(node: ast.AST) -> list[str]:
    import re

    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and re.match(ACTION_SHAPE, n.value)]


def _name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def written_actions() -> set[str]:
    """Every audit action the application code writes (see the module docstring)."""
    found: set[str] = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    name = _name(node.func)
                    for keyword in node.keywords:
                        if keyword.arg == "action":
                            found.update(_strings(keyword.value))
                    if "audit" in name or name == "_set_status":
                        for argument in node.args:
                            found.update(_strings(argument))
                elif isinstance(node, ast.Dict):
                    for key, value in zip(node.keys, node.values, strict=True):
                        if isinstance(key, ast.Constant) and key.value == "action" and value is not None:
                            found.update(_strings(value))
                elif isinstance(node, ast.Assign):
                    if any(isinstance(t, ast.Name) and t.id == "action" for t in node.targets):
                        found.update(_strings(node.value))
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    arguments = node.args.args + node.args.kwonlyargs
                    defaults = [None] * (len(node.args.args) - len(node.args.defaults)) + node.args.defaults
                    defaults += node.args.kw_defaults
                    for argument, default in zip(arguments, defaults, strict=True):
                        if argument.arg == "action" and default is not None:
                            found.update(_strings(default))
    # The admin writes ``<model>.added_in_admin`` / ``<model>.changed_in_admin`` (an f-string).
    found.update({"dispute.added_in_admin", "ruling.changed_in_admin", "entry.changed_in_admin"})
    return found


ACTIONS = sorted(written_actions())

#: Payloads shaped as the writers write them, with the values most likely to leak (underscores).
SIDES = ["Ana", "Bob"]
MATCH = {"sides": SIDES, "length": 5, "status": "in_play", "score": [None, None], "winner": None, "event": 3,
         "organiser": 7, "rated": True, "consent": ["given", "pending"]}
SNAPSHOT = {"status": "confirmed", "score": [5, 3], "winner": 0, "games": [[1, 0, 2], [2, 1, 1]]}
RULING_STATE = {"match": 9, "status": "confirmed", "score": [99, 0], "winner": 0, "rated": True, "penalty": [0, 0],
                "reports": [[1, "confirmed"], [2, "agreed"]], "games": [[1, 0, 2]], "logs": 1}
PAIRING = {"key": "main-2-1", "entries": [4, 5], "match": 11, "names": ["Ana", None]}
ENTRY = {"entry": 4, "name": "Ana", "status": "checked_in", "seed": 1, "late": False, "players": [3],
         "roller": "alternate"}
SAMPLES: dict[str, tuple[object, object, str]] = {
    "webhook.created": (None, {"host": "hooks.example.org", "events": ["results", "rulings"], "active": True}, ""),
    "webhook.changed": ({"host": "hooks.example.org", "events": ["results"], "active": True},
                        {"host": "hooks.example.org", "events": ["results"], "active": False}, ""),
    "webhook.deleted": ({"host": "hooks.example.org", "events": ["pairings"], "active": True}, None, ""),
    "webhook.redelivered": (None, {"host": "hooks.example.org", "events": ["results"], "active": True,
                                   "event": "results", "delivery": 9, "of": 8}, ""),
    "match.created": (None, MATCH, ""),
    "match.imported": (None, {**MATCH, "games": 7, "file": "final_match.mat"}, "imported from final_match.mat"),
    "match.reported": ({"score": [3, 5]}, {"side": 1, "score": [5, 3], "games": 0}, ""),
    "match.result_confirmed": ({**SNAPSHOT, "status": "reported", "score": [None, None]}, SNAPSHOT, ""),
    "match.result_overridden": ({**SNAPSHOT, "score": [99, 0]}, SNAPSHOT, "Ruling on dispute 4: RULES 9"),
    "match.reopened": (SNAPSHOT, {**SNAPSHOT, "status": "disputed", "score": [None, None]}, "Ruling 5 on dispute 4 undone"),
    "match.consent_given": ({"side": 1, "consent": "pending"}, {"side": 1, "consent": "given"}, "by_director"),
    "match.consent_declined": ({"side": 0, "consent": "pending"}, {"side": 0, "consent": "declined"}, "player"),
    "match.deleted": ({"pairing": "main-2-1", "board": 2, **MATCH}, None, "reset with pairing main-2-1"),
    "match.unrated": ({"rated": True}, {"rated": False}, "forfeit: Ana withdrew"),
    "match.penalty_given": ({"score": [3, 3]}, {"side": 1, "points": 1, "reason": "late", "before": [3, 3],
                                                "after": [4, 3], "crawford_next": True, "ended_match": False}, ""),
    "match.analysis_requested": (None, {"plies": 2, "generation": 3}, ""),
    "tournament.created": (None, {"name": "Autumn Open", "status": "draft", "format": "single_elimination",
                                  "kind": "individual", "club": None, "lengths": {"main": [5, 7]}}, ""),
    "tournament.drawn": ({"status": "closed"}, {"status": "running", "draw_seed": 4, "seeds": [[4, "Ana"], [5, "Bob"]],
                                                "pairings": [PAIRING]}, ""),
    "entry.added": (None, ENTRY, ""), "entry.signed_up": (None, ENTRY, ""), "entry.checked_in": (ENTRY, ENTRY, ""),
    "entry.added_late": (None, ENTRY, ""), "entry.reinstated": ({**ENTRY, "status": "withdrawn"}, ENTRY, ""),
    "entry.withdrawn": (ENTRY, None, "removed before the draw with its team"),
    "team.created": (None, {"team": 2, "name": "Aces", "entry": 4, "captain": 3, "members": [3, 4, 5], "reserves": [6]},
                     ""),
    "team.added_late": (None, {"team": 2, "name": "Aces", "entry": 4, "captain": 3, "members": [3, 4], "reserves": []},
                        ""),
    "team.member_added": (None, {"team": "Aces", "player": 3, "name": "Ana", "reserve": True}, ""),
    "team.member_removed": ({"team": "Aces", "player": 3, "name": "Ana", "reserve": False},
                            {"team": "Aces", "board_orders_dropped": [2, 3]}, ""),
    "board_order.submitted": ({"team": "Aces", "round": 2, "players": [3, 4]},
                              {"team": "Aces", "round": 2, "players": [4, 3]}, ""),
    "pairing.entrants_set": ({**PAIRING, "entries": [None, None]}, PAIRING, ""),
    "pairing.entrants_cleared": (PAIRING, {**PAIRING, "entries": [None, None], "names": [None, None]}, ""),
    "pairing.reset": (PAIRING, {"key": "main-2-1", "entries": [None, None], "match": None}, ""),
    "round.paired": (None, {"round": 3, "pairings": [PAIRING], "bye": "Carl"}, ""),
    # a modified Swiss's playoffs started
    "tournament.playoffs_started": (None, {"round": 5, "paid": 3, "seeds": ["Ana", "Bob", "Carl"],
                                           "cash_only": ["Bob", "Carl"], "pairings": [PAIRING]}, ""),
    "round.reset": ({"round": 3, "pairings": ["swiss-3-1"]}, None, "the corrected result of swiss-2-1 pairs it differently"),
    "club.updated": ({"name": "North", "slug": "north", "city": "Oslo", "open_to_requests": True},
                     {"name": "North", "slug": "north", "city": "Bergen", "open_to_requests": False}, ""),
    "membership.role_changed": ({"user": "bob", "role": "member", "status": "active"},
                                {"user": "bob", "role": "organiser", "status": "active"}, ""),
    "night.opened": (None, {"date": "2026-12-01", "title": "Friday night", "status": "open"}, ""),
    "night.checked_in": (None, {"night": 4, "player": 3, "name": "Ana"}, ""),
    "result.corrected": ({"key": "main-1-2", "winner": "Bob"},
                         {"key": "main-1-2", "winner": "Ana", "score": [5, 3],
                          "resets": [{"key": "main-2-1", "before": ["Bob", "Carl"], "after": ["Ana", "Carl"],
                                      "voided": True, "score": [5, 1], "started": True}]}, "Wrong winner"),
    "club.created": (None, {"name": "North", "slug": "north", "city": "Oslo", "open_to_requests": True}, ""),
    "season.updated": ({"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2027-02-28"},
                       {"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2027-03-31"}, ""),
    "season.deleted": ({"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2027-02-28"}, None, ""),
    "season.created": (None, {"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2027-02-28"}, ""),
    "chouette.started": (None, {"name": "Friday box", "night": None, "settings": {"max_cubes": 2},
                                "rolloff": [3, 1], "lineup": [3, 4, 5]}, ""),
    "chouette.game_amended": ({"entry": "cube_drop", "record": {}, "amounts": {}},
                              {"entry": "cube_drop", "record": {}, "amounts": {}, "amended": True},
                              "chouette 3, step 4, game 2"),
    "chouette.ended": ({"status": "open"}, {"status": "ended", "ledger": {"3": 2}, "stake": "1.00", "currency": "EUR",
                                            "transfers": [[4, 3, "2.00"]]}, ""),
    "chouette.reopened": ({"status": "ended", "ended_at": "2026-12-05T23:10:00Z",
                           "transfers": [{"payer": 4, "payee": 3, "points": 2, "money": "2.00"}]}, {"status": "open"},
                          ""),
    "dispute.opened": (None, {"category": "illegal_move", "side": 0, "game": 2, "move": 5,
                              "position_id": "4HPwATDgc/ABMA", "statement": "He played 8/5 with a 31."}, ""),
    "dispute.settled": ({"status": "open"}, {"status": "settled", "score": [5, 3]}, ""),
    "ruling.made": (RULING_STATE, {"outcome": "score_corrected", "params": {"score": [5, 0]}, "dispute": 4,
                                   "appeal": None, "changes": {**RULING_STATE, "score": [5, 0]}}, "9.3"),
    "ruling.reverted": ({**RULING_STATE, "score": [5, 0]}, RULING_STATE, "Ruling 5 on dispute 4 undone"),
    "appeal.lodged": (None, {"ruling": 5, "side": 1, "grounds": "The dice were cocked."}, ""),
    "appeal.committee_named": (None, {"members": ["carl", "dora", "emil"]}, ""),
    "appeal.vote_cast": (None, {"appeal": 2, "decision": "replace", "outcome": "game_voided", "params": {"game": 2}}, ""),
    "appeal.decided": ({"ruling": 5, "status": "open"},
                       {"decision": "replace", "outcome": "penalty_points", "params": {"side": 1, "points": 2}}, ""),
    "dispute.changed_in_admin": (None, {"status": "open", "category": "slow_play"}, "Django admin"),
}


def entry(action: str, before=None, after=None, note: str = "", actor: str = "olga"):
    return SimpleNamespace(action=action, before=before, after=after, note=note, actor_name=actor, actor_id=7)


def assert_a_sentence(text: str) -> None:
    for token in FORBIDDEN:
        assert token not in text, f"{token!r} in {text!r}"
    assert text[0].isupper() and text.endswith("."), text


def test_the_walk_finds_the_actions_of_every_domain():
    # The walk itself must work: a broken walk finding nothing would pass everything below.
    assert len(ACTIONS) >= 65
    for action in ("match.result_confirmed", "match.consent_declined", "tournament.entries_opened", "entry.signed_up",
                   "pairing.entrants_cleared", "membership.left", "chouette.game_voided", "ruling.made",
                   "appeal.decided", "dispute.settled", "match.created", "tournament.finished"):
        assert action in ACTIONS, action


@pytest.mark.parametrize("action", ACTIONS)
def test_every_action_written_has_a_describer_and_reads_as_a_sentence(action):
    found = describer_of(action)
    assert found is not None, f"no describer for {action}"
    label = action_label(action)
    assert label and "_" not in label and "." not in label, label
    before, after, note = SAMPLES.get(action, (None, None, ""))
    # Called directly: a describer that cannot read its own action's data fails here (describe()
    # would hide it behind the fallback).
    assert_a_sentence(as_sentence(found.sentence(entry(action, before, after, note), SIDES)))
    assert_a_sentence(describe(entry(action, before, after, note), SIDES))
    # An entry without its data (an older shape) still reads as a sentence.
    assert_a_sentence(describe(entry(action), SIDES))


def test_a_webhook_reads_by_its_host_and_what_it_is_told_of():
    assert describe(entry("webhook.created", *SAMPLES["webhook.created"]), SIDES) == (
        "Olga had the results, rulings sent to hooks.example.org.")
    assert describe(entry("webhook.changed", *SAMPLES["webhook.changed"]), SIDES) == (
        "Olga switched off the webhook to hooks.example.org.")


def test_a_corrected_score_reads_as_a_director_says_it():
    text = describe(entry("ruling.made", *SAMPLES["ruling.made"]), SIDES)
    assert text == "Score corrected from 99-0 to 5-0, by olga, rule 9.3."


@pytest.mark.parametrize(("action", "expected"), [
    ("match.reported", "Olga changed the report of Bob from 3-5 to 5-3."),
    ("dispute.opened", "Olga opened a dispute about an illegal move, game 2, action 5."),
    ("entry.withdrawn", "Olga removed the entry of Ana before the draw."),
    ("pairing.entrants_set", "Main, round 2, match 1: Ana v a bye."),
    ("round.paired", "Olga paired round 3: 1 pairing, a bye to Carl."),
    ("tournament.playoffs_started", "Olga stopped the Swiss after round 5: Ana, Bob and Carl play the playoffs (Bob "
                                    "and Carl could still cash but no longer win)."),
    ("result.corrected", "Olga corrected the result of main, round 1, match 2 to 5-3: Ana wins instead of Bob; 1 later "
                         "match reset, saying: Wrong winner."),
    ("appeal.decided", "The appeals committee replaced the ruling: Bob is given 2 penalty points: they go to Ana's score."),
    ("club.updated", "Olga changed the club's city and open to requests."),
    ("night.opened", "Olga opened Friday night on 1 Dec 2026."),
    ("match.penalty_given", "Olga gave Bob 1 penalty point at 3-3: the score is 4-3, and the next game is the "
                            "Crawford game."),
    ("match.analysis_requested", "Olga asked GNU Backgammon to analyse the match at 2-ply."),
    ("chouette.reopened", "Olga reopened the chouette: its settlement is no longer final until it ends again."),
])
def test_sentences(action, expected):
    assert describe(entry(action, *SAMPLES[action], actor="Olga"), SIDES) == expected


def test_an_action_nobody_described_still_reads_as_words():
    text = describe(entry("widget.polished_twice", {"a": 1}, {"a": 2}))
    assert text == "Widget polished twice, by olga."
    assert describe(entry("board_order.submitted", "not a dict", ["nor", "this"]), SIDES) == "Board order set, by olga."


def test_the_system_is_named_as_such():
    system = SimpleNamespace(action="dispute.settled", before=None, after={"score": [5, 3]}, note="", actor_name="system",
                             actor_id=None)
    assert describe(system) == "The dispute was settled without a ruling: the result 5-3 was confirmed."


def test_a_score_in_a_right_to_left_sentence_is_isolated_to_read_left_to_right():
    from django.utils import translation

    entry = SimpleNamespace(action="match.result_overridden", actor_name="olga", actor_id=1, note="",
                            before={"status": "confirmed", "score": [99, 0]}, after={"score": [5, 0]})
    with translation.override("en"):
        assert describe(entry) == "Score corrected from 99-0 to 5-0 by olga."
    with translation.override("ar"):
        # Without the isolates the bidirectional algorithm shows "5-0" as "0-5" among Arabic words.
        sentence = describe(entry)
        assert "\u206699-0\u2069" in sentence and "\u20665-0\u2069" in sentence


FSI, PDI = "\u2068", "\u2069"


@pytest.mark.parametrize(("action", "names"), [
    ("entry.added", ("Olga", "Ana")),  # سجّل %(who)s %(entrant)s: two Latin names side by side
    ("match.reported", ("Olga", "Bob")),  # a side's name, from the entry's match
    ("tournament.playoffs_started", ("Olga", "Ana", "Bob", "Carl")),  # names listed
    ("result.corrected", ("Olga", "Ana", "Bob")),  # the winner and who won before
])
def test_every_name_in_a_right_to_left_sentence_stands_in_its_own_isolate(action, names):
    with translation.override("ar"):
        sentence = describe(entry(action, *SAMPLES[action], actor="Olga"), SIDES)
    for name in names:
        assert f"{FSI}{name}{PDI}" in sentence, (name, sentence)
    assert f"{PDI} {FSI}" in sentence or action != "entry.added"  # the two names are two runs, not one


def test_a_left_to_right_sentence_keeps_latin_names_bare_and_isolates_an_arabic_one():
    with translation.override("en"):
        assert describe(entry("entry.added", *SAMPLES["entry.added"], actor="Olga"), SIDES) == "Olga entered Ana."
        arabic = describe(entry("entry.added", *SAMPLES["entry.added"], actor="\u0639\u0644\u064a"), SIDES)
    assert arabic == f"{FSI}\u0639\u0644\u064a{PDI} entered Ana."
