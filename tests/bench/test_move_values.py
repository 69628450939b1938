"""The variant screen of bench/move_values.py: a variant's pick at a valued decision is booked
to the player whose cell it is, and a third cell is valued once on the same number of layouts
and cached."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import move_values  # noqa: E402

from minegraph.board import Board  # noqa: E402
from minegraph.play.policies import StrongPolicy  # noqa: E402
from minegraph.play.rollout import game_at  # noqa: E402
from minegraph.sample import sample_completion  # noqa: E402

# A 4x4 board with 3 mines left and one number: strong must guess.
POSITION = "mines: 3\n1###\n####\n####\n####\n"


def _strong_cell(board: Board) -> int:
    game = game_at(board, sample_completion(board, random.Random(1)))
    return StrongPolicy().decide(game).moves[0].cell


def _screen(tmp_path: Path, cells: list[int], first: list[int], second: list[int],
            capsys: pytest.CaptureFixture[str]) -> tuple[str, dict[str, object]]:
    folder = tmp_path / "positions"
    folder.mkdir()
    (folder / "first-guess-7.board").write_text(POSITION)
    (folder / "first-guess-7.json").write_text(json.dumps({"seed": 7}))
    out = tmp_path / "values.json"
    out.write_text(json.dumps({"decisions": {"first-guess-7": {
        "class": "first guess", "players": ["strong", "peer"], "cells": cells,
        "first": first, "second": second}}}))
    args = argparse.Namespace(decisions=str(folder), out=str(out), seed=0,
                              variant=["base:"])
    assert move_values.screen_variants(args) == 0
    return capsys.readouterr().out, json.loads(out.read_text())


def test_a_pick_of_either_players_cell_is_booked_to_it(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    board = Board.from_text(POSITION)
    mine = _strong_cell(board)
    other = next(c for c in range(16) if c not in (0, mine))
    # Strong's cell won 3 of 4 layouts, the peer's 1: strong's own pick gains nothing over
    # itself; with the cells swapped it is the second player's, 2 of 4 layouts better.
    text, _ = _screen(tmp_path, [mine, other], [1, 1, 1, 0], [0, 0, 1, 0], capsys)
    assert "base         picks first   1 second   0 other   0; gain over the first +0.00" in text
    (tmp_path / "positions").rename(tmp_path / "old")
    text, _ = _screen(tmp_path, [other, mine], [0, 0, 1, 0], [1, 1, 1, 0], capsys)
    assert "base         picks first   0 second   1 other   0; gain over the first +50.00" in text


def test_a_third_cell_is_valued_on_as_many_layouts_and_cached(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = Board.from_text(POSITION)
    mine = _strong_cell(board)
    a, b = [c for c in range(1, 16) if c != mine][:2]
    text, data = _screen(tmp_path, [a, b], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], capsys)
    assert "base         picks first   0 second   0 other   1" in text
    outcomes = data["other_cells"]["first-guess-7"][str(mine)]          # type: ignore[index]
    assert len(outcomes) == 5 and set(outcomes) <= {0, 1}
    assert f"gain over the first {100 * sum(outcomes) / 5:+.2f}" in text
