// The Review view: a replay file sent as it is to POST /api/review; the answer has every
// click and chord with the position before it, which is analysed (POST /api/analyze) when
// shown.
import { api, sendReplay } from "./api.js";
import { drawGrid, overlayCell, paintOpen } from "./board.js";
import { drawChart, verdictText } from "./chart.js";
import { $, showError } from "./dom.js";
import { editableText } from "./position.js";
import { cellText, percent } from "./present.js";
import { settings } from "./settings.js";
import { review } from "./state.js";

// The replay's summary line (the review's answer as the API gives it).
export function summaryText(data) {
  const rate = data.bbbv_per_second === null ? "–" : data.bbbv_per_second.toFixed(2);
  const eff = data.efficiency === null ? "–" : `${Math.round(100 * data.efficiency)}%`;
  return `${data.file}: ${data.rows}×${data.cols}, ${data.mines} mines, `
    + `${data.outcome} in ${data.time.toFixed(2)} s · 3BV ${data.bbbv} · 3BV/s ${rate} · `
    + `${data.counts.total} clicks · efficiency ${eff} · luck ${percent(data.luck, 1)} `
    + `(${data.luck_exact}) over ${data.guesses} guess${data.guesses === 1 ? "" : "es"}`;
}

export function risksText(data) {
  return data.avoidable.length
    ? `Avoidable risks: ${data.avoidable.map((a) => `click ${a.number} on ${cellText(a.cell)} `
      + `(${percent(a.probability, 1)}, while ${cellText(a.best)} was certainly safe)`).join("; ")}.`
    : "No avoidable risk: every guess was taken when no cell was certainly safe.";
}

// The line about click ``k`` of ``count`` (an item of the review's clicks or chords).
export function clickText(item, k, count) {
  const notes = [];
  if (item.first) notes.push("the first click: never a mine under the game's rules");
  else if (item.avoidable) notes.push("an avoidable risk");
  else if (item.guess) notes.push("a forced guess");
  if (item.exploded) notes.push("it hit a mine");
  const risk = item.kind === "chord" ? "chance one of its cells was a mine" : "mine probability";
  return `Click ${k + 1} of ${count}: `
    + `${item.kind === "chord" ? "chord on" : "left click on"} ${cellText(item.cell)} at `
    + `${item.time.toFixed(2)} s · ${risk} ${percent(item.probability, 2)} (${item.probability_exact}) · `
    + (item.safe_available ? "a certainly safe cell existed" : "no cell was certainly safe")
    + (item.best ? ` · safest ${cellText(item.best)} ${percent(item.best_probability, 2)}` : "")
    + (notes.length ? ` · ${notes.join(", ")}` : "")
    + (verdictText(item) ? ` · ${verdictText(item)}` : "");
}

// The alternatives the coach weighed for a guess, in words (the Why? of a guess).
export function alternativesText(item) {
  const options = item.alternatives || [];
  if (!options.length) return "";
  return "Weighed: " + options.map((a) => `${cellText(a.cell)} mine ${percent(a.probability, 1)}`
    + (a.progress === null || a.progress === undefined ? "" : `, progress ${percent(a.progress, 0)}`)
    + (a.win_probability === null || a.win_probability === undefined ? ""
      : `, win ${percent(a.win_probability, 1)}`)).join("; ") + ".";
}

export async function loadReplay(file) {
  if (!file) return;
  showError($("review-error"), "");
  $("review-result").hidden = true;
  let data;
  try {
    data = await sendReplay(file);
  } catch (err) {
    showError($("review-error"), err.message);
    return;
  }
  review.data = data;
  review.items = [...data.clicks, ...data.chords].sort((a, b) => a.number - b.number);
  $("review-summary").textContent = summaryText(data);
  $("review-risks").textContent = risksText(data);
  $("review-step").max = String(review.items.length);
  $("review-result").hidden = false;
  drawChart($("review-chart"), review.items, (k) => showClick(k));
  await showClick(0);
}

export async function showClick(k) {
  if (!review.items.length) return;
  k = Math.max(0, Math.min(review.items.length - 1, k));
  review.index = k;
  const item = review.items[k];
  $("review-step").value = String(k + 1);
  $("review-prev").disabled = k === 0;
  $("review-next").disabled = k === review.items.length - 1;
  $("review-why").disabled = item.kind !== "left";
  $("review-why-text").textContent = "";
  $("review-why-text").classList.remove("busy");
  $("review-why-text").setAttribute("aria-busy", "false");
  $("review-click").textContent = clickText(item, k, review.items.length);
  const asked = ++review.asked;
  let result;
  try {
    result = await api("POST", "/api/analyze", { board: item.board });
  } catch (err) {
    if (asked === review.asked) showError($("review-error"), err.message);
    return;
  }
  if (asked !== review.asked) return;
  const grid = result.probability;
  const text = editableText(item.board, grid.length, grid[0].length);
  const best = item.best ? `${item.best[0]},${item.best[1]}` : null;
  drawGrid($("review-board"), grid.length, grid[0].length, "square", (cell, r, c) => {
    cell.disabled = true;
    if (grid[r][c] === null) paintOpen(cell, text ? text.rows[r][c] : "");
    else overlayCell(cell, grid[r][c], `${r},${c}` === best);
    if (r === item.cell[0] && c === item.cell[1]) cell.classList.add("review-clicked");
  }, settings.axes);
  $("review-board").classList.add("readonly", "show-numbers");
  review.drawn = asked;
}

export async function reviewWhy() {
  const index = review.index;
  const item = review.items[index];
  if (!item || item.kind !== "left") return;
  const shown = $("review-why-text");
  shown.textContent = `Why ${cellText(item.cell)}? Working on it…`;
  shown.classList.add("busy");
  shown.setAttribute("aria-busy", "true");
  const done = (text) => {
    if (review.index !== index) return false;        // another click is shown now
    shown.textContent = text;
    shown.classList.remove("busy");
    shown.setAttribute("aria-busy", "false");
    return true;
  };
  try {
    const answer = await api("POST", "/api/explain", { board: item.board, cell: item.cell });
    const weighed = alternativesText(item);
    if (!done(weighed ? `${answer.text} ${weighed}` : answer.text)) return;
    for (const [r, c] of answer.clues || []) {
      const cell = $("review-board").querySelector(`.cell[data-r='${r}'][data-c='${c}']`);
      if (cell) cell.classList.add("why-clue");
    }
  } catch (err) {
    done(`no answer: ${err.message}`);
  }
}
