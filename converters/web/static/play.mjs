// Playing and editing: the history of changes, games (the mines laid by the server), clicks and keys.
import { runJob, guarded } from "./api.mjs";
import { cellAt, chordCells, closedCount, emptyBoard, floodOpen, nextValue, setCell, typedValue } from "./board.mjs";
import { input } from "./contract.mjs";
import { clearAnalysis, draw, redraw, say } from "./render.mjs";
import { page, remember, travel } from "./state.mjs";

/** Change the board: remembered for undo, and what was computed on the board before is cleared. */
export function change(mutate) {
  remember();
  mutate();
  redraw();
}

/** Take the last change back. */
export function undo() {
  const lost = page.board.game && page.board.game.lost;
  if (!travel(page.past, page.future)) return;
  redraw();
  const g = page.board.game;
  if (lost && !(g && g.lost)) say(`undone: the losing click at (${lost[0]}, ${lost[1]}) is taken back; play on`);
}

/** Make the last undone change again. */
export function redo() {
  if (travel(page.future, page.past)) redraw();
}

/** Put a new board on the page (undo brings the last one back). */
export function takeBoard(board) {
  remember();
  page.board = board;
  redraw();
}

// a new game: the mines are laid by the server, the first click (the centre, or the player's) kept
// free under the first-click rule; a count that leaves it no room is refused before anything is drawn
function gameRequest(noGuess, start) {
  return { action: "new_game", rows: Number(input("rows").value), cols: Number(input("cols").value),
           mines: Number(input("game-mines").value), no_guess: noGuess,
           first_click: input("first-click").value, start };
}

/** A new game (a no-guess one when `noGuess`), first click at the centre or where the player clicks. */
export async function newGame(noGuess) {
  const choose = input("first-cell").value === "choose";
  const a = await runJob(gameRequest(noGuess, choose ? "any" : undefined));
  if (!a) return;
  const board = emptyBoard(a.rows, a.cols);
  board.mines = a.mines;
  board.game = { layout: null, counts: null, over: false, lost: null, started: null, ended: null, rule: a.first_click,
                 noGuess, pending: !!a.pending };
  takeBoard(board);
  const kind = `${noGuess ? "no-guess " : ""}game ${a.rows} x ${a.cols} with ${a.mines} mines (first click: ${a.first_click})`;
  if (a.pending) { say(`${kind}; click the cell to open first`); return; }
  layGame(a);
  open(a.start[0], a.start[1]);
  draw();
  say(`${kind}; the first click is opened`);
}

function layGame(a) {
  Object.assign(page.board.game, { layout: a.layout, counts: a.counts, pending: false, started: Date.now() });
  page.board.mines = a.mines;
}

async function firstClick(r, c) {
  const S = page.board, g = S.game;
  const request = gameRequest(g.noGuess, [r, c]);
  Object.assign(request, { rows: S.rows, cols: S.cols, mines: S.mines, first_click: g.rule });
  const a = await runJob(request);
  if (!a) return;
  remember();
  layGame(a);
  open(r, c);
  clearAnalysis();
  draw();
  if (!page.board.game.over) say(`the first click at (${r}, ${c}) is opened (${g.rule}); the mines are laid around it`);
}

function lose(r, c) {
  const S = page.board, g = S.game;
  g.over = true; g.lost = [r, c]; g.ended = Date.now();
  for (let i = 0; i < S.rows; i++) for (let j = 0; j < S.cols; j++) {
    const cell = cellAt(S, i, j);
    if (g.layout[i][j] === "*" && cell.s !== "flag") cell.s = "mine";
  }
  say(`a mine at (${r}, ${c}): the game is lost (marked apart; wrong flags show ✗). Undo takes the losing click back`, true);
}

// open a cell of the game: a mine loses it; the last safe cell opened wins it (the mines left are flagged)
function open(r, c) {
  const S = page.board, g = S.game;
  if (g.layout[r][c] === "*") { lose(r, c); return; }
  floodOpen(S, g.counts, r, c);
  if (closedCount(S) === S.mines) {
    g.over = true; g.ended = Date.now();
    for (const x of S.cells) if (x.s !== "number") x.s = "flag";
    say(`every safe cell is open: the game is won in ${Math.floor((g.ended - g.started) / 1000)} s`);
  }
}

/** A click on the cell element `el` (`right`: a right-click; `middle`: a middle-click). */
export function clickCell(el, right, middle = false) {
  const S = page.board;
  const r = Number(el.dataset.row), c = Number(el.dataset.col), cell = cellAt(S, r, c);
  if (S.replay || (S.game && S.game.over)) return;   // a replay is watched, a finished game kept
  if (right) {
    if (S.game && S.game.pending) return;
    if (cell.s === "unknown" || cell.s === "flag") change(() => { cell.s = cell.s === "flag" ? "unknown" : "flag"; });
    return;
  }
  if (S.game) {
    if (S.game.pending) { guarded(() => firstClick(r, c)); return; }
    if (cell.s === "number") {   // a number whose flags are all placed opens its other neighbours
      const closed = chordCells(S, r, c);
      if (closed.length) change(() => { for (const [a, b] of closed) if (!S.game.over) open(a, b); });
      return;
    }
    if (!middle && (cell.s === "unknown" || cell.s === "safe")) change(() => open(r, c));
    return;
  }
  if (middle) return;
  change(() => setCell(cell, nextValue(cell)));
}

/** A key typed over the puzzle's cell element `el` (0-8, ?, *, ., f ...); nothing in a game or a replay. */
export function typeCell(el, keyName) {
  const S = page.board;
  if (!el || S.game || S.replay) return;
  const value = typedValue(keyName);
  const cell = cellAt(S, Number(el.dataset.row), Number(el.dataset.col));
  if (value !== undefined) change(() => setCell(cell, value));
}

/** The total of mines typed in its field (empty: no total). */
export function setTotal(text) {
  const value = text.trim();
  change(() => { page.board.mines = value === "" ? null : Math.max(0, Math.floor(Number(value))); });
}
