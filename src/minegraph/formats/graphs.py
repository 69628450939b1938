"""Graph files through networkx's own readers and writers (docs/formats.md, Graph files).

Five formats, :data:`GRAPH_FORMATS`:

- ``graphml``: GraphML (XML), nodes with a ``state`` attribute, the graph with ``mines``;
- ``gml``: GML, the same attributes (node names are their ``label``, else their ``id``);
- ``nodelink``: networkx's node-link JSON (``{"nodes": [...], "edges": [...]}``; the older
  key ``"links"`` is read too), the same attributes, node ids kept as written (str or int);
- ``edgelist``: one edge ``u v`` per line (optionally followed by ``{attributes}``);
- ``adjlist``: one node per line followed by its neighbours, ``u v w ...``.

Cells are numbered in the graph's node order (see :meth:`~minegraph.board.Board.from_networkx`):
the order of the file's nodes, of the lines of an adjacency list, of first mention in an edge
list; nodes that are all whole numbers are sorted.

Edge and adjacency lists hold no attributes, so their cell states come alongside: a mapping
node -> state, or a *states file* (:func:`read_states`): ``NODE STATE`` lines and an optional
``mines: N`` line. Any format's states may be given that way; they then replace the file's
``state`` attributes. Nodes without a state are hidden.

Node names written as text (edge and adjacency lists, GraphML ids, GML labels) are strings,
unless every one of them is a whole number in ASCII digits: then they are read as ``int`` (so
``0 1`` / ``1 2`` is the board on cells 0, 1, 2 without labels). The board keeps the names as
its cell labels (:meth:`~minegraph.board.Board.from_networkx`).

Every file is checked before networkx builds the graph: its length (:data:`MAX_GRAPH_CHARS`),
its number of nodes (:data:`~minegraph.states.MAX_CELLS`) and edges
(:data:`~minegraph.formats.json.MAX_EDGES`), and what networkx would read silently otherwise:
an edge list line with one node or three, an edge naming a node that the file does not
declare, a node declared twice, a second graph. networkx's own exceptions never escape: a
file it cannot read is a :class:`~minegraph.errors.FormatError` naming the problem.
networkx is imported only when a graph file is read or written.

Examples
--------
>>> b = read_graph_board("a b\\nb c\\n", "edgelist", states={"b": 1}, mines=1)
>>> b.labels, b.states, b.mines
(('a', 'b', 'c'), (-1, 1, -1), 1)
>>> read_graph_board("0 1\\n1 2\\n", "edgelist", states="1 2") == Board.from_graph(3, [(0, 1), (1, 2)], "#2#")
True
"""

from __future__ import annotations

import ast
import json
import os
import re
from io import StringIO
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from minegraph.board import BLANK, HIDDEN, MAX_CELLS, MINE, Board
from minegraph.errors import BoardError, FormatError, LimitError, MinegraphError, UserError
from minegraph.formats import GRAPH_FORMATS
from minegraph.formats.json import MAX_EDGES, MAX_JSON_CHARS, unique_keys
from minegraph.formats.scan import content_lines, decode, normalise_newlines, show, whole_number
from minegraph.labels import cell_order, is_json_label, label_index, text_names
from minegraph.present import shorten

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["GRAPH_FORMATS", "MAX_GRAPH_CHARS", "read_graph_board", "read_graph", "read_states",
           "write_states", "to_networkx", "graph_format", "read_graphml", "read_gml",
           "read_nodelink", "read_edgelist", "read_adjlist", "write_graphml", "write_gml",
           "write_nodelink", "write_edgelist", "write_adjlist"]

#: The longest graph file read, in characters (the same 128 Mi as a JSON board).
MAX_GRAPH_CHARS = MAX_JSON_CHARS

_NAMES = {"graphml": "GraphML", "gml": "GML", "nodelink": "node-link JSON",
          "edgelist": "edge list", "adjlist": "adjacency list"}

_INTEGER_NAME = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")
_GML_NODE = re.compile(r"\bnode\s*\[")
_GML_EDGE = re.compile(r"\bedge\s*\[")


# ----------------------------------------------------------------- detection and input

def graph_format(text: str) -> str | None:
    """The graph format ``text`` is recognisably in (``graphml``, ``gml`` or ``nodelink``), or
    ``None``; the same rules as :func:`~minegraph.formats.detect_format`. Edge and adjacency
    lists are never recognised: they look like other integer lists, so their format must be
    named.

    Parameters
    ----------
    text : str
        The contents of a file (not its path).

    Returns
    -------
    str or None
        ``"graphml"``, ``"gml"`` or ``"nodelink"`` when :func:`~minegraph.formats.detect_format`
        recognises one of them; ``None`` for any other format or none.

    Examples
    --------
    >>> graph_format('<?xml version="1.0"?>\\n<graphml><graph/></graphml>')
    'graphml'
    >>> graph_format("graph [\\n  node [ id 0 ]\\n]"), graph_format('{"nodes": [], "edges": []}')
    ('gml', 'nodelink')
    >>> graph_format("0 1\\n1 2") is None, graph_format('{"cells": 1, "states": ["#"]}') is None
    (True, True)
    """
    from minegraph.formats import detect_format
    found = detect_format(text)
    return found if found in GRAPH_FORMATS else None


def _source(source: object, what: str = "graph file") -> str:
    """The text of ``source``: a path (``os.PathLike``) is read, a str or UTF-8 bytes are the
    contents; checked against :data:`MAX_GRAPH_CHARS`."""
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        try:
            size = os.path.getsize(path)
            if size > 4 * MAX_GRAPH_CHARS:
                raise LimitError(f"{path}: a {what} of {size} bytes exceeds the limit of "
                                 f"{MAX_GRAPH_CHARS} characters")
            with open(path, "rb") as handle:
                data = handle.read(4 * MAX_GRAPH_CHARS + 1)
        except OSError as exc:
            raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
        text = decode(data)
    elif isinstance(source, (str, bytes, bytearray)):
        text = decode(source)
    else:
        raise FormatError(f"expected the {what} as text (str), UTF-8 bytes or a path "
                          f"(pathlib.Path), got {type(source).__name__}")
    if len(text) > MAX_GRAPH_CHARS:
        raise LimitError(f"a {what} of {len(text)} characters exceeds the limit of "
                         f"{MAX_GRAPH_CHARS} characters")
    return normalise_newlines(text)


def _looks_like_a_path(source: object) -> bool:
    return (isinstance(source, str) and "\n" not in source and 0 < len(source) < 4096
            and os.path.isfile(source))


def _failed(format: str, exc: BaseException) -> FormatError:
    """A FormatError for an exception networkx (or the XML or JSON parser) raised."""
    position = getattr(exc, "position", None)
    text = str(exc) or type(exc).__name__
    text = text if len(text) <= 300 else text[:297] + "..."
    if isinstance(position, tuple) and len(position) == 2:      # XML: (line, column 0-based)
        text = re.sub(r": line \d+, column \d+$", "", text)
        return FormatError(f"not a valid {_NAMES[format]} file: {text}", position[0], position[1] + 1)
    return FormatError(f"not a valid {_NAMES[format]} file: {text}")


def _networkx(format: str, call: Callable[[], "nx.Graph"]) -> "nx.Graph":
    """Run a networkx reader; its exceptions become FormatErrors, ours pass."""
    try:
        return call()
    except MinegraphError:
        raise
    except Exception as exc:
        raise _failed(format, exc) from None


def _limit_nodes(count: int, where: str = "") -> None:
    if count > MAX_CELLS:
        raise LimitError(f"{where}a graph of more than {MAX_CELLS} nodes exceeds the limit of "
                         f"{MAX_CELLS} cells")


def _limit_edges(count: int, where: str = "") -> None:
    if count > MAX_EDGES:
        raise LimitError(f"{where}a graph of more than {MAX_EDGES} edges exceeds the limit of "
                         f"{MAX_EDGES} edges")


def _int_names(graph: "nx.Graph") -> "nx.Graph":
    """``graph`` with its nodes as ints if every node is a str of a whole number."""
    import networkx as nx
    nodes = list(graph.nodes)
    if nodes and all(type(v) is str and _INTEGER_NAME.fullmatch(v) for v in nodes):
        return nx.relabel_nodes(graph, {v: int(v) for v in nodes}, copy=True)
    return graph


# ----------------------------------------------------------------- edge and adjacency lists

def _data_lines(text: str) -> Iterator[tuple[int, str, list[str]]]:
    """``(line number, line without its comment, tokens)`` of each line that has a node;
    ``#`` starts a comment anywhere, as in networkx."""
    for lineno, _, line in content_lines(text):
        cut = line.find("#")
        if cut >= 0:
            line = line[:cut]
        tokens = line.split()
        if tokens:
            yield lineno, line, tokens


def _column(line: str, token: str, start: int = 0) -> int:
    return line.find(token, start) + 1


def _scan_lines(text: str, format: str) -> tuple[bool, list[str]]:
    """Check an edge or adjacency list before networkx reads it; return whether every node
    name is a whole number, and (adjacency lists) the nodes that head the lines, in order.

    Refused here, with the line and column: an edge list line with one node (networkx skips
    it) or with a third value that is not an ``{attributes}`` dict (networkx would drop the
    edges an adjacency list means), a loop, and more nodes or edges than the limits, at the
    line that crosses them (before any graph is built).
    """
    names: set[str] = set()
    heads: list[str] = []
    edges = 0
    integers = True
    for lineno, line, tokens in _data_lines(text):
        if format == "edgelist":
            if len(tokens) == 1:
                raise FormatError(f"one node, {show(tokens[0])}: an edge list line holds two nodes "
                                  f"'u v'; a node without edges needs the adjacency-list format "
                                  f"('adjlist')", lineno, _column(line, tokens[0]))
            if len(tokens) > 2:
                start = _column(line, tokens[2], _column(line, tokens[1], _column(line, tokens[0])))
                rest = line[start - 1:].strip()
                try:
                    data = ast.literal_eval(rest) if rest.startswith("{") else None
                except (ValueError, SyntaxError, MemoryError, RecursionError):
                    data = None
                if not isinstance(data, dict):
                    raise FormatError(f"expected two nodes 'u v' per line, optionally followed by "
                                      f"{{attributes}}; got {len(tokens)} values (an adjacency list "
                                      f"'u v w ...' is read with the format 'adjlist')",
                                      lineno, start)
            ends = tokens[:2]
            edges += 1
        else:
            ends = tokens
            edges += len(tokens) - 1
            heads.append(tokens[0])
        if len(ends) > 1 and ends[0] in ends[1:]:
            raise FormatError(f"a loop: node {show(ends[0])} is joined to itself; a board has no "
                              f"loops", lineno, _column(line, ends[0], _column(line, ends[0])))
        for name in ends:
            if name not in names:
                names.add(name)
                integers = integers and _INTEGER_NAME.fullmatch(name) is not None
        if len(names) > MAX_CELLS or edges > MAX_EDGES:
            _limit_nodes(len(names), f"line {lineno}: ")
            _limit_edges(edges, f"line {lineno}: ")
    return integers and bool(names), heads


def _read_lines(text: str, format: str) -> "nx.Graph":
    import networkx as nx
    integers, heads = _scan_lines(text, format)
    lines = (line for _, line, _ in _data_lines(text))
    kind = int if integers else None
    if format == "edgelist":
        return _networkx(format, lambda: nx.parse_edgelist(lines, nodetype=kind, data=True))
    graph = _networkx(format, lambda: nx.parse_adjlist(lines, nodetype=kind))
    if integers:
        return graph                    # the cells are sorted anyway
    # One node per line: the cells in the order of the lines, not of first mention.
    ordered = nx.Graph()
    ordered.add_nodes_from(heads)
    ordered.add_nodes_from(graph.nodes)
    ordered.add_edges_from(graph.edges)
    return ordered


# ----------------------------------------------------------------- GraphML

class _GraphMLCheck:
    """One pass of expat over a GraphML text, before networkx builds its tree: counts nodes and
    edges against the limits (stopping at the first beyond them), and refuses what networkx
    would read silently (a second or nested graph, a node id given twice) or unsafely (a
    document type declaration, whose entities can expand to any size)."""

    def __init__(self) -> None:
        self.ids: set[str] = set()
        self.edges = 0
        self.graphs = 0
        self.parser: Any = None

    def where(self) -> tuple[int, int]:
        return self.parser.CurrentLineNumber, self.parser.CurrentColumnNumber + 1

    def start(self, name: str, attrs: dict[str, str]) -> None:
        tag = name.rpartition(" ")[2]
        if tag == "graph":
            self.graphs += 1
            if self.graphs > 1:
                raise FormatError("a second graph (or a graph nested in a node); a board is one "
                                  "graph: keep one <graph> element", *self.where())
        elif tag == "node":
            node = attrs.get("id")
            if node is None:
                raise FormatError("a <node> without an id attribute", *self.where())
            if node in self.ids:
                raise FormatError(f"node id {show(node)} is given twice; expected each node once",
                                  *self.where())
            self.ids.add(node)
            if len(self.ids) > MAX_CELLS:
                _limit_nodes(len(self.ids), f"line {self.where()[0]}: ")
        elif tag == "edge":
            self.edges += 1
            if self.edges > MAX_EDGES:
                _limit_edges(self.edges, f"line {self.where()[0]}: ")
        elif tag == "hyperedge":
            raise FormatError("a <hyperedge>: a board's edges join two cells", *self.where())

    def doctype(self, *args: object) -> None:
        raise FormatError("a document type declaration (<!DOCTYPE ...>): GraphML needs none, and "
                          "its entities could expand to any size", *self.where())

    def run(self, text: str) -> None:
        from xml.parsers import expat
        parser = self.parser = expat.ParserCreate(namespace_separator=" ")
        parser.StartElementHandler = self.start
        parser.StartDoctypeDeclHandler = self.doctype
        parser.EntityDeclHandler = self.doctype
        try:
            parser.Parse(text, True)
        except expat.ExpatError as exc:
            raise FormatError(f"not a valid GraphML file: {expat.ErrorString(exc.code)}",
                              exc.lineno, exc.offset + 1) from None
        if self.graphs == 0:
            raise FormatError("not a valid GraphML file: no <graph> element")


def _read_graphml(text: str) -> "nx.Graph":
    import networkx as nx
    check = _GraphMLCheck()
    check.run(text)
    graph = _networkx("graphml", lambda: nx.parse_graphml(text, node_type=str))
    if graph.number_of_nodes() != len(check.ids):
        missing = next(v for v in graph.nodes if v not in check.ids)
        raise FormatError(f"an edge names node {show(str(missing))}, which no <node> element "
                          f"declares; expected every node declared")
    for key in ("node_default", "edge_default"):      # networkx's bookkeeping, not the file's
        graph.graph.pop(key, None)
    return _int_names(graph)


# ----------------------------------------------------------------- GML

def _count_up_to(pattern: re.Pattern[str], text: str, most: int) -> int:
    count = 0
    for _ in pattern.finditer(text):
        count += 1
        if count > most:
            break
    return count


def _read_gml(text: str) -> "nx.Graph":
    import networkx as nx
    _limit_nodes(_count_up_to(_GML_NODE, text, MAX_CELLS), "GML: ")
    _limit_edges(_count_up_to(_GML_EDGE, text, MAX_EDGES), "GML: ")
    graph = _networkx("gml", lambda: nx.parse_gml(text, label=None))
    labels = {v: data["label"] for v, data in graph.nodes(data=True) if "label" in data}
    if not labels:
        return graph
    if len(labels) != graph.number_of_nodes():
        bare = next(v for v in graph.nodes if v not in labels)
        raise FormatError(f"node with id {bare} has no label while others have one; expected a "
                          f"label on every node (its name) or on none (the ids are the names)")
    ids = list(labels)
    try:        # the board's rule: hashable and distinct
        label_index(list(labels.values()), lambda i: str(ids[i]), ("node with id", "nodes with ids"))
    except BoardError as error:
        raise FormatError(str(error)) from None
    graph = nx.relabel_nodes(graph, labels, copy=True)
    for _, data in graph.nodes(data=True):
        data.pop("label", None)
    return _int_names(graph)


# ----------------------------------------------------------------- node-link JSON

def _read_nodelink(text: str) -> "nx.Graph":
    import networkx as nx
    objects = text.count("{")
    if objects > MAX_CELLS + MAX_EDGES + 2:
        raise LimitError(f"$: the JSON holds {objects} objects, more than a graph within the limits "
                         f"can have ({MAX_CELLS} nodes and {MAX_EDGES} edges, one object each)")
    try:
        data = json.loads(text, object_pairs_hook=unique_keys)
    except FormatError:
        raise
    except json.JSONDecodeError as exc:
        raise FormatError(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except (RecursionError, ValueError) as exc:
        raise FormatError(f"unreadable JSON: {exc}") from None
    if not isinstance(data, dict):
        raise FormatError("expected a node-link object {\"nodes\": [...], \"edges\": [...]}", path="$")
    key = "edges" if "edges" in data else "links"
    if "edges" in data and "links" in data:
        raise FormatError("both \"edges\" and \"links\" are given; expected one list of edges",
                          path="$.links")
    if key not in data:
        raise FormatError("missing key \"edges\" (or networkx's older \"links\"): the list of "
                          "edges, [] for none", path="$")
    nodes, links = data.get("nodes"), data[key]
    if not isinstance(nodes, list):
        raise FormatError("expected a list of node objects {\"id\": ...}", path="$.nodes")
    if not isinstance(links, list):
        raise FormatError("expected a list of edge objects {\"source\": ..., \"target\": ...}",
                          path=f"$.{key}")
    _limit_nodes(len(nodes), "$.nodes: ")
    _limit_edges(len(links), f"$.{key}: ")
    if not isinstance(data.get("graph", {}), dict):
        raise FormatError("expected an object of graph attributes", path="$.graph")
    ids: set[Any] = set()
    for i, node in enumerate(nodes):
        path = f"$.nodes[{i}]"
        if not isinstance(node, dict) or "id" not in node:
            raise FormatError("expected a node object with an \"id\"", path=path)
        name = node["id"]
        if not is_json_label(name):
            raise FormatError(f"expected a node id that is a string or a whole number, got "
                              f"{shorten(json.dumps(name))}", path=f"{path}.id")
        if name in ids:
            raise FormatError(f"node id {shorten(json.dumps(name))} is given twice; expected each node once",
                              path=f"{path}.id")
        ids.add(name)
    for i, link in enumerate(links):
        path = f"$.{key}[{i}]"
        if not isinstance(link, dict):
            raise FormatError("expected an edge object {\"source\": ..., \"target\": ...}", path=path)
        for end in ("source", "target"):
            value = link.get(end)
            if not is_json_label(value) or value not in ids:
                shown = "nothing" if end not in link else shorten(json.dumps(value))
                raise FormatError(f"expected the id of a node in $.nodes, got {shown}", path=f"{path}.{end}")
    return _networkx("nodelink", lambda: nx.node_link_graph(data, edges=key))


# ----------------------------------------------------------------- states files

def read_states(source: object) -> tuple[dict[str, object], int | None, dict[str, int]]:
    """Read a states file: ``NODE STATE`` lines, an optional ``mines: N`` line before them.

    Lines whose first character other than a space is ``;`` are comments; blank lines are
    skipped. ``STATE`` is a symbol of the board text (``#``, ``M``, ``-``, ``0``-``9``...) or
    the digits of a number; ``mines:`` takes a whole number, or ``?``, ``unknown`` or nothing
    (unknown).

    Parameters
    ----------
    source : str, bytes or os.PathLike
        The states file's contents (a str, or UTF-8 bytes), or its path (``pathlib.Path``).

    Returns
    -------
    tuple
        ``(states, mines, lines)``: node name -> state (as written), the total or ``None``, and
        node name -> the line that gave it (for messages).

    Raises
    ------
    FormatError
        naming the line and column (``states, line 3, column 5: ...``) of a line that is not
        ``NODE STATE``, a node given twice, or a bad total.

    Examples
    --------
    >>> read_states("; a comment\\nmines: 2\\na #\\nb 13\\n")
    ({'a': '#', 'b': '13'}, 2, {'a': 3, 'b': 4})
    """
    text = _source(source, "states file")
    states: dict[str, object] = {}
    lines: dict[str, int] = {}
    mines: int | None = None
    seen_total = False
    for lineno, _, line in content_lines(text, comments=";"):
        tokens = line.split()
        if tokens[0].lower().startswith("mines:"):
            value = line.split(":", 1)[1].strip()
            if seen_total or states:
                raise FormatError("the 'mines:' line must come once, before the states",
                                  lineno, 1, path="states")
            seen_total = True
            if value.lower() not in ("", "?", "unknown", "none"):
                mines = whole_number(value)
                if mines is None:
                    raise FormatError(f"expected a whole number of mines, got {show(value)}",
                                      lineno, line.index(value, line.find(":")) + 1, path="states")
            continue
        if len(tokens) != 2:
            raise FormatError(f"expected 'NODE STATE' (two items), got {len(tokens)}", lineno,
                              _column(line, tokens[0]), path="states")
        name, state = tokens
        if name in states:
            raise FormatError(f"node {show(name)} is given twice (first on line {lines[name]})",
                              lineno, _column(line, name), path="states")
        states[name] = state
        lines[name] = lineno
    return states, mines, lines


def write_states(board: Board) -> str:
    """The states file of ``board``: its total (when known) and every cell that is not hidden.

    ``read_graph_board(write_edgelist(b) or write_adjlist(b), ..., states=write_states(b)) == b``.

    Parameters
    ----------
    board : Board
        The board, a grid or a graph; its cells are named by their labels, else their indices.

    Returns
    -------
    str
        A ``mines: N`` line when the total is known, then a ``NAME STATE`` line per cell that
        is not hidden (``M``, ``-`` or the number), each ending in a newline; ``""`` for a
        board all hidden with an unknown total.

    Raises
    ------
    FormatError
        for labels that cannot be written as names (see :func:`write_adjlist`).

    Examples
    --------
    >>> print(write_states(Board.from_graph(3, [(0, 1), (1, 2)], "M2#", mines=2)), end="")
    mines: 2
    0 M
    1 2
    """
    names = _text_names(board, "a states file")
    lines = [] if board.mines is None else [f"mines: {board.mines}"]
    lines += [f"{names[i]} {_state_text(s)}" for i, s in enumerate(board.states) if s != HIDDEN]
    return "\n".join(lines) + "\n" if lines else ""


def _states_by_node(graph: "nx.Graph", states: object) -> tuple[Mapping[Any, object] | None, int | None]:
    """The states argument as a mapping node -> state (``None``: use the file's attributes)
    and the total a states file gives."""
    if states is None:
        return None, None
    if isinstance(states, Mapping):
        return states, None
    if not isinstance(states, (str, bytes, bytearray, os.PathLike)):
        raise FormatError(f"expected the states as a mapping node -> state, the text of a states "
                          f"file or its path, got {type(states).__name__}")
    named, mines, lines = read_states(states)
    by_name = text_names(cell_order(graph.nodes))
    out: dict[Any, object] = {}
    for name, state in named.items():
        if name not in by_name:
            raise FormatError(f"no node {show(name)} in the graph", lines[name], 1, path="states")
        out[by_name[name]] = state
    return out, mines


# ----------------------------------------------------------------- reading

_READERS: dict[str, Callable[[str], "nx.Graph"]] = {
    "graphml": _read_graphml, "gml": _read_gml, "nodelink": _read_nodelink,
    "edgelist": lambda text: _read_lines(text, "edgelist"),
    "adjlist": lambda text: _read_lines(text, "adjlist"),
}


def _chosen(text: str, format: str | None, source: object) -> str:
    if format is None:
        found = graph_format(text)
        if found is None:
            raise FormatError(f"cannot tell the graph format from the content; name it, one of "
                              f"{', '.join(GRAPH_FORMATS)} (edge and adjacency lists are never "
                              f"guessed)" + ("; to read the file of that name, pass "
                                             "pathlib.Path(...)" if _looks_like_a_path(source) else ""))
        return found
    if format not in GRAPH_FORMATS:
        raise UserError(f"unknown graph format {format!r}; expected one of {', '.join(GRAPH_FORMATS)}")
    return format


def read_graph(source: object, format: str | None = None) -> "nx.Graph":
    """The networkx graph of a graph file, checked and with its node names settled.

    Parameters
    ----------
    source : str, bytes or os.PathLike
        The file's contents (a str, or UTF-8 bytes), or its path (``pathlib.Path``).
    format : str, optional
        One of :data:`GRAPH_FORMATS`; by default recognised from the content (GraphML, GML and
        node-link JSON only).

    Returns
    -------
    networkx.Graph
        The graph as networkx read it, after the checks above, with the file's node and graph
        attributes (``state``, ``mines``); names written as text (edge and adjacency lists,
        GraphML ids, GML labels) are ``int`` when every one is a whole number, node-link ids
        are kept as written.

    Raises
    ------
    FormatError
        for a file the format's reader rejects, naming the line and column (or JSON path)
        when known, and what was expected.
    LimitError
        for a file beyond :data:`MAX_GRAPH_CHARS` characters, :data:`~minegraph.states.MAX_CELLS`
        nodes or :data:`~minegraph.formats.json.MAX_EDGES` edges, refused before the graph is built.
    UserError
        for an unknown format or a path that cannot be read.

    Examples
    --------
    >>> g = read_graph("1 2\\n2 3\\n", "edgelist")
    >>> sorted(g.nodes), sorted(g.edges)
    ([1, 2, 3], [(1, 2), (2, 3)])
    """
    text = _source(source)
    chosen = _chosen(text, format, source)
    try:
        return _READERS[chosen](text)
    except FormatError as error:
        if not _looks_like_a_path(source):
            raise
        from minegraph.formats import _noted
        raise _noted(error, "to read the file of that name, pass pathlib.Path(...)") from None


def read_graph_board(source: object, format: str | None = None, *, states: object = None,
                     mines: int | None = None) -> Board:
    """Read a board from a graph file: its nodes are the cells, named by their node names.

    Parameters
    ----------
    source : str, bytes or os.PathLike
        The file's contents, or its path (``pathlib.Path``); see :func:`read_graph`.
    format : str, optional
        One of :data:`GRAPH_FORMATS`; recognised from the content when omitted (GraphML, GML
        and node-link JSON; edge and adjacency lists must be named).
    states : mapping, str, bytes or os.PathLike, optional
        The cell states, replacing the file's ``state`` node attributes: a mapping node ->
        state, or a states file (:func:`read_states`) as text or path. Nodes without a state
        are hidden.
    mines : int, optional
        The total mine count; by default the states file's ``mines:`` line, else the graph
        attribute ``mines``, else unknown.

    Returns
    -------
    Board
        A graph board (:meth:`~minegraph.board.Board.from_networkx`).

    Raises
    ------
    FormatError
        for a malformed file or states file, a state that is not one, a node of the states
        file that the graph lacks, a loop, or a number above its node's degree; the message
        says which and where.
    LimitError
        for a file beyond the limits (see :func:`read_graph`).

    Examples
    --------
    >>> text = '''graph [
    ...   mines 1
    ...   node [ id 0 label "a" state "#" ]
    ...   node [ id 1 label "b" state 1 ]
    ...   edge [ source 0 target 1 ]
    ... ]'''
    >>> b = read_graph_board(text)
    >>> b.labels, b.states, b.mines
    (('a', 'b'), (-1, 1), 1)
    """
    graph = read_graph(source, format)
    by_node, total = _states_by_node(graph, states)
    chosen = mines if mines is not None else total
    try:
        return Board.from_networkx(graph, by_node, mines=chosen)
    except LimitError:
        raise
    except BoardError as error:
        raise FormatError(str(error)) from None


def _reader(format: str) -> Callable[..., Board]:
    def read(text: str | bytes, states: object = None) -> Board:
        return read_graph_board(text, format, states=states)
    read.__name__ = f"read_{format}"
    read.__doc__ = (f"Read a board from {_NAMES[format]} text (:func:`read_graph_board` with "
                    f"format ``{format!r}``).\n\n"
                    f"Parameters\n----------\n"
                    f"text : str or bytes\n"
                    f"    The {_NAMES[format]} itself (a str, or UTF-8 bytes).\n"
                    f"states : mapping, str, bytes or os.PathLike, optional\n"
                    f"    The cell states, replacing any in the file: a mapping node -> state, "
                    f"or a states\n    file (:func:`read_states`) as text or path.\n\n"
                    f"Returns\n-------\n"
                    f"Board\n"
                    f"    The graph board (see :func:`read_graph_board`, whose errors it "
                    f"raises).\n")
    return read


read_graphml = _reader("graphml")
read_gml = _reader("gml")
read_nodelink = _reader("nodelink")
read_edgelist = _reader("edgelist")
read_adjlist = _reader("adjlist")


# ----------------------------------------------------------------- writing

def _state_text(state: int) -> str:
    """A state as graph files write it: ``#``, ``M``, ``-`` or the number's digits."""
    return {HIDDEN: "#", MINE: "M", BLANK: "-"}.get(state) or str(state)


def to_networkx(board: Board) -> "nx.Graph":
    """The board as a networkx graph: one node per cell (its label, else its index) with the
    ``state`` attribute (``#``, ``M``, ``-`` or the number), and the graph attribute ``mines``
    when the total is known; grids too (their cells are then ``0..n-1``, row by row).

    ``Board.from_networkx(to_networkx(b))`` equals ``b`` for graph boards.

    Parameters
    ----------
    board : Board
        Any board, grid or graph.

    Returns
    -------
    networkx.Graph
        A new undirected graph, its nodes in cell order.

    Examples
    --------
    >>> g = to_networkx(Board.from_graph(2, [(0, 1)], "#1", mines=1))
    >>> dict(g.nodes(data="state")), g.graph
    ({0: '#', 1: '1'}, {'mines': 1})
    """
    import networkx as nx
    graph = nx.Graph()
    names = board.labels if board.labels is not None else range(board.size)
    if board.mines is not None:
        graph.graph["mines"] = board.mines
    for name, state in zip(names, board.states):
        graph.add_node(name, state=_state_text(state))
    graph.add_edges_from((names[u], names[v]) for u, near in enumerate(board.neighbors)
                         for v in near if u < v)
    return graph


def _graph_board(board: Board, format: str) -> None:
    if board.rows is not None:
        raise FormatError(f"a {board.topology} grid is written as text or JSON, not as {_NAMES[format]}; "
                          f"Board.from_graph or Board.from_networkx make graph boards")


def _read_back(labels: list[str | int]) -> str | None:
    """Why labels written as strings (text files, GraphML ids, GML labels) would not read back
    as the same labels, or ``None``: names that are all whole numbers are read as ``int``
    (:func:`_int_names`), so labels must be all ``int``, or all ``str`` not all of digits."""
    if all(type(v) is int for v in labels):
        return None
    if not all(type(v) is str for v in labels):
        return "its labels mix strings and numbers, which would all read back as strings"
    if all(_INTEGER_NAME.fullmatch(str(v)) for v in labels):
        return "its labels are strings of digits, which would read back as numbers"
    return None


def _text_names(board: Board, where: str) -> list[str]:
    """The cells' names as text that reads back as the same names (:func:`_read_back`),
    without spaces or ``#``; no labels: the indices."""
    if board.labels is None:
        return [str(i) for i in range(board.size)]
    labels = board.json_labels() or []
    why = _read_back(labels)
    if why is None and not all(type(v) is int for v in labels):
        bad = next((v for v in labels if not v or "#" in str(v) or len(str(v).split()) != 1
                    or str(v).startswith(";")), None)
        if bad is not None:
            why = f"the label {show(str(bad))} is empty or holds a space, '#' or a leading ';'"
    if why is not None:
        raise FormatError(f"cannot write this board as {where}: {why}; write GraphML or node-link "
                          f"JSON, or relabel the graph")
    return [str(v) for v in labels]


def _xml_names(board: Board, format: str) -> None:
    """GraphML ids and GML labels are strings: the labels must read back the same."""
    why = None if board.labels is None else _read_back(board.json_labels() or [])
    if why is not None:
        raise FormatError(f"cannot write this board as {_NAMES[format]}: {why}; write node-link JSON")


def write_graphml(board: Board) -> str:
    """GraphML of a graph board: ``state`` on every node, ``mines`` on the graph when known.

    Parameters
    ----------
    board : Board
        A graph board (not a grid).

    Returns
    -------
    str
        The GraphML document, ending in a newline.

    Raises
    ------
    FormatError
        for a grid, or labels that would not read back the same (not all ``str`` or all
        ``int``, or strings of digits only).

    Examples
    --------
    >>> b = Board.from_graph(2, [(0, 1)], "#1", mines=1)
    >>> read_graphml(write_graphml(b)) == b
    True
    """
    import networkx as nx
    _graph_board(board, "graphml")
    _xml_names(board, "graphml")
    return "\n".join(nx.generate_graphml(to_networkx(board))) + "\n"


def write_gml(board: Board) -> str:
    """GML of a graph board: nodes named by ``label``, ``state`` on every node, ``mines`` on
    the graph when known.

    Parameters
    ----------
    board : Board
        A graph board (not a grid).

    Returns
    -------
    str
        The GML text, ending in a newline.

    Raises
    ------
    FormatError
        as :func:`write_graphml`.

    Examples
    --------
    >>> print(write_gml(Board.from_graph(1, [], "#")), end="")
    graph [
      node [
        id 0
        label "0"
        state "#"
      ]
    ]
    """
    import networkx as nx
    _graph_board(board, "gml")
    _xml_names(board, "gml")
    return "\n".join(nx.generate_gml(to_networkx(board))) + "\n"


def write_nodelink(board: Board) -> str:
    """networkx's node-link JSON of a graph board (key ``"edges"``), labels kept as ids.

    Parameters
    ----------
    board : Board
        A graph board (not a grid).

    Returns
    -------
    str
        The JSON on one line, ending in a newline.

    Raises
    ------
    FormatError
        for a grid, or labels that are not ``str`` or ``int``.

    Examples
    --------
    >>> print(write_nodelink(Board.from_graph(2, [(0, 1)], "#1")), end="")
    {"directed": false, "multigraph": false, "graph": {}, "nodes": [{"state": "#", "id": 0}, {"state": "1", "id": 1}], "edges": [{"source": 0, "target": 1}]}
    """
    import networkx as nx
    _graph_board(board, "nodelink")
    board.json_labels()
    return json.dumps(nx.node_link_data(to_networkx(board), edges="edges"), allow_nan=False) + "\n"


def _no_states(board: Board, format: str) -> None:
    if any(s != HIDDEN for s in board.states) or board.mines is not None:
        raise FormatError(f"an {_NAMES[format]} holds no cell states or total: write them alongside "
                          f"with write_states(board) and read them back with states=..., or "
                          f"write GraphML, GML or node-link JSON, which hold them")


def write_edgelist(board: Board) -> str:
    """The edge list of a graph board whose cells are all hidden and whose total is unknown
    (an edge list holds neither: :func:`write_states` writes them alongside).

    Parameters
    ----------
    board : Board
        A graph board, every cell hidden, the total unknown, every cell with a neighbour.

    Returns
    -------
    str
        One ``u v`` line per edge (``u`` before ``v`` in cell order), each ending in a newline.

    Raises
    ------
    FormatError
        for a grid, a board with states or a total, a cell without neighbours (an edge list
        cannot hold it: use :func:`write_adjlist`), or labels that cannot be written as names.

    Examples
    --------
    >>> print(write_edgelist(Board.from_graph(3, [(0, 1), (1, 2)], "###")), end="")
    0 1
    1 2
    """
    _graph_board(board, "edgelist")
    _no_states(board, "edgelist")
    names = _text_names(board, "an edge list")
    alone = next((i for i, near in enumerate(board.neighbors) if not near), None)
    if alone is not None:
        raise FormatError(f"cannot write this board as an edge list: cell {names[alone]} has no "
                          f"neighbours, and an edge list holds edges only; write an adjacency list")
    edges = [(u, v) for u, near in enumerate(board.neighbors) for v in near if u < v]
    if board.labels is not None and not all(type(v) is int for v in board.labels):
        # Read back, string names are numbered in the order they first appear.
        seen: dict[int, None] = {}
        for u, v in edges:
            seen.setdefault(u)
            seen.setdefault(v)
        if list(seen) != list(range(board.size)):
            raise FormatError("cannot write this board as an edge list: read back, its cells would "
                              "be numbered in the order their names first appear, which is not "
                              "this board's order; write an adjacency list, GraphML or node-link JSON")
    return "".join(f"{names[u]} {names[v]}\n" for u, v in edges)


def write_adjlist(board: Board) -> str:
    """The adjacency list of a graph board whose cells are all hidden and whose total is
    unknown: one line per cell, its name and its neighbours not listed before.

    Parameters
    ----------
    board : Board
        A graph board, every cell hidden, the total unknown.

    Returns
    -------
    str
        One line per cell in cell order, each ending in a newline.

    Raises
    ------
    FormatError
        for a grid, a board with states or a total, or labels that cannot be written as names
        (not all ``str`` or all ``int``, digits only, or holding a space, ``#`` or a leading
        ``;``).

    Examples
    --------
    >>> print(write_adjlist(Board.from_graph(3, [(0, 1), (0, 2)], "###")), end="")
    0 1 2
    1
    2
    """
    _graph_board(board, "adjlist")
    _no_states(board, "adjlist")
    names = _text_names(board, "an adjacency list")
    return "".join(" ".join([names[u], *(names[v] for v in near if v > u)]) + "\n"
                   for u, near in enumerate(board.neighbors))
