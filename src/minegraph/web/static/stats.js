// Statistics per kind of game, kept in this browser only.
import { $ } from "./dom.js";

const KEY = "minegraph-stats";

// The name a kind of game is counted under: "expert square modern", "5×5, 3 hex any".
export function gameLabel(game) {
  const size = game.size || `${game.rows}×${game.cols}, ${game.mines}`;
  return `${size} ${game.topology} ${game.rules}`;
}

// ``stats`` with one more finished game of ``time`` seconds counted (a new object; the
// best 3BV/s kept to 3 decimals).
export function addResult(stats, game, time) {
  const label = gameLabel(game);
  const s = { ...(stats[label] || { played: 0, won: 0, best_time: null, best_rate: null }) };
  s.played += 1;
  if (game.status === "won") {
    s.won += 1;
    if (s.best_time === null || time < s.best_time) s.best_time = time;
    const rate = time > 0 ? game.bbbv / time : null;
    if (rate !== null && (s.best_rate === null || rate > s.best_rate)) s.best_rate = Number(rate.toFixed(3));
  }
  return { ...stats, [label]: s };
}

// The table's rows: one per kind of game, sorted by name.
export function statsRows(stats) {
  return Object.entries(stats).sort().map(([label, s]) => [label, s.played,
    `${s.won} (${Math.round((100 * s.won) / s.played)}%)`,
    s.best_time === null ? "–" : `${s.best_time.toFixed(2)} s`,
    s.best_rate === null ? "–" : s.best_rate.toFixed(2)]);
}

function loadStats() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

export function record(game, time) {
  const stats = addResult(loadStats(), game, time);
  try { localStorage.setItem(KEY, JSON.stringify(stats)); } catch { /* private mode */ }
  drawStats();
}

export function clearStats() {
  try { localStorage.removeItem(KEY); } catch { /* private mode */ }
  drawStats();
}

export function drawStats() {
  const body = $("stats-table").querySelector("tbody");
  body.replaceChildren();
  const stats = loadStats();
  for (const values of statsRows(stats)) {
    const row = document.createElement("tr");
    for (const value of values) {
      const cell = document.createElement("td");
      cell.textContent = value;
      row.appendChild(cell);
    }
    body.appendChild(row);
  }
  $("stats").hidden = Object.keys(stats).length === 0 && !$("last-game").textContent;
}
