// The page's state, one object per view (app.js also hands them to window.minegraph, where
// the browser tests wait on them).

// The game being played: the server's answer (``game``), its analysis when the overlay is
// on, the clock, and what the statistics and the banner need. Only the latest new-game
// request counts (``asked``); ``busy`` while a request on the game is under way.
export const play = {
  game: null, analysis: null, started: null, timer: null, busy: false, why: null,
  clicks: 0, assisted: false, finished: null, asked: 0, solverLost: false,
};

// Why? questions: only the latest counts (``asked``); ``handled`` counts the answers and
// failures that came back, stale ones included; ``controller`` aborts the one under way.
export const whyState = { asked: 0, handled: 0, controller: null };

// The replay under review: the server's answer, its clicks and chords in order, the one
// shown; ``asked`` counts the analyses asked for, ``drawn`` is the latest one drawn.
export const review = { data: null, items: [], index: 0, asked: 0, drawn: 0 };

// A long press (touch screens, or a held mouse button) flags once.
export const LONG_PRESS_MS = 500;
export const press = { timer: null, fired: false };
