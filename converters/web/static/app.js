// mineconv assistant: the page keeps the board and its history; the server reads, reasons and exports.
"use strict";

const $ = (sel) => document.querySelector(sel);
const act = (name) => document.querySelector(`[data-action="${name}"]`);
const NEIGHBOURS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
const CYCLE = ["unknown", 0, 1, 2, 3, 4, 5, 6, 7, 8, "mine", "safe"];

let S = emptyBoard(9, 9);        // the board: rows, cols, cells [{s, n}], mines, start, game (as the size inputs say)
const past = [], future = [];    // undo and redo snapshots
let overlay = null;              // probabilities grid while shown
let marks = { because: new Set(), fresh: new Set(), hint: null, error: null };
let job = null;                  // {id, cancelled} of the work in progress

function emptyBoard(rows, cols) {
  return { rows, cols, cells: Array.from({ length: rows * cols }, () => ({ s: "unknown", n: 0 })),
           mines: null, start: null, game: null };
}
const key = (r, c) => r * S.cols + c;
const clone = (x) => JSON.parse(JSON.stringify(x));

// ---- the board as text (the canonical form of README "The puzzle model") ----------------------------
function boardText(board = S) {
  const lines = [];
  // the puzzle's name rides along, so exports and pictures keep it
  if (board.name) lines.push(`name: ${String(board.name).replace(/\s+/g, " ").trim()}`);
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

function fromAnswer(a) {
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

// ---- history -------------------------------------------------------------------------------------
function remember() {
  past.push(clone(S));
  if (past.length > 500) past.shift();
  future.length = 0;
}
// every change of the board clears what was computed on the one before (the count, the overlay, marks)
function change(mutate) {
  remember();
  mutate();
  clearAnalysis();
  showCount(null);
  draw();
}
function undo() {
  if (!past.length) return;
  const lost = S.game && S.game.lost;
  future.push(clone(S)); S = past.pop(); clearAnalysis(); showCount(null); draw();
  if (lost && !(S.game && S.game.lost)) say(`undone: the losing click at (${lost[0]}, ${lost[1]}) is taken back; play on`);
}
function redo() { if (future.length) { past.push(clone(S)); S = future.pop(); clearAnalysis(); showCount(null); draw(); } }

function clearAnalysis() {
  overlay = null;
  marks = { because: new Set(), fresh: new Set(), hint: null, error: null };
  act("probabilities").setAttribute("aria-pressed", "false");
  $('[data-output="legend"]').hidden = true;
}

// ---- drawing -------------------------------------------------------------------------------------
// The overlay's scale diverges at 50% (blue below, orange above: the axis colour-blind readers keep,
// after ColorBrewer's RdYlBu), so 45% and 55% differ in hue; certain cells are off the scale, drawn as
// the board draws a decided cell (a white cell with a green check, a mine cell with its star).
const SCALE = [[0, [49, 54, 149]], [0.2, [69, 117, 180]], [0.4, [145, 191, 219]], [0.5, [226, 226, 190]],
               [0.6, [253, 174, 97]], [0.8, [244, 109, 67]], [1, [165, 0, 38]]];
function scaleColour(p) {
  const x = Math.min(1, Math.max(0, p));
  let i = 0;
  while (i < SCALE.length - 2 && x > SCALE[i + 1][0]) i++;
  const [x0, a] = SCALE[i], [x1, b] = SCALE[i + 1], t = (x - x0) / (x1 - x0);
  return `rgb(${a.map((v, k) => Math.round(v + (b[k] - v) * t)).join(",")})`;
}
function percentText(p, size) {
  const pct = p < 0.005 ? "<1" : p > 0.995 ? ">99" : String(Math.round(p * 100));
  return size >= 30 ? `${pct}%` : pct;
}

function cellSize() { return Math.max(16, Math.min(40, Math.floor(760 / Math.max(S.cols, S.rows)))); }

function draw() {
  const board = $('[data-output="board"]');
  const size = cellSize();
  if (board.children.length !== S.rows * S.cols || board.dataset.cols !== String(S.cols)) {
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
  const g = S.game;
  for (const el of board.children) {
    const r = Number(el.dataset.row), c = Number(el.dataset.col), cell = S.cells[key(r, c)];
    el.dataset.state = cell.s;
    el.className = "cell" + (cell.s === "number" ? ` n${cell.n}` : "");
    el.textContent = cell.s === "number" ? String(cell.n) : cell.s === "mine" ? "✹" : cell.s === "flag" ? "⚑" :
                     cell.s === "safe" ? "✓" : "";
    el.style.background = "";
    for (const name of ["p", "hit", "wrongFlag", "hint", "sure", "advised"]) delete el.dataset[name];
    el.title = `row ${r}, col ${c}`;
    const p = overlay && overlay[r] ? overlay[r][c] : null;
    if (p !== null && p !== undefined && (cell.s === "unknown" || cell.s === "flag")) {
      el.dataset.p = String(p);
      el.classList.add("p");
      if (p === 0 || p === 1) {   // certain: off the scale, the same look as a decided cell
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
    if (g && g.lost && g.lost[0] === r && g.lost[1] === c) { el.dataset.hit = "true"; el.title += ": the mine that was hit"; }
    if (g && g.over && cell.s === "flag" && g.layout && g.layout[r][c] !== "*") {
      el.dataset.wrongFlag = "true"; el.textContent = "✗"; el.title += ": a wrong flag (no mine here)";
    }
    if (marks.hint && marks.hint[0] === r && marks.hint[1] === c) { el.dataset.hint = "true"; el.title += ": proven safe (hint)"; }
    if (marks.advised && marks.advised[0] === r && marks.advised[1] === c) { el.dataset.advised = "true"; el.title += ": the engine's best move"; }
    if (marks.error && marks.error[0] === r && marks.error[1] === c) el.classList.add("bad");
    if (marks.because.has(key(r, c))) el.classList.add("because");
    if (marks.fresh.has(key(r, c))) el.classList.add("new");
    if (S.start && S.start[0] === r && S.start[1] === c && cell.s === "unknown") el.classList.add("start");
  }
  act("undo").disabled = !past.length;
  act("redo").disabled = !future.length;
  act("hint").disabled = !g || g.over || g.pending;
  const minesInput = $('[data-input="mines"]');
  if (document.activeElement !== minesInput) minesInput.value = S.mines === null ? "" : String(S.mines);
  drawCounters();
  $('[data-output="mode-hint"]').textContent = S.replay
    ? "Replay: the board as the player saw it; Play, the arrows or the slider move through its events, the timeline's buttons jump to an opening."
    : g && g.pending
    ? "Game: click the cell to open first; the mines are laid after it, keeping it free."
    : g ? "Game: click a cell to open it, right-click to flag it; click (or middle-click) a number whose flags are all placed to open its other neighbours. The reasoning buttons work on what you see."
      : "Puzzle: click a cell to cycle unknown → 0…8 → mine → safe; right-click flags; or hover and type 0-8, ?, *, . or f.";
}

// the mines-left counter (the total less the flags and known mines) and the game's clock
function drawCounters() {
  // a game counts the player's flags (the mines a loss reveals are not placed by the player)
  const placed = S.cells.filter((x) => x.s === "flag" || (x.s === "mine" && !S.game)).length;
  const left = $('[data-output="mines-left"]');
  left.textContent = S.mines === null ? "–" : String(S.mines - placed);
  left.dataset.value = S.mines === null ? "" : String(S.mines - placed);
  const timer = $('[data-output="timer"]');
  const g = S.game;
  const seconds = !g || !g.started ? 0 : Math.floor(((g.ended || Date.now()) - g.started) / 1000);
  timer.textContent = String(seconds);
  timer.dataset.value = String(seconds);
  timer.dataset.running = g && g.started && !g.ended ? "true" : "false";
  timer.parentElement.hidden = !g || !!S.replay;   // a clock belongs to a game being played
}
setInterval(() => { if (S.game && S.game.started && !S.game.ended) drawCounters(); }, 250);

function say(text, isError = false) {
  const out = $('[data-output="message"]');
  out.textContent = text;
  out.classList.toggle("error", isError);
}
// a long number on the page: its first and last digits and how many there are; the whole on a click
// (and on copy), as `analyze` shortens a count it prints
function short(str) {
  return str.length <= 24 ? str : `${str.slice(0, 12)}…${str.slice(-6)} (${str.length} digits)`;
}
function showCount(str, log10) {
  const out = $('[data-output="solutions"]');
  out.dataset.whole = "false";
  if (str === null || str === undefined) {
    out.textContent = "–"; out.removeAttribute("data-value"); out.title = "not counted since the board last changed";
    return;
  }
  out.dataset.value = str;
  out.textContent = short(str);
  out.title = str.length > 24 ? `about 10^${Number(log10).toFixed(2)}: click to show every digit, or copy it` : "";
}

// ---- talking to the server -----------------------------------------------------------------------
// the server's key for this run comes in the address it printed (?token=...): kept, then hidden from the bar
const TOKEN = (() => {
  const url = new URL(location.href), given = url.searchParams.get("token"), key = "mineconv-token";
  try {
    if (!given) return sessionStorage.getItem(key) || localStorage.getItem(key) || "";
    sessionStorage.setItem(key, given);
    localStorage.setItem(key, given);   // a permalink opened in a new tab finds it too
  } catch (e) { /* storage turned off: the key lives as long as this page */ }
  url.searchParams.delete("token");
  history.replaceState(null, "", url.pathname + url.search + url.hash);
  return given || "";
})();

async function api(method, path, body) {
  const response = await fetch(path, { method, headers: { "Content-Type": "application/json",
                                                          Authorization: `token ${TOKEN}` },
                                       body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok || answer.error) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}

function busy(on) {
  $('[data-output="busy"]').hidden = !on;
  act("cancel").disabled = !on;
}

// `start`: where the job is asked for (a big export's file at /api/downloads); `started` sees the first answer
async function runJob(request, start = "/api/jobs", started = null) {
  if (job) await cancel(false);
  const mine = { id: null, cancelled: false };
  job = mine;
  busy(true);
  try {
    const first = await api("POST", start, request);
    if (started) started(first);
    mine.id = first.id;
    let state = first;
    while (state.state === "queued" || state.state === "running") {
      if (mine.cancelled) return null;
      state = await api("GET", `/api/jobs/${mine.id}?wait=0.5`);
    }
    if (mine.cancelled) return null;
    if (state.state !== "done") throw new Error(state.error || state.state);
    return state.answer;
  } finally {
    if (job === mine) { job = null; busy(false); }
  }
}

async function cancel(tell = true) {
  const current = job;
  if (!current) return;
  current.cancelled = true;
  job = null;
  busy(false);
  if (current.id) { try { await api("DELETE", `/api/jobs/${current.id}`); } catch (e) { /* already gone */ } }
  if (tell) say("cancelled");
}

async function guarded(work) {
  try { await work(); } catch (e) { say(String(e.message || e), true); }
}

// ---- bringing a puzzle ---------------------------------------------------------------------------
function takeBoard(a) {
  remember();
  S = fromAnswer(a);
  clearAnalysis();
  showCount(null);
  draw();
}

// a paste the page cannot read: the page's words, the line and column named and selected in the paste
function pasteError(failed) {
  const where = $('[data-output="paste-error"]');
  const box = $('[data-input="paste"]');
  if (!failed) { where.hidden = true; where.textContent = ""; delete box.dataset.errorLine; return; }
  let text = `${failed.source}: ${failed.message}`;
  if (failed.line !== null && failed.line !== undefined) {
    text = `${failed.source}, line ${failed.line}${failed.column ? `, column ${failed.column}` : ""}: ${failed.message}`;
    box.dataset.errorLine = String(failed.line);
    const lines = box.value.split("\n");
    const from = lines.slice(0, failed.line - 1).reduce((n, l) => n + l.length + 1, 0) + Math.max(0, (failed.column || 1) - 1);
    const lineEnd = lines.slice(0, failed.line).reduce((n, l) => n + l.length + 1, 0) - 1;
    box.focus();
    box.setSelectionRange(from, Math.max(from + 1, failed.column ? from + 1 : lineEnd));
    if (failed.line_text !== null && failed.line_text !== undefined) {
      where.textContent = `line ${failed.line}: ${failed.line_text}\n` +
        (failed.column ? " ".repeat(`line ${failed.line}: `.length + failed.column - 1) + "^" : "");
      where.hidden = false;
    }
  }
  say(text, true);
}

async function loadText(text, source) {
  const notation = $('[data-input="notation"]').value || undefined;
  const a = await api("POST", "/api/load", { text, source, format: notation, located: true });
  if (a.failed) { pasteError(a.failed); return; }
  pasteError(null);
  takeBoard(a);
  const warn = a.warnings.length ? "\nwarning: " + a.warnings.join("\nwarning: ") : "";
  say(`read ${a.rows} x ${a.cols} as ${a.notation}${a.mines !== null ? `, ${a.mines} mines in all` : ""}${warn}`);
}

// a new game: the mines are laid by the server, the first click (the centre, or the player's) kept
// free under the first-click rule; a count that leaves it no room is refused before anything is drawn
function gameRequest(noGuess, start) {
  return { action: "new_game", rows: Number($('[data-input="rows"]').value), cols: Number($('[data-input="cols"]').value),
           mines: Number($('[data-input="game-mines"]').value), no_guess: noGuess,
           first_click: $('[data-input="first-click"]').value, start };
}
async function newGame(noGuess) {
  const choose = $('[data-input="first-cell"]').value === "choose";
  const a = await runJob(gameRequest(noGuess, choose ? "any" : undefined));
  if (!a) return;
  remember();
  S = emptyBoard(a.rows, a.cols);
  S.mines = a.mines;
  S.game = { layout: null, counts: null, over: false, lost: null, started: null, ended: null, rule: a.first_click,
             noGuess, pending: !!a.pending };
  clearAnalysis();
  showCount(null);
  const kind = `${noGuess ? "no-guess " : ""}game ${a.rows} x ${a.cols} with ${a.mines} mines (first click: ${a.first_click})`;
  if (a.pending) { draw(); say(`${kind}; click the cell to open first`); return; }
  layGame(a);
  openCell(a.start[0], a.start[1]);
  draw();
  say(`${kind}; the first click is opened`);
}
function layGame(a) {
  Object.assign(S.game, { layout: a.layout, counts: a.counts, pending: false, started: Date.now() });
  S.mines = a.mines;
}
async function firstClick(r, c) {
  const g = S.game;
  const request = gameRequest(g.noGuess, [r, c]);
  Object.assign(request, { rows: S.rows, cols: S.cols, mines: S.mines, first_click: g.rule });
  const a = await runJob(request);
  if (!a) return;
  remember();
  layGame(a);
  openCell(r, c);
  clearAnalysis();
  draw();
  if (!S.game.over) say(`the first click at (${r}, ${c}) is opened (${g.rule}); the mines are laid around it`);
}

// ---- playing and editing -------------------------------------------------------------------------
function inside(a, b) { return a >= 0 && b >= 0 && a < S.rows && b < S.cols; }

function lose(r, c) {
  const g = S.game;
  g.over = true; g.lost = [r, c]; g.ended = Date.now();
  for (let i = 0; i < S.rows; i++) for (let j = 0; j < S.cols; j++) {
    const cell = S.cells[key(i, j)];
    if (g.layout[i][j] === "*" && cell.s !== "flag") cell.s = "mine";
  }
  say(`a mine at (${r}, ${c}): the game is lost (marked apart; wrong flags show ✗). Undo takes the losing click back`, true);
}

function openCell(r, c) {
  const g = S.game;
  if (g.layout[r][c] === "*") { lose(r, c); return; }
  const stack = [[r, c]];
  while (stack.length) {
    const [i, j] = stack.pop(), cell = S.cells[key(i, j)];
    if (cell.s === "number" || cell.s === "flag") continue;
    cell.s = "number"; cell.n = Number(g.counts[i][j]);
    if (cell.n === 0) for (const [dr, dc] of NEIGHBOURS) if (inside(i + dr, j + dc)) stack.push([i + dr, j + dc]);
  }
  const closed = S.cells.filter((x) => x.s !== "number").length;
  if (closed === S.mines) {
    g.over = true; g.ended = Date.now();
    for (const x of S.cells) if (x.s !== "number") x.s = "flag";
    say(`every safe cell is open: the game is won in ${Math.floor((g.ended - g.started) / 1000)} s`);
  }
}

// a click (or middle-click) on a number whose flags are all placed opens its other neighbours
function chord(r, c) {
  const cell = S.cells[key(r, c)];
  const around = NEIGHBOURS.map(([dr, dc]) => [r + dr, c + dc]).filter(([a, b]) => inside(a, b));
  const flags = around.filter(([a, b]) => S.cells[key(a, b)].s === "flag").length;
  const closed = around.filter(([a, b]) => ["unknown", "safe"].includes(S.cells[key(a, b)].s));
  if (flags !== cell.n || !closed.length) return false;
  change(() => { for (const [a, b] of closed) if (!S.game.over) openCell(a, b); });
  return true;
}

function clickCell(el, right, middle = false) {
  const r = Number(el.dataset.row), c = Number(el.dataset.col), cell = S.cells[key(r, c)];
  if (S.replay || (S.game && S.game.over)) return;   // a replay is watched, a finished game kept
  if (right) {
    if (S.game && S.game.pending) return;
    if (cell.s === "unknown" || cell.s === "flag") change(() => { cell.s = cell.s === "flag" ? "unknown" : "flag"; });
    return;
  }
  if (S.game) {
    if (S.game.pending) { guarded(() => firstClick(r, c)); return; }
    if (cell.s === "number") { chord(r, c); return; }
    if (!middle && (cell.s === "unknown" || cell.s === "safe")) change(() => openCell(r, c));
    return;
  }
  if (middle) return;
  const now = cell.s === "number" ? cell.n : cell.s === "flag" ? "unknown" : cell.s;
  const next = CYCLE[(CYCLE.indexOf(now) + 1) % CYCLE.length];
  change(() => setCell(cell, next));
}

function setCell(cell, value) {
  if (typeof value === "number") { cell.s = "number"; cell.n = value; } else { cell.s = value; cell.n = 0; }
}

// ---- reasoning -----------------------------------------------------------------------------------
function decide(cells, fresh) {
  for (const [r, c, value] of cells) {
    const cell = S.cells[key(r, c)];
    if (cell.s === "unknown" || cell.s === "flag") { cell.s = value; fresh.add(key(r, c)); }
  }
}

// a board with no solution: the counts that contradict each other, named as `explain` names them
function noSolution(conflict) {
  marks = { because: new Set((conflict.because || []).map(([r, c]) => key(r, c))), fresh: new Set(), hint: null, error: null };
  overlay = null;
  act("probabilities").setAttribute("aria-pressed", "false");
  $('[data-output="legend"]').hidden = true;
  draw();
  say(conflict.text, true);
}

// a job refused because of one cell of the board: that cell outlined, the message in words
function cellError(e) {
  const at = String(e.message || e).match(/^cell \((\d+), (\d+)\)/);
  if (at) { marks.error = [Number(at[1]), Number(at[2])]; draw(); }
  throw e;
}

const LEVEL_NAMES = { gac: "GAC", "2rc": "2-RC", "3rc": "3-RC", full: "full" };

async function level(name) {
  const a = await runJob({ action: "level", level: name, board: boardText() }).catch(cellError);
  if (!a) return;
  showCount(a.solutions_str, a.solutions_log10);
  if (!a.feasible) { noSolution(a.conflict); return; }
  remember();
  const fresh = new Set();
  decide(a.safe.map(([r, c]) => [r, c, "safe"]).concat(a.mines.map(([r, c]) => [r, c, "mine"])), fresh);
  overlay = null;
  marks = { because: new Set(), fresh, hint: null, error: null };
  draw();
  const open = S.cells.filter((x) => x.s === "unknown" || x.s === "flag").length;
  say(`${name.toUpperCase()} to a fixed point: ${a.safe.length} safe, ${a.mines.length} mines decided; ` +
      `${open} cells left open${a.status === "timeout" ? " (stopped at the time limit)" : ""}`);
}

// Each step is labelled with the level that found it. A level includes the ones below it (as in Bayer,
// Snyder and Choueiry's applet, where 2-RC runs on what GAC leaves), so 2-RC's steps begin with GAC's:
// the message says so when the step asked for at one level was found by a lower one.
async function step(name) {
  const a = await runJob({ action: "step", level: name, board: boardText() }).catch(cellError);
  if (!a) return;
  if (a.conflict) { noSolution(a.conflict); return; }
  if (!a.step) { say(a.text); return; }
  remember();
  const fresh = new Set();
  decide(a.step.cells.map((x) => [x.row, x.col, x.value]), fresh);
  overlay = null;
  marks = { because: new Set(a.step.because.map((x) => key(x.row, x.col))), fresh, hint: null, error: null };
  draw();
  const lower = a.step.level !== name ? `; ${LEVEL_NAMES[name]}'s steps begin with ${LEVEL_NAMES[a.step.level]}'s` : "";
  say(`step (${a.step.level}${lower}): ${a.text}${a.step.total ? " [uses the total]" : ""}`);
}

async function probabilities() {
  const button = act("probabilities");
  if (button.getAttribute("aria-pressed") === "true") { clearAnalysis(); draw(); return; }
  const a = await runJob({ action: "probabilities", board: boardText() }).catch(cellError);
  if (!a) return;
  showCount(a.solutions_str, a.solutions_log10);
  if (!a.feasible) { noSolution(a.conflict); return; }
  overlay = a.probabilities;
  button.setAttribute("aria-pressed", "true");
  $('[data-output="legend"]').hidden = false;
  draw();
  say(`probabilities of a mine on every unknown cell (${a.status}); ${short(a.solutions_str)} solution${a.solutions_str === "1" ? "" : "s"}`);
}

// a hint in a game: one closed cell proven safe (by the full level, on what the player sees), marked but
// not opened; or the word that every opening is now a guess
async function hint() {
  if (!S.game || S.game.over || S.game.pending) { say("a hint needs a game in play"); return; }
  const a = await runJob({ action: "level", level: "full", board: boardText() });
  if (!a) return;
  const closed = a.safe.filter(([r, c]) => ["unknown", "flag"].includes(S.cells[key(r, c)].s));
  const touching = closed.filter(([r, c]) => NEIGHBOURS.some(([dr, dc]) => inside(r + dr, c + dc) &&
    S.cells[key(r + dr, c + dc)].s === "number"));
  const pick = touching[0] || closed[0];
  marks.hint = pick || null;
  draw();
  say(pick ? `hint: (${pick[0]}, ${pick[1]}) is safe in every arrangement of the mines; open it yourself`
           : "hint: no closed cell is proven safe; every opening now is a guess");
}

// the best move (the engine of `mineconv advise`): a proven-safe cell when there is one, else the guess that
// wins most often; marked, not opened, with the engine's reason and its exact chance of a mine
async function best() {
  if (S.game && (S.game.over || S.game.pending)) { say(S.game.over ? "the game is over" : "choose the first cell first"); return; }
  const a = await runJob({ action: "advise", board: boardText() }).catch(cellError);
  if (!a) return;
  if (!a.feasible) { noSolution(a.conflict); return; }
  marks.advised = a.move;
  draw();
  if (!a.move) { say("best move: none: every closed cell is a proven mine"); return; }
  const [r, c] = a.move;
  const risk = a.p_mine === 0 ? "safe" : `${(a.p_mine * 100).toFixed(1)}% chance of a mine`;
  const weighed = a.alternatives.length > 1 ? `; ${a.alternatives.length} cells weighed` : "";
  say(`best move: (${r}, ${c}), ${risk}: ${a.why}${weighed}`);
}

// ---- taking it away ------------------------------------------------------------------------------
function download(name, blob) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
}
function bytesOf(b64) { return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0)); }

function sizeText(bytes) {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1048576).toFixed(1)} MB`;
}
// base64 to a Blob through the browser's own decoder (a data: URL), not a JavaScript array per byte
async function blobOf(b64, type = "application/octet-stream") {
  return (await fetch(`data:${type};base64,${b64}`)).blob();
}

// exports larger than this never pass through the tab (a 247 MB CNF in base64 crashed it): the server writes
// the file and the browser fetches it by a one-use ticket, straight to the downloads folder
let STREAM_FROM = 4 * 1048576;
// the largest export the page offers at all (the server's disk holds it until fetched); past it, the command line
let EXPORT_LIMIT = 2048 * 1048576;

// an export is a file: its size is measured first (in a worker) and said, then it downloads (it is never
// written into the page); a big one streams from the server, one past EXPORT_LIMIT is left to `mineconv convert`
async function exportBoard() {
  const format = $('[data-input="format"]').value;
  const sized = await runJob({ action: "export_size", board: boardText(), format });
  if (!sized) return;
  const out = $('[data-output="export-size"]');
  out.textContent = `${sized.filename}: ${sizeText(sized.bytes)}`;
  out.dataset.value = String(sized.bytes);
  if (sized.bytes > EXPORT_LIMIT) {
    say(`the ${format} file would be ${sizeText(sized.bytes)}, more than the page offers to download ` +
        `(${sizeText(EXPORT_LIMIT)}): export the board as native and run\n  mineconv convert board.txt --to ${format} -o ${sized.filename}`, true);
    return;
  }
  if (sized.bytes > STREAM_FROM) return exportFile(format, sized);
  say(`exporting as ${format}: ${sized.filename}, ${sizeText(sized.bytes)}; downloading…`);
  const a = await api("POST", "/api/export", { board: boardText(), format });
  download(a.filename, await blobOf(a.data));
  say(`exported as ${format}: ${a.filename} (${sizeText(a.bytes)})` +
      (a.warnings.length ? "\nwarning: " + a.warnings.join("\nwarning: ") : ""));
}

// a big export: a worker writes the file on the server, then a hidden link fetches it once by its ticket
// (a link cannot carry the token; the ticket is the secret), so its bytes never enter the page
async function exportFile(format, sized) {
  say(`exporting as ${format}: ${sized.filename}, ${sizeText(sized.bytes)}; writing the file…`);
  let ticket = null;
  const a = await runJob({ board: boardText(), format }, "/api/downloads", (first) => { ticket = first.ticket; });
  if (!a) return;
  const link = document.createElement("a");
  link.href = `/download/${encodeURIComponent(ticket)}`;
  link.download = a.filename;
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
  say(`exported as ${format}: ${a.filename} (${sizeText(a.bytes)}), saved by the browser as a download` +
      (a.warnings.length ? "\nwarning: " + a.warnings.join("\nwarning: ") : ""));
}

// a picture carries what the page shows: with the overlay on, the probabilities drawn on the board
async function picture(kind) {
  const a = overlay ? await runJob({ action: "picture", board: boardText() })
                    : await api("POST", "/api/render", { board: boardText() });
  if (!a) return;
  if (kind === "svg") { download(`${a.filename}.svg`, new Blob([a.svg], { type: "image/svg+xml" })); return; }
  const image = new Image();
  image.src = "data:image/svg+xml;base64," + btoa(unescape(encodeURIComponent(a.svg)));
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth * 2; canvas.height = image.naturalHeight * 2;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  canvas.toBlob((blob) => download(`${a.filename}.png`, blob), "image/png");
}

function b64url(text) {
  return btoa(unescape(encodeURIComponent(text))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function unb64url(text) {
  return decodeURIComponent(escape(atob(text.replace(/-/g, "+").replace(/_/g, "/"))));
}
function permalink() {
  const url = `${location.origin}${location.pathname}#board=${b64url(boardText())}`;
  history.replaceState(null, "", url);
  if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
  say(`permalink (also in the address bar):\n${url}`);
}

// ---- wiring --------------------------------------------------------------------------------------
async function start() {
  const info = await api("GET", "/api/info");
  const format = $('[data-input="format"]');
  for (const name of info.formats) format.add(new Option(name, name, false, name === "native"));
  const sample = $('[data-input="sample"]');
  for (const name of info.samples) sample.add(new Option(name, name));
  const notation = $('[data-input="notation"]');
  for (const name of info.notations || []) notation.add(new Option(name, name));
  const handlers = {
    load: () => loadText($('[data-input="paste"]').value, "<paste>"),
    "new-game": () => newGame(false), "new-noguess": () => newGame(true),
    gac: () => level("gac"), "2rc": () => level("2rc"), "3rc": () => level("3rc"), full: () => level("full"),
    "step-gac": () => step("gac"), "step-2rc": () => step("2rc"), "step-3rc": () => step("3rc"),
    "step-full": () => step("full"), probabilities, hint, best, cancel: () => cancel(true),
    undo: async () => undo(), redo: async () => redo(), export: exportBoard,
    svg: () => picture("svg"), png: () => picture("png"), permalink: async () => permalink(),
  };
  for (const [name, handler] of Object.entries(handlers)) act(name).addEventListener("click", () => guarded(handler));
  sample.addEventListener("change", () => guarded(async () => {
    if (!sample.value) return;
    const a = await api("POST", "/api/sample", { name: sample.value });
    $('[data-input="paste"]').value = a.text;
    await loadText(a.text, a.name);
  }));
  $('[data-input="file"]').addEventListener("change", (e) => guarded(async () => {
    const file = e.target.files[0];
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    let text = null;
    try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch (err) { text = null; }
    if (text !== null && !text.includes("\u0000")) {
      $('[data-input="paste"]').value = text;
      await loadText(text, file.name);
    } else {
      let binary = "";
      bytes.forEach((b) => { binary += String.fromCharCode(b); });
      const a = await api("POST", "/api/load", { data: btoa(binary), source: file.name,
                                                 format: notation.value || undefined });
      takeBoard(a);
      say(`read ${a.rows} x ${a.cols} as ${a.notation} from ${file.name}`);
    }
  }));
  $('[data-input="mines"]').addEventListener("change", (e) => {
    const value = e.target.value.trim();
    change(() => { S.mines = value === "" ? null : Math.max(0, Math.floor(Number(value))); });
  });
  const board = $('[data-output="board"]');
  board.addEventListener("click", (e) => { const el = e.target.closest(".cell"); if (el) clickCell(el, e.shiftKey); });
  board.addEventListener("mousedown", (e) => { if (e.button === 1) e.preventDefault(); });   // no autoscroll
  board.addEventListener("auxclick", (e) => {
    const el = e.target.closest(".cell");
    if (el && e.button === 1) { e.preventDefault(); clickCell(el, false, true); }
  });
  const count = $('[data-output="solutions"]');
  count.addEventListener("click", () => {
    if (!count.dataset.value) return;
    const whole = count.dataset.whole !== "true";
    count.dataset.whole = String(whole);
    count.textContent = whole ? count.dataset.value : short(count.dataset.value);
  });
  count.addEventListener("copy", (e) => {   // a copied count is the whole number, not its shortened form
    if (!count.dataset.value) return;
    e.preventDefault();
    e.clipboardData.setData("text/plain", count.dataset.value);
  });
  board.addEventListener("contextmenu", (e) => {
    const el = e.target.closest(".cell");
    if (el) { e.preventDefault(); clickCell(el, true); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.matches("textarea, input, select")) return;
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") { e.preventDefault(); undo(); return; }
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "y") { e.preventDefault(); redo(); return; }
    const el = document.querySelector(".cell:hover");
    if (!el || S.game || S.replay) return;
    const cell = S.cells[key(Number(el.dataset.row), Number(el.dataset.col))];
    const value = /^[0-8]$/.test(e.key) ? Number(e.key) : { "?": "unknown", u: "unknown", "*": "mine", m: "mine",
                   ".": "safe", s: "safe", f: "flag" }[e.key];
    if (value !== undefined) change(() => setCell(cell, value));
  });
  const linked = location.hash.match(/^#board=([A-Za-z0-9_-]+)$/);
  if (linked) await loadText(unb64url(linked[1]), "<permalink>");
  else draw();
  document.body.dataset.ready = "true";
}

guarded(start);
