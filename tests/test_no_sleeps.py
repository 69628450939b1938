"""No test waits for time to pass or decides by the wall clock (issue 36).

A busy machine must not break a test, so the suite holds, in every test file and every
example (doctest) of the package:

- no pause: no call of ``sleep`` (``time.sleep``, ``asyncio.sleep``, ...), of
  ``wait_for_timeout``, nor of ``pause`` with a delay (Textual's ``pilot.pause(0.5)``; without
  one it only lets the app handle what is queued); a test waits for an event (a ``threading.Event``, a queue, a file, a
  process's own CPU work) through :mod:`waiting`, the one module that polls;
- no measurement: the clock (``time.time``, ``time.monotonic``, ``time.perf_counter``,
  ``time.process_time`` and their ``_ns`` forms) is read only inside the arguments of a call,
  to hand a point in time to the code under test (``Deadline.at(time.monotonic() + 2, 10)``),
  never kept or compared. Speed is measured by the ``bench/`` scripts.
"""

from __future__ import annotations

import ast
import doctest
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "src" / "minegraph"

#: Files the rule does not read, each with its reason.
EXEMPT = {
    # The one poll of the suite: it waits for an event that gives no callback; its limit
    # only stops a hang.
    TESTS / "waiting.py",
    # Owned by a concurrent change (the page's browser tests); to be held by this test.
    TESTS / "web" / "test_browser.py",
}

PAUSES = {"sleep", "wait_for_timeout"}
CLOCKS = {"time", "monotonic", "perf_counter", "process_time", "time_ns", "monotonic_ns",
          "perf_counter_ns", "process_time_ns"}


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_clock(node: ast.Call) -> bool:
    """``time.X()``, ``X()`` for X a clock (imported by name), without arguments."""
    name = _name(node.func)
    if name not in CLOCKS or node.args or node.keywords:
        return False
    if name == "time":      # only the module's function: time.time()
        return isinstance(node.func, ast.Attribute) and _name(node.func.value) == "time"
    return True


def offences(source: str) -> list[tuple[int, str]]:
    """``(line, what)`` for each pause and each clock read kept or compared in ``source``."""
    tree = ast.parse(source)
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if _name(node.func) in PAUSES or (_name(node.func) == "pause"
                                           and (node.args or node.keywords)):
            found.append((node.lineno, f"pause: {ast.unparse(node)}"))
        elif _is_clock(node):
            # Allowed only inside another call's arguments, not as the callee's object.
            child: ast.AST = node
            parent = parents.get(node)
            while parent is not None and not isinstance(parent, (ast.stmt, ast.Call)):
                child, parent = parent, parents.get(parent)
            if not (isinstance(parent, ast.Call) and child is not parent.func):
                found.append((node.lineno, f"clock read kept or compared: {ast.unparse(node)}"))
    return found


def _test_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if p not in EXEMPT)


def _examples(path: Path) -> str:
    """The source of every doctest example in a module, one after the other."""
    parser = doctest.DocTestParser()
    chunks = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                chunks += [e.source for e in parser.get_examples(doc)]
    return "".join(chunks)


def test_no_test_file_pauses_or_measures_time() -> None:
    problems = [f"{path.relative_to(TESTS.parent)}:{line}: {what}"
                for path in _test_files()
                for line, what in offences(path.read_text(encoding="utf-8"))]
    assert problems == [], "\n".join(problems)


def test_no_example_of_the_package_pauses_or_measures_time() -> None:
    problems = [f"{path.relative_to(TESTS.parent)} (an example): {what}"
                for path in sorted(PACKAGE.rglob("*.py"))
                for _, what in offences(_examples(path))]
    assert problems == [], "\n".join(problems)


def test_the_rule_reads_files_and_examples() -> None:
    assert len(_test_files()) >= 100 and TESTS / "test_api_fuzz.py" in _test_files()
    assert ">>> d = Deadline" in (PACKAGE / "deadline.py").read_text(encoding="utf-8")
    assert "Deadline(60.0)" in _examples(PACKAGE / "deadline.py")


def test_the_rule_catches_pauses_and_measurements() -> None:
    bad = ("import time, asyncio\n"
           "time.sleep(0.5)\n"
           "async def f(page):\n"
           "    await asyncio.sleep(0.01)\n"
           "    await page.wait_for_timeout(800)\n"
           "    await pilot.pause(0.5)\n"
           "start = time.monotonic()\n"
           "assert time.perf_counter() - start < 1.0\n"
           "elapsed = time.time() - start\n"
           "from time import monotonic\n"
           "x = [monotonic()]\n")
    assert sorted(line for line, _ in offences(bad)) == [2, 4, 5, 6, 7, 8, 9, 11]
    fine = ("import time\n"
            "call(time.monotonic() + 600, flag)\n"
            "Deadline.at(time.monotonic() - 1, 10).expired()\n"
            "done.wait(0.01)\n"
            "await pilot.pause()\n"
            "time_limit(0.5)\n")
    assert offences(fine) == []
