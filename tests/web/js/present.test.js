// The page's presentation rules (static/present.js) on hand-checked values.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cellText, colour, percent, shortCount, shortPercent } from "../../../src/minegraph/web/static/present.js";

test("0% and 100% only when proven", () => {
  assert.equal(percent(0, 4), "0%");
  assert.equal(percent(1, 0), "100%");
  // Unproven values next to the ends never read as proven, at any number of places.
  assert.equal(percent(1e-9, 4), "<0.0001%");
  assert.equal(percent(0.004, 0), "<1%");
  assert.equal(percent(0.999999999, 4), ">99.9999%");
  assert.equal(percent(0.996, 0), ">99%");
  assert.equal(percent(1 - 2 ** -53, 2), ">99.99%");
  assert.equal(percent(2 ** -1074, 1), "<0.1%");
  // Below the smallest double the API sends a string: never proven.
  assert.equal(percent("3e-400", 4), "<0.0001%");
});

test("rounded half up from the exact value", () => {
  assert.equal(percent(0.125, 0), "13%");           // an exact tie (1/8): up
  assert.equal(percent(0.125, 1), "12.5%");
  assert.equal(percent(0.125, 2), "12.50%");
  assert.equal(percent(1 / 3, 4), "33.3333%");
  assert.equal(percent(2 / 3, 2), "66.67%");
  assert.equal(percent(0.00004, 4), "0.0040%");
  // 0.015 is stored as 0.01499999999999999944...: 1%, though 0.015 * 100 rounds to 1.5 in
  // floating point (toFixed on it gave 2%).
  assert.equal(percent(0.015, 0), "1%");
  assert.equal(percent(0.00015, 2), "0.01%");
  // 5e-7 is stored just below 5e-7: 0.0000499...% at 4 places is below the least shown.
  assert.equal(percent(5e-7, 4), "<0.0001%");
});

test("short percentages on cells", () => {
  assert.deepEqual([0, 1, 0.25, 0.005, 0.995, 0.9999, 0.0004].map(shortPercent),
    ["safe", "mine", "25%", "0.5%", "99.5%", ">99.9%", "<0.1%"]);
});

test("heat colours: green, yellow, red, linear between, half up", () => {
  assert.equal(colour(0), "rgb(67, 160, 71)");
  assert.equal(colour(0.5), "rgb(253, 216, 53)");
  assert.equal(colour(1), "rgb(229, 57, 53)");
  // A quarter: half-way from green to yellow in each channel.
  assert.equal(colour(0.25), "rgb(160, 188, 62)");
  // Three quarters: half-way from yellow to red; 136.5 rounds up.
  assert.equal(colour(0.75), "rgb(241, 137, 53)");
});

test("long counts and cell names", () => {
  assert.equal(shortCount("123456789012"), "123456789012");
  assert.equal(shortCount(1234567890123), "1.23 × 10^12");
  assert.equal(shortCount("9".repeat(100)), "9.99 × 10^99");      // cut, not rounded
  assert.equal(cellText([2, 1]), "(2, 1)");
  assert.equal(cellText(7), "7");
  assert.equal(cellText("a"), "a");
});
