"""The engine is a pure core (STYLE.md §3.2.1): importing it never loads Django, and every module
under engine/ imports nothing outside the standard library and the engine itself, wherever the
import stands (at the top of the module, or inside a function)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import engine
from tests.imports import imports

ENGINE = Path(engine.__file__).parent


def engine_modules() -> dict[str, Path]:
    """Every module under engine/, by dotted name (a package by its own name), ``__main__`` included."""
    modules = {}
    for path in sorted(ENGINE.rglob("*.py")):
        parts = path.relative_to(ENGINE.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def foreign_imports(source: str, package: str) -> list[str]:
    """Every import in ``source`` of a module outside the standard library and ``engine``, as
    ``"line 3: django.db"``. ``package`` is where the source's relative imports start (a module's
    package; a package's ``__init__`` its own name). Imports inside functions count, and so do
    ``__import__("x")`` and ``importlib.import_module("x")`` with a literal name."""
    return [f"line {found.line}: {found.name}" for found in imports(source, package)
            if found.name.split(".")[0] != "engine" and found.name.split(".")[0] not in sys.stdlib_module_names]


def test_every_engine_module_imports_only_the_standard_library_and_the_engine():
    modules = engine_modules()
    foreign = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        foreign += [f"{path.relative_to(ENGINE.parent)}, {found}" for found in foreign_imports(path.read_text(), package)]

    # The walk reaches the subpackages, not just engine/'s own files.
    assert {"engine", "engine.__main__", "engine.chouette", "engine.chouette.session", "engine.formats.mat"} <= set(modules)
    assert foreign == []


@pytest.mark.parametrize(
    ("source", "package", "found"),
    [
        ("import django\n", "engine", ["line 1: django"]),
        ("from django.db import models\n", "engine.chouette", ["line 1: django.db"]),
        ("import json, numpy.linalg\n", "engine", ["line 1: numpy.linalg"]),
        ("def replay():\n    import requests\n", "engine", ["line 2: requests"]),
        ("import importlib\nsettings = importlib.import_module('django.conf')\n", "engine", ["line 2: django.conf"]),
        ("models = __import__('django.db.models')\n", "engine", ["line 1: django.db.models"]),
        ("from ... import outside\n", "engine.chouette", ["line 1: ..."]),
        ("from __future__ import annotations\nimport json\nimport engine.board\n", "engine", []),
        ("from ..errors import ChouetteError\nfrom . import base\nfrom .codec import bad_json\n", "engine.chouette", []),
    ],
)
def test_the_check_names_each_foreign_import_and_its_line(source, package, found):
    assert foreign_imports(source, package) == found


def test_it_never_loads_django_when_every_engine_module_is_imported():
    modules = sorted(name for name in engine_modules() if name != "engine.__main__")  # that one runs the CLI
    code = f"import sys, {', '.join(modules)}; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
