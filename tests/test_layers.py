"""The layers of DESIGN.md, read from the source with ``ast`` (nothing is imported):

- no import circle among the modules of tablectl, vision and web, lazy imports (inside a
  function) included: a circle only hidden by a lazy import is still a circle;
- ``tablectl/game`` is pure: what it imports (and what that imports in turn, inside the
  product) does no I/O, reads no clock, starts no thread and is not vision, web or gpiozero.

Imports under ``if TYPE_CHECKING:`` are for type checkers only and never run: not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("tablectl", "vision", "web")

# what the game may import besides itself: the odds (pure arithmetic, tablectl/odds) and
# these standard modules, none of which does I/O, reads a clock or starts a thread
GAME_PACKAGES = ("tablectl.game", "tablectl.odds")
PURE_STDLIB = frozenset({
    "__future__", "abc", "collections", "collections.abc", "dataclasses", "enum", "fractions",
    "functools", "itertools", "math", "numbers", "operator", "typing",
})
# builtins that do I/O
IO_BUILTINS = frozenset({"open", "print", "input", "breakpoint", "exec", "eval", "__import__"})


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def product_modules(root: Path, packages=PRODUCT) -> dict[str, Path]:
    return {module_name(root, p): p for pkg in packages for p in sorted((root / pkg).rglob("*.py"))
            if "__pycache__" not in p.parts}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk_runtime(tree: ast.AST):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking_only(child):
                stack.extend(child.orelse)
                continue
            stack.append(child)


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Absolute names of the modules ``name`` imports at run time: a product module where one
    is meant (``from pkg import sub`` is ``pkg.sub`` when that is a module), else the name."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _walk_runtime(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
            found.update(subs)
            if len(subs) < len(node.names):
                found.add(target)
    return found


def import_graph(root: Path, packages=PRODUCT) -> tuple[dict[str, set[str]], dict[str, Path]]:
    modules = product_modules(root, packages)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}, modules


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles among the graph's own modules (strongly connected components of
    more than one module, or a module importing itself), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def impurities(graph: dict[str, set[str]], modules: dict[str, Path],
               start: str = "tablectl.game") -> list[str]:
    """Why the game (``start`` and every product module it reaches) is not pure, if it is not."""
    problems: list[str] = []
    seen: set[str] = set()
    todo = [m for m in graph if m == start or m.startswith(start + ".")]
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        if not mod.startswith(GAME_PACKAGES):
            problems.append(f"{mod} is reached from {start} but is not part of the pure game "
                            f"({', '.join(GAME_PACKAGES)})")
            continue
        for imported in sorted(graph[mod]):
            if imported in graph:
                todo.append(imported)
            elif imported.split(".")[0] in PRODUCT:
                todo.append(imported.split(".")[0])  # a product package: report it above
            elif imported not in PURE_STDLIB:
                problems.append(f"{mod} imports {imported}, which may do I/O, read a clock or "
                                f"start a thread (the game may import only "
                                f"{', '.join(sorted(PURE_STDLIB))})")
        tree = ast.parse(modules[mod].read_text())
        for node in _walk_runtime(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in IO_BUILTINS):
                problems.append(f"{mod} line {node.lineno} calls {node.func.id}()")
    return problems


# ---------------------------------------------------------------------------- the product

@pytest.fixture(scope="module")
def product():
    return import_graph(ROOT)


def test_every_product_module_is_read(product):
    graph, _ = product
    for name in ("tablectl.game.engine", "tablectl.journal", "tablectl.recall", "vision",
                 "web"):
        assert name in graph


# Circles known to be there, each in another engineer's part, with who is breaking it. The
# test below fails on any other circle, and on a listed one once it is gone (then drop it here).
KNOWN_CIRCLES: set[tuple[str, ...]] = set()  # none left (hand <-> render: shading.py)


def test_no_import_circle_in_the_product(product):
    graph, _ = product
    found = {tuple(c) for c in circles(graph)}
    new = found - KNOWN_CIRCLES
    assert not new, "import circles (break each by moving what both need into a module both " \
                    "import): " + "; ".join(" <-> ".join(c) for c in sorted(new))
    gone = KNOWN_CIRCLES - found
    assert not gone, f"no longer circles, drop them from KNOWN_CIRCLES: {sorted(gone)}"


def test_the_game_is_pure(product):
    graph, modules = product
    problems = impurities(graph, modules)
    assert not problems, "\n".join(problems)


def test_vision_knows_no_craps_nor_web(product):
    graph, _ = product
    wrong = [f"{m} imports {i}" for m, deps in graph.items() if m.split(".")[0] == "vision"
             for i in deps if i.split(".")[0] in ("tablectl", "web")]
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------------------- the checks fail

def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_lazy_circle_is_found(tmp_path):
    write(tmp_path, {
        "tablectl/__init__.py": "",
        "tablectl/a.py": "from tablectl import b\n",
        "tablectl/b.py": "def f():\n    from .a import x\n",
        "tablectl/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                         "    from tablectl.a import x\n",
        "tablectl/d.py": "from tablectl.c import y\n",
    })
    graph, _ = import_graph(tmp_path, ("tablectl",))
    assert circles(graph) == [["tablectl.a", "tablectl.b"]]


@pytest.mark.parametrize("line, said", [
    ("import time\n", "imports time"),
    ("from threading import Thread\n", "imports threading"),
    ("import sqlite3\n", "imports sqlite3"),
    ("def f():\n    import gpiozero\n", "imports gpiozero"),
    ("from vision.dice import DiceReader\n", "vision.dice is reached"),
    ("from tablectl import journal\n", "tablectl.journal is reached"),
    ("def f(p):\n    return open(p).read()\n", "calls open()"),
])
def test_an_impure_game_is_found(tmp_path, line, said):
    write(tmp_path, {
        "tablectl/__init__.py": "", "tablectl/journal.py": "import os\n",
        "tablectl/game/__init__.py": "from .engine import Game\n",
        "tablectl/game/engine.py": "from functools import lru_cache\n" + line,
        "vision/__init__.py": "", "vision/dice.py": "",
    })
    graph, modules = import_graph(tmp_path, ("tablectl", "vision"))
    problems = impurities(graph, modules)
    assert problems and said in problems[0], problems


# none left: every helper that tests and benchmarks share lives in tests/support/
KNOWN_TEST_BENCH_IMPORTS: set[tuple[str, str]] = set()


def test_tests_and_benchmarks_share_only_tests_support():
    graph, _ = import_graph(ROOT, ("tests", "bench"))
    crossing = {(m, i) for m, deps in graph.items() for i in deps
                if (m.startswith("tests.") and i.split(".")[0] == "bench")
                or (m.startswith("bench.") and i.split(".")[0] == "tests"
                    and not i.startswith("tests.support"))}
    new = crossing - KNOWN_TEST_BENCH_IMPORTS
    assert not new, "tests and benchmarks share helpers through tests/support/ only: " + \
        "; ".join(f"{m} imports {i}" for m, i in sorted(new))
    gone = KNOWN_TEST_BENCH_IMPORTS - crossing
    assert not gone, f"no longer there, drop from KNOWN_TEST_BENCH_IMPORTS: {sorted(gone)}"
