// The Play view drawn from the state: the board with its overlay, the counters, the face,
// and at the end of a game the banner (and the statistics).
import { drawGrid, overlayCell } from "./board.js";
import { $ } from "./dom.js";
import { neighbours } from "./grid.js";
import { newGame, replayBody, showSeed } from "./play.js";
import { cellText, percent } from "./present.js";
import { settings } from "./settings.js";
import { play } from "./state.js";
import { record } from "./stats.js";

const key = ([r, c]) => `${r},${c}`;

export function drawGame() {
  const game = play.game;
  if (!game) return;
  // Redrawing replaces the cells: keep the keyboard focus where it was.
  const active = document.activeElement;
  const focused = active && active.classList && active.classList.contains("cell")
    && $("board").contains(active) ? [active.dataset.r, active.dataset.c] : null;
  const flags = new Set(game.flags.map(key));
  const mines = new Set((game.mines_at || []).map(key));
  const exploded = game.exploded ? key(game.exploded) : null;
  const playing = game.status === "playing";
  const analysis = play.analysis && $("overlay").checked && playing ? play.analysis : null;
  const best = analysis && analysis.best ? key(analysis.best) : null;
  // Covered cells next to no number all share one probability: they keep the plain covered
  // look (their value is in the legend and their tooltips), so the shading shows where the
  // numbers make a difference.
  const nextToNumber = (r, c) => neighbours(game.topology, game.rows, game.cols, r, c)
    .some(([a, b]) => game.states[a][b] >= 0);
  let floating = null;
  drawGrid($("board"), game.rows, game.cols, game.topology, (cell, r, c) => {
    const here = `${r},${c}`;
    const state = game.states[r][c];
    if (state >= 0) {
      cell.classList.add("open");
      if (state > 0) { cell.textContent = state; cell.classList.add(`n${state}`, "chordable"); }
      cell.setAttribute("aria-label", `row ${r}, column ${c}: ${state}`);
    } else if (flags.has(here) || (game.status === "won" && mines.has(here))) {
      // A won game flags every mine, as classic games do.
      cell.classList.add("flag");
      if (!playing && game.mines_at && !mines.has(here)) cell.classList.add("wrong-flag");
      cell.setAttribute("aria-label", `row ${r}, column ${c}: flagged`);
    } else if (mines.has(here)) {
      cell.classList.add("mine");
      cell.setAttribute("aria-label", `row ${r}, column ${c}: mine`);
    } else {
      cell.setAttribute("aria-label", `row ${r}, column ${c}: covered`);
      if (analysis) {
        const p = analysis.probability[r][c];
        if (p === 0 || p === 1 || here === best || nextToNumber(r, c)) overlayCell(cell, p, here === best);
        else {
          floating = p;
          cell.classList.add("prob", "away");
          cell.title = `mine probability ${percent(p, 4)}`;
        }
      }
    }
    if (here === exploded) cell.classList.add("exploded", "mine");
    if (play.why && play.why.clues.has(here)) cell.classList.add("why-clue");
    if (play.why && play.why.cell === here) cell.classList.add("why-asked");
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

// The banner's sentence for a finished game (``clicks`` the player's, ``assisted`` when the
// solver played, ``solverLost`` when its move hit the mine).
export function endText(game, { clicks, assisted, solverLost }) {
  const time = game.seconds;
  if (game.status === "won" && assisted) {
    return `Won with the solver's help · 3BV ${game.bbbv} (not in the statistics)`;
  }
  if (game.status === "won") {
    const rate = time > 0 ? (game.bbbv / time).toFixed(2) : "–";
    const eff = clicks ? Math.round((100 * game.bbbv) / clicks) : 100;
    return `You won in ${time.toFixed(2)} s · 3BV ${game.bbbv} · 3BV/s ${rate} · `
      + `${clicks} clicks · efficiency ${eff}%` + (game.practice ? " (practice)"
      : game.seed_chosen ? " (a chosen seed: not in the statistics)" : "");
  }
  const where = game.exploded ? ` at ${cellText(game.exploded)}` : "";
  return `Boom — ${solverLost ? "the solver" : "you"} hit the mine${where}. 3BV ${game.bbbv}.`;
}

function button(text, action) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  element.addEventListener("click", action);
  return element;
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
  text.textContent = endText(game, play);
  banner.appendChild(text);
  banner.appendChild(button("New game", () => newGame()));
  if (game.seed !== null) banner.appendChild(button("Replay this seed", () => newGame(null, replayBody(game))));
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
