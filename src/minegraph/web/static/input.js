// The Play board's input: clicks, right clicks, long presses, the keyboard, hovering.
import { $ } from "./dom.js";
import { move } from "./play.js";
import { cellText } from "./present.js";
import { settings } from "./settings.js";
import { LONG_PRESS_MS, play, press } from "./state.js";
import { cancelWhy, why } from "./why.js";

// A long press (touch screens, or a held mouse button) flags once. Devices that also fire
// contextmenu for the same press do not flag it a second time, and the click that ends the
// press does nothing more.
export function pressStart(event) {
  const cell = event.target.closest(".cell");
  clearTimeout(press.timer);
  press.fired = false;
  if (!cell || !play.game || event.button > 0) return;
  press.timer = setTimeout(() => {
    press.fired = true;
    boardClick({ target: cell, preventDefault() {} }, "flag");
  }, LONG_PRESS_MS);
}

export function pressEnd() {
  clearTimeout(press.timer);
}

export function contextMenu(event) {
  event.preventDefault();
  if (press.fired) return;            // the long press already flagged this cell
  boardClick(event, "flag");
}

export function boardClick(event, action) {
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

export function hoverInfo(event) {
  const cell = event.target.closest(".cell");
  if (!cell || !cell.classList.contains("prob") || !play.game || play.game.status !== "playing") {
    $("hover-info").textContent = "";
    return;
  }
  $("hover-info").textContent = `${cellText([Number(cell.dataset.r), Number(cell.dataset.c)])}: ${cell.title}`;
}

// Keyboard play: arrows move the focus between cells; Space/Enter click the focused cell
// (uncover or chord, as a left click), F flags it; F2 starts a new game (app.js).
export function boardKey(event) {
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
