"""Boards as JSON (docs/formats.md §4).

Two forms, told apart by the type of ``cells``:

- grid: ``{"rows": R, "cols": C, "topology": "square", "mines": 99 | null, "cells": ["#212#", ...]}``
  with the symbols of :mod:`minegraph.formats.text` (cells may be separated by spaces, the
  same way in every row); ``rows``, ``cols``, ``topology`` (default ``square``) and ``mines``
  (default ``null``) are optional, but checked against ``cells`` when given;
- graph: ``{"cells": N, "edges": [[u, v], ...], "states": ["#", "2", ...], "mines": ...}`` for
  any graph on cells ``0..N-1``; a number may be as large as its cell's degree, and numbers
  past the symbols' 12 are written in digits (``"13"``).

Unknown keys and keys given twice are errors (a misspelt ``"topolgy"`` must not silently mean
``square``). Every error names the JSON path of the offending value, e.g. ``$.edges[2][1]``.

Sizes are checked before the board is built, and for JSON text before it is parsed: the
declared ``cells``, ``rows`` and ``cols``, the number of strings (at most one per row or
state) and of lists (at most one per edge), and the length of the text
(:data:`MAX_JSON_CHARS`), so that an oversize board is refused without building it.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from minegraph.board import MAX_CELLS, Board
from minegraph.errors import FormatError, LimitError
from minegraph.formats.scan import decode, show, whole_number
from minegraph.formats.text_syntax import (GridRows, RowProblem, expected_symbols, symbol, symbols,
                                           unknown_symbol)
from minegraph.topology import MAX_DEGREE, TOPOLOGIES
from minegraph.present import shorten

__all__ = ["read_json", "write_json", "to_json_dict", "MAX_EDGES", "MAX_JSON_CHARS"]

#: The most edges a graph board in JSON may have: six per cell at the cell limit, enough for
#: any of the grids (at most 12 neighbours each) written as a graph.
MAX_EDGES = 6 * MAX_CELLS

#: The longest JSON text read (in characters, 128 Mi): a graph board at both limits fits.
MAX_JSON_CHARS = 128 * 2**20

_GRID_KEYS = ("rows", "cols", "topology", "mines", "cells")
_GRAPH_KEYS = ("cells", "edges", "states", "mines", "topology")
# The first occurrence of a declared size. Only the top-level object of a valid board has
# these keys (it has no nested objects and no quotes inside strings), so a match elsewhere
# means the text is not a board anyway.
_DECLARED = {key: re.compile(rf'"{key}"[ \t\r\n]*:[ \t\r\n]*(-?[0-9]+)') for key in ("cells", "rows", "cols")}
# Above this length the text's values are counted before it is parsed (below it, parsing
# costs little and the reader's own messages are more precise).
_COUNT_VALUES_ABOVE = 2**20


def _kind(value: Any) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return f"the number {_num(value)}"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value!r}" if len(value) <= 40 else "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _num(value: int) -> str:
    """A whole number for a message, cut if very long."""
    text = str(value)
    return text if len(text) <= 40 else f"{text[:20]}… ({len(text)} digits)"


def _whole(value: Any, path: str, what: str) -> int:
    # bool is a subclass of int in Python, but `true` is not a number in JSON.
    if not isinstance(value, int) or isinstance(value, bool):
        raise FormatError(f"expected {what}, got {_kind(value)}", path=path)
    return value


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object that refuses a key given twice (``json`` would keep the last silently)."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise FormatError(f"key {show(key)} given twice in one object; expected each key once")
        obj[key] = value
    return obj


def _count_before_parsing(text: str) -> None:
    """Refuse text that cannot hold a board within the limits, before :func:`json.loads`
    builds it: by its length, its declared sizes and the number of its strings and lists.

    Only counting and a few searches, all in C: no value is built.
    """
    if len(text) > MAX_JSON_CHARS:
        raise LimitError(f"$: a JSON text of {len(text)} characters exceeds the limit of "
                         f"{MAX_JSON_CHARS} characters")
    declared: dict[str, int] = {}
    shown: dict[str, str] = {}
    for key, pattern in _DECLARED.items():
        found = pattern.search(text)
        if found is not None:
            value = whole_number(found.group(1), signed=True)  # None: more than 18 digits
            declared[key] = MAX_CELLS + 1 if value is None else value
            digits = found.group(1)
            shown[key] = digits if len(digits) <= 40 else f"a {len(digits)}-digit number"
    if declared.get("cells", 0) > MAX_CELLS:
        raise LimitError(f"$.cells: graph of {shown['cells']} cells exceeds the limit of {MAX_CELLS} cells")
    if max(declared.get("rows", 1), 1) * max(declared.get("cols", 1), 1) > MAX_CELLS:
        where = ", ".join(f"$.{key}" for key in ("rows", "cols") if key in declared)
        raise LimitError(f"{where}: board of {shown.get('rows', '?')}x{shown.get('cols', '?')} cells "
                         f"exceeds the limit of {MAX_CELLS} cells")
    strings = text.count('"') // 2
    if strings > MAX_CELLS + 8:
        raise LimitError(f"$: the JSON holds {strings} strings, more than a board within the limit of "
                         f"{MAX_CELLS} cells can have (one per row or state, and the keys)")
    lists = text.count("[")
    if lists > MAX_EDGES + 2:
        raise LimitError(f"$.edges: the JSON holds {lists} lists, more than a board can have: the "
                         f"limit is {MAX_EDGES} edges, one list each")
    if len(text) > _COUNT_VALUES_ABOVE and text.count(",") > 2 * lists + strings + 8:
        # Two numbers per edge list, one string per row or state, a few keys: anything more is
        # a list of bare values, which no board has and which would cost memory to build.
        raise FormatError(f"the JSON holds {text.count(',') + 1} values or more, more than its rows, states "
                          f"and [u, v] edges can account for; expected the grid or graph form of a board",
                          path="$")


def _parse(data: str | bytes | bytearray | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(data, (bytes, bytearray)):
        data = decode(data)
    if isinstance(data, str):
        _count_before_parsing(data)
        try:
            data = json.loads(data, object_pairs_hook=unique_keys)
        except FormatError:
            raise
        except json.JSONDecodeError as e:
            raise FormatError(f"invalid JSON: {e.msg}", e.lineno, e.colno) from None
        except (RecursionError, ValueError) as e:  # absurd nesting, or digits beyond int's limit
            raise FormatError(f"unreadable JSON: {e}") from None
    if not isinstance(data, Mapping):
        raise FormatError(f"expected a JSON object describing a board, got {_kind(data)}", path="$")
    return data


def _key_path(key: Any) -> str:
    """The JSON path of a top-level key, for messages: ``$.name`` or ``$["odd key"]``."""
    if isinstance(key, str) and key.isidentifier() and len(key) <= 40:
        return f"$.{key}"
    try:
        text = json.dumps(key)
    except (TypeError, ValueError):
        text = repr(key)
    return f"$[{shorten(text)}]"


def _check_keys(data: Mapping[str, Any], allowed: tuple[str, ...], form: str) -> None:
    for key in data:
        if key not in allowed:
            raise FormatError(f"unknown key for a {form} board; expected one of {', '.join(allowed)}",
                              path=_key_path(key))


def _mines(data: Mapping[str, Any], cells: int) -> int | None:
    value = data.get("mines")
    if value is None:
        return None
    mines = _whole(value, "$.mines", "a whole number of mines or null (unknown)")
    if not 0 <= mines <= cells:
        raise FormatError(f"mine count {_num(mines)} is outside 0..{cells} (the number of cells)",
                          path="$.mines")
    return mines


def _too_large(state: int, topology: str, degree: int) -> str | None:
    # A grid's topology caps its numbers; on a graph board the cell's degree is the only cap.
    cap = MAX_DEGREE.get(topology)
    if state <= 0 or ((cap is None or state <= cap) and state <= degree):
        return None
    why = f"the {topology} grid allows at most {cap}" if cap is not None and state > cap else \
        f"this cell has only {degree} neighbours"
    return f"number {state} is too large: {why}"


def _read_grid(data: Mapping[str, Any], dialect: str) -> Board:
    _check_keys(data, _GRID_KEYS, "grid")
    topology = data.get("topology", "square")
    if topology not in TOPOLOGIES:
        raise FormatError(f"expected a topology, one of {', '.join(TOPOLOGIES)}, got {_kind(topology)}",
                          path="$.topology")
    cells = data["cells"]
    if not cells:
        raise FormatError("expected at least one row string", path="$.cells")
    declared = {key: _whole(data[key], f"$.{key}", f"the number of {key} (a whole number)")
                for key in ("rows", "cols") if key in data}
    if len(cells) > MAX_CELLS:
        raise LimitError(f"$.cells: {len(cells)} rows exceed the limit of {MAX_CELLS} cells")
    if max(declared.get("rows", 1), 1) * max(declared.get("cols", 1), 1) > MAX_CELLS:
        cols = _num(declared["cols"]) if "cols" in declared else "?"
        size = f"{_num(declared.get('rows', len(cells)))}x{cols}"
        raise LimitError(f"$.rows, $.cols: board of {size} cells exceeds the limit of {MAX_CELLS} cells")
    # Row by row, each checked for spacing, width and the cell limit before its cells are kept.
    grid = GridRows(dialect, "row 0", rows=len(cells))
    for r, line in enumerate(cells):
        path = f"$.cells[{r}]"
        if not isinstance(line, str):
            raise FormatError(f"expected a row string of cell symbols, got {_kind(line)}", path=path)
        try:
            grid.add(line)
        except RowProblem as problem:
            if problem.limit:
                raise LimitError(f"$.cells: {problem.message}") from None
            raise FormatError(problem.message, column=problem.column, path=path) from None
    indented = grid.indent_problem()
    if indented is not None:
        raise FormatError(indented.message, column=indented.column, path="$.cells[0]")
    n_rows, n_cols = grid.rows, grid.width
    for key, actual in (("rows", n_rows), ("cols", n_cols)):
        if key in declared and declared[key] != actual:
            raise FormatError(f"says {_num(declared[key])}, but cells has {actual} {key}",
                              path=f"$.{key}")
    mines = _mines(data, n_rows * n_cols)
    too_large = grid.too_large(topology)
    if too_large is not None:
        index, message = too_large
        r, c = divmod(index, n_cols)
        raise FormatError(message, column=grid.column(c), path=f"$.cells[{r}]")
    return Board.grid(n_rows, n_cols, grid.states, topology=topology, mines=mines)


def _read_graph(data: Mapping[str, Any], dialect: str) -> Board:
    _check_keys(data, _GRAPH_KEYS, "graph")
    if data.get("topology", "graph") != "graph":
        raise FormatError(f"a board with a number of cells is a graph board; expected \"graph\" or no "
                          f"topology, got {_kind(data['topology'])}", path="$.topology")
    n = _whole(data["cells"], "$.cells", "the number of cells")
    if n < 1:
        raise FormatError(f"a graph board needs at least one cell, got {_num(n)}", path="$.cells")
    if n > MAX_CELLS:
        raise LimitError(f"$.cells: graph of {_num(n)} cells exceeds the limit of {MAX_CELLS} cells")
    edges_value = data.get("edges", [])
    if not isinstance(edges_value, list):
        raise FormatError(f"expected a list of [u, v] pairs, got {_kind(edges_value)}", path="$.edges")
    if len(edges_value) > MAX_EDGES:
        raise LimitError(f"$.edges: {len(edges_value)} edges exceed the limit of {MAX_EDGES}")
    if "states" not in data:
        raise FormatError("missing key: a graph board needs \"states\", one symbol per cell", path="$")
    states_value = data["states"]
    if not isinstance(states_value, list):
        raise FormatError(f"expected a list of {n} cell symbols, got {_kind(states_value)}", path="$.states")
    if len(states_value) != n:
        raise FormatError(f"expected {n} states (one per cell), got {len(states_value)}", path="$.states")
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
                raise FormatError(f"expected a cell number 0..{n - 1}, got {_num(end)}",
                                  path=f"$.edges[{i}][{k}]")
        u, v = edge
        if u == v:
            raise FormatError(f"a loop on cell {u} is not allowed", path=f"$.edges[{i}]")
        adjacency[u].add(v)
        adjacency[v].add(u)
        edges.append((u, v))
    table = symbols(dialect)
    states = []
    for i, sym in enumerate(states_value):
        path = f"$.states[{i}]"
        state = table.get(sym) if isinstance(sym, str) else None
        if state is None and isinstance(sym, str) and len(sym) > 1:
            state = whole_number(sym)   # a number past the symbols' 12, e.g. "13"
        if state is None:
            if isinstance(sym, str) and len(sym) == 1:
                raise FormatError(unknown_symbol(sym, dialect), path=path)
            raise FormatError(f"expected a cell symbol, {expected_symbols(dialect)}, or the digits "
                              f"of a number (\"13\"), got {_kind(sym)}", path=path)
        problem = _too_large(state, "graph", len(adjacency[i]))
        if problem:
            raise FormatError(problem, path=path)
        states.append(state)
    return Board.from_graph(n, edges, states, mines=_mines(data, n))


def read_json(data: str | bytes | Mapping[str, Any], dialect: str | None = None) -> Board:
    """Read a board from JSON text or an already-parsed object.

    Cost: linear in the size of the input; text that cannot hold a board within the limits
    (:data:`~minegraph.states.MAX_CELLS` cells, :data:`MAX_EDGES` edges,
    :data:`MAX_JSON_CHARS` characters) is refused before it is parsed, by counting.

    Parameters
    ----------
    data : str, bytes or mapping
        JSON text (bytes are read as UTF-8), or the object :func:`json.loads` made of it.
    dialect : str, optional
        The symbols of the row strings and states: ``standard`` (the default), ``ascii`` or
        ``dots``, as in the text format (docs/formats.md §1).

    Raises
    ------
    FormatError
        for invalid JSON (naming its line and column) or a value that does not describe a
        board (naming its JSON path, e.g. ``$.cells[3]`` or ``$.edges[2][1]``, and what was
        expected there).
    LimitError
        for a board beyond the limits.

    Returns
    -------
    Board
        The board.

    Examples
    --------
    >>> read_json('{"rows": 1, "cols": 3, "mines": 1, "cells": ["#1-"]}').states
    (-1, 1, -3)
    >>> b = read_json({"cells": 3, "edges": [[0, 1], [1, 2]], "states": ["#", "2", "#"]})
    >>> b.topology, b.neighbors, b.mines
    ('graph', ((1,), (0, 2), (1,)), None)
    >>> read_json('{"cells": ["x.", "11"]}', dialect="ascii").states
    (-1, 0, 1, 1)
    """
    chosen = "standard" if dialect is None else dialect
    symbols(chosen)
    obj = _parse(data)
    if "cells" not in obj:
        raise FormatError("missing key \"cells\": a list of row strings (grid) or a number of cells "
                          "(graph)", path="$")
    cells = obj["cells"]
    if isinstance(cells, list):
        return _read_grid(obj, chosen)
    if isinstance(cells, int) and not isinstance(cells, bool):
        return _read_graph(obj, chosen)
    raise FormatError(f"expected a list of row strings (grid) or a number of cells (graph), "
                      f"got {_kind(cells)}", path="$.cells")


def to_json_dict(board: Board) -> dict[str, Any]:
    """The JSON object of a board: the grid form for grids, the graph form otherwise.

    Cost: linear in the number of cells plus edges.

    Parameters
    ----------
    board : Board
        The board.

    Returns
    -------
    dict
        The JSON object.

    Examples
    --------
    >>> to_json_dict(Board.grid(1, 3, [-1, 1, -2], mines=1))
    {'rows': 1, 'cols': 3, 'topology': 'square', 'mines': 1, 'cells': ['#1M']}
    >>> to_json_dict(Board.from_graph(2, [(0, 1)], [-1, 1]))
    {'cells': 2, 'edges': [[0, 1]], 'states': ['#', '1'], 'mines': None}

    Raises
    ------
    FormatError
        for a board with cell labels (:meth:`~minegraph.board.Board.from_networkx`): this
        form names cells by number, so it would lose them; node-link JSON and GraphML keep
        them (:mod:`minegraph.formats.graphs`).
    """
    if board.labels is not None:
        raise FormatError("this board's cells have labels, which the JSON board form cannot hold "
                          "(it numbers cells 0..N-1): write it as node-link JSON ('nodelink') or "
                          "GraphML ('graphml'), which keep them (docs/formats.md, Graph files)")
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

    Parameters
    ----------
    board : Board
        The board.

    Returns
    -------
    str
        The JSON text.

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
            items = ",\n".join(f"    {json.dumps(item, separators=(', ', ': '), allow_nan=False)}" for item in value)
            text = f"[\n{items}\n  ]" if value else "[]"
        else:
            text = json.dumps(value, allow_nan=False)
        parts.append(f"  {json.dumps(key, allow_nan=False)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"
