// Drawing the page from its state: the board's cells, the counters, the message, the count.
import { cellAt, key, minesLeft } from "./board.mjs";
import { action, CELL_MARKS, input, output } from "./contract.mjs";
import { cellSize, percentText, scaleColour, short } from "./look.mjs";
import { forget, page } from "./state.mjs";

const MODE_HINTS = {
  replay: "Replay: the board as the player saw it; Play, the arrows or the slider move through its events, the timeline's buttons jump to an opening.",
  pending: "Game: click the cell to open first; the mines are laid after it, keeping it free.",
  game: "Game: click a cell to open it, right-click to flag it; click (or middle-click) a number whose flags are all placed to open its other neighbours. The reasoning buttons work on what you see.",
  puzzle: "Puzzle: click a cell to cycle unknown → 0…8 → mine → safe; right-click flags; or hover and type 0-8, ?, *, . or f.",
};

/** Draw the board and everything that depends on it. */
export function draw() {
  const S = page.board, g = S.game;
  const board = output("board");
  const size = cellSize(S.rows, S.cols);
  if (board.children.length !== S.rows * S.cols || board.dataset.cols !== String(S.cols)) layOut(board, size);
  for (const el of board.children) drawCell(el, Number(el.dataset.row), Number(el.dataset.col), size);
  action("undo").disabled = !page.past.length;
  action("redo").disabled = !page.future.length;
  action("hint").disabled = !g || g.over || g.pending;
  const minesInput = input("mines");
  if (document.activeElement !== minesInput) minesInput.value = S.mines === null ? "" : String(S.mines);
  drawCounters();
  output("mode-hint").textContent = MODE_HINTS[S.replay ? "replay" : g && g.pending ? "pending" : g ? "game" : "puzzle"];
}

// a board of another shape: its cells made afresh
function layOut(board, size) {
  const S = page.board;
  board.textContent = "";
  board.dataset.cols = String(S.cols);
  board.style.gridTemplateColumns = `repeat(${S.cols}, var(--cell))`;
  board.style.setProperty("--cell", `${size}px`);
  for (let r = 0; r < S.rows; r++) for (let c = 0; c < S.cols; c++) {
    const el = document.createElement("div");
    el.className = "cell"; el.dataset.row = r; el.dataset.col = c; el.setAttribute("role", "gridcell");
    board.appendChild(el);
  }
}

function drawCell(el, r, c, size) {
  const S = page.board, g = S.game, marks = page.marks, cell = cellAt(S, r, c);
  el.dataset.state = cell.s;
  el.className = "cell" + (cell.s === "number" ? ` n${cell.n}` : "");
  el.textContent = cell.s === "number" ? String(cell.n) : cell.s === "mine" ? "✹" : cell.s === "flag" ? "⚑" :
                   cell.s === "safe" ? "✓" : "";
  el.style.background = "";
  for (const name of CELL_MARKS) delete el.dataset[name];
  el.title = `row ${r}, col ${c}`;
  const p = page.overlay && page.overlay[r] ? page.overlay[r][c] : null;
  if (p !== null && p !== undefined && (cell.s === "unknown" || cell.s === "flag")) drawChance(el, p, size);
  const at = (cellRC) => cellRC && cellRC[0] === r && cellRC[1] === c;
  if (g && at(g.lost)) { el.dataset.hit = "true"; el.title += ": the mine that was hit"; }
  if (g && g.over && cell.s === "flag" && g.layout && g.layout[r][c] !== "*") {
    el.dataset.wrongFlag = "true"; el.textContent = "✗"; el.title += ": a wrong flag (no mine here)";
  }
  if (at(marks.hint)) { el.dataset.hint = "true"; el.title += ": proven safe (hint)"; }
  if (at(marks.advised)) { el.dataset.advised = "true"; el.title += ": the engine's best move"; }
  if (at(marks.error)) el.classList.add("bad");
  if (marks.because.has(key(S, r, c))) el.classList.add("because");
  if (marks.fresh.has(key(S, r, c))) el.classList.add("new");
  if (at(S.start) && cell.s === "unknown") el.classList.add("start");
}

// a closed cell's chance of a mine: certain ones off the scale, with the same look as a decided cell
function drawChance(el, p, size) {
  el.dataset.p = String(p);
  el.classList.add("p");
  if (p === 0 || p === 1) {
    el.dataset.sure = p === 0 ? "safe" : "mine";
    el.classList.add(p === 0 ? "sure-safe" : "sure-mine");
    el.textContent = p === 0 ? "✓" : "✹";
  } else {
    if (p > 0.25 && p < 0.7) el.classList.add("light");
    el.style.background = scaleColour(p);
    el.textContent = percentText(p, size);
  }
  el.title += `: mine probability ${(p * 100).toFixed(2)}%`;
}

/** The mines-left counter (the total less the flags and known mines) and the game's clock. */
export function drawCounters() {
  const S = page.board, g = S.game;
  const left = minesLeft(S);
  const counter = output("mines-left");
  counter.textContent = left === null ? "–" : String(left);
  counter.dataset.value = left === null ? "" : String(left);
  const timer = output("timer");
  const seconds = !g || !g.started ? 0 : Math.floor(((g.ended || Date.now()) - g.started) / 1000);
  timer.textContent = String(seconds);
  timer.dataset.value = String(seconds);
  timer.dataset.running = g && g.started && !g.ended ? "true" : "false";
  timer.parentElement.hidden = !g || !!S.replay;   // a clock belongs to a game being played
}

/** Tell the person something (in red when it is an error). */
export function say(text, isError = false) {
  const out = output("message");
  out.textContent = text;
  out.classList.toggle("error", isError);
}

/** Show a count of solutions (shortened when long; every digit on a click), or "–" for none (null). */
export function showCount(str, log10) {
  const out = output("solutions");
  out.dataset.whole = "false";
  if (str === null || str === undefined) {
    out.textContent = "–"; out.removeAttribute("data-value"); out.title = "not counted since the board last changed";
    return;
  }
  out.dataset.value = str;
  out.textContent = short(str);
  out.title = str.length > 24 ? `about 10^${Number(log10).toFixed(2)}: click to show every digit, or copy it` : "";
}

/** The working sign and the Cancel button, while a job runs. */
export function busy(on) {
  output("busy").hidden = !on;
  action("cancel").disabled = !on;
}

/** Forget what was computed on the board, the probabilities button and legend too. */
export function clearAnalysis() {
  forget();
  action("probabilities").setAttribute("aria-pressed", "false");
  output("legend").hidden = true;
}

/** After the board changed as a whole (a change, undo, a new board): nothing computed kept, drawn afresh. */
export function redraw() {
  clearAnalysis();
  showCount(null);
  draw();
}
