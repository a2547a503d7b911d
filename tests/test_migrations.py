"""The committed migrations match the models: nothing is left for makemigrations to write."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent


def test_the_migrations_are_committed_and_in_step_with_the_models():
    # The test process's environment points at PostgreSQL, which makemigrations consults for the
    # history; with nothing set it would create an empty SQLite file in the project instead.
    result = subprocess.run(
        [sys.executable, "manage.py", "makemigrations", "--check", "--dry-run", "--no-input"],
        cwd=BASE_DIR, env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, f"missing migrations:\n{result.stdout}{result.stderr}"
    assert "No changes detected" in result.stdout
