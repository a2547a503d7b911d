"""matches is the kernel: it and accounts import only their own app and the layers below them
(engine, core, audit; accounts for matches), never an app above (tournaments, clubs, chouette,
rulings, config, the demo). Checked on the source with ast, function-level imports included;
migrations may depend on other apps' migrations and are left out. No database."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
#: Every first-party top-level package (a new app above matches is caught by name too).
ABOVE = {"tournaments", "clubs", "chouette", "rulings", "config", "demo", "bench", "tests"}
ALLOWED = {
    "accounts": {"accounts", "audit", "core", "engine"},
    "matches": {"matches", "accounts", "audit", "core", "engine"},
}


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _imports(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file (the module ``module``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    module = module or _module(path)
    package = module.removesuffix(".__init__") if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return found


def _sources(app: str) -> list[Path]:
    return [p for p in sorted((ROOT / app).rglob("*.py")) if "migrations" not in p.parts]


@pytest.mark.parametrize("app", sorted(ALLOWED))
def test_the_app_imports_nothing_above_it(app):
    first_party = ABOVE | {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    wrong = []
    for path in _sources(app):
        for line, name in _imports(path):
            top = name.split(".")[0]
            if top in first_party and top not in ALLOWED[app]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert wrong == []


def test_the_check_resolves_relative_imports_and_sees_function_level_ones(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("from .. import hooks\nfrom ..models import Match\n\n"
                       "def f():\n    from tournaments.services import x\n")
    assert _imports(planted, "matches.services.planted") == [
        (1, "matches"), (2, "matches.models"), (5, "tournaments.services")]
