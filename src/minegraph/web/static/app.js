// minegraph's page: play with a probability overlay, analyse a pasted position.
// Plain JavaScript, no build step; it speaks only to the JSON API (docs/web.md).
"use strict";

const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new Error(`cannot reach the server: ${err.message}`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    throw new Error(data && data.error ? data.error : `the server answered ${response.status}`);
  }
  return data;
}

function showError(element, message) {
  element.textContent = message || "";
  element.hidden = !message;
}

// ------------------------------------------------------------------ probabilities
// A mine probability as a percentage: "0%" and "100%" only when proven (the API gives
// exactly 0 or 1 only then), and rounding never turns an unproven value into either.
function percent(p, digits) {
  if (p === 0) return "0%";
  if (p === 1) return "100%";
  const pct = p * 100;
  const least = Math.pow(10, -digits);
  let text = pct.toFixed(digits);
  if (parseFloat(text) <= 0) text = `<${least.toFixed(digits)}`;
  else if (parseFloat(text) >= 100) text = `>${(100 - least).toFixed(digits)}`;
  return `${text}%`;
}

function shortPercent(p) {
  if (p === 0) return "safe";
  if (p === 1) return "mine";
  return percent(p, p * 100 < 1 || p * 100 > 99 ? 1 : 0);
}

// Green at 0, yellow at 1/2, red at 1.
function colour(p) {
  const mix = (a, b, t) => Math.round(a + (b - a) * t);
  const [g, y, r] = [[67, 160, 71], [253, 216, 53], [229, 57, 53]];
  const [from, to, t] = p <= 0.5 ? [g, y, p / 0.5] : [y, r, (p - 0.5) / 0.5];
  return `rgb(${mix(from[0], to[0], t)}, ${mix(from[1], to[1], t)}, ${mix(from[2], to[2], t)})`;
}

// ------------------------------------------------------------------ drawing a grid
function drawGrid(container, rows, cols, topology, paint) {
  container.replaceChildren();
  container.className = `board ${topology}`;
  container.style.gridTemplateColumns = "";
  for (let r = 0; r < rows; r++) {
    const row = document.createElement("div");
    row.className = "row";
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

function overlayCell(cell, p, best) {
  if (p === null || p === undefined) return;
  cell.classList.add("prob");
  cell.style.background = colour(p);
  cell.textContent = shortPercent(p);
  cell.title = `mine probability ${percent(p, 4)}`;
  if (p === 0) cell.classList.add("certain-safe");
  if (p === 1) cell.classList.add("certain-mine");
  if (best) cell.classList.add("best");
}

// ------------------------------------------------------------------ play
const LONG_PRESS_MS = 500;
const play = { game: null, analysis: null, started: null, timer: null, busy: false, why: null };

function readForm() {
  const form = $("new-game");
  const data = new FormData(form);
  const body = { topology: data.get("topology"), rules: data.get("rules") };
  if (data.get("size") === "custom") {
    body.rows = parseInt(data.get("rows"), 10);
    body.cols = parseInt(data.get("cols"), 10);
    body.mines = parseInt(data.get("mines"), 10);
  } else {
    body.size = data.get("size");
  }
  const seed = String(data.get("seed") || "").trim();
  if (seed !== "") body.seed = Number(seed);
  return body;
}

function shareUrl(game) {
  const params = new URLSearchParams({ topology: game.topology, rules: game.rules, seed: game.seed });
  if (game.size) params.set("size", game.size);
  else { params.set("rows", game.rows); params.set("cols", game.cols); params.set("mines", game.mines); }
  return `#${params.toString()}`;
}

// The server shows a seed it drew only once the game is over (the seed rebuilds the
// layout); then the address becomes a link that replays the game.
function showSeed(game) {
  if (game.seed === null || game.seed === undefined) {
    $("seed-shown").textContent = "seed shown when the game ends";
    if (location.hash) history.replaceState(null, "", location.pathname);
  } else {
    $("seed-shown").textContent = `seed ${game.seed}`;
    history.replaceState(null, "", shareUrl(game));
  }
}

function fillFormFromUrl() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("seed")) return;
  const form = $("new-game");
  for (const name of ["topology", "rules", "seed", "rows", "cols", "mines"]) {
    if (params.has(name)) form.elements[name].value = params.get(name);
  }
  form.elements.size.value = params.get("size") || "custom";
}

async function newGame(event) {
  if (event) event.preventDefault();
  showError($("play-error"), "");
  try {
    play.game = await api("POST", "/api/game", readForm());
  } catch (err) {
    showError($("play-error"), err.message);
    return;
  }
  play.analysis = null;
  play.why = null;
  $("why-text").textContent = "";
  play.started = null;
  clearInterval(play.timer);
  $("timer").textContent = "0";
  drawGame();
  refreshOverlay();
}

function drawGame() {
  const game = play.game;
  if (!game) return;
  // Redrawing replaces the cells: keep the keyboard focus where it was.
  const active = document.activeElement;
  const focused = active && active.classList && active.classList.contains("cell")
    && $("board").contains(active) ? [active.dataset.r, active.dataset.c] : null;
  const flags = new Set(game.flags.map(([r, c]) => `${r},${c}`));
  const mines = new Set((game.mines_at || []).map(([r, c]) => `${r},${c}`));
  const exploded = game.exploded ? `${game.exploded[0]},${game.exploded[1]}` : null;
  const analysis = play.analysis && $("overlay").checked && game.status === "playing" ? play.analysis : null;
  const best = analysis && analysis.best ? `${analysis.best[0]},${analysis.best[1]}` : null;
  drawGrid($("board"), game.rows, game.cols, game.topology, (cell, r, c) => {
    const key = `${r},${c}`;
    const state = game.states[r][c];
    if (state >= 0) {
      cell.classList.add("open");
      if (state > 0) { cell.textContent = state; cell.classList.add(`n${state}`, "chordable"); }
      cell.setAttribute("aria-label", `${key}: ${state}`);
    } else if (flags.has(key)) {
      cell.classList.add("flag");
      cell.setAttribute("aria-label", `${key}: flagged`);
    } else if (mines.has(key)) {
      cell.classList.add("mine");
    } else {
      cell.setAttribute("aria-label", `${key}: covered`);
      if (analysis) overlayCell(cell, analysis.probability[r][c], key === best);
    }
    if (key === exploded) cell.classList.add("exploded", "mine");
    if (play.why && play.why.clues.has(key)) cell.classList.add("why-clue");
    if (play.why && play.why.cell === key) cell.classList.add("why-asked");
  });
  if (focused) {
    const again = $("board").querySelector(`.cell[data-r="${focused[0]}"][data-c="${focused[1]}"]`);
    if (again) again.focus();
  }
  $("mine-counter").textContent = game.mines - game.flags.length;
  const words = { playing: "", won: "You won!", lost: "Boom — you lost." };
  $("game-status").textContent = words[game.status] || game.status;
  showSeed(game);
  if (game.status !== "playing") clearInterval(play.timer);
}

async function move(action, r, c) {
  const game = play.game;
  if (!game || game.status !== "playing" || play.busy) return;
  play.busy = true;
  showError($("play-error"), "");
  try {
    play.game = await api("POST", `/api/game/${encodeURIComponent(game.id)}/move`, { action, cell: [r, c] });
    if (play.started === null && action !== "flag") {
      play.started = Date.now();
      play.timer = setInterval(() => {
        $("timer").textContent = Math.floor((Date.now() - play.started) / 1000);
      }, 1000);
    }
    play.analysis = null;
    drawGame();
    if (action !== "flag") await refreshOverlay();
  } catch (err) {
    showError($("play-error"), err.message);
  } finally {
    play.busy = false;
  }
}

async function refreshOverlay() {
  const game = play.game;
  $("overlay-note").textContent = "";
  if (!game || !$("overlay").checked || game.status !== "playing") { drawGame(); return; }
  try {
    if (!play.analysis) play.analysis = await api("POST", "/api/analyze", { board: game.board });
    $("overlay-note").textContent = `${play.analysis.solutions ?? "?"} completions; `
      + "green safe, yellow 1/2, red mine; ringed cells are certain; the blue frame is the best move.";
  } catch (err) {
    $("overlay-note").textContent = `overlay unavailable: ${err.message}`;
  }
  drawGame();
}

// "Why?": the numbers that force a covered cell (minegraph explain), highlighted.
async function why(r, c) {
  const game = play.game;
  $("why-text").textContent = "";
  try {
    const answer = await api("POST", "/api/explain", { board: game.board, cell: [r, c] });
    play.why = { cell: `${r},${c}`, clues: new Set(answer.clues.map(([a, b]) => `${a},${b}`)) };
    $("why-text").textContent = answer.text;
  } catch (err) {
    play.why = null;
    $("why-text").textContent = `no answer: ${err.message}`;
  }
  drawGame();
}

// Long press (touch screens, or a held mouse button): flags, and the click that ends the
// press does nothing more.
const press = { timer: null, fired: false };

function pressStart(event) {
  const cell = event.target.closest(".cell");
  clearTimeout(press.timer);
  press.fired = false;
  if (!cell || !play.game || event.button > 0) return;
  press.timer = setTimeout(() => {
    press.fired = true;
    boardClick({ target: cell, preventDefault() {} }, "flag");
  }, LONG_PRESS_MS);
}

function pressEnd() {
  clearTimeout(press.timer);
}

function boardClick(event, action) {
  const cell = event.target.closest(".cell");
  if (!cell || !play.game) return;
  event.preventDefault();
  if (action === "reveal" && press.fired) { press.fired = false; return; }
  const r = Number(cell.dataset.r), c = Number(cell.dataset.c);
  const state = play.game.states[r][c];
  if ($("why-mode").checked && action === "reveal") {
    if (state < 0 && play.game.status === "playing") why(r, c);
    return;
  }
  play.why = null;
  $("why-text").textContent = "";
  if (action === "flag") { if (state < 0) move("flag", r, c); return; }
  if (state > 0) move("chord", r, c);
  else if (state < 0 && !cell.classList.contains("flag")) move("reveal", r, c);
}

// "Let the solver play": one decision (its certain cells, or one guess) or to the end.
async function solver(steps) {
  const game = play.game;
  if (!game || game.status !== "playing" || play.busy) return;
  play.busy = true;
  showError($("play-error"), "");
  try {
    play.game = await api("POST", `/api/game/${encodeURIComponent(game.id)}/solver`, { steps });
    const s = play.game.solver;
    $("why-text").textContent = `solver (${s.policy}): ${s.decisions} decision(s), `
      + `${s.moves.length} move(s), ${s.guesses} guess(es)` + (s.stopped ? `; stopped: ${s.stopped}` : "");
    play.analysis = null;
    play.why = null;
    drawGame();
    await refreshOverlay();
  } catch (err) {
    showError($("play-error"), err.message);
  } finally {
    play.busy = false;
  }
}

// Keyboard play: arrows move the focus between cells; Space/Enter click the focused cell
// (uncover or chord, as a left click), F flags it.
function boardKey(event) {
  const cell = event.target.closest(".cell");
  if (!cell || !play.game) return;
  const r = Number(cell.dataset.r), c = Number(cell.dataset.c);
  const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (event.key in steps) {
    event.preventDefault();
    const [dr, dc] = steps[event.key];
    const rr = Math.min(Math.max(r + dr, 0), play.game.rows - 1);
    const cc = Math.min(Math.max(c + dc, 0), play.game.cols - 1);
    const next = $("board").querySelector(`.cell[data-r="${rr}"][data-c="${cc}"]`);
    if (next) next.focus();
  } else if (event.key === "f" || event.key === "F") {
    event.preventDefault();
    boardClick({ target: cell, preventDefault() {} }, "flag");
  }
}

// ------------------------------------------------------------------ analyser
async function analyse(event) {
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
  const cells = (list) => list.length ? list.map((x) => JSON.stringify(x)).join(" ") : "none";
  $("r-consistent").textContent = result.consistent ? "yes" : "no: no completion exists";
  $("r-solutions").textContent = result.solutions ?? "not counted";
  $("r-safe").textContent = cells(result.safe);
  $("r-mines").textContent = cells(result.mines);
  $("r-best").textContent = result.best === null ? "none" : `${JSON.stringify(result.best)} (${result.best_basis})`;
  const container = $("analyse-board");
  const grid = result.probability;
  if (Array.isArray(grid) && grid.length && Array.isArray(grid[0])) {
    const best = result.best ? `${result.best[0]},${result.best[1]}` : null;
    const text = editableText($("position").value, grid.length, grid[0].length);
    drawGrid(container, grid.length, grid[0].length, "square", (cell, r, c) => {
      cell.disabled = !$("edit-cells").checked;
      if (grid[r][c] === null) {
        cell.classList.add("open");
        if (text) cell.textContent = text.rows[r][c] === "#" ? "" : text.rows[r][c];
      } else overlayCell(cell, grid[r][c], `${r},${c}` === best);
    });
    container.classList.toggle("readonly", !$("edit-cells").checked);
  } else {
    container.className = "";
    container.textContent = (grid || []).map((p, i) =>
      `${result.labels ? result.labels[i] : i}: ${p === null ? "—" : percent(p, 2)}`).join("\n");
  }
  $("analyse-result").hidden = false;
}

// Editing the analysed board by clicking: on board text (header lines "key: value", then one
// character per cell), a click cycles the cell # -> 0 .. 8 -> M -> #, rewrites the text and
// analyses again.
const CYCLE = ["#", "0", "1", "2", "3", "4", "5", "6", "7", "8", "M"];

function editableText(value, rows, cols) {
  const lines = value.replace(/\r\n?/g, "\n").split("\n");
  const header = [], grid = [];
  for (const line of lines) {
    if (grid.length === 0 && /^[A-Za-z_]+\s*:/.test(line)) header.push(line);
    else if (line.trim() !== "") grid.push(line.split(""));
  }
  if (grid.length !== rows || grid.some((row) => row.length !== cols)) return null;
  return { header, rows: grid };
}

async function editCell(event) {
  const cell = event.target.closest(".cell");
  if (!cell || !$("edit-cells").checked) return;
  const grid = $("analyse-board").querySelectorAll(".row").length;
  const cols = $("analyse-board").querySelector(".row")?.children.length || 0;
  const text = editableText($("position").value, grid, cols);
  if (!text) {
    showError($("analyse-error"), "editing by clicking needs the board text form (# for hidden "
      + "cells, digits, M, -), one character per cell");
    return;
  }
  const r = Number(cell.dataset.r), c = Number(cell.dataset.c);
  const now = CYCLE.indexOf(text.rows[r][c]);
  text.rows[r][c] = CYCLE[(now + 1) % CYCLE.length];
  $("position").value = [...text.header, ...text.rows.map((row) => row.join(""))].join("\n") + "\n";
  await analyse({ preventDefault() {} });
}

// Dropping a file on the position box reads it in.
async function dropFile(event) {
  event.preventDefault();
  const file = event.dataTransfer && event.dataTransfer.files[0];
  if (!file) return;
  $("position").value = await file.text();
  showError($("analyse-error"), "");
}

// ------------------------------------------------------------------ structure
async function structure(event) {
  event.preventDefault();
  const data = new FormData($("structure-form"));
  const body = { board: String(data.get("board")), propagate: data.get("propagate") === "on" };
  showError($("structure-error"), "");
  $("structure-result").hidden = true;
  let result;
  try {
    result = await api("POST", "/api/structure", body);
  } catch (err) {
    showError($("structure-error"), err.message);
    return;
  }
  $("structure-verdict").textContent = result.verdict;
  $("structure-summary").textContent = result.summary;
  // The picture is SVG made by the server from the board (numbers and cell names only).
  $("structure-picture").innerHTML = result.svg;
  $("structure-result").hidden = false;
}

function structureFromGame() {
  if (play.game) $("structure-position").value = play.game.board;
}

// ------------------------------------------------------------------ puzzles
async function generatePuzzle(event) {
  event.preventDefault();
  const data = new FormData($("puzzles-form"));
  const body = {
    kind: data.get("kind"), rows: Number(data.get("rows")), cols: Number(data.get("cols")),
    theorem: Number(data.get("theorem")), topology: data.get("topology"),
    seed: Number(data.get("seed")),
  };
  if (body.kind !== "paper") body.mines = Number(data.get("mines"));
  if (body.kind === "paper" && body.theorem === 3) body.topology = "triangle";
  showError($("puzzles-error"), "");
  $("puzzles-result").hidden = true;
  let result;
  try {
    result = await api("POST", "/api/generate", body);
  } catch (err) {
    showError($("puzzles-error"), err.message);
    return;
  }
  // Both pictures are SVG made by the server (numbers and the caption, escaped).
  $("puzzle-sheet").innerHTML = result.puzzle_svg;
  $("answer-sheet").innerHTML = result.answer_svg;
  $("puzzles-result").hidden = false;
}

// ------------------------------------------------------------------ tabs and start
function showView(name) {
  for (const tab of document.querySelectorAll("nav [role=tab]")) {
    const on = tab.dataset.view === name;
    tab.setAttribute("aria-selected", String(on));
    $(`view-${tab.dataset.view}`).hidden = !on;
  }
}

function syncCustom() {
  $("new-game").querySelector(".custom").hidden = $("new-game").elements.size.value !== "custom";
}

document.addEventListener("DOMContentLoaded", () => {
  for (const tab of document.querySelectorAll("nav [role=tab]")) {
    tab.addEventListener("click", () => showView(tab.dataset.view));
  }
  $("new-game").addEventListener("submit", newGame);
  $("new-game").elements.size.addEventListener("change", syncCustom);
  $("board").addEventListener("click", (e) => boardClick(e, "reveal"));
  $("board").addEventListener("contextmenu", (e) => boardClick(e, "flag"));
  $("board").addEventListener("keydown", boardKey);
  $("board").addEventListener("pointerdown", pressStart);
  for (const end of ["pointerup", "pointerleave", "pointercancel"]) {
    $("board").addEventListener(end, pressEnd);
  }
  $("solver-step").addEventListener("click", () => solver(1));
  $("solver-end").addEventListener("click", () => solver(null));
  $("overlay").addEventListener("change", refreshOverlay);
  $("analyse-form").addEventListener("submit", analyse);
  $("analyse-board").addEventListener("click", editCell);
  $("position").addEventListener("dragover", (e) => e.preventDefault());
  $("position").addEventListener("drop", dropFile);
  $("edit-cells").addEventListener("change", () => {
    if (!$("analyse-result").hidden) analyse({ preventDefault() {} });
  });
  $("structure-form").addEventListener("submit", structure);
  $("puzzles-form").addEventListener("submit", generatePuzzle);
  $("puzzles-print").addEventListener("click", () => window.print());
  $("structure-from-game").addEventListener("click", structureFromGame);
  fillFormFromUrl();
  syncCustom();
  newGame();
});
