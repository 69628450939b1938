"""Cell labels: the rules for naming cells by the nodes of a graph, in one place.

A graph board may name its cells by labels (:attr:`Board.labels <minegraph.board.Board.labels>`,
the nodes of a networkx graph). :class:`~minegraph.board.Board` and the graph files
(:mod:`minegraph.formats.graphs`) follow the same rules, all here:

- the cells are the nodes in increasing order when every node is an ``int``, else in the
  graph's node order (:func:`cell_order`); labels ``0..n-1`` in that order are the same as no
  labels (:func:`plain`);
- labels are hashable and distinct (:func:`label_index`); ``True`` is not the label ``1``
  although they are equal (:func:`same_label`);
- JSON holds labels that are strings or whole numbers only (:func:`is_json_label`,
  :func:`json_labels`);
- a label written as text is the label whose ``str`` it is (:func:`text_names`,
  :func:`label_from_text`).

The module knows no board: it works on sequences of labels.

Examples
--------
>>> cell_order([2, 0, 1]), cell_order(["b", "a"]), plain((0, 1, 2))
([0, 1, 2], ['b', 'a'], True)
>>> label_index(("a", "b")), label_from_text(("a", 7), "7")
({'a': 0, 'b': 1}, 7)
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from minegraph.errors import BoardError, FormatError

__all__ = ["named", "as_key", "cell_order", "plain", "label_index", "same_label",
           "is_json_label", "json_labels", "text_names", "label_from_text"]


def named(label: object) -> str:
    """A label as messages show it: its ``repr``, cut at 40 characters.

    Parameters
    ----------
    label
        Any label (a node whose ``repr`` fails is named by its type).

    Returns
    -------
    str
        The name.

    Examples
    --------
    >>> named("a"), named((0, 1))
    ("'a'", '(0, 1)')
    """
    try:
        text = repr(label)
    except Exception:                       # a node whose repr fails still gets a name
        text = f"<a {type(label).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


def as_key(cell: object) -> object:
    """A label as looked up: lists (the JSON form of a tuple) become tuples, at every depth.

    Parameters
    ----------
    cell
        A label as given.

    Returns
    -------
    object
        The label to look up.

    Examples
    --------
    >>> as_key([0, [1, 2]])
    (0, (1, 2))
    """
    if isinstance(cell, list):
        return tuple(as_key(part) for part in cell)
    return cell


def cell_order(nodes: Iterable[Any]) -> list[Any]:
    """The nodes in cell order: increasing when every node is an ``int``, else as given.

    Parameters
    ----------
    nodes
        The graph's nodes, in the graph's order.

    Returns
    -------
    list
        The nodes, cell ``i`` the ``i``-th.

    Examples
    --------
    >>> cell_order([3, 1, 2]), cell_order([3, "a", 1])
    ([1, 2, 3], [3, 'a', 1])
    """
    out = list(nodes)
    if all(type(v) is int for v in out):
        out.sort()
    return out


def plain(labels: Sequence[Any]) -> bool:
    """Whether ``labels`` are ``0..n-1`` in order (``int``, not ``bool``): the same as none.

    Parameters
    ----------
    labels
        One label per cell.

    Returns
    -------
    bool
        Whether the labels say nothing the cell numbers do not.

    Examples
    --------
    >>> plain([0, 1]), plain([1, 0]), plain([False, True])
    (True, False, False)
    """
    return all(type(v) is int for v in labels) and list(labels) == list(range(len(labels)))


def label_index(labels: Sequence[Any], name: Callable[[int], str] = str,
                noun: tuple[str, str] = ("cell", "cells")) -> dict[Any, int]:
    """Label -> cell index, checking that the labels are hashable and distinct.

    Parameters
    ----------
    labels
        One label per cell.
    name
        Cell index -> how messages name it (the index by default).
    noun
        How messages call one cell and two (``("cell", "cells")``).

    Returns
    -------
    dict
        Each label's index.

    Raises
    ------
    BoardError
        for a label that is not hashable, or one given twice (labels equal in Python, such
        as ``1`` and ``True``, are the same label), naming the cells.

    Examples
    --------
    >>> label_index(["a", "b"])
    {'a': 0, 'b': 1}
    >>> label_index(["a", "a"])
    Traceback (most recent call last):
    ...
    minegraph.errors.BoardError: cells 0 and 1 have the same label 'a' (labels must be distinct)
    """
    table: dict[Any, int] = {}
    for i, label in enumerate(labels):
        try:
            first = table.setdefault(label, i)
        except TypeError:
            raise BoardError(f"{noun[0]} {name(i)}: a label must be hashable, like the nodes of a "
                             f"networkx graph, got a {type(label).__name__}") from None
        if first != i:
            raise BoardError(f"{noun[1]} {name(first)} and {name(i)} have the same label "
                             f"{named(label)} (labels must be distinct)")
    return table


def same_label(key: object, label: object) -> bool:
    """Whether ``key``, found equal to ``label`` by a lookup, names it: ``True`` and ``1`` are
    equal in Python but not the same node name.

    Parameters
    ----------
    key
        What was looked up.
    label
        The label the lookup found.

    Returns
    -------
    bool
        Whether they agree on being a ``bool``.

    Examples
    --------
    >>> same_label(1, 1), same_label(True, 1)
    (True, False)
    """
    return isinstance(key, bool) == isinstance(label, bool)


def is_json_label(label: object) -> bool:
    """Whether JSON holds ``label`` as it is: a ``str`` or a whole number (``int``, not
    ``bool``).

    Parameters
    ----------
    label
        A label.

    Returns
    -------
    bool
        Whether it is a string or a whole number.

    Examples
    --------
    >>> is_json_label("a"), is_json_label(3), is_json_label(True), is_json_label((0, 1))
    (True, True, False, False)
    """
    return type(label) is str or (isinstance(label, int) and not isinstance(label, bool))


def json_labels(labels: Sequence[Any]) -> list[str | int]:
    """The labels as JSON holds them (``int`` subclasses as plain ``int``).

    Parameters
    ----------
    labels
        One label per cell.

    Returns
    -------
    list
        The labels, each a ``str`` or an ``int``.

    Raises
    ------
    FormatError
        for a label that is neither (:func:`is_json_label`), naming the cell and how to
        relabel the graph.

    Examples
    --------
    >>> json_labels(["a", 2])
    ['a', 2]
    >>> json_labels([0.5])
    Traceback (most recent call last):
    ...
    minegraph.errors.FormatError: cell 0 is labelled 0.5, a float: JSON output holds cell labels that are strings or whole numbers only; relabel the graph first, e.g. networkx.convert_node_labels_to_integers(graph, label_attribute="name") or networkx.relabel_nodes(graph, str)
    """
    out: list[str | int] = []
    for i, label in enumerate(labels):
        if not is_json_label(label):
            raise FormatError(f"cell {i} is labelled {named(label)}, a {type(label).__name__}: JSON "
                              f"output holds cell labels that are strings or whole numbers only; "
                              f"relabel the graph first, e.g. networkx.convert_node_labels_to_integers"
                              f"(graph, label_attribute=\"name\") or networkx.relabel_nodes(graph, str)")
        out.append(label if type(label) is str else int(label))
    return out


def text_names(labels: Iterable[Any]) -> dict[str, Any]:
    """Each label by the text that writes it, its ``str``: the rule by which a person (or a
    states file) names a cell by its label. When two labels write alike (``1`` and ``"1"``)
    the first in cell order keeps the text; a ``bool`` label is never written.

    Parameters
    ----------
    labels
        The labels, in cell order.

    Returns
    -------
    dict
        Text -> label.

    Examples
    --------
    >>> text_names([1, "1", "a", True])
    {'1': 1, 'a': 'a'}
    """
    out: dict[str, Any] = {}
    for label in labels:
        if not isinstance(label, bool):
            out.setdefault(str(label), label)
    return out


def label_from_text(labels: Iterable[Any], text: str) -> Any | None:
    """The label written as ``text`` (spaces around it ignored), by :func:`text_names`.

    Parameters
    ----------
    labels
        The labels, in cell order.
    text
        The label as written.

    Returns
    -------
    object or None
        The label, or ``None`` when no label is written so.

    Examples
    --------
    >>> label_from_text(["a", -1, 2], " -1 "), label_from_text([True], "True")
    (-1, None)
    """
    return text_names(labels).get(text.strip())
