// Drawing boards: a grid of cell buttons, and the probability overlay on a covered cell.
import { colour, percent, shortPercent } from "./present.js";

// Draws a rows x cols grid of cell buttons into ``container``, with row and column numbers
// (0-based, as the API and the command line count) unless ``axes`` is false.
export function drawGrid(container, rows, cols, topology, paint, axes = true) {
  container.replaceChildren();
  container.className = `board ${topology}`;
  if (!axes) container.classList.add("no-axes");
  const header = document.createElement("div");
  header.className = "row axis-row";
  const corner = document.createElement("span");
  corner.className = "axis row-label";
  header.appendChild(corner);
  for (let c = 0; c < cols; c++) {
    const label = document.createElement("span");
    label.className = "axis";
    label.textContent = c;
    if (topology === "triangle") label.style.width = "calc(var(--cell) * 0.6)";
    header.appendChild(label);
  }
  container.appendChild(header);
  for (let r = 0; r < rows; r++) {
    const row = document.createElement("div");
    row.className = "row";
    const label = document.createElement("span");
    label.className = "axis row-label";
    label.textContent = r;
    row.appendChild(label);
    if (topology === "hex" && r % 2 === 1) row.classList.add("shifted");
    for (let c = 0; c < cols; c++) {
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.dataset.r = r;
      cell.dataset.c = c;
      if (topology === "triangle") cell.classList.add((r + c) % 2 === 0 ? "up" : "down");
      paint(cell, r, c);
      row.appendChild(cell);
    }
    container.appendChild(row);
  }
}

// The overlay on a covered cell: a tint from green (safe) through yellow (1/2) to red
// (mine); the percentage in a span the board's style shows or not; a mark on proven cells;
// the exact-to-4-places value in the tooltip.
export function overlayCell(cell, p, best) {
  if (p === null || p === undefined) return;
  cell.classList.add("prob");
  cell.style.setProperty("--tint", colour(p));
  cell.title = `mine probability ${percent(p, 4)}`;
  if (p === 0 || p === 1) {
    cell.classList.add(p === 0 ? "certain-safe" : "certain-mine");
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = p === 0 ? "✓" : "✗";
    cell.appendChild(mark);
  } else {
    const pct = document.createElement("span");
    pct.className = "pct";
    pct.textContent = shortPercent(p);
    cell.appendChild(pct);
  }
  if (best) cell.classList.add("best");
}

// An opened cell of a position given as board text: its number (coloured), or a flag for a
// known mine (M, F or *); zeros stay blank.
export function paintOpen(cell, shown, flags = false) {
  cell.classList.add("open");
  if (/^[1-9]$/.test(shown)) { cell.textContent = shown; cell.classList.add(`n${shown}`); }
  else if (flags && (shown === "M" || shown === "F" || shown === "*")) cell.classList.add("flag");
}
