// "Why?": the numbers that force a covered cell (minegraph explain), highlighted. The quick
// answer (the first minimal set) comes first; the search for a smallest set follows and
// replaces it. Only the latest question counts: asking another cell, or a move, drops the
// answer under way (and aborts its request).
import { api } from "./api.js";
import { $ } from "./dom.js";
import { drawGame } from "./draw.js";
import { cellText } from "./present.js";
import { play, whyState } from "./state.js";

export function cancelWhy() {
  whyState.asked += 1;
  if (whyState.controller) whyState.controller.abort();
  whyState.controller = null;
  play.why = null;
  showWhy("", false);
}

export function showWhy(text, busy) {
  const element = $("why-text");
  element.textContent = text;
  element.classList.toggle("busy", busy);
  element.setAttribute("aria-busy", String(busy));
}

export async function why(r, c) {
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
