"""Boards as JSON (docs/formats.md §4).

Two forms, told apart by the type of ``cells``:

- grid: ``{"rows": R, "cols": C, "topology": "square", "mines": 99 | null, "cells": ["#212#", ...]}``
  with the canonical symbols of :mod:`minegraph.formats.text` (spaces inside a row ignored);
  ``rows``, ``cols``, ``topology`` (default ``square``) and ``mines`` (default ``null``) are
  optional, but checked against ``cells`` when given;
- graph: ``{"cells": N, "edges": [[u, v], ...], "states": ["#", "2", ...], "mines": ...}`` for
  any graph on cells ``0..N-1``.

Unknown keys are errors (a misspelt ``"topolgy"`` must not silently mean ``square``). Every
error names the JSON path of the offending value, e.g. ``$.edges[2][1]``.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from minegraph.board import MAX_CELLS, Board
from minegraph.errors import FormatError, LimitError
from minegraph.formats.text import SYMBOLS, symbol
from minegraph.topology import MAX_DEGREE, TOPOLOGIES, grid_neighbors

__all__ = ["read_json", "write_json", "to_json_dict"]

_GRID_KEYS = ("rows", "cols", "topology", "mines", "cells")
_GRAPH_KEYS = ("cells", "edges", "states", "mines", "topology")
_EXPECTED = "one of # M F * - . x 0-9 a-c"


def _kind(value: Any) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value!r}" if len(value) <= 40 else "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _whole(value: Any, path: str, what: str) -> int:
    # bool is a subclass of int in Python, but `true` is not a number in JSON.
    if not isinstance(value, int) or isinstance(value, bool):
        raise FormatError(f"expected {what}, got {_kind(value)}", path=path)
    return value


def _parse(data: str | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise FormatError(f"invalid JSON: {e.msg}", e.lineno, e.colno) from None
        except (RecursionError, ValueError) as e:  # absurd nesting, or digits beyond int's limit
            raise FormatError(f"unreadable JSON: {e}") from None
    if not isinstance(data, Mapping):
        raise FormatError(f"expected a JSON object describing a board, got {_kind(data)}", path="$")
    return data


def _check_keys(data: Mapping[str, Any], allowed: tuple[str, ...], form: str) -> None:
    for key in data:
        if key not in allowed:
            raise FormatError(f"unknown key for a {form} board; expected one of {', '.join(allowed)}",
                              path=f"$.{key}" if isinstance(key, str) and key.isidentifier()
                              else f"$[{json.dumps(key)}]")


def _mines(data: Mapping[str, Any], cells: int) -> int | None:
    value = data.get("mines")
    if value is None:
        return None
    mines = _whole(value, "$.mines", "a whole number of mines or null (unknown)")
    if not 0 <= mines <= cells:
        raise FormatError(f"mine count {mines} is outside 0..{cells} (the number of cells)",
                          path="$.mines")
    return mines


def _too_large(state: int, topology: str, degree: int) -> str | None:
    cap = MAX_DEGREE.get(topology, 12)
    if state <= 0 or (state <= cap and state <= degree):
        return None
    why = f"the {topology} grid allows at most {cap}" if state > cap else \
        f"this cell has only {degree} neighbours"
    return f"number {state} is too large: {why}"


def _read_grid(data: Mapping[str, Any]) -> Board:
    _check_keys(data, _GRID_KEYS, "grid")
    topology = data.get("topology", "square")
    if topology not in TOPOLOGIES:
        raise FormatError(f"expected a topology, one of {', '.join(TOPOLOGIES)}, got {_kind(topology)}",
                          path="$.topology")
    cells = data["cells"]
    if not cells:
        raise FormatError("expected at least one row string", path="$.cells")
    rows: list[list[tuple[int, int]]] = []  # per row: (state, 1-based column in the string)
    for r, line in enumerate(cells):
        path = f"$.cells[{r}]"
        if not isinstance(line, str):
            raise FormatError(f"expected a row string of cell symbols, got {_kind(line)}", path=path)
        row = []
        for col, ch in enumerate(line, start=1):
            if ch in " \t":
                continue
            state = SYMBOLS.get(ch)
            if state is None:
                raise FormatError(f"unknown symbol {ch!r}; expected {_EXPECTED}", column=col, path=path)
            row.append((state, col))
        if not row:
            raise FormatError("expected at least one cell symbol in the row", path=path)
        if rows and len(row) != len(rows[0]):
            raise FormatError(f"row has {len(row)} cells but row 0 has {len(rows[0])}", path=path)
        rows.append(row)
    n_rows, n_cols = len(rows), len(rows[0])
    for key, actual in (("rows", n_rows), ("cols", n_cols)):
        if key in data:
            given = _whole(data[key], f"$.{key}", f"the number of {key} (a whole number)")
            if given != actual:
                raise FormatError(f"says {given}, but cells has {actual} {key}", path=f"$.{key}")
    if n_rows * n_cols > MAX_CELLS:  # refuse before building the neighbour lists
        raise LimitError(f"$.cells: board of {n_rows}x{n_cols} cells exceeds the limit of "
                         f"{MAX_CELLS} cells")
    mines = _mines(data, n_rows * n_cols)
    neighbors = grid_neighbors(topology, n_rows, n_cols)
    for r, row in enumerate(rows):
        for c, (state, col) in enumerate(row):
            problem = _too_large(state, topology, len(neighbors[r * n_cols + c]))
            if problem:
                raise FormatError(problem, column=col, path=f"$.cells[{r}]")
    states = [state for row in rows for state, _ in row]
    return Board.grid(n_rows, n_cols, states, topology=topology, mines=mines)


def _read_graph(data: Mapping[str, Any]) -> Board:
    _check_keys(data, _GRAPH_KEYS, "graph")
    if data.get("topology", "graph") != "graph":
        raise FormatError(f"a board with a number of cells is a graph board; expected \"graph\" or no "
                          f"topology, got {_kind(data['topology'])}", path="$.topology")
    n = _whole(data["cells"], "$.cells", "the number of cells")
    if n < 1:
        raise FormatError(f"a graph board needs at least one cell, got {n}", path="$.cells")
    if n > MAX_CELLS:
        raise LimitError(f"$.cells: graph of {n} cells exceeds the limit of {MAX_CELLS} cells")
    edges_value = data.get("edges", [])
    if not isinstance(edges_value, list):
        raise FormatError(f"expected a list of [u, v] pairs, got {_kind(edges_value)}", path="$.edges")
    edges = []
    adjacency: list[set[int]] = [set() for _ in range(n)]
    for i, edge in enumerate(edges_value):
        if not isinstance(edge, list) or len(edge) != 2:
            raise FormatError(f"expected a pair [u, v] of cell numbers, got {_kind(edge)}"
                              + (f" of length {len(edge)}" if isinstance(edge, list) else ""),
                              path=f"$.edges[{i}]")
        for k, end in enumerate(edge):
            _whole(end, f"$.edges[{i}][{k}]", f"a cell number 0..{n - 1}")
            if not 0 <= end < n:
                raise FormatError(f"expected a cell number 0..{n - 1}, got {end}", path=f"$.edges[{i}][{k}]")
        u, v = edge
        if u == v:
            raise FormatError(f"a loop on cell {u} is not allowed", path=f"$.edges[{i}]")
        adjacency[u].add(v)
        adjacency[v].add(u)
        edges.append((u, v))
    if "states" not in data:
        raise FormatError("missing key: a graph board needs \"states\", one symbol per cell", path="$")
    states_value = data["states"]
    if not isinstance(states_value, list):
        raise FormatError(f"expected a list of {n} cell symbols, got {_kind(states_value)}", path="$.states")
    if len(states_value) != n:
        raise FormatError(f"expected {n} states (one per cell), got {len(states_value)}", path="$.states")
    states = []
    for i, sym in enumerate(states_value):
        path = f"$.states[{i}]"
        state = SYMBOLS.get(sym) if isinstance(sym, str) else None
        if state is None:
            raise FormatError(f"expected a cell symbol, {_EXPECTED}, got {_kind(sym)}", path=path)
        problem = _too_large(state, "graph", len(adjacency[i]))
        if problem:
            raise FormatError(problem, path=path)
        states.append(state)
    return Board.from_graph(n, edges, states, mines=_mines(data, n))


def read_json(data: str | Mapping[str, Any]) -> Board:
    """Read a board from JSON text or an already-parsed object.

    Cost: linear in the size of the input.

    Parameters
    ----------
    data : str or mapping
        JSON text, or the object :func:`json.loads` made of it.

    Raises
    ------
    FormatError
        for invalid JSON (naming its line and column) or a value that does not describe a
        board (naming its JSON path, e.g. ``$.cells[3]`` or ``$.edges[2][1]``, and what was
        expected there).

    Examples
    --------
    >>> read_json('{"rows": 1, "cols": 3, "mines": 1, "cells": ["#1-"]}').states
    (-1, 1, -3)
    >>> b = read_json({"cells": 3, "edges": [[0, 1], [1, 2]], "states": ["#", "2", "#"]})
    >>> b.topology, b.neighbors, b.mines
    ('graph', ((1,), (0, 2), (1,)), None)
    """
    obj = _parse(data)
    if "cells" not in obj:
        raise FormatError("missing key \"cells\": a list of row strings (grid) or a number of cells "
                          "(graph)", path="$")
    cells = obj["cells"]
    if isinstance(cells, list):
        return _read_grid(obj)
    if isinstance(cells, int) and not isinstance(cells, bool):
        return _read_graph(obj)
    raise FormatError(f"expected a list of row strings (grid) or a number of cells (graph), "
                      f"got {_kind(cells)}", path="$.cells")


def to_json_dict(board: Board) -> dict[str, Any]:
    """The JSON object of a board: the grid form for grids, the graph form otherwise.

    Cost: linear in the number of cells plus edges.

    Examples
    --------
    >>> to_json_dict(Board.grid(1, 3, [-1, 1, -2], mines=1))
    {'rows': 1, 'cols': 3, 'topology': 'square', 'mines': 1, 'cells': ['#1M']}
    >>> to_json_dict(Board.from_graph(2, [(0, 1)], [-1, 1]))
    {'cells': 2, 'edges': [[0, 1]], 'states': ['#', '1'], 'mines': None}
    """
    if board.rows is not None and board.cols is not None:
        cols = board.cols
        return {"rows": board.rows, "cols": cols, "topology": board.topology, "mines": board.mines,
                "cells": ["".join(symbol(s) for s in board.states[r * cols:(r + 1) * cols])
                          for r in range(board.rows)]}
    edges = [[u, v] for u, near in enumerate(board.neighbors) for v in near if u < v]
    return {"cells": board.size, "edges": edges, "states": [symbol(s) for s in board.states],
            "mines": board.mines}


def write_json(board: Board) -> str:
    """The JSON text of a board, one key per line and one row or edge per line.

    ``read_json(write_json(b)) == b``. Cost: linear in the number of cells plus edges.

    Examples
    --------
    >>> print(write_json(Board.grid(2, 2, [-1, 1, 1, 1], mines=1)), end="")
    {
      "rows": 2,
      "cols": 2,
      "topology": "square",
      "mines": 1,
      "cells": [
        "#1",
        "11"
      ]
    }
    """
    obj = to_json_dict(board)
    parts = []
    for key, value in obj.items():
        if isinstance(value, list):
            # json.dumps(indent=2) would spread each edge over four lines; keep items compact.
            items = ",\n".join(f"    {json.dumps(item, separators=(', ', ': '))}" for item in value)
            text = f"[\n{items}\n  ]" if value else "[]"
        else:
            text = json.dumps(value)
        parts.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"
