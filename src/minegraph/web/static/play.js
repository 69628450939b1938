// The Play view's game: new games, moves, the solver, undo, the overlay's analysis, the
// clock and the cell size. Drawing is draw.js's; Why? is why.js's.
import { api } from "./api.js";
import { $, showError } from "./dom.js";
import { drawGame } from "./draw.js";
import { cellsToFlag, fitCell } from "./grid.js";
import { shortCount } from "./present.js";
import { saveSettings, settings, touch, narrow } from "./settings.js";
import { play } from "./state.js";
import { gameLabel } from "./stats.js";
import { cancelWhy, showWhy } from "./why.js";

function readForm() {
  const data = new FormData($("new-game"));
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

// The request that plays ``game`` again: its grid, rules and seed.
export function replayBody(game) {
  const body = { topology: game.topology, rules: game.rules, seed: game.seed };
  if (game.size) body.size = game.size;
  else Object.assign(body, { rows: game.rows, cols: game.cols, mines: game.mines });
  return body;
}

// The address that replays ``game`` (its seed is known): "#topology=...&seed=...".
export function shareUrl(game) {
  return `#${new URLSearchParams(replayBody(game)).toString()}`;
}

// The server shows a seed it drew only once the game is over (the seed rebuilds the
// layout); then the address becomes a link that replays the game.
export function showSeed(game) {
  if (game.seed === null || game.seed === undefined) {
    $("seed-shown").textContent = "";
    if (location.hash) history.replaceState(null, "", location.pathname);
  } else {
    $("seed-shown").textContent = `seed ${game.seed}`;
    history.replaceState(null, "", shareUrl(game));
  }
}

export function fillFormFromUrl() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("seed")) return;
  const form = $("new-game");
  for (const name of ["topology", "rules", "seed", "rows", "cols", "mines"]) {
    if (params.has(name)) form.elements[name].value = params.get(name);
  }
  form.elements.size.value = params.get("size") || "custom";
}

export async function newGame(event, body) {
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
  Object.assign(play, { game, analysis: null, why: null, clicks: 0, assisted: false,
    solverLost: false, finished: null });
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

// On a phone the new-game settings fold into one line while a game is played (the summary
// names the game); they open again on a tap.
function foldSettings() {
  if (play.game) $("settings-now").textContent = `${gameLabel(play.game)}`
    + (play.game.seed_chosen ? ` · seed ${play.game.seed}` : "");
  if (narrow !== null && narrow.matches) $("game-settings").open = false;
}

function elapsed() {
  return play.started === null ? 0 : (Date.now() - play.started) / 1000;
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

export async function move(action, r, c) {
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

// Auto-flag: flags what plain counting finds (grid.cellsToFlag), round after round.
async function autoFlag() {
  for (let round = 0; round < 50 && play.game.status === "playing"; round++) {
    const todo = cellsToFlag(play.game);
    if (todo.length === 0) return;
    for (const cell of todo) await send("move", { action: "flag", cell });
  }
}

export async function undo() {
  await busyWith(async () => {
    await send("undo");
    play.analysis = null;
    cancelWhy();
    drawGame();
    await refreshOverlay();
  });
}

export async function refreshOverlay() {
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

// "Let the solver play": one decision (its certain cells, or one guess) or to the end.
export async function solver(steps) {
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

// Cell size: Fit makes the board as wide as the screen allows (at least 40 px cells on
// touch screens, where the board then pans inside its frame); − and + step by 4 px.
export function fitBoard(remember) {
  const game = play.game;
  const width = ($("board-frame").parentElement.clientWidth || window.innerWidth) - 8;
  const cell = fitCell(width, game ? game.cols : 9, game ? game.topology : "square",
    settings.axes, touch);
  $("board").style.setProperty("--cell", `${cell}px`);
  if (remember) { settings.cell = null; saveSettings(); }
  return cell;
}

export function zoom(step) {
  const now = settings.cell !== null ? settings.cell
    : parseInt(getComputedStyle($("board")).getPropertyValue("--cell"), 10) || 28;
  settings.cell = Math.max(12, Math.min(64, now + step));
  saveSettings();
  drawGame();
}
