// What the page says, from the API's answers (hand-written answers, hand-written sentences):
// the end of a game, the statistics, the structure in players' words, the review's lines,
// the puzzle request, the stored settings.
import assert from "node:assert/strict";
import { test } from "node:test";
import { endText } from "../../../src/minegraph/web/static/draw.js";
import { puzzleRequest } from "../../../src/minegraph/web/static/puzzles.js";
import { clickText, risksText, summaryText } from "../../../src/minegraph/web/static/review.js";
import { parseSettings } from "../../../src/minegraph/web/static/settings.js";
import { addResult, gameLabel, statsRows } from "../../../src/minegraph/web/static/stats.js";
import { plainWords } from "../../../src/minegraph/web/static/structure.js";
import { replayBody, shareUrl } from "../../../src/minegraph/web/static/play.js";

const won = { status: "won", seconds: 8, bbbv: 16, practice: false, seed_chosen: false,
  size: "beginner", topology: "square", rules: "modern", rows: 9, cols: 9, mines: 10, seed: 5 };

test("the banner's sentence", () => {
  assert.equal(endText(won, { clicks: 20, assisted: false, solverLost: false }),
    "You won in 8.00 s · 3BV 16 · 3BV/s 2.00 · 20 clicks · efficiency 80%");
  assert.equal(endText({ ...won, seed_chosen: true }, { clicks: 16 }),
    "You won in 8.00 s · 3BV 16 · 3BV/s 2.00 · 16 clicks · efficiency 100% "
    + "(a chosen seed: not in the statistics)");
  assert.equal(endText({ ...won, seconds: 0, practice: true }, { clicks: 0 }),
    "You won in 0.00 s · 3BV 16 · 3BV/s – · 0 clicks · efficiency 100% (practice)");
  assert.equal(endText(won, { clicks: 3, assisted: true }),
    "Won with the solver's help · 3BV 16 (not in the statistics)");
  const lost = { ...won, status: "lost", exploded: [3, 4] };
  assert.equal(endText(lost, { solverLost: true }), "Boom — the solver hit the mine at (3, 4). 3BV 16.");
  assert.equal(endText({ ...lost, exploded: null }, { solverLost: false }), "Boom — you hit the mine. 3BV 16.");
});

test("statistics per kind of game", () => {
  assert.equal(gameLabel(won), "beginner square modern");
  const custom = { ...won, size: null, rows: 5, cols: 6, mines: 3, topology: "hex", rules: "any" };
  assert.equal(gameLabel(custom), "5×6, 3 hex any");
  let stats = addResult({}, won, 8);                            // 16 / 8 = 2 3BV/s
  stats = addResult(stats, { ...won, status: "lost" }, 3);
  stats = addResult(stats, won, 6);                             // 16 / 6 = 2.667 3BV/s
  stats = addResult(stats, won, 7);
  assert.deepEqual(stats["beginner square modern"], { played: 4, won: 3, best_time: 6, best_rate: 2.667 });
  stats = addResult(stats, custom, 2);
  assert.deepEqual(statsRows(stats), [["5×6, 3 hex any", 1, "1 (100%)", "2.00 s", "8.00"],
    ["beginner square modern", 4, "3 (75%)", "6.00 s", "2.67"]]);
  assert.deepEqual(statsRows(addResult({}, { ...won, status: "lost" }, 1)),
    [["beginner square modern", 1, "0 (0%)", "–", "–"]]);
});

test("a game's replay request and address", () => {
  assert.deepEqual(replayBody(won), { topology: "square", rules: "modern", seed: 5, size: "beginner" });
  const custom = { ...won, size: null, rows: 5, cols: 6, mines: 3 };
  assert.equal(shareUrl(custom), "#topology=square&rules=modern&seed=5&rows=5&cols=6&mines=3");
});

test("the structure in players' words", () => {
  assert.match(plainWords({ numbers: 0 }), /^No number touches a covered cell/);
  const tree = plainWords({ numbers: 2, bags: 1, polynomial: true, step: "edge-removal", width: 4 });
  assert.match(tree, /^The 2 number\(s\) next to covered cells are grouped into 1 bag\(s\)/);
  assert.match(tree, /form a tree.*at most 4 cells in mind/);
  const sp = plainWords({ numbers: 3, bags: 2, polynomial: true, step: "series-parallel",
    blocks: 1, width: 5, bound: 9 });
  assert.match(sp, /form 1 loop\(s\).*in series and in parallel.*at most 5 cells.*promises 9\)/);
  assert.match(plainWords({ numbers: 3, bags: 3, polynomial: false }), /no fast count here/);
});

test("the review's lines", () => {
  const data = { file: "a.evf", rows: 9, cols: 9, mines: 10, outcome: "won", time: 16.084,
    bbbv: 16, bbbv_per_second: 0.9948, counts: { total: 19 }, efficiency: 0.842, luck: 5 / 12,
    luck_exact: "5/12", guesses: 2, avoidable: [] };
  assert.equal(summaryText(data), "a.evf: 9×9, 10 mines, won in 16.08 s · 3BV 16 · 3BV/s 0.99 · "
    + "19 clicks · efficiency 84% · luck 41.7% (5/12) over 2 guesses");
  assert.match(summaryText({ ...data, guesses: 1, bbbv_per_second: null, efficiency: null }),
    /3BV\/s – · 19 clicks · efficiency – · .* over 1 guess$/);
  assert.equal(risksText(data), "No avoidable risk: every guess was taken when no cell was certainly safe.");
  assert.equal(risksText({ ...data, avoidable: [{ number: 5, cell: [7, 0], probability: 1 / 6, best: [5, 0] }] }),
    "Avoidable risks: click 5 on (7, 0) (16.7%, while (5, 0) was certainly safe).");
  const item = { kind: "left", cell: [7, 0], time: 5.875, probability: 1 / 6, probability_exact: "1/6",
    safe_available: true, best: [5, 0], best_probability: 0, avoidable: true };
  assert.equal(clickText(item, 4, 14), "Click 5 of 14: left click on (7, 0) at 5.88 s · mine "
    + "probability 16.67% (1/6) · a certainly safe cell existed · safest (5, 0) 0% · an avoidable risk");
  const chord = { kind: "chord", cell: [2, 2], time: 1, probability: 0, probability_exact: "0",
    safe_available: false, best: null, first: false, exploded: true };
  assert.equal(clickText(chord, 0, 2), "Click 1 of 2: chord on (2, 2) at 1.00 s · chance one of its "
    + "cells was a mine 0% (0) · no cell was certainly safe · it hit a mine");
});

test("the puzzle request", () => {
  const form = (values) => new Map(Object.entries(values));
  const base = { kind: "unique", rows: "8", cols: "9", mines: "10", theorem: "3", topology: "hex", seed: "1" };
  assert.deepEqual(puzzleRequest(form(base)),
    { kind: "unique", rows: 8, cols: 9, mines: 10, theorem: 3, topology: "hex", seed: 1 });
  // Paper tables: no mines; theorem 3's table is on the triangular grid.
  assert.deepEqual(puzzleRequest(form({ ...base, kind: "paper" })),
    { kind: "paper", rows: 8, cols: 9, theorem: 3, topology: "triangle", seed: 1 });
  assert.equal(puzzleRequest(form({ ...base, kind: "paper", theorem: "1" })).topology, "hex");
});

test("stored settings over the defaults", () => {
  assert.deepEqual(parseSettings(null), { overlayStyle: "shade", noFlag: false, autoFlag: false,
    chord: "click", theme: "auto", axes: true, cell: null });
  assert.equal(parseSettings('{"theme": "dark", "cell": 30}').theme, "dark");
  assert.equal(parseSettings('{"theme": "dark", "cell": 30}').axes, true);
  assert.deepEqual(parseSettings("{not json"), parseSettings(null));
});
