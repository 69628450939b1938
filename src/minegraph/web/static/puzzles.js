// The Puzzles view: a generated puzzle and its answer key, printable on two pages.
import { api } from "./api.js";
import { $, showError } from "./dom.js";

// The request for the form's values: paper tables take the theorem's sizes (theorem 3 is
// on the triangular grid); the mines apply to the other kinds.
export function puzzleRequest(data) {
  const body = {
    kind: data.get("kind"), rows: Number(data.get("rows")), cols: Number(data.get("cols")),
    theorem: Number(data.get("theorem")), topology: data.get("topology"),
    seed: Number(data.get("seed")),
  };
  if (body.kind !== "paper") body.mines = Number(data.get("mines"));
  if (body.kind === "paper" && body.theorem === 3) body.topology = "triangle";
  return body;
}

export async function generatePuzzle(event) {
  event.preventDefault();
  const body = puzzleRequest(new FormData($("puzzles-form")));
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
