"""The draw is a pure core (STYLE.md §3.2.1): importing it never loads Django, and it imports
nothing outside the standard library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import tournaments.draw
from tests.imports import imports, module_package

DRAW = Path(tournaments.draw.__file__).parent


def test_it_never_loads_django_when_the_draw_is_imported():
    modules = sorted(f"tournaments.draw.{p.stem}" for p in DRAW.glob("*.py") if p.stem != "__init__")
    code = f"import sys, tournaments.draw, {', '.join(modules)}; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_tournaments_package_it_lives_in_imports_nothing_on_its_own():
    init = DRAW.parent / "__init__.py"
    assert not [node for node in ast.parse(init.read_text()).body if isinstance(node, ast.Import | ast.ImportFrom)]


def test_it_imports_only_the_standard_library_and_itself():
    foreign = []
    for path in sorted(DRAW.glob("*.py")):
        _, package = module_package(DRAW.parent.parent, path)
        foreign += [f"{path.name}, line {found.line}: {found.name}" for found in imports(path.read_text(), package)
                    if not found.name.startswith("tournaments.draw")
                    and found.name.split(".")[0] not in sys.stdlib_module_names]
    assert foreign == []
