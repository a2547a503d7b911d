"""The service needs only requirements.txt: every requirement is pinned, and with the packages that
only requirements-dev.txt brings (tests, lint, benchmarks) made unimportable, a fresh process with
nothing set (SQLite, tasks in-process) passes ``check`` and imports every module of every app."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
APPS = ["accounts", "matches", "tournaments", "clubs", "chouette", "rulings", "config", "engine"]

# Refuses the top-level modules named in argv[1] (comma-separated), then sets Django up, runs the
# system checks and imports every module of the apps named in argv[2:].
WALK = """
import importlib, importlib.abc, os, pathlib, runpy, sys
blocked = set(sys.argv[1].split(","))

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"{name} is a development package", name=name)
        return None

sys.meta_path.insert(0, Refuse())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.core.management import call_command
call_command("check", fail_level="WARNING")
count = 0
for app in sys.argv[2:]:
    for path in sorted(pathlib.Path(app).rglob("*.py")):
        if path.name == "__main__.py":
            continue
        if "." in path.stem:
            # A settings file another program reads (gunicorn -c config/gunicorn.conf.py), not a module.
            runpy.run_path(str(path))
        else:
            importlib.import_module(".".join(path.with_suffix("").parts))
        count += 1
print(count)
"""


def requirements(name: str) -> list[str]:
    """The requirement lines of a requirements file: no comments, no blank lines."""
    lines = (line.split("#", 1)[0].strip() for line in (BASE_DIR / name).read_text().splitlines())
    return [line for line in lines if line]


def canonical(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def pinned(lines: list[str]) -> dict[str, str]:
    """``{canonical distribution name: version}``; fails on a requirement that is not pinned."""
    versions = {}
    for line in lines:
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]+\])?==([0-9][^\s;]*)", line)
        assert match, f"{line!r} is not pinned with =="
        versions[canonical(match[1])] = match[3]
    return versions


def test_every_requirement_is_pinned_and_the_dev_file_builds_on_the_service_file():
    service = pinned(requirements("requirements.txt"))
    dev_lines = requirements("requirements-dev.txt")
    assert dev_lines[0] == "-r requirements.txt"
    dev = pinned(dev_lines[1:])
    assert "django" in service and "pytest" in dev
    assert not service.keys() & dev.keys(), "a package pinned in both files"


def test_the_service_runs_without_the_development_packages():
    dev = set(pinned(requirements("requirements-dev.txt")[1:]))
    blocked = {module for module, distributions in packages_distributions().items()
               if any(canonical(d) in dev for d in distributions)}
    assert {"pytest", "hypothesis", "factory"} <= blocked
    # gnubg is the service's, but optional: every module must import without it too,
    # the analysis then being refused as unavailable (tests/analysis).
    assert "gnubg" not in blocked
    blocked.add("gnubg")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}
    result = subprocess.run([sys.executable, "-c", WALK, ",".join(sorted(blocked)), *APPS], cwd=BASE_DIR, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert int(result.stdout.strip().splitlines()[-1]) > 100
