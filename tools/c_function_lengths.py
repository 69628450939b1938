"""Lines of every function in a C file, longest first (issue 35: a kernel as easy to change
as the Python it mirrors; the aim is no function over 150 lines).

A function is counted from the line of its name (a definition starts in column 0 and its
line, or the next, opens the body with ``{``) to its closing ``}`` in column 0, both
included.  Usage: ``python tools/c_function_lengths.py [file.c] [--top N] [--max LINES]``;
with ``--max`` the exit status is 1 when a function is longer.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

DEFAULT = Path(__file__).resolve().parent.parent / "src" / "minegraph" / "_kernel.c"
START = re.compile(r"^(?:static\s+|PyMODINIT_FUNC\s+)?[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*\(")


def lengths(text: str) -> list[tuple[int, str, int]]:
    """``(lines, name, first line)`` of every function definition in ``text``."""
    lines = text.splitlines()
    found: list[tuple[int, str, int]] = []
    i = 0
    while i < len(lines):
        match = START.match(lines[i])
        opens = match is not None and not lines[i].rstrip().endswith(";") and (
            lines[i].rstrip().endswith("{") or
            (i + 1 < len(lines) and lines[i + 1].strip() == "{") or
            any(lines[j].rstrip().endswith(") {") for j in range(i, min(i + 4, len(lines)))))
        if match and opens and not lines[i].startswith(("typedef", "#")):
            j = i + 1
            while j < len(lines) and lines[j] != "}":
                j += 1
            found.append((j - i + 1, match.group(1), i + 1))
            i = j + 1
            continue
        i += 1
    return sorted(found, reverse=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--max", type=int, default=None)
    args = parser.parse_args(argv)
    found = lengths(args.file.read_text(encoding="utf-8"))
    for count, name, line in found[:args.top]:
        print(f"{count:5d}  {name}  (line {line})")
    print(f"{len(found)} functions, {sum(c for c, _, _ in found)} lines in functions")
    if args.max is not None and found and found[0][0] > args.max:
        print(f"longest function over {args.max} lines", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
