// The page's board as data, and the pure functions on it (no page, no server): what Node's tests run
// (tests/web/js/board.test.mjs), two of them proven equal to their Python homes by tests/web/test_page_script.py.
//
// A board: {rows, cols, cells: [{s, n}] row-major, mines, start, name, game, replay}; a cell's `s` is
// "unknown", "number" (its count in `n`), "mine", "safe" or "flag".

export const NEIGHBOURS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
// what a click on a puzzle's cell turns it into, in turn (a flag is taken as unknown)
export const CYCLE = ["unknown", 0, 1, 2, 3, 4, 5, 6, 7, 8, "mine", "safe"];

/** A board of unknown cells, with no total, first click or game. */
export function emptyBoard(rows, cols) {
  return { rows, cols, cells: Array.from({ length: rows * cols }, () => ({ s: "unknown", n: 0 })),
           mines: null, start: null, game: null };
}

/** The index of (r, c) in `board.cells`. */
export const key = (board, r, c) => r * board.cols + c;
/** The cell at (r, c). */
export const cellAt = (board, r, c) => board.cells[r * board.cols + c];
/** True when (r, c) lies on the board. */
export const inside = (board, r, c) => r >= 0 && c >= 0 && r < board.rows && c < board.cols;
/** A deep copy (boards hold only JSON values), for the history. */
export const clone = (x) => JSON.parse(JSON.stringify(x));

/** The neighbours of (r, c) on the board, as [row, col]. */
export function around(board, r, c) {
  return NEIGHBOURS.map(([dr, dc]) => [r + dr, c + dc]).filter(([a, b]) => inside(board, a, b));
}

/** The board as the server reads it: the canonical text form, as `formats/notations/native.canonical_text`
 *  writes it (equal on every board the page holds: tests/web/test_page_script.py). A flag is an unknown. */
export function boardText(board) {
  const lines = [];
  if (board.name !== null && board.name !== undefined) lines.push(`name: ${board.name}`);
  if (board.mines !== null && board.mines !== undefined) lines.push(`mines: ${board.mines}`);
  if (board.start) lines.push(`start: ${board.start[0]},${board.start[1]}`);
  for (let r = 0; r < board.rows; r++) {
    let row = "";
    for (let c = 0; c < board.cols; c++) {
      const cell = board.cells[r * board.cols + c];
      row += cell.s === "number" ? String(cell.n) : cell.s === "mine" ? "*" : cell.s === "safe" ? "." : "?";
    }
    lines.push(row);
  }
  return lines.join("\n") + "\n";
}

/** The board a server's answer describes (`web/actions.board_answer`: rows, cols, grid rows, mines, start, name). */
export function fromAnswer(a) {
  const board = emptyBoard(a.rows, a.cols);
  board.name = a.name ?? null;
  a.grid.forEach((row, r) => [...row].forEach((ch, c) => {
    const cell = board.cells[r * a.cols + c];
    if (ch >= "0" && ch <= "8") { cell.s = "number"; cell.n = Number(ch); }
    else if (ch === "*") cell.s = "mine";
    else if (ch === ".") cell.s = "safe";
  }));
  board.mines = a.mines ?? null;
  board.start = a.start ?? null;
  return board;
}

/** Set a cell to a value of CYCLE or "flag": a number 0-8, or a state's name. */
export function setCell(cell, value) {
  if (typeof value === "number") { cell.s = "number"; cell.n = value; } else { cell.s = value; cell.n = 0; }
}

/** The value a click on a puzzle's cell gives it: the next one of CYCLE (a flag counts as unknown). */
export function nextValue(cell) {
  const now = cell.s === "number" ? cell.n : cell.s === "flag" ? "unknown" : cell.s;
  return CYCLE[(CYCLE.indexOf(now) + 1) % CYCLE.length];
}

/** The value a key typed over a puzzle's cell gives it (0-8, ?, u, *, m, ., s, f), or undefined. */
export function typedValue(keyName) {
  if (/^[0-8]$/.test(keyName)) return Number(keyName);
  return { "?": "unknown", u: "unknown", "*": "mine", m: "mine", ".": "safe", s: "safe", f: "flag" }[keyName];
}

/** Open the safe cell (r, c) of a game, as the game does: its count shows, and a zero opens its neighbours
 *  in turn (the region of zeros and the counts around it), flags and open cells left as they are. `counts`
 *  are the server's rows of digits (`core/layout.mine_counts`); from a closed board the opened cells are
 *  `core/layout.opened_state`'s (tests/web/test_page_script.py). Returns how many cells it opened. */
export function floodOpen(board, counts, r, c) {
  const stack = [[r, c]];
  let opened = 0;
  while (stack.length) {
    const [i, j] = stack.pop(), cell = cellAt(board, i, j);
    if (cell.s === "number" || cell.s === "flag") continue;
    cell.s = "number"; cell.n = Number(counts[i][j]); opened++;
    if (cell.n === 0) stack.push(...around(board, i, j));
  }
  return opened;
}

/** The cells a click on the number at (r, c) opens (a chord): its closed neighbours when its flags are all
 *  placed, else none. */
export function chordCells(board, r, c) {
  const near = around(board, r, c);
  const flags = near.filter(([a, b]) => cellAt(board, a, b).s === "flag").length;
  if (flags !== cellAt(board, r, c).n) return [];
  return near.filter(([a, b]) => ["unknown", "safe"].includes(cellAt(board, a, b).s));
}

/** The cells not opened yet (in a game: every cell that is no number). */
export const closedCount = (board) => board.cells.filter((x) => x.s !== "number").length;

/** The mines left to find: the total less the flags (and, outside a game, the known mines); null with no total. */
export function minesLeft(board) {
  if (board.mines === null || board.mines === undefined) return null;
  // a game counts the player's flags (the mines a loss reveals are not placed by the player)
  return board.mines - board.cells.filter((x) => x.s === "flag" || (x.s === "mine" && !board.game)).length;
}

/** Decide the closed cells among [r, c, value] (a level's or a step's findings); returns their keys. */
export function decide(board, cells) {
  const fresh = new Set();
  for (const [r, c, value] of cells) {
    const cell = cellAt(board, r, c);
    if (cell.s === "unknown" || cell.s === "flag") { cell.s = value; fresh.add(key(board, r, c)); }
  }
  return fresh;
}

/** A hint's cell among the cells proven safe: a closed one beside a number first, else any closed one. */
export function hintCell(board, safe) {
  const closed = safe.filter(([r, c]) => ["unknown", "flag"].includes(cellAt(board, r, c).s));
  const touching = closed.filter(([r, c]) => around(board, r, c).some(([a, b]) => cellAt(board, a, b).s === "number"));
  return touching[0] || closed[0] || null;
}

/** The board of a replay as the player saw it after its first `at` frames: opened cells show their counts
 *  (a mine opened shows a mine), flags as placed. `replay`: {rows, cols, mines, counts, frames, mineSet}. */
export function replayBoard(replay, at) {
  const board = emptyBoard(replay.rows, replay.cols);
  board.mines = replay.mines;
  board.replay = true;
  for (const frame of replay.frames.slice(0, at)) {
    for (const [r, c] of frame.open) {
      const cell = cellAt(board, r, c);
      const mine = replay.mineSet.has(key(board, r, c));
      cell.s = mine ? "mine" : "number"; cell.n = mine ? 0 : Number(replay.counts[r][c]);
    }
    for (const [r, c] of frame.flag) {
      const cell = cellAt(board, r, c);
      if (cell.s === "unknown" || cell.s === "flag") cell.s = cell.s === "flag" ? "unknown" : "flag";
    }
  }
  return board;
}
