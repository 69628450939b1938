// Board text (static/position.js): read cell by cell, edited by the click cycle.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cycleCell, editableText } from "../../../src/minegraph/web/static/position.js";

test("board text is read as its header and one character per cell", () => {
  assert.deepEqual(editableText("mines: 1\r\n#1#\r\n", 1, 3),
    { header: ["mines: 1"], rows: [["#", "1", "#"]] });
  assert.deepEqual(editableText("#1-\n#1-\n\n", 2, 3).rows, [["#", "1", "-"], ["#", "1", "-"]]);
  // Another size than the board's, or ragged rows: not editable.
  assert.equal(editableText("#1#\n", 2, 3), null);
  assert.equal(editableText("#1#\n##\n", 2, 3), null);
  // A header line only counts before the grid.
  assert.equal(editableText("#1#\nmines: 1\n", 1, 3), null);
});

test("a click cycles # -> 0 .. 8 -> M -> #", () => {
  const text = editableText("mines: 2\n#8M\n", 1, 3);
  assert.equal(cycleCell(text, 0, 0), "mines: 2\n08M\n");
  assert.equal(cycleCell(text, 0, 1), "mines: 2\n#MM\n");
  assert.equal(cycleCell(text, 0, 2), "mines: 2\n#8#\n");
  assert.equal(cycleCell(editableText("-\n", 1, 1), 0, 0), "#\n");  // anything else -> #
  assert.deepEqual(text.rows, [["#", "8", "M"]]);                  // the text itself is kept
});
