// The player's settings, kept in this browser (localStorage), and what the device says about
// itself: a touch screen, a phone-wide window, the system's dark theme.
import { $ } from "./dom.js";

const KEY = "minegraph-settings";
const DEFAULTS = { overlayStyle: "shade", noFlag: false, autoFlag: false, chord: "click",
  theme: "auto", axes: true, cell: null };

// The settings stored as JSON text (or null), over the defaults; unreadable text gives the
// defaults.
export function parseSettings(text) {
  try {
    return { ...DEFAULTS, ...JSON.parse(text || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

function stored() {
  try { return localStorage.getItem(KEY); } catch { return null; }   // private mode
}

export const settings = parseSettings(stored());

export function saveSettings() {
  try { localStorage.setItem(KEY, JSON.stringify(settings)); } catch { /* private mode */ }
}

// (globalThis: the module also loads under node, for its unit tests, where there is no window.)
const media = (query) => (globalThis.matchMedia ? globalThis.matchMedia(query) : null);
// Touch screens: a long press flags, cells are at least 40 px.
export const touch = Boolean(media("(pointer: coarse)")?.matches);
// Phones: the settings fold away while playing, tools go below the board.
export const narrow = media("(max-width: 600px)");
// "auto" follows the system's preference, now and when it changes.
const systemDark = media("(prefers-color-scheme: dark)");

export function applyTheme() {
  const dark = settings.theme === "dark"
    || (settings.theme === "auto" && systemDark !== null && systemDark.matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}
if (systemDark !== null) systemDark.addEventListener("change", applyTheme);

// The options form shows the settings.
export function syncOptions() {
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

// The settings take the options form's values, are kept, and the theme follows.
export function readOptions() {
  settings.overlayStyle = $("overlay-style").value;
  settings.noFlag = $("opt-noflag").checked;
  settings.autoFlag = $("opt-autoflag").checked;
  settings.chord = $("opt-chord").value;
  settings.theme = $("opt-theme").value;
  settings.axes = $("opt-axes").checked;
  saveSettings();
  applyTheme();
}

// The ids of the options' inputs (each change is read at once).
export const OPTION_IDS = ["overlay-style", "opt-noflag", "opt-autoflag", "opt-chord",
  "opt-theme", "opt-axes"];
