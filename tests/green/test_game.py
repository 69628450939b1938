"""The model: CSR arrays, predecessors, and the task's input rules."""

from __future__ import annotations

import numpy as np
import pytest

from minegraph.errors import LimitError, MinegraphError
from minegraph.green.game import GreenGame, check_task_rules


def test_csr_and_predecessors_agree():
    g = GreenGame.from_successors([0, 1, 0, 1], [0, 1, 0, 0], [[1, 3], [0, 2], [3], [0]])
    assert g.n == 4 and g.m == 6 and g.k == 1
    assert g.successor_lists() == [[1, 3], [0, 2], [3], [0]]
    assert g.predecessor_lists() == [[1, 3], [0], [1], [0, 2]]
    # pred_edge names, for each predecessor entry, the same edge in ``succ``.
    src = g.edge_source
    for v in range(g.n):
        for j in range(g.pred_ptr[v], g.pred_ptr[v + 1]):
            e = g.pred_edge[j]
            assert g.succ[e] == v and src[e] == g.pred[j]


def test_field_without_successor_is_rejected():
    with pytest.raises(MinegraphError, match=r"field 0 \(0-based\) has no successor"):
        GreenGame.from_successors([0, 1], [0, 0], [[], [0]])


def test_out_of_range_and_bad_owner():
    with pytest.raises(MinegraphError, match="not a field number"):
        GreenGame.from_edges([0, 1], [0, 0], [0, 1], [1, 2])
    with pytest.raises(MinegraphError, match="owners must be 0"):
        GreenGame.from_edges([0, 2], [0, 0], [0, 1], [1, 0])
    with pytest.raises(MinegraphError, match="at least one field"):
        GreenGame.from_edges([], [], [], [])


def test_task_rules():
    ok = GreenGame.from_oi(1, [1, 0], [[1], [0]])
    check_task_rules(ok)
    with pytest.raises(MinegraphError, match="must come before"):
        check_task_rules(GreenGame.from_successors([1, 0], [0, 0], [[1], [0]]))
    with pytest.raises(MinegraphError, match="field 2 lists successor 1 twice"):
        check_task_rules(GreenGame.from_oi(1, [0, 0], [[1], [0, 0]]))
    with pytest.raises(MinegraphError, match="moves must alternate"):
        check_task_rules(GreenGame.from_oi(1, [0, 0, 0], [[1], [0], [2]]))


def test_limits():
    n = 3002
    owner = np.repeat([0, 1], n // 2)
    succ = np.where(np.arange(n) < n // 2, np.arange(n) + n // 2, np.arange(n) - n // 2)
    big = GreenGame.from_edges(owner, np.zeros(n, bool), np.arange(n), succ)
    with pytest.raises(LimitError, match="3002 fields"):
        check_task_rules(big)
    check_task_rules(big, limits=False)
    green = GreenGame.from_edges(np.repeat([0, 1], 200), np.ones(400, bool), np.arange(400),
                                 np.where(np.arange(400) < 200, np.arange(400) + 200,
                                          np.arange(400) - 200))
    with pytest.raises(LimitError, match="400 green"):
        check_task_rules(green)
