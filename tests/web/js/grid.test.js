// Grid geometry (static/grid.js) on hand-drawn grids. The browser tests also compare
// neighbours with minegraph.topology on every topology.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cellsToFlag, fitCell, neighbours } from "../../../src/minegraph/web/static/grid.js";

const sorted = (cells) => cells.map(([r, c]) => `${r},${c}`).sort();

test("square, torus and hex neighbours", () => {
  assert.deepEqual(sorted(neighbours("square", 3, 3, 0, 0)), ["0,1", "1,0", "1,1"]);
  assert.equal(neighbours("square", 3, 3, 1, 1).length, 8);
  // On a 3x3 torus every other cell touches (0, 0), each once.
  assert.deepEqual(sorted(neighbours("torus", 3, 3, 0, 0)),
    ["0,1", "0,2", "1,0", "1,1", "1,2", "2,0", "2,1", "2,2"]);
  // On a 2x2 torus the wrapped offsets meet: three distinct neighbours.
  assert.deepEqual(sorted(neighbours("torus", 2, 2, 0, 0)), ["0,1", "1,0", "1,1"]);
  // Hex, even rows not shifted: (0, 1) touches its row and the two cells below-left.
  assert.deepEqual(sorted(neighbours("hex", 3, 3, 0, 1)), ["0,0", "0,2", "1,0", "1,1"]);
  // Odd rows are shifted right: (1, 1) touches (0, 1), (0, 2), (2, 1), (2, 2).
  assert.deepEqual(sorted(neighbours("hex", 3, 3, 1, 1)), ["0,1", "0,2", "1,0", "1,2", "2,1", "2,2"]);
});

test("triangle neighbours: twelve inside the grid", () => {
  assert.equal(neighbours("triangle", 5, 7, 2, 3).length, 12);
  // (0, 0) points up: the two to its right in its row and the three below it.
  assert.deepEqual(sorted(neighbours("triangle", 3, 4, 0, 0)), ["0,1", "0,2", "1,0", "1,1", "1,2"]);
});

test("auto-flag counts plainly", () => {
  // # 1 0: the 1 has one covered cell, so it is a mine.
  const game = { rows: 1, cols: 3, topology: "square", states: [[-1, 1, 0]], flags: [] };
  assert.deepEqual(cellsToFlag(game), [[0, 0]]);
  assert.deepEqual(cellsToFlag({ ...game, flags: [[0, 0]] }), []);
  // # 1 #: two covered cells for one mine, nothing follows.
  assert.deepEqual(cellsToFlag({ ...game, states: [[-1, 1, -1]] }), []);
});

test("the cell size fits the width, within its bounds", () => {
  assert.equal(fitCell(392, 9, "square", true, false), 34);     // 392 / 9.9 = 39.6: capped
  assert.equal(fitCell(300, 9, "square", true, false), 30);     // 300 / 9.9 = 30.3
  assert.equal(fitCell(300, 9, "square", false, false), 33);    // no row numbers: 300 / 9
  assert.equal(fitCell(300, 30, "square", true, false), 16);    // at least 16 px
  assert.equal(fitCell(300, 30, "square", true, true), 40);     // touch: at least 40 px
  assert.equal(fitCell(100, 5, "square", false, false), 34);    // at least 200 px wide
  assert.equal(fitCell(300, 9, "hex", true, false), 28);        // 300 / 10.4
  assert.equal(fitCell(300, 9, "triangle", false, false), 34);  // 300 / 6 = 50: capped
});
