// The Analyser view: a pasted (or dropped) position's analysis, its board editable by
// clicking.
import { api } from "./api.js";
import { drawGrid, overlayCell, paintOpen } from "./board.js";
import { $, NO_EVENT, showError, showView } from "./dom.js";
import { cycleCell, editableText } from "./position.js";
import { cellText, percent, shortCount } from "./present.js";
import { play } from "./state.js";

// Cell lists: one unbreakable (r, c) each, so a list never breaks inside a pair.
function showCells(element, list) {
  element.replaceChildren();
  if (!list.length) { element.textContent = "none"; return; }
  list.forEach((x, i) => {
    const pair = document.createElement("span");
    pair.className = "pair";
    pair.textContent = cellText(x);
    element.append(pair, i + 1 < list.length ? " " : "");
  });
}

export async function analyse(event) {
  event.preventDefault();
  const data = new FormData($("analyse-form"));
  const body = { board: String(data.get("board")) };
  if (data.get("format")) body.format = data.get("format");
  const mines = String(data.get("mines") || "").trim();
  if (mines !== "") body.mines = Number(mines);
  showError($("analyse-error"), "");
  $("analyse-result").hidden = true;
  let result;
  try {
    result = await api("POST", "/api/analyze", body);
  } catch (err) {
    showError($("analyse-error"), err.message);
    return;
  }
  $("r-consistent").textContent = result.consistent ? "yes" : "no: no completion exists";
  showCount($("r-solutions"), result.solutions);
  showCells($("r-safe"), result.safe);
  showCells($("r-mines"), result.mines);
  $("r-best").textContent = result.best === null ? "none" : `${cellText(result.best)} (${result.best_basis})`;
  const container = $("analyse-board");
  const grid = result.probability;
  if (Array.isArray(grid) && grid.length && Array.isArray(grid[0])) {
    const best = result.best ? `${result.best[0]},${result.best[1]}` : null;
    const text = editableText($("position").value, grid.length, grid[0].length);
    drawGrid(container, grid.length, grid[0].length, "square", (cell, r, c) => {
      cell.disabled = !$("edit-cells").checked;
      if (grid[r][c] === null) paintOpen(cell, text ? text.rows[r][c] : "", true);
      else overlayCell(cell, grid[r][c], `${r},${c}` === best);
    });
    container.classList.toggle("readonly", !$("edit-cells").checked);
  } else {
    container.className = "";
    container.textContent = (grid || []).map((p, i) =>
      `${result.labels ? result.labels[i] : i}: ${p === null ? "—" : percent(p, 2)}`).join("\n");
  }
  $("analyse-result").hidden = false;
}

// A count of completions: short (mantissa and power of ten) when long, the full digits on
// click (and in the tooltip).
function showCount(element, count) {
  element.className = "";
  if (count === null || count === undefined) { element.textContent = "not counted"; return; }
  const full = String(count);
  const short = shortCount(full);
  element.textContent = short;
  if (short !== full) {
    element.className = "big-number";
    element.title = `${full.length} digits; click for all of them`;
    element.onclick = () => {
      const all = element.classList.toggle("full");
      element.textContent = all ? full : short;
    };
  } else {
    element.onclick = null;
    element.title = "";
  }
}

// Editing the analysed board by clicking: on board text, a click cycles the cell
// (position.cycleCell), rewrites the text and analyses again.
export async function editCell(event) {
  const cell = event.target.closest(".cell");
  if (!cell || !$("edit-cells").checked) return;
  const rows = $("analyse-board").querySelectorAll(".row:not(.axis-row)");
  const cols = rows[0]?.querySelectorAll(".cell").length || 0;
  const text = editableText($("position").value, rows.length, cols);
  if (!text) {
    showError($("analyse-error"), "editing by clicking needs the board text form (# for hidden "
      + "cells, digits, M, -), one character per cell");
    return;
  }
  $("position").value = cycleCell(text, Number(cell.dataset.r), Number(cell.dataset.c));
  await analyse(NO_EVENT);
}

// Dropping a file on the position box reads it in.
export async function dropFile(event) {
  event.preventDefault();
  const file = event.dataTransfer && event.dataTransfer.files[0];
  if (!file) return;
  $("position").value = await file.text();
  showError($("analyse-error"), "");
}

// The game being played, in the analyser.
export function analyseThisPosition() {
  if (!play.game) return;
  $("position").value = play.game.board;
  $("analyse-form").elements.mines.value = "";
  showView("analyse");
  analyse(NO_EVENT);
}
