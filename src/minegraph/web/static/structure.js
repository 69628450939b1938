// The Structure view: the decomposition pipeline's verdict on a position, its picture, and
// the classification in players' words.
import { api } from "./api.js";
import { $, showError } from "./dom.js";
import { play } from "./state.js";

export async function structure(event) {
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
export function plainWords(r) {
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

export function structureFromGame() {
  if (play.game) $("structure-position").value = play.game.board;
}
