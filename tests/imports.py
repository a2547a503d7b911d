"""Reading a module's imports with ``ast``, for the tests that keep the house in shape: the pure
engine and draw (tests/engine/test_purity.py, tests/tournaments/draw/test_purity.py), the
layers of the apps (tests/test_layers.py) and the private names no module takes from another
(tests/test_public_names.py)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Import:
    """One imported module: its dotted name, its line, and whether it stands inside a function
    (or a class body) rather than at the top of the module."""

    name: str
    line: int
    nested: bool


def module_package(root: Path, path: Path) -> tuple[str, str]:
    """A file's dotted module name (a package by its own name) and the package its relative
    imports start from."""
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        name = ".".join(parts[:-1])
        return name, name
    name = ".".join(parts)
    return name, name.rpartition(".")[0]


def imports(source: str, package: str) -> list[Import]:
    """Every module ``source`` imports, wherever the import stands: ``import x``, ``from x import
    y`` (relative ones resolved from ``package``; one that climbs above the top package keeps its
    dots), and ``__import__("x")`` / ``importlib.import_module("x")`` with a literal name. An
    import inside a function or a class body is ``nested``; one in a top-level ``if`` or ``try``
    (``if TYPE_CHECKING:``, an optional dependency) is not: it runs when the module loads."""
    found: list[Import] = []

    def visit(node: ast.AST, nested: bool) -> None:
        found.extend(Import(name, node.lineno, nested) for name in _names(node, package))
        inner = nested or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda)
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(ast.parse(source), False)
    return found


def _names(node: ast.AST, package: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level:
        base = package.split(".")
        if node.level - 1 >= len(base):
            return ["." * node.level + (node.module or "")]
        return [".".join([*base[: len(base) - (node.level - 1)], *filter(None, [node.module])])]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if (
        isinstance(node, ast.Call)
        and ast.unparse(node.func) in ("__import__", "importlib.import_module")
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return [node.args[0].value]
    return []


# Django's documented underscore names, public by its own convention.
DJANGO_PUBLIC = frozenset({"_meta", "_default_manager", "_base_manager", "_state"})


def private_names(source: str, module: str, package: str, apps: frozenset[str]) -> list[tuple[int, str]]:
    """The private names (one leading underscore) that ``module`` takes from another module of
    ``apps``: ``from x import _name`` and ``x._name`` of a module it imported, each as (line,
    "x._name"), the first line a name is taken on."""
    tree = ast.parse(source)
    taken: dict[str, int] = {}
    bound: dict[str, str] = {}

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__") and name not in DJANGO_PUBLIC

    def take(line: int, target: str) -> None:
        if target.split(".")[0] in apps and target.rpartition(".")[0] != module:
            taken.setdefault(target, line)

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source_module = _names(node, package)[0]
            for alias in node.names:
                if private(alias.name):
                    take(node.lineno, f"{source_module}.{alias.name}")
                else:
                    bound[alias.asname or alias.name] = f"{source_module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                # "import a.b as c" binds c to a.b; "import a.b" binds a.
                bound[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in bound):
            take(node.lineno, f"{bound[node.value.id]}.{node.attr}")
    return sorted(((line, target) for target, line in taken.items()))
