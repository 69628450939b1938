"""The module layers: no import circles, and the layer rules of ``docs/architecture.md``.

Every module under ``src/minegraph`` is parsed with :mod:`ast`; every import that runs is an
edge, those inside functions and methods included (a lazy import still ties two modules
together), those under ``if TYPE_CHECKING:`` excluded (they never run). ``from minegraph.x
import y`` is an edge to ``minegraph.x.y`` when that is a module, else to ``minegraph.x``. A
package's ``__init__`` is a node of its own: importing ``minegraph.x.y`` also runs
``minegraph/x/__init__.py``, but counting that would tie every package to what it re-exports,
so those implicit edges are left out. Lookups by name at run time (``importlib.import_module``
in the engine registry, the format codecs and the CLI's command table) are not imports of the
module that holds the table, and are not edges either.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

Graph = dict[str, set[str]]


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _runtime_imports(node: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The import statements under ``node`` that can run: everywhere, functions included,
    except the bodies of ``if TYPE_CHECKING:`` (their ``else`` branches do run)."""
    found: list[ast.Import | ast.ImportFrom] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            found.append(child)
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for stmt in child.orelse:
                found.extend(_runtime_imports(ast.Module(body=[stmt], type_ignores=[])))
        else:
            found.extend(_runtime_imports(child))
    return found


def _targets(stmt: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             known: set[str], top: str) -> set[str]:
    """The modules of package ``top`` that ``stmt`` (in ``module``) imports."""
    def nearest(name: str) -> str | None:
        # `import minegraph.x.y` runs minegraph.x.y; an unknown tail (an attribute) falls
        # back to the longest known prefix.
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    out: set[str] = set()
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            if alias.name == top or alias.name.startswith(top + "."):
                found = nearest(alias.name)
                if found:
                    out.add(found)
        return out
    if stmt.level:
        base = module if is_package else module.rpartition(".")[0]
        for _ in range(stmt.level - 1):
            base = base.rpartition(".")[0]
        source = f"{base}.{stmt.module}" if stmt.module else base
    else:
        source = stmt.module or ""
    if not (source == top or source.startswith(top + ".")):
        return out
    for alias in stmt.names:
        sub = f"{source}.{alias.name}"
        found = sub if sub in known else nearest(source)
        if found:
            out.add(found)
    return out


def import_graph(root: Path, top: str = "minegraph") -> Graph:
    """Module -> the modules of ``top`` it imports at run time, for every module under
    ``root / top``."""
    files = {_module_name(p, root): p for p in sorted((root / top).rglob("*.py"))}
    known = set(files)
    graph: Graph = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        graph[module] = set()
        for stmt in _runtime_imports(tree):
            graph[module] |= _targets(stmt, module, is_package, known, top)
    return graph


def tangles(graph: Graph) -> list[list[str]]:
    """The strongly connected components with more than one module or a self-import, each
    sorted (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    components.append(sorted(component))
    return components


def cycles(graph: Graph) -> list[list[str]]:
    """One cycle (``[a, b, ..., a]``) through each of the :func:`tangles`."""
    return [_cycle_in(graph, set(c)) for c in tangles(graph)]


def _cycle_in(graph: Graph, component: set[str]) -> list[str]:
    """A shortest cycle through the first module of a strongly connected ``component``."""
    start = min(component)
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return [start, *reversed(path[:-1]), start] if node != start else [start, start]
                if child not in parent:
                    parent[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"{sorted(component)} is not strongly connected")


def reachable(graph: Graph, module: str) -> set[str]:
    """Every module ``module`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        for child in graph[todo.pop()]:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


GRAPH = import_graph(SRC)


def test_every_module_is_seen() -> None:
    assert {"minegraph", "minegraph.board", "minegraph.formats.svg", "minegraph.cli",
            "minegraph.decompose.pipeline", "minegraph.report"} <= set(GRAPH)
    assert "minegraph.formats.svg" in GRAPH["minegraph.board"]       # a lazy import counts


def test_no_import_cycles() -> None:
    found = tangles(GRAPH)
    assert not found, "import cycles:\n" + "\n".join(
        f"{' -> '.join(_cycle_in(GRAPH, set(c)))}  (all of {', '.join(c)} import each other)"
        for c in found)


def test_svg_draws_without_the_analysis() -> None:
    """The picture module knows boards only by their attributes and no analysis at all, so
    every layer above can draw with it."""
    imported = reachable(GRAPH, "minegraph.formats.svg")
    banned = ("minegraph.analysis", "minegraph.engines", "minegraph.decompose", "minegraph.board")
    assert not [m for m in imported if _within(m, banned)]


#: The modules split out of board.py: they read a board's fields or attributes and know no
#: Board class (board.py imports them, so an import back would be a circle).
BOARD_PARTS = ["minegraph.values", "minegraph.labels", "minegraph.board_checks",
               "minegraph.board_networkx", "minegraph.board_cells", "minegraph.board_repr",
               "minegraph.board_files"]


@pytest.mark.parametrize("layer", ["minegraph.engines", "minegraph.decompose", "minegraph.formats",
                                   "minegraph.constraints", "minegraph.board", *BOARD_PARTS])
def test_lower_layers_never_reach_the_front_ends(layer: str) -> None:
    front = ("minegraph.cli", "minegraph.report")
    for module in (m for m in GRAPH if _within(m, (layer,))):
        bad = sorted(m for m in reachable(GRAPH, module) if _within(m, front))
        assert not bad, f"{module} imports {bad}"


@pytest.mark.parametrize("part", BOARD_PARTS)
def test_the_board_parts_know_no_board(part: str) -> None:
    assert part in reachable(GRAPH, "minegraph.board")      # a part of it...
    assert "minegraph.board" not in reachable(GRAPH, part)  # ...that never imports it


def test_the_label_rules_know_nothing_but_errors() -> None:
    """``labels.py`` is the one place of the label rules for the board and the graph files."""
    assert reachable(GRAPH, "minegraph.labels") == {"minegraph.errors"}
    assert "minegraph.labels" in GRAPH["minegraph.formats.graphs"]


def test_the_green_game_stands_apart() -> None:
    """The green game shares only the error types with the Minesweeper layers."""
    for module in (m for m in GRAPH if _within(m, ("minegraph.green",))):
        bad = sorted(m for m in reachable(GRAPH, module)
                     if not _within(m, ("minegraph.green", "minegraph.errors")))
        assert not bad, f"{module} imports {bad}"


@pytest.mark.parametrize("layer", ["minegraph.generate", "minegraph.recipes", "minegraph.rules"])
def test_the_game_rules_sit_below_the_generators(layer: str) -> None:
    """Generators and recipes draw and open layouts through ``rules``, never the game engine
    or the autoplayers in ``play``."""
    for module in (m for m in GRAPH if _within(m, (layer,))):
        bad = sorted(m for m in reachable(GRAPH, module) if _within(m, ("minegraph.play",)))
        assert not bad, f"{module} imports {bad}"


def test_only_the_entry_point_imports_the_command_line() -> None:
    users = sorted(m for m, imported in GRAPH.items() if not _within(m, ("minegraph.cli",))
                   and any(_within(i, ("minegraph.cli",)) for i in imported))
    assert users == ["minegraph.__main__"]


def test_the_checker_sees_lazy_imports_and_skips_type_checking(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pkg.a import f\n")
    (pkg / "a.py").write_text("from pkg import b\n\ndef f():\n    return b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from pkg.a import f\nelse:\n    import json\n\n"
                              "class B:\n    def m(self):\n        from pkg.sub.c import g\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("from .. import a\nfrom ..b import B\n\n"
                                      "def g():\n    import pkg.sub.c\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.sub.c"},
                     "pkg.sub": set(), "pkg.sub.c": {"pkg.a", "pkg.b", "pkg.sub.c"}}
    assert sorted(map(tuple, cycles(graph))) == [("pkg.a", "pkg.b", "pkg.sub.c", "pkg.a")]
    graph["pkg.sub.c"] = {"pkg.sub.c"}
    assert cycles(graph) == [["pkg.sub.c", "pkg.sub.c"]]
