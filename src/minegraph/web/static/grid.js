// Grid geometry, with no DOM: neighbours as minegraph.topology defines them, the cells a
// plain count flags, and the cell size that fits a board to a width.

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

// The neighbours of (r, c) on a rows x cols grid of the topology, each once, never (r, c).
export function neighbours(topology, rows, cols, r, c) {
  const out = new Map();
  for (const [dr, dc] of OFFSETS[topology](r, c)) {
    let rr = r + dr, cc = c + dc;
    if (topology === "torus") { rr = ((rr % rows) + rows) % rows; cc = ((cc % cols) + cols) % cols; }
    else if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
    if (rr !== r || cc !== c) out.set(`${rr},${cc}`, [rr, cc]);
  }
  return [...out.values()];
}

// Auto-flag's plain counting (as classic clients do; no deduction): the covered cells, not
// yet flagged, around each number with exactly as many covered cells as mines.
export function cellsToFlag(game) {
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
  return [...todo.values()];
}

// The cell size (px) that makes ``cols`` columns as wide as ``width`` allows: the row
// numbers take 0.9 of a cell, a hex grid's shifted rows half a cell, triangles overlap to
// 0.6 of a cell; 16..34 px, or 40..48 px on touch screens (tap targets).
export function fitCell(width, cols, topology, axes, touch) {
  const extra = (axes ? 0.9 : 0) + (topology === "hex" ? 0.5 : 0);
  const across = topology === "triangle" ? cols * 0.6 + 0.6 : cols;
  const cell = Math.floor(Math.max(200, width) / (across + extra));
  return Math.max(touch ? 40 : 16, Math.min(cell, touch ? 48 : 34));
}
