"""Imports run one way: gateway -> contracts; recognizer and solver never reach the generator."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(folder: Path) -> dict[str, set[str]]:
    """Every module named in an import statement, per source file under `folder`."""
    found = {}
    for path in folder.rglob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize("library", ["services/recognizer", "services/solver"])
def test_libraries_do_not_import_the_generator_or_training(library):
    offenders = {path: sorted(n for n in names if n.startswith("gridsight"))
                 for path, names in imported_modules(ROOT / library).items()}
    assert {p: n for p, n in offenders.items() if n} == {}


def test_gateway_sends_tasks_by_name_only():
    offenders = {path: sorted(n for n in names
                              if n.startswith(("services.recognizer", "services.solver")))
                 for path, names in imported_modules(ROOT / "services/gateway").items()}
    assert {p: n for p, n in offenders.items() if n} == {}
