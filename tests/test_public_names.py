"""What one module shares with another is public: no module takes a private name (one leading
underscore) from another module of the project, by ``from x import _name`` or ``x._name``. A name
two modules need is part of the first one's public surface, documented as such."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.imports import module_package, private_names

ROOT = Path(__file__).resolve().parent.parent
APPS = frozenset(path.parent.name for path in ROOT.glob("*/__init__.py")) - {"tests", "bench"}


def product_modules() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / name for name in out.split()
            if name.split("/")[0] in APPS and "/migrations/" not in name]


def taken_across_modules() -> list[str]:
    found = []
    for path in product_modules():
        module, package = module_package(ROOT, path)
        for line, target in private_names(path.read_text(encoding="utf-8"), module, package, APPS):
            found.append(f"{path.relative_to(ROOT)}:{line} takes {target}")
    return found


def test_no_module_takes_a_private_name_from_another():
    found = taken_across_modules()
    assert not found, "\n".join(found)


def test_the_check_sees_both_ways_of_taking_one():
    source = "from matches.views.match import _match_or_404\nfrom tournaments.api import events\nevents._read_body(1)\n"
    assert private_names(source, "analysis.views", "analysis", APPS) == [
        (1, "matches.views.match._match_or_404"), (3, "tournaments.api.events._read_body")]
    # One's own private names, Django's public underscore names and dunders are not taken.
    own = "from . import _helpers\nfrom .models import Tournament\nTournament._meta\nx.__class__\n"
    assert private_names(own, "tournaments.views", "tournaments", APPS) == [(1, "tournaments._helpers")]
