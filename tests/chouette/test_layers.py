"""Chouette stands on clubs, never the other way (STYLE.md §3.0): no module under clubs/ imports the
chouette app, wherever the import stands, and no page of clubs names a chouette route (clubs asks
through clubs.hooks); chouette imports nothing from the apps above or beside it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def imported(path: Path, root: Path = ROOT) -> list[str]:
    """The modules ``path`` imports (relative imports resolved from its package), as ``"line 3: x.y"``."""
    package = path.relative_to(root).with_suffix("").parts[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - (node.level - 1)]) if node.level else []
            names = [".".join([*base, *filter(None, [node.module])])]
        else:
            continue
        found += [(node.lineno, name) for name in names]
    return [f"line {line}: {name}" for line, name in sorted(found)]


def offending(app: str, forbidden: set[str], root: Path = ROOT) -> dict[str, list[str]]:
    """The imports of the modules under ``root / app`` whose top package is ``forbidden``, by module."""
    return {str(path.relative_to(root)): bad for path in sorted((root / app).rglob("*.py"))
            if (bad := [i for i in imported(path, root) if i.split(": ", 1)[1].split(".")[0] in forbidden])}


def test_clubs_never_imports_the_chouette_app():
    assert offending("clubs", {"chouette"}) == {}


def test_chouette_imports_nothing_from_above_or_beside_it():
    assert offending("chouette", {"rulings", "config"}) == {}


def test_no_clubs_page_names_a_chouette_route():
    pages = sorted((ROOT / "templates" / "clubs").rglob("*.html"))
    assert pages and [str(p.relative_to(ROOT)) for p in pages if "chouette:" in p.read_text()] == []


def test_the_walk_sees_an_import_inside_a_function_and_a_relative_one(tmp_path):
    (tmp_path / "clubs" / "sub").mkdir(parents=True)
    (tmp_path / "clubs" / "sub" / "probe.py").write_text(
        "import json\n\ndef f():\n    from chouette import services\n\nfrom ...chouette import models\nfrom .. import views\n")
    assert offending("clubs", {"chouette"}, root=tmp_path) == {
        "clubs/sub/probe.py": ["line 4: chouette", "line 6: chouette"]}
