"""How the house reads: the measures a newcomer meets, counted from the tree (no Django, no database).

    .venv/bin/python bench/house.py [--list]

It prints, for the product code (every app, not tests/, bench/ or migrations):
- branches on an event's format or kind outside its strategies (``tournaments/formats/``), as
  tests/test_format_branches.py finds them: ``if``/``elif``/conditional expressions, comprehension
  conditions and ``match`` statements that read ``tournament.format``/``.kind``, ``Tournament.Format``,
  a ``*_FORMATS`` tuple or a local ``format``, per file, and ``{% if %}`` tags on them in templates;
- the ways to extend: classes named ``*Hook``, module-level hook instances, ``*_register`` functions;
- modules over 600 lines;
- private names taken across modules (``from x import _name``, ``x._name`` of an imported
  module; each name once per module that takes it), and those across apps;
- mentions of an issue or a session tag (tests/test_no_history.py's patterns);
- the README's lines before its "Run it" heading.
``--list`` prints where each is, not only how many.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_format_branches import python_branches, template_branches  # noqa: E402
from tests.test_no_history import mentions  # noqa: E402
from tests.test_public_names import taken_across_modules  # noqa: E402

BIG = 600


def product_files(suffix: str) -> list[Path]:
    out = subprocess.run(["git", "ls-files", f"*{suffix}"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / name for name in out.stdout.split()
            if not name.startswith(("tests/", "bench/", "locale/")) and "/migrations/" not in name]




APPS = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests", "bench"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--list", action="store_true", help="say where, not only how many")
    args = parser.parse_args()
    branches, big, hooks, registers, history = Counter(), {}, [], [], []
    for path in product_files(".py"):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT).as_posix()
        tree = ast.parse(text)
        if text.count("\n") > BIG:
            big[name] = text.count("\n")
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name.endswith("Hook"):
                hooks.append(f"{name}:{node.lineno} class {node.name}")
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_register"):
                registers.append(f"{name}:{node.lineno} {node.name}")
            if (isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Name) and node.value.func.id.endswith("Hook")):
                hooks.append(f"{name}:{node.lineno} instance of {node.value.func.id}")
        for number, line in enumerate(text.splitlines(), start=1):
            history += [f"{name}:{number} {found}" for found in mentions(line)]
    for where in python_branches():
        branches[where.split(":")[0]] += 1
    in_templates = Counter(where.split(":")[0] for where in template_branches())
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    run_it = next((i for i, line in enumerate(readme) if re.match(r"#+\s*Run it", line)), len(readme))
    private = taken_across_modules()  # "file:line takes module._name" (tests/test_public_names.py)
    across_apps = [item for item in private if item.split(" takes ")[1].split(".")[0] != item.split("/")[0]]

    print(f"branches on an event's format or kind outside tournaments/formats/: {sum(branches.values())} "
          f"in {len(branches)} files; "
          f"{sum(in_templates.values())} in {len(in_templates)} templates")
    print(f"ways to extend: {len([h for h in hooks if ' class ' in h])} Hook classes, "
          f"{len([h for h in hooks if 'instance' in h])} hook instances, {len(registers)} *_register functions")
    print(f"modules over {BIG} lines: {len(big)}")
    print(f"private names across modules: {len(private)} ({len(across_apps)} across apps)")
    print(f"issue or session tags: {len(history)}")
    print(f"README lines before 'Run it': {run_it}")
    if args.list:
        for name, count in branches.most_common():
            print(f"  branches {name}: {count}")
        for name, count in in_templates.most_common():
            print(f"  template branches {name}: {count}")
        for line in hooks + registers:
            print(f"  {line}")
        for name, lines in sorted(big.items(), key=lambda item: -item[1]):
            print(f"  {name}: {lines} lines")
        for line in private:
            print(f"  {line}")
        for line in history:
            print(f"  {line}")


if __name__ == "__main__":
    main()
