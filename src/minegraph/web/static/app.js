// minegraph's page: play with a probability overlay, analyse a pasted position, see its
// structure, make puzzles, review a replay. ES modules with no build step, speaking only to
// the JSON API (docs/web.md); this one wires the page's controls to them.
import { analyse, analyseThisPosition, dropFile, editCell } from "./analyse.js";
import { $, NO_EVENT, showView } from "./dom.js";
import { drawGame } from "./draw.js";
import { neighbours } from "./grid.js";
import { boardClick, boardKey, contextMenu, hoverInfo, pressEnd, pressStart } from "./input.js";
import { fillFormFromUrl, fitBoard, newGame, refreshOverlay, solver, undo, zoom } from "./play.js";
import { generatePuzzle } from "./puzzles.js";
import { loadReplay, reviewWhy, showClick } from "./review.js";
import { OPTION_IDS, applyTheme, readOptions, settings, syncOptions, touch } from "./settings.js";
import { play, review, whyState } from "./state.js";
import { clearStats, drawStats } from "./stats.js";
import { structure, structureFromGame } from "./structure.js";

// The page's state, for the browser's console and the browser tests (read only).
window.minegraph = { play, review, whyState, settings, neighbours };

function syncCustom() {
  $("new-game").querySelector(".custom").hidden = $("new-game").elements.size.value !== "custom";
}

function wirePlay() {
  $("new-game").addEventListener("submit", newGame);
  $("new-game").elements.size.addEventListener("change", syncCustom);
  $("face").addEventListener("click", () => newGame());
  document.addEventListener("keydown", (e) => {
    if (e.key === "F2") { e.preventDefault(); newGame(); }
  });
  const board = $("board");
  board.addEventListener("click", (e) => boardClick(e, "reveal"));
  board.addEventListener("contextmenu", contextMenu);
  board.addEventListener("keydown", boardKey);
  board.addEventListener("pointerdown", pressStart);
  board.addEventListener("mouseover", hoverInfo);
  for (const end of ["pointerup", "pointerleave", "pointercancel"]) board.addEventListener(end, pressEnd);
  $("solver-step").addEventListener("click", () => solver(1));
  $("solver-end").addEventListener("click", () => solver(null));
  $("undo").addEventListener("click", undo);
  $("analyse-this").addEventListener("click", analyseThisPosition);
  $("zoom-in").addEventListener("click", () => zoom(4));
  $("zoom-out").addEventListener("click", () => zoom(-4));
  $("zoom-fit").addEventListener("click", () => { fitBoard(true); drawGame(); });
  $("overlay").addEventListener("change", refreshOverlay);
  for (const id of OPTION_IDS) $(id).addEventListener("change", () => { readOptions(); drawGame(); });
  $("stats-clear").addEventListener("click", clearStats);
}

function wireAnalyser() {
  $("analyse-form").addEventListener("submit", analyse);
  $("analyse-board").addEventListener("click", editCell);
  $("position").addEventListener("dragover", (e) => e.preventDefault());
  $("position").addEventListener("drop", dropFile);
  $("edit-cells").addEventListener("change", () => {
    if (!$("analyse-result").hidden) analyse(NO_EVENT);
  });
  $("structure-form").addEventListener("submit", structure);
  $("structure-from-game").addEventListener("click", structureFromGame);
  $("puzzles-form").addEventListener("submit", generatePuzzle);
  $("puzzles-print").addEventListener("click", () => window.print());
}

function wireReview() {
  const drop = $("review-drop");
  $("replay-file").addEventListener("change", (e) => loadReplay(e.target.files[0]));
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("dragging");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("dragging"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("dragging");
    loadReplay(e.dataTransfer && e.dataTransfer.files[0]);
  });
  $("review-prev").addEventListener("click", () => showClick(review.index - 1));
  $("review-next").addEventListener("click", () => showClick(review.index + 1));
  $("review-step").addEventListener("input", (e) => showClick(Number(e.target.value) - 1));
  $("review-why").addEventListener("click", reviewWhy);
}

function start() {
  if (touch) document.body.classList.add("touch");
  applyTheme();
  syncOptions();
  for (const tab of document.querySelectorAll("nav [role=tab]")) {
    tab.addEventListener("click", () => showView(tab.dataset.view));
  }
  wirePlay();
  wireAnalyser();
  wireReview();
  fillFormFromUrl();
  syncCustom();
  drawStats();
  newGame();
}

// A module runs after the document is parsed, before DOMContentLoaded.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
