"""No output of the package holds ``NaN`` or ``Infinity`` (issue 34, item 10): strict JSON
parsers refuse them, so every JSON writer passes ``allow_nan=False`` (a value that is not
finite is then a bug found at once, not a file another program cannot read). The sources are
read, not run: every ``json.dump``/``json.dumps`` call under ``src/minegraph`` outside the web
app (whose ``JSONResponse`` is already strict) must say ``allow_nan=False``, except the calls
that only quote a value inside an error message."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "minegraph"

#: (file, function): calls that quote a user's value in a message, never written as output.
MESSAGE_QUOTES = {("formats/graphs.py", "_read_nodelink"), ("formats/json.py", "_key_path")}


def _is_json_write(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("dump", "dumps") and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "json")


def _calls(node: ast.AST, where: str, rel: str, found: list[tuple[str, str, ast.Call]]) -> None:
    """The json writer calls under ``node``, each named by its innermost enclosing function."""
    for child in ast.iter_child_nodes(node):
        inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else where
        if _is_json_write(child):
            found.append((rel, inner, child))          # type: ignore[arg-type]
        if isinstance(child, ast.Constant) and isinstance(child.value, str) and "json.dump" in child.value:
            # Code kept in a string and run elsewhere (review.py's child process).
            _calls(ast.parse(child.value), "<child>", rel, found)
        _calls(child, inner, rel, found)


def _json_writer_calls() -> list[tuple[str, str, ast.Call]]:
    found: list[tuple[str, str, ast.Call]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if not rel.startswith("web/"):
            _calls(ast.parse(path.read_text(encoding="utf-8")), "<module>", rel, found)
    return found


def _strict(call: ast.Call) -> bool:
    return any(k.arg == "allow_nan" and isinstance(k.value, ast.Constant) and k.value.value is False
               for k in call.keywords)


def test_every_json_writer_refuses_nan_and_infinity() -> None:
    calls = _json_writer_calls()
    assert len(calls) >= 10            # the writers of formats, cli, bench and review are all found
    loose = [f"{rel}:{call.lineno} in {name}" for rel, name, call in calls
             if not _strict(call) and (rel, name) not in MESSAGE_QUOTES]
    assert loose == []
    # The child process's writer is among those checked.
    assert any(name == "<child>" and _strict(call) for _, name, call in calls)
