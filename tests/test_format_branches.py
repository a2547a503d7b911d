"""An event's format and kind are decided in one place: the strategies of ``tournaments/formats/``.

Anywhere else, a branch on them (``if tournament.format == ...``, ``x if event.kind ...``, a
``{% if tournament.format %}`` in a template) would be the start of the next format touching fifteen
files; the strategy's own method is where that behaviour goes. This walks the product code and fails
on any such branch outside the package.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STRATEGIES = "tournaments/formats/"
EVENT_NAMES = re.compile(r"(^|_)(tournament|event)s?$")


def product_files(suffix: str) -> list[Path]:
    out = subprocess.run(["git", "ls-files", f"*{suffix}"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / name for name in out.stdout.split()
            if not name.startswith(("tests/", "bench/", "locale/", STRATEGIES)) and "/migrations/" not in name]


def names_event(node: ast.AST) -> bool:
    """Whether ``node`` is an event: a name or attribute called tournament/event (``loaded.tournament``)."""
    if isinstance(node, ast.Name):
        return bool(EVENT_NAMES.search(node.id))
    if isinstance(node, ast.Attribute):
        return bool(EVENT_NAMES.search(node.attr))
    return False


def reads_format(test: ast.AST) -> bool:
    for sub in ast.walk(test):
        if isinstance(sub, ast.Attribute) and sub.attr in ("format", "kind") and names_event(sub.value):
            return True  # tournament.format, loaded.tournament.kind
        if isinstance(sub, ast.Attribute) and sub.attr in ("Format", "Kind") \
                and isinstance(sub.value, ast.Name) and sub.value.id == "Tournament":
            return True  # Tournament.Format.SWISS
        if isinstance(sub, ast.Name) and (sub.id == "format" or sub.id.endswith("_FORMATS")):
            return True  # a local holding the format; BRACKET_FORMATS
        if isinstance(sub, ast.Attribute) and sub.attr.endswith("_FORMATS"):
            return True
    return False


def format_branches(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if ((isinstance(node, (ast.If, ast.IfExp, ast.While)) and reads_format(node.test))
                or (isinstance(node, ast.Match) and reads_format(node.subject))):
            lines.append(node.lineno)
        elif isinstance(node, ast.comprehension) and any(reads_format(test) for test in node.ifs):
            lines.append(node.target.lineno)
    return sorted(set(lines))


TEMPLATE_BRANCH = re.compile(r"\{%-?\s*(?:if|elif)\b[^%]*\b(?:tournament|event)s?\.(?:format|kind)\b")


def python_branches() -> list[str]:
    found = []
    for path in product_files(".py"):
        for line in format_branches(ast.parse(path.read_text(encoding="utf-8"))):
            found.append(f"{path.relative_to(ROOT).as_posix()}:{line}")
    return found


def template_branches() -> list[str]:
    found = []
    for path in product_files(".html"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if TEMPLATE_BRANCH.search(line):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{number}")
    return found


def test_no_branch_on_an_events_format_outside_its_strategies():
    assert python_branches() == []


def test_no_template_branches_on_an_events_format():
    assert template_branches() == []


def test_the_check_sees_a_branch_on_format():
    code = ("if tournament.format == Tournament.Format.SWISS: pass\n"
            "x = 1 if loaded.tournament.kind == 'teams' else 2\n"
            "y = [p for p in ps if event.format in BRACKET_FORMATS]\n"
            "if wanted.kind == PNG: pass\n")  # a render's kind is not an event's
    assert format_branches(ast.parse(code)) == [1, 2, 3]
    assert TEMPLATE_BRANCH.search("{% if tournament.format == 'swiss' %}")
    assert not TEMPLATE_BRANCH.search("{% if row.kind == 'game' %}")
