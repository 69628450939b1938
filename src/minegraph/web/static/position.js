// Board text, with no DOM: reading it cell by cell, and the analyser's click-to-edit cycle.

// Board text (header lines "key: value", then one character per cell) as its header lines
// and its rows of characters; null unless it has exactly rows x cols cells.
export function editableText(value, rows, cols) {
  const lines = value.replace(/\r\n?/g, "\n").split("\n");
  const header = [], grid = [];
  for (const line of lines) {
    if (grid.length === 0 && /^[A-Za-z_]+\s*:/.test(line)) header.push(line);
    else if (line.trim() !== "") grid.push(line.split(""));
  }
  if (grid.length !== rows || grid.some((row) => row.length !== cols)) return null;
  return { header, rows: grid };
}

// A click on an analysed cell cycles it # -> 0 .. 8 -> M -> # (anything else -> #).
const CYCLE = ["#", "0", "1", "2", "3", "4", "5", "6", "7", "8", "M"];

// The board text with the cell (r, c) of ``text`` (editableText's) one step on in the cycle.
export function cycleCell(text, r, c) {
  const rows = text.rows.map((row) => [...row]);
  rows[r][c] = CYCLE[(CYCLE.indexOf(rows[r][c]) + 1) % CYCLE.length];
  return [...text.header, ...rows.map((row) => row.join(""))].join("\n") + "\n";
}
