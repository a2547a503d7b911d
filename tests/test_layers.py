"""The house's dependencies point one way (README, "Layout"): each app imports only from itself
and the layers below it, never up and never sideways, so the kernel (matches) and everything under
it can be read, tested and changed without the apps built on them.

The walk reads every module of every app with ``ast`` (imports inside functions included: an import
hidden in a function to dodge a cycle is still a dependency) and names each import that breaks the
order, with its file and line. Migrations are left out: they name other apps' migrations, which is
the database's history, not a dependency of the code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.imports import imports, module_package

ROOT = Path(__file__).resolve().parent.parent

#: The layers, bottom first. An app may import its own modules and any app of a lower layer.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("engine", "tournaments.draw"),  # pure: the standard library only
    ("core",),  # errors, API plumbing, page helpers, task retry policy, locking, the outbox and its local workers, /health/
    ("audit",),
    ("accounts",),
    ("matches",),  # the kernel: players, sides, matches, results, ratings
    ("analysis",),  # GNU Backgammon's verdict on a match's games: on matches, told an event's depth by a hook
    ("tournaments",),
    ("clubs",),  # a club hosts events: it may know tournaments, never the reverse
    ("chouette", "rulings"),
    ("webhooks",),  # tells URLs of results, pairings and rulings: listens to the apps below through hooks
    ("config", "demo"),
)
APPS = sorted((app for layer in LAYERS for app in layer), key=len, reverse=True)  # tournaments.draw first
LAYER_OF = {app: number for number, layer in enumerate(LAYERS) for app in layer}


def app_of(module: str) -> str | None:
    """The app a dotted module name belongs to (``tournaments.draw.swiss`` -> ``tournaments.draw``),
    or None for a module of no app (Django, the standard library, the tests)."""
    return next((app for app in APPS if module == app or module.startswith(app + ".")), None)


def violations(source: str, module: str, package: str) -> list[str]:
    """Each import in ``source`` (the module ``module``) that points up or sideways, as
    ``"line 4: matches -> tournaments.models (up)"``."""
    own = app_of(module)
    found = []
    for imported in imports(source, package):
        target = app_of(imported.name)
        if own is None or target is None or target == own:
            continue
        if LAYER_OF[target] > LAYER_OF[own]:
            found.append(f"line {imported.line}: {own} -> {imported.name} (up)")
        elif LAYER_OF[target] == LAYER_OF[own]:
            found.append(f"line {imported.line}: {own} -> {imported.name} (sideways)")
    return found


def app_modules(root: Path) -> list[Path]:
    """Every module of every app under ``root``, migrations left out."""
    top = {app.split(".")[0] for app in APPS}
    return sorted(path for name in top if (root / name).is_dir() for path in (root / name).rglob("*.py")
                  if "migrations" not in path.relative_to(root).parts)


def house_violations(root: Path) -> list[str]:
    """Each import of the house under ``root`` that points up or sideways, led by its file."""
    broken = []
    for path in app_modules(root):
        module, package = module_package(root, path)
        broken += [f"{path.relative_to(root)}, {v}" for v in violations(path.read_text(), module, package)]
    return broken


def test_every_import_points_down_or_stays_in_its_app():
    assert house_violations(ROOT) == []


def nested_project_imports(root: Path) -> list[str]:
    """Each import of a project module made inside a function or class, but for the ``ready()`` of
    an ``apps.py``: Django loads the models before it calls ``ready()``, so an app registers its
    hooks from there (the documented place), and nowhere else is an import put off."""
    found = []
    for path in app_modules(root):
        if path.name == "apps.py":
            continue
        _, package = module_package(root, path)
        found += [f"{path.relative_to(root)}, line {i.line}: {i.name}" for i in imports(path.read_text(), package)
                  if i.nested and app_of(i.name)]
    return found


def test_no_import_of_the_project_is_put_off_into_a_function():
    # An import inside a function is how a cycle is dodged; the house has no cycle to dodge.
    assert nested_project_imports(ROOT) == []


def test_a_put_off_import_is_found(tmp_path):
    (tmp_path / "rulings").mkdir()
    (tmp_path / "rulings/services.py").write_text("import json\n\n\ndef notify():\n    from rulings.tasks import send\n")
    (tmp_path / "rulings/apps.py").write_text("class C:\n    def ready(self):\n        from . import hooks\n")
    assert nested_project_imports(tmp_path) == ["rulings/services.py, line 5: rulings.tasks"]


def test_the_walk_reaches_every_app():
    walked = {app_of(module_package(ROOT, path)[0]) for path in app_modules(ROOT)}
    assert walked == set(APPS)


@pytest.mark.parametrize(
    ("source", "module", "found"),
    [
        # Up: the kernel reaching for an app built on it, at the top or hidden in a function.
        ("from tournaments.models import Tournament\n", "matches.models", ["line 1: matches -> tournaments.models (up)"]),
        ("def confirm():\n    from rulings.services import disputes\n", "matches.services.reporting",
         ["line 2: matches -> rulings.services (up)"]),
        ("import chouette.models\n", "clubs.views", ["line 1: clubs -> chouette.models (up)"]),
        ("from ..models import Club\n", "clubs.services.members", []),
        ("from tournaments.services import state\n", "tournaments.draw.swiss",
         ["line 1: tournaments.draw -> tournaments.services (up)"]),
        # Sideways: two apps of one layer.
        ("from rulings.models import Dispute\n", "chouette.services", ["line 1: chouette -> rulings.models (sideways)"]),
        # Down, or within the app: allowed.
        ("from core.errors import Conflict\nfrom matches.models import Match\n", "clubs.services.nights", []),
        ("from tournaments.draw import swiss\nfrom engine.game import Game\n", "tournaments.services.advance", []),
        ("import django.db\nimport json\n", "audit.models", []),
    ],
)
def test_the_check_names_each_import_that_points_up_or_sideways(source, module, found):
    package = module.rpartition(".")[0]
    assert violations(source, module, package) == found


def test_a_planted_upward_import_fails_the_walk(tmp_path):
    """The walk itself, on a small house with one import planted where it must not be."""
    for name, text in {
        "core/__init__.py": "",
        "core/errors.py": "class DomainError(Exception):\n    pass\n",
        "matches/__init__.py": "",
        "matches/services.py": "from core.errors import DomainError\n\n\ndef confirm():\n    from rulings import hooks\n",
        "matches/migrations/0002_x.py": "from tournaments.models import Tournament\n",
        "rulings/__init__.py": "",
        "rulings/hooks.py": "from matches import services\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert house_violations(tmp_path) == ["matches/services.py, line 5: matches -> rulings (up)"]
