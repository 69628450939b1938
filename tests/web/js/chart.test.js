// The Review view's coach: the verdict in words and the win-chance line's points, from
// hand-written review items (the API's per-click fields).
import assert from "node:assert/strict";
import { test } from "node:test";
import { CHART, chartPoints, verdictText } from "../../../src/minegraph/web/static/chart.js";
import { alternativesText } from "../../../src/minegraph/web/static/review.js";

const guess = { label: "inferior", win_probability: 0.75, win_probability_best: 0.9,
  win_probability_lost: 0.15, win_probability_exact: true, win_probability_error: null,
  best_cell: [6, 1] };

test("the coach's verdict in words", () => {
  assert.equal(verdictText(guess),
    "not the best guess · win chance 75.0% (exact), 90.0% by (6, 1) · lost 15.0%");
  assert.equal(verdictText({ ...guess, label: "best", win_probability_lost: 0,
    win_probability_exact: false, win_probability_error: 0.031 }),
  "a best guess · win chance 75.0% (±3.1%)");
  assert.equal(verdictText({ label: "safe", win_probability: null }), "");
  assert.equal(verdictText({ label: "guess" }), "");
  // Proven certainties only are written 100%: an estimate near 1 is not.
  assert.equal(verdictText({ ...guess, label: "best", win_probability: 1 }),
    "a best guess · win chance 100% (exact)");
  assert.match(verdictText({ ...guess, label: "best", win_probability: 0.99999,
    win_probability_exact: false, win_probability_error: 0.01 }), /win chance >99.9%/);
});

test("one point per judged click, placed by click number and chance", () => {
  const items = [{ win_probability: null }, guess, { win_probability: null },
    { ...guess, label: "best", win_probability: 0.5, win_probability_best: 0.5 }];
  const points = chartPoints(items);
  const { width, height, pad, left } = CHART;
  assert.deepEqual(points.map((p) => p.k), [1, 3]);
  assert.equal(points[0].x, left + (1 / 3) * (width - left - pad));
  assert.equal(points[1].x, width - pad);                     // the last click: right edge
  assert.equal(points[1].y, pad + 0.5 * (height - 2 * pad));
  assert.ok(points[0].yBest < points[0].y);                    // the best was higher: a tick
  assert.equal(points[1].yBest, points[1].y);
  assert.equal(points[0].label, "inferior");
  assert.match(points[0].title, /^click 2: not the best guess/);
  assert.deepEqual(chartPoints([{ win_probability: null }]), []);
});

test("the alternatives weighed for a guess", () => {
  assert.equal(alternativesText({ alternatives: [
    { cell: [7, 0], probability: 1 / 6, progress: 5 / 6, win_probability: 0.7526 },
    { cell: [5, 0], probability: 0, progress: 1, win_probability: 0.904 },
    { cell: 12, probability: 0.25, progress: null, win_probability: null }] }),
  "Weighed: (7, 0) mine 16.7%, progress 83%, win 75.3%; (5, 0) mine 0%, progress 100%, "
    + "win 90.4%; 12 mine 25.0%.");
  assert.equal(alternativesText({}), "");
});
