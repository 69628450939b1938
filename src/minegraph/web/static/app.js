// minegraph's page: play with a probability overlay, analyse a pasted position.
// Plain JavaScript, no build step; it speaks only to the JSON API (docs/web.md).
"use strict";

const $ = (id) => document.getElementById(id);

async function api(method, path, body, signal) {
  const options = { method, headers: {} };
  if (signal) options.signal = signal;
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    if (err.name === "AbortError") throw err;
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

// A cell as the library and the command line write it: (2, 1) on grids, else its index or
// label.
function cellText(cell) {
  return Array.isArray(cell) ? `(${cell.join(", ")})` : String(cell);
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

// ------------------------------------------------------------------ grids
// The neighbours of (r, c), as minegraph.topology defines them (a browser test compares
// the two on every topology).
const OFFSETS = {
  square: () => [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]],
  triangle: (r, c) => {
    const s = (r + c) % 2 === 0 ? 1 : -1;
    return [[0, -1], [0, 1], [0, -2], [0, 2], [-1, 0], [1, 0], [-1, -1], [-1, 1], [1, -1], [1, 1],
      [s, -2], [s, 2]];
  },
  hex: (r) => (r % 2 === 1
    ? [[0, -1], [0, 1], [-1, 0], [-1, 1], [1, 0], [1, 1]]
    : [[0, -1], [0, 1], [-1, -1], [-1, 0], [1, -1], [1, 0]]),
};
OFFSETS.torus = OFFSETS.square;

function neighbours(topology, rows, cols, r, c) {
  const out = new Map();
  for (const [dr, dc] of OFFSETS[topology](r, c)) {
    let rr = r + dr, cc = c + dc;
    if (topology === "torus") { rr = ((rr % rows) + rows) % rows; cc = ((cc % cols) + cols) % cols; }
    else if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
    if (rr !== r || cc !== c) out.set(`${rr},${cc}`, [rr, cc]);
  }
  return [...out.values()];
}

// Draws a rows x cols grid of cell buttons into ``container``, with row and column numbers
// (0-based, as the API and the command line count) unless ``axes`` is false.
function drawGrid(container, rows, cols, topology, paint, axes = true) {
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
function overlayCell(cell, p, best) {
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

// ------------------------------------------------------------------ play
const LONG_PRESS_MS = 500;
const play = {
  game: null, analysis: null, started: null, timer: null, busy: false, why: null,
  clicks: 0, assisted: false, finished: null, asked: 0, solverLost: false,
};
// Why? questions: only the latest counts (``asked``); ``handled`` counts the answers and
// failures that came back, stale ones included; ``controller`` aborts the one under way.
const whyState = { asked: 0, handled: 0, controller: null };
// Phones: the settings fold away while playing, tools go below the board.
const narrow = window.matchMedia ? window.matchMedia("(max-width: 600px)") : null;
const settings = loadSettings();

function loadSettings() {
  const defaults = { overlayStyle: "shade", noFlag: false, autoFlag: false, chord: "click",
    theme: "auto", axes: true, cell: null };
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem("minegraph-settings") || "{}") };
  } catch (err) {
    return defaults;
  }
}

function saveSettings() {
  try { localStorage.setItem("minegraph-settings", JSON.stringify(settings)); } catch (err) { /* private mode */ }
}

const touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
if (touch) document.addEventListener("DOMContentLoaded", () => document.body.classList.add("touch"));

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
  if (data.get("practice") === "on") body.practice = true;
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
    $("seed-shown").textContent = "";
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

async function newGame(event, body) {
  if (event) event.preventDefault();
  showError($("play-error"), "");
  // Only the latest request counts: a slower answer to an earlier one is dropped.
  const asked = ++play.asked;
  let game;
  try {
    game = await api("POST", "/api/game", body || readForm());
  } catch (err) {
    if (asked === play.asked) showError($("play-error"), err.message);
    return;
  }
  if (asked !== play.asked) return;
  play.game = game;
  play.analysis = null;
  play.why = null;
  play.clicks = 0;
  play.assisted = false;
  play.solverLost = false;
  play.finished = null;
  cancelWhy();
  $("hover-info").textContent = "";
  foldSettings();
  play.started = null;
  clearInterval(play.timer);
  $("timer").textContent = "0";
  if (settings.cell === null) fitBoard(false);
  drawGame();
  refreshOverlay();
}

function gameLabel(game) {
  const size = game.size || `${game.rows}×${game.cols}, ${game.mines}`;
  return `${size} ${game.topology} ${game.rules}`;
}

function elapsed() {
  return play.started === null ? 0 : (Date.now() - play.started) / 1000;
}

// On a phone the new-game settings fold into one line while a game is played (the summary
// names the game); they open again on a tap.
function foldSettings() {
  if (play.game) $("settings-now").textContent = `${gameLabel(play.game)}`
    + (play.game.seed_chosen ? ` · seed ${play.game.seed}` : "");
  if (narrow !== null && narrow.matches) $("game-settings").open = false;
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
  const playing = game.status === "playing";
  const analysis = play.analysis && $("overlay").checked && playing ? play.analysis : null;
  const best = analysis && analysis.best ? `${analysis.best[0]},${analysis.best[1]}` : null;
  // Covered cells next to no number all share one probability: they keep the plain covered
  // look (their value is in the legend and their tooltips), so the shading shows where the
  // numbers make a difference.
  const nextToNumber = (r, c) => neighbours(game.topology, game.rows, game.cols, r, c)
    .some(([a, b]) => game.states[a][b] >= 0);
  let floating = null;
  drawGrid($("board"), game.rows, game.cols, game.topology, (cell, r, c) => {
    const key = `${r},${c}`;
    const state = game.states[r][c];
    if (state >= 0) {
      cell.classList.add("open");
      if (state > 0) { cell.textContent = state; cell.classList.add(`n${state}`, "chordable"); }
      cell.setAttribute("aria-label", `row ${r}, column ${c}: ${state}`);
    } else if (flags.has(key) || (game.status === "won" && mines.has(key))) {
      // A won game flags every mine, as classic games do.
      cell.classList.add("flag");
      if (!playing && game.mines_at && !mines.has(key)) cell.classList.add("wrong-flag");
      cell.setAttribute("aria-label", `row ${r}, column ${c}: flagged`);
    } else if (mines.has(key)) {
      cell.classList.add("mine");
      cell.setAttribute("aria-label", `row ${r}, column ${c}: mine`);
    } else {
      cell.setAttribute("aria-label", `row ${r}, column ${c}: covered`);
      if (analysis) {
        const p = analysis.probability[r][c];
        if (p === 0 || p === 1 || key === best || nextToNumber(r, c)) overlayCell(cell, p, key === best);
        else {
          floating = p;
          cell.classList.add("prob", "away");
          cell.title = `mine probability ${percent(p, 4)}`;
        }
      }
    }
    if (key === exploded) cell.classList.add("exploded", "mine");
    if (play.why && play.why.clues.has(key)) cell.classList.add("why-clue");
    if (play.why && play.why.cell === key) cell.classList.add("why-asked");
  }, settings.axes);
  const board = $("board");
  board.classList.toggle("show-numbers", settings.overlayStyle === "numbers");
  board.classList.toggle("hover-only", settings.overlayStyle === "hover");
  if (settings.cell !== null) board.style.setProperty("--cell", `${settings.cell}px`);
  if (focused) {
    const again = board.querySelector(`.cell[data-r="${focused[0]}"][data-c="${focused[1]}"]`);
    if (again) again.focus();
  }
  $("legend").hidden = !analysis;
  $("floating-pct").textContent = floating === null ? "none covered" : percent(floating, 2);
  $("mine-counter").textContent = game.status === "won" ? 0
    : settings.noFlag ? game.mines : game.mines - game.flags.length;
  drawFace(game.status);
  const words = { playing: "", won: "You won!", lost: "Boom — you lost." };
  $("game-status").textContent = words[game.status] || game.status;
  for (const id of ["solver-step", "solver-end"]) $(id).disabled = !playing;
  $("undo").hidden = !game.practice;
  $("undo").disabled = game.moves === 0;
  showSeed(game);
  if (!playing) {
    $("hover-info").textContent = "";      // the overlay it described is gone
    finish(game);
  } else $("banner").hidden = true;
}

// The face button, drawn (emoji fonts are not everywhere): a smile while playing,
// sunglasses when won, crossed eyes when lost.
function drawFace(mood) {
  const face = $("face");
  if (face.dataset.mood === mood && face.firstChild) return;
  face.dataset.mood = mood;
  const eyes = {
    playing: '<circle cx="12" cy="14" r="2"/><circle cx="24" cy="14" r="2"/>',
    won: '<path d="M6 12h24v3h-2l-2 4h-5l-2-4h-2l-2 4h-5l-2-4H6z"/>',
    lost: '<path d="M9 11l6 6M15 11l-6 6M21 11l6 6M27 11l-6 6" stroke="#000" stroke-width="2"/>',
  }[mood] || "";
  const mouth = mood === "lost" ? '<path d="M11 27q7-6 14 0" fill="none" stroke="#000" stroke-width="2"/>'
    : '<path d="M10 22q8 7 16 0" fill="none" stroke="#000" stroke-width="2"/>';
  face.innerHTML = `<svg width="32" height="32" viewBox="0 0 36 36" aria-hidden="true">`
    + `<circle cx="18" cy="18" r="16" fill="#fdd835" stroke="#000" stroke-width="1.5"/>${eyes}${mouth}</svg>`;
}

// The end of a game: stop the clock, say how it went, keep the statistics.
function finish(game) {
  clearInterval(play.timer);
  // The game's one time: the server's (from the first uncovering to the last), as its replay
  // and the statistics keep it; a redraw never changes it.
  const time = game.seconds;
  $("timer").textContent = Math.floor(time);
  const counted = !game.practice && !play.assisted && !game.seed_chosen;
  if (play.finished !== game.id + game.moves) {
    play.finished = game.id + game.moves;
    if (counted) record(game, time);
  }
  const banner = $("banner");
  banner.className = `banner ${game.status}`;
  banner.replaceChildren();
  const text = document.createElement("span");
  if (game.status === "won" && play.assisted) {
    text.textContent = `Won with the solver's help · 3BV ${game.bbbv} (not in the statistics)`;
  } else if (game.status === "won") {
    const rate = time > 0 ? (game.bbbv / time).toFixed(2) : "–";
    const eff = play.clicks ? Math.round((100 * game.bbbv) / play.clicks) : 100;
    text.textContent = `You won in ${time.toFixed(2)} s · 3BV ${game.bbbv} · 3BV/s ${rate} · `
      + `${play.clicks} clicks · efficiency ${eff}%` + (game.practice ? " (practice)"
        : game.seed_chosen ? " (a chosen seed: not in the statistics)" : "");
  } else {
    const where = game.exploded ? ` at ${cellText(game.exploded)}` : "";
    const who = play.solverLost ? "the solver" : "you";
    text.textContent = `Boom — ${who} hit the mine${where}. 3BV ${game.bbbv}.`;
  }
  banner.appendChild(text);
  const again = document.createElement("button");
  again.type = "button";
  again.textContent = "New game";
  again.addEventListener("click", () => newGame());
  banner.appendChild(again);
  if (game.seed !== null) {
    const replay = document.createElement("button");
    replay.type = "button";
    replay.textContent = "Replay this seed";
    replay.addEventListener("click", () => {
      const body = { topology: game.topology, rules: game.rules, seed: game.seed };
      if (game.size) body.size = game.size;
      else Object.assign(body, { rows: game.rows, cols: game.cols, mines: game.mines });
      newGame(null, body);
    });
    banner.appendChild(replay);
  }
  // The game as an .evf replay file (square grids of at most 255 rows and columns): minegraph
  // review, Metasweeper and the replay sites read it.
  if (game.topology === "square" && game.rows <= 255 && game.cols <= 255) {
    const save = document.createElement("a");
    save.id = "save-replay";
    save.className = "button-link";
    save.href = `/api/game/${encodeURIComponent(game.id)}/replay.evf`;
    save.setAttribute("download", "");
    save.textContent = "Save replay";
    banner.appendChild(save);
  }
  banner.hidden = false;
  $("last-game").textContent = text.textContent;
}

// Statistics per kind of game, kept in this browser only.
function loadStats() {
  try { return JSON.parse(localStorage.getItem("minegraph-stats") || "{}"); } catch (err) { return {}; }
}

function record(game, time) {
  const stats = loadStats();
  const label = gameLabel(game);
  const s = stats[label] || { played: 0, won: 0, best_time: null, best_rate: null };
  s.played += 1;
  if (game.status === "won") {
    s.won += 1;
    if (s.best_time === null || time < s.best_time) s.best_time = time;
    const rate = time > 0 ? game.bbbv / time : null;
    if (rate !== null && (s.best_rate === null || rate > s.best_rate)) s.best_rate = Number(rate.toFixed(3));
  }
  stats[label] = s;
  try { localStorage.setItem("minegraph-stats", JSON.stringify(stats)); } catch (err) { /* private mode */ }
  drawStats();
}

function drawStats() {
  const body = $("stats-table").querySelector("tbody");
  body.replaceChildren();
  const stats = loadStats();
  for (const [label, s] of Object.entries(stats).sort()) {
    const row = document.createElement("tr");
    for (const value of [label, s.played, `${s.won} (${Math.round((100 * s.won) / s.played)}%)`,
      s.best_time === null ? "–" : `${s.best_time.toFixed(2)} s`, s.best_rate === null ? "–" : s.best_rate.toFixed(2)]) {
      const cell = document.createElement("td");
      cell.textContent = value;
      row.appendChild(cell);
    }
    body.appendChild(row);
  }
  $("stats").hidden = Object.keys(stats).length === 0 && !$("last-game").textContent;
}

async function send(path, body) {
  play.game = await api("POST", `/api/game/${encodeURIComponent(play.game.id)}/${path}`, body);
}

// One request on the game at a time: the page is busy meanwhile, and an error is shown.
async function busyWith(work) {
  if (!play.game || play.busy) return;
  play.busy = true;
  showError($("play-error"), "");
  try {
    await work();
  } catch (err) {
    showError($("play-error"), err.message);
  } finally {
    play.busy = false;
  }
}

// The timer runs from the game's first uncovering, by the server's count: each answer's
// ``seconds`` (the time to its last uncovering) sets where it stands, so the running
// timer and the final time agree.
function startClock() {
  if (play.game && play.started !== null) {
    play.started = Math.min(play.started, Date.now() - play.game.seconds * 1000);
    return;
  }
  play.started = Date.now() - (play.game ? play.game.seconds * 1000 : 0);
  play.timer = setInterval(() => { $("timer").textContent = Math.floor(elapsed()); }, 1000);
}

async function move(action, r, c) {
  if (!play.game || play.game.status !== "playing") return;
  await busyWith(async () => {
    await send("move", { action, cell: [r, c] });
    play.clicks += 1;
    foldSettings();
    if (action !== "flag") {
      startClock();
      play.analysis = null;
      if (settings.autoFlag) await autoFlag();
    }
    drawGame();
    if (action !== "flag") await refreshOverlay();
  });
}

// Auto-flag: a number with exactly as many covered cells around it as it has mines flags
// them (plain counting, as classic clients do; the solver's deductions are not used).
async function autoFlag() {
  for (let round = 0; round < 50 && play.game.status === "playing"; round++) {
    const game = play.game;
    const flags = new Set(game.flags.map(([r, c]) => `${r},${c}`));
    const todo = new Map();
    for (let r = 0; r < game.rows; r++) {
      for (let c = 0; c < game.cols; c++) {
        const n = game.states[r][c];
        if (n <= 0) continue;
        const covered = neighbours(game.topology, game.rows, game.cols, r, c)
          .filter(([a, b]) => game.states[a][b] < 0);
        if (covered.length === n) {
          for (const [a, b] of covered) if (!flags.has(`${a},${b}`)) todo.set(`${a},${b}`, [a, b]);
        }
      }
    }
    if (todo.size === 0) return;
    for (const [a, b] of todo.values()) await send("move", { action: "flag", cell: [a, b] });
  }
}

async function undo() {
  await busyWith(async () => {
    await send("undo");
    play.analysis = null;
    cancelWhy();
    drawGame();
    await refreshOverlay();
  });
}

async function refreshOverlay() {
  const game = play.game;
  $("overlay-note").textContent = "";
  if (!game || !$("overlay").checked || game.status !== "playing") { drawGame(); return; }
  try {
    if (!play.analysis) play.analysis = await api("POST", "/api/analyze", { board: game.board });
    const count = play.analysis.solutions;
    $("overlay-note").textContent = count === null || count === undefined ? ""
      : `${shortCount(count)} ways to place the mines`;
  } catch (err) {
    $("overlay-note").textContent = `overlay unavailable: ${err.message}`;
  }
  drawGame();
}

// A big count as mantissa and power of ten (full digits in the tooltip).
function shortCount(text) {
  const digits = String(text);
  if (digits.length <= 12) return digits;
  return `${digits[0]}.${digits.slice(1, 3)} × 10^${digits.length - 1}`;
}

// "Why?": the numbers that force a covered cell (minegraph explain), highlighted. The quick
// answer (the first minimal set) comes first; the search for a smallest set follows and
// replaces it. Only the latest question counts: asking another cell, or a move, drops the
// answer under way (and aborts its request).
function cancelWhy() {
  whyState.asked += 1;
  if (whyState.controller) whyState.controller.abort();
  whyState.controller = null;
  play.why = null;
  showWhy("", false);
}

function showWhy(text, busy) {
  const element = $("why-text");
  element.textContent = text;
  element.classList.toggle("busy", busy);
  element.setAttribute("aria-busy", String(busy));
}

async function why(r, c) {
  const game = play.game;
  cancelWhy();
  const asked = whyState.asked;
  const controller = whyState.controller = new AbortController();
  const cell = `${r},${c}`;
  play.why = { cell, clues: new Set() };
  showWhy(`Why ${cellText([r, c])}? Working on it…`, true);
  drawGame();
  let shown = false;
  for (const smallest of [false, true]) {
    let answer;
    try {
      answer = await api("POST", "/api/explain", { board: game.board, cell: [r, c], smallest },
        controller.signal);
    } catch (err) {
      whyState.handled += 1;
      if (asked !== whyState.asked) return;            // stale: a later question took over
      whyState.controller = null;
      if (shown) {
        showWhy(`${$("why-text").dataset.answer} (no shorter reason found: ${err.message})`, false);
      } else {
        play.why = null;
        showWhy(`no answer: ${err.message}`, false);
        drawGame();
      }
      return;
    }
    whyState.handled += 1;
    if (asked !== whyState.asked) return;
    shown = true;
    play.why = { cell, clues: new Set(answer.clues.map(([a, b]) => `${a},${b}`)) };
    const more = !smallest && !answer.smallest && (answer.status === "safe" || answer.status === "mine");
    $("why-text").dataset.answer = answer.text;
    showWhy(more ? `${answer.text} Looking for a shorter reason…` : answer.text, more);
    drawGame();
    if (!more) break;
  }
  if (asked === whyState.asked) whyState.controller = null;
}

// Long press (touch screens, or a held mouse button): flags once. Devices that also fire
// contextmenu for the same press do not flag it a second time, and the click that ends the
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

function contextMenu(event) {
  event.preventDefault();
  if (press.fired) return;            // the long press already flagged this cell
  boardClick(event, "flag");
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
  if (action === "reveal" && $("flag-mode").checked && state < 0) action = "flag";
  cancelWhy();
  if (action === "flag") {
    if (state < 0 && !settings.noFlag) move("flag", r, c);
    return;
  }
  if (state > 0) { if (settings.chord === "click") move("chord", r, c); }
  else if (state < 0 && !cell.classList.contains("flag")) move("reveal", r, c);
}

function hoverInfo(event) {
  const cell = event.target.closest(".cell");
  if (!cell || !cell.classList.contains("prob") || !play.game || play.game.status !== "playing") {
    $("hover-info").textContent = "";
    return;
  }
  $("hover-info").textContent = `${cellText([Number(cell.dataset.r), Number(cell.dataset.c)])}: ${cell.title}`;
}

// "Let the solver play": one decision (its certain cells, or one guess) or to the end.
async function solver(steps) {
  if (!play.game || play.game.status !== "playing") return;
  await busyWith(async () => {
    play.assisted = true;
    cancelWhy();
    await send("solver", { steps });
    const s = play.game.solver;
    play.solverLost = play.game.status === "lost";
    startClock();
    showWhy(`solver (${s.policy}): ${s.decisions} decision(s), `
      + `${s.moves.length} move(s), ${s.guesses} guess(es)` + (s.stopped ? `; stopped: ${s.stopped}` : ""), false);
    play.analysis = null;
    drawGame();
    await refreshOverlay();
  });
}

// Keyboard play: arrows move the focus between cells; Space/Enter click the focused cell
// (uncover or chord, as a left click), F flags it; F2 starts a new game.
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

// Cell size: Fit makes the board as wide as the screen allows (at least 40 px cells on
// touch screens, where the board then pans inside its frame); − and + step by 4 px.
function fitBoard(remember) {
  const game = play.game;
  const cols = game ? game.cols : 9;
  const width = Math.max(200, ($("board-frame").parentElement.clientWidth || window.innerWidth) - 8);
  const extra = (settings.axes ? 0.9 : 0) + (game && game.topology === "hex" ? 0.5 : 0);
  const across = game && game.topology === "triangle" ? cols * 0.6 + 0.6 : cols;
  let cell = Math.floor(width / (across + extra));
  cell = Math.max(touch ? 40 : 16, Math.min(cell, touch ? 48 : 34));
  $("board").style.setProperty("--cell", `${cell}px`);
  if (remember) { settings.cell = null; saveSettings(); }
  return cell;
}

function zoom(step) {
  const now = settings.cell !== null ? settings.cell
    : parseInt(getComputedStyle($("board")).getPropertyValue("--cell"), 10) || 28;
  settings.cell = Math.max(12, Math.min(64, now + step));
  saveSettings();
  drawGame();
}

function analyseThisPosition() {
  if (!play.game) return;
  $("position").value = play.game.board;
  $("analyse-form").elements.mines.value = "";
  showView("analyse");
  analyse({ preventDefault() {} });
}

// "auto" follows the system's preference, now and when it changes.
const systemDark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

function applyTheme() {
  const dark = settings.theme === "dark"
    || (settings.theme === "auto" && systemDark !== null && systemDark.matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}
if (systemDark !== null) systemDark.addEventListener("change", applyTheme);

function syncOptions() {
  $("overlay-style").value = settings.overlayStyle;
  $("opt-noflag").checked = settings.noFlag;
  $("opt-autoflag").checked = settings.autoFlag;
  $("opt-chord").value = settings.chord;
  $("opt-theme").value = settings.theme;
  $("opt-axes").checked = settings.axes;
  $("play-hint").textContent = touch
    ? "Tap uncovers; a long press (or Flag mode) flags; tapping a number chords. "
      + "The board pans inside its frame; Fit, − and + set the cell size."
    : "Left click uncovers, right click flags, a click on a number chords; F2 starts a new "
      + "game. Keyboard: arrow keys move between cells, Space or Enter uncovers (or chords), F flags.";
}

function optionsChanged() {
  settings.overlayStyle = $("overlay-style").value;
  settings.noFlag = $("opt-noflag").checked;
  settings.autoFlag = $("opt-autoflag").checked;
  settings.chord = $("opt-chord").value;
  settings.theme = $("opt-theme").value;
  settings.axes = $("opt-axes").checked;
  saveSettings();
  applyTheme();
  drawGame();
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
  // Cell lists: one unbreakable (r, c) each, so a list never breaks inside a pair.
  const cells = (element, list) => {
    element.replaceChildren();
    if (!list.length) { element.textContent = "none"; return; }
    list.forEach((x, i) => {
      const pair = document.createElement("span");
      pair.className = "pair";
      pair.textContent = cellText(x);
      element.append(pair, i + 1 < list.length ? " " : "");
    });
  };
  $("r-consistent").textContent = result.consistent ? "yes" : "no: no completion exists";
  showCount($("r-solutions"), result.solutions);
  cells($("r-safe"), result.safe);
  cells($("r-mines"), result.mines);
  $("r-best").textContent = result.best === null ? "none" : `${cellText(result.best)} (${result.best_basis})`;
  const container = $("analyse-board");
  const grid = result.probability;
  if (Array.isArray(grid) && grid.length && Array.isArray(grid[0])) {
    const best = result.best ? `${result.best[0]},${result.best[1]}` : null;
    const text = editableText($("position").value, grid.length, grid[0].length);
    drawGrid(container, grid.length, grid[0].length, "square", (cell, r, c) => {
      cell.disabled = !$("edit-cells").checked;
      if (grid[r][c] === null) {
        cell.classList.add("open");
        const shown = text ? text.rows[r][c] : "";
        if (/^[1-9]$/.test(shown)) { cell.textContent = shown; cell.classList.add(`n${shown}`); }
        else if (shown === "M" || shown === "F" || shown === "*") cell.classList.add("flag");
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
  const grid = $("analyse-board").querySelectorAll(".row:not(.axis-row)").length;
  const cols = $("analyse-board").querySelector(".row:not(.axis-row)")?.querySelectorAll(".cell").length || 0;
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
  $("structure-words").textContent = plainWords(result);
  $("structure-summary").textContent = result.summary;
  // The picture is SVG made by the server from the board (numbers and cell names only).
  $("structure-picture").innerHTML = result.svg;
  $("structure-result").hidden = false;
}

// The classification in players' words (the summary below it is the technical report).
function plainWords(r) {
  const parts = [];
  if (!r.numbers) {
    return "No number touches a covered cell, so there is nothing to decompose: every "
      + "covered cell is as likely as any other to be a mine.";
  }
  parts.push(`The ${r.numbers} number(s) next to covered cells are grouped into ${r.bags} `
    + "bag(s): numbers in one bag share covered cells, so their mines must be counted "
    + "together. The picture links bags that share cells.");
  if (r.polynomial && r.step === "edge-removal") {
    parts.push("Once the links that add nothing are dropped, the bags form a tree, so the "
      + "ways to place the mines can be counted one bag at a time, keeping at most "
      + `${r.width} cells in mind at once: fast however big the board grows.`);
  } else if (r.polynomial) {
    parts.push(`The bags form ${r.blocks} loop(s), and each can be taken apart into pieces in `
      + "series and in parallel, so the counting still goes piece by piece, keeping at most "
      + `${r.width} cells in mind at once (the theory promises ${r.bound}).`);
  } else {
    parts.push("Some loops of bags cannot be taken apart this way, so this method promises "
      + "no fast count here. The analyser still answers exactly: its engines just have no "
      + "guarantee of speed on such positions.");
  }
  return parts.join(" ");
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

// ------------------------------------------------------------------ review
// A replay file is sent as it is to POST /api/review; the answer has every click and chord
// with the position before it, which is analysed (POST /api/analyze) when shown.
const review = { data: null, items: [], index: 0, asked: 0 };

async function loadReplay(file) {
  if (!file) return;
  showError($("review-error"), "");
  $("review-result").hidden = true;
  let response, data = null;
  try {
    response = await fetch(`/api/review?name=${encodeURIComponent(file.name)}`, {
      method: "POST", headers: { "content-type": "application/octet-stream" }, body: file });
    data = await response.json();
  } catch (err) {
    showError($("review-error"), `no review: ${err.message}`);
    return;
  }
  if (!response.ok) {
    showError($("review-error"), data && data.error ? data.error : `the server answered ${response.status}`);
    return;
  }
  review.data = data;
  review.items = [...data.clicks, ...data.chords].sort((a, b) => a.number - b.number);
  const rate = data.bbbv_per_second === null ? "–" : data.bbbv_per_second.toFixed(2);
  const eff = data.efficiency === null ? "–" : `${Math.round(100 * data.efficiency)}%`;
  $("review-summary").textContent = `${data.file}: ${data.rows}×${data.cols}, ${data.mines} mines, `
    + `${data.outcome} in ${data.time.toFixed(2)} s · 3BV ${data.bbbv} · 3BV/s ${rate} · `
    + `${data.counts.total} clicks · efficiency ${eff} · luck ${percent(data.luck, 1)} `
    + `(${data.luck_exact}) over ${data.guesses} guess${data.guesses === 1 ? "" : "es"}`;
  $("review-risks").textContent = data.avoidable.length
    ? `Avoidable risks: ${data.avoidable.map((a) => `click ${a.number} on ${cellText(a.cell)} `
      + `(${percent(a.probability, 1)}, while ${cellText(a.best)} was certainly safe)`).join("; ")}.`
    : "No avoidable risk: every guess was taken when no cell was certainly safe.";
  $("review-step").max = String(review.items.length);
  $("review-result").hidden = false;
  await showClick(0);
}

async function showClick(k) {
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
  const notes = [];
  if (item.first) notes.push("the first click: never a mine under the game's rules");
  else if (item.avoidable) notes.push("an avoidable risk");
  else if (item.guess) notes.push("a forced guess");
  if (item.exploded) notes.push("it hit a mine");
  const risk = item.kind === "chord" ? "chance one of its cells was a mine" : "mine probability";
  $("review-click").textContent = `Click ${k + 1} of ${review.items.length}: `
    + `${item.kind === "chord" ? "chord on" : "left click on"} ${cellText(item.cell)} at `
    + `${item.time.toFixed(2)} s · ${risk} ${percent(item.probability, 2)} (${item.probability_exact}) · `
    + (item.safe_available ? "a certainly safe cell existed" : "no cell was certainly safe")
    + (item.best ? ` · safest ${cellText(item.best)} ${percent(item.best_probability, 2)}` : "")
    + (notes.length ? ` · ${notes.join(", ")}` : "");
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
    if (grid[r][c] === null) {
      cell.classList.add("open");
      const shown = text ? text.rows[r][c] : "";
      if (/^[1-9]$/.test(shown)) { cell.textContent = shown; cell.classList.add(`n${shown}`); }
    } else overlayCell(cell, grid[r][c], `${r},${c}` === best);
    if (r === item.cell[0] && c === item.cell[1]) cell.classList.add("review-clicked");
  }, settings.axes);
  $("review-board").classList.add("readonly", "show-numbers");
}

async function reviewWhy() {
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
    if (!done(answer.text)) return;
    for (const [r, c] of answer.clues || []) {
      const cell = $("review-board").querySelector(`.cell[data-r='${r}'][data-c='${c}']`);
      if (cell) cell.classList.add("why-clue");
    }
  } catch (err) {
    done(`no answer: ${err.message}`);
  }
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
  applyTheme();
  syncOptions();
  for (const tab of document.querySelectorAll("nav [role=tab]")) {
    tab.addEventListener("click", () => showView(tab.dataset.view));
  }
  $("new-game").addEventListener("submit", newGame);
  $("new-game").elements.size.addEventListener("change", syncCustom);
  $("face").addEventListener("click", () => newGame());
  document.addEventListener("keydown", (e) => {
    if (e.key === "F2") { e.preventDefault(); newGame(); }
  });
  $("board").addEventListener("click", (e) => boardClick(e, "reveal"));
  $("board").addEventListener("contextmenu", contextMenu);
  $("board").addEventListener("keydown", boardKey);
  $("board").addEventListener("pointerdown", pressStart);
  $("board").addEventListener("mouseover", hoverInfo);
  for (const end of ["pointerup", "pointerleave", "pointercancel"]) {
    $("board").addEventListener(end, pressEnd);
  }
  $("solver-step").addEventListener("click", () => solver(1));
  $("solver-end").addEventListener("click", () => solver(null));
  $("undo").addEventListener("click", undo);
  $("analyse-this").addEventListener("click", analyseThisPosition);
  $("zoom-in").addEventListener("click", () => zoom(4));
  $("zoom-out").addEventListener("click", () => zoom(-4));
  $("zoom-fit").addEventListener("click", () => { fitBoard(true); drawGame(); });
  $("overlay").addEventListener("change", refreshOverlay);
  for (const id of ["overlay-style", "opt-noflag", "opt-autoflag", "opt-chord", "opt-theme", "opt-axes"]) {
    $(id).addEventListener("change", optionsChanged);
  }
  $("stats-clear").addEventListener("click", () => {
    try { localStorage.removeItem("minegraph-stats"); } catch (err) { /* private mode */ }
    drawStats();
  });
  $("analyse-form").addEventListener("submit", analyse);
  $("analyse-board").addEventListener("click", editCell);
  $("position").addEventListener("dragover", (e) => e.preventDefault());
  $("position").addEventListener("drop", dropFile);
  $("replay-file").addEventListener("change", (e) => loadReplay(e.target.files[0]));
  $("review-drop").addEventListener("dragover", (e) => {
    e.preventDefault();
    $("review-drop").classList.add("dragging");
  });
  $("review-drop").addEventListener("dragleave", () => $("review-drop").classList.remove("dragging"));
  $("review-drop").addEventListener("drop", (e) => {
    e.preventDefault();
    $("review-drop").classList.remove("dragging");
    loadReplay(e.dataTransfer && e.dataTransfer.files[0]);
  });
  $("review-prev").addEventListener("click", () => showClick(review.index - 1));
  $("review-next").addEventListener("click", () => showClick(review.index + 1));
  $("review-step").addEventListener("input", (e) => showClick(Number(e.target.value) - 1));
  $("review-why").addEventListener("click", reviewWhy);
  $("edit-cells").addEventListener("change", () => {
    if (!$("analyse-result").hidden) analyse({ preventDefault() {} });
  });
  $("structure-form").addEventListener("submit", structure);
  $("puzzles-form").addEventListener("submit", generatePuzzle);
  $("puzzles-print").addEventListener("click", () => window.print());
  $("structure-from-game").addEventListener("click", structureFromGame);
  fillFormFromUrl();
  syncCustom();
  drawStats();
  newGame();
});
