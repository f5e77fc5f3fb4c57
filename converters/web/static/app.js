// mineconv assistant: the page keeps the board and its history; the server reads, reasons and exports.
"use strict";

const $ = (sel) => document.querySelector(sel);
const act = (name) => document.querySelector(`[data-action="${name}"]`);
const NEIGHBOURS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
const CYCLE = ["unknown", 0, 1, 2, 3, 4, 5, 6, 7, 8, "mine", "safe"];

let S = emptyBoard(6, 6);        // the board: rows, cols, cells [{s, n}], mines, start, game
const past = [], future = [];    // undo and redo snapshots
let overlay = null;              // probabilities grid while shown
let marks = { because: new Set(), fresh: new Set() };
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
function change(mutate) {
  remember();
  mutate();
  clearAnalysis();
  draw();
}
function undo() { if (past.length) { future.push(clone(S)); S = past.pop(); clearAnalysis(); draw(); } }
function redo() { if (future.length) { past.push(clone(S)); S = future.pop(); clearAnalysis(); draw(); } }

function clearAnalysis() {
  overlay = null;
  marks = { because: new Set(), fresh: new Set() };
  act("probabilities").setAttribute("aria-pressed", "false");
  $('[data-output="legend"]').hidden = true;
}

// ---- drawing -------------------------------------------------------------------------------------
function cividis(p) {  // a colour scale made for colour-blind readers (Nuñez et al. 2018), sampled
  const stops = [[0, 34, 78], [53, 69, 108], [102, 105, 112], [149, 143, 120], [203, 186, 105], [254, 232, 56]];
  const x = Math.min(1, Math.max(0, p)) * (stops.length - 1), i = Math.min(stops.length - 2, Math.floor(x)), t = x - i;
  const mix = stops[i].map((v, k) => Math.round(v + (stops[i + 1][k] - v) * t));
  return `rgb(${mix.join(",")})`;
}

function draw() {
  const board = $('[data-output="board"]');
  if (board.children.length !== S.rows * S.cols || board.dataset.cols !== String(S.cols)) {
    board.textContent = "";
    board.dataset.cols = String(S.cols);
    board.style.gridTemplateColumns = `repeat(${S.cols}, var(--cell))`;
    const size = Math.max(16, Math.min(40, Math.floor(760 / Math.max(S.cols, S.rows))));
    board.style.setProperty("--cell", `${size}px`);
    for (let r = 0; r < S.rows; r++) for (let c = 0; c < S.cols; c++) {
      const el = document.createElement("div");
      el.className = "cell"; el.dataset.row = r; el.dataset.col = c; el.setAttribute("role", "gridcell");
      board.appendChild(el);
    }
  }
  for (const el of board.children) {
    const r = Number(el.dataset.row), c = Number(el.dataset.col), cell = S.cells[key(r, c)];
    el.dataset.state = cell.s;
    el.className = "cell" + (cell.s === "number" ? ` n${cell.n}` : "");
    el.textContent = cell.s === "number" ? String(cell.n) : cell.s === "mine" ? "✹" : cell.s === "flag" ? "⚑" :
                     cell.s === "safe" ? "·" : "";
    el.style.background = "";
    el.removeAttribute("data-p");
    el.title = `row ${r}, col ${c}`;
    const p = overlay && overlay[r] ? overlay[r][c] : null;
    if (p !== null && p !== undefined && (cell.s === "unknown" || cell.s === "flag")) {
      el.dataset.p = String(p);
      el.classList.add("p");
      if (p > 0.6) el.classList.add("light");
      el.style.background = cividis(p);
      el.textContent = p === 0 ? "✓" : p === 1 ? "✹" : String(Math.round(p * 100));
      if (p === 0 || p === 1) el.classList.add("sure");
      el.title += `: mine probability ${(p * 100).toFixed(2)}%`;
    }
    if (marks.because.has(key(r, c))) el.classList.add("because");
    if (marks.fresh.has(key(r, c))) el.classList.add("new");
    if (S.start && S.start[0] === r && S.start[1] === c && cell.s === "unknown") el.classList.add("start");
  }
  act("undo").disabled = !past.length;
  act("redo").disabled = !future.length;
  const minesInput = $('[data-input="mines"]');
  if (document.activeElement !== minesInput) minesInput.value = S.mines === null ? "" : String(S.mines);
  $('[data-output="mode-hint"]').textContent = S.game
    ? "Game: click a cell to open it, right-click to flag it. The reasoning buttons work on what you see."
    : "Puzzle: click a cell to cycle unknown → 0…8 → mine → safe; right-click flags; or hover and type 0-8, ?, *, . or f.";
}

function say(text, isError = false) {
  const out = $('[data-output="message"]');
  out.textContent = text;
  out.classList.toggle("error", isError);
}
function showCount(str, log10) {
  const out = $('[data-output="solutions"]');
  if (str === null || str === undefined) { out.textContent = "–"; out.removeAttribute("data-value"); return; }
  out.textContent = str;
  out.dataset.value = str;
  out.title = str.length > 9 ? `${str.length} digits (about 10^${Number(log10).toFixed(2)})` : "";
  if (str.length > 9) out.textContent = `${str} (${str.length} digits)`;
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

async function runJob(request) {
  if (job) await cancel(false);
  const mine = { id: null, cancelled: false };
  job = mine;
  busy(true);
  try {
    const started = await api("POST", "/api/jobs", request);
    mine.id = started.id;
    let state = started;
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
async function loadText(text, source) {
  const a = await api("POST", "/api/load", { text, source });
  remember();
  S = fromAnswer(a);
  clearAnalysis();
  showCount(null);
  draw();
  const warn = a.warnings.length ? "\nwarning: " + a.warnings.join("\nwarning: ") : "";
  say(`read ${a.rows} x ${a.cols} as ${a.notation}${a.mines !== null ? `, ${a.mines} mines in all` : ""}${warn}`);
}

async function newGame(noGuess) {
  const rows = Number($('[data-input="rows"]').value), cols = Number($('[data-input="cols"]').value);
  const mines = Number($('[data-input="game-mines"]').value);
  const a = await runJob({ action: "new_game", rows, cols, mines, no_guess: noGuess });
  if (!a) return;
  remember();
  S = emptyBoard(a.rows, a.cols);
  S.mines = a.mines;
  S.game = { layout: a.layout, counts: a.counts, over: false };
  clearAnalysis();
  showCount(null);
  openCell(a.start[0], a.start[1]);
  draw();
  say(`${noGuess ? "no-guess " : ""}game ${a.rows} x ${a.cols} with ${a.mines} mines; the first click is opened`);
}

// ---- playing and editing -------------------------------------------------------------------------
function openCell(r, c) {
  const g = S.game;
  if (g.layout[r][c] === "*") {
    g.over = true;
    for (let i = 0; i < S.rows; i++) for (let j = 0; j < S.cols; j++) if (g.layout[i][j] === "*") S.cells[key(i, j)].s = "mine";
    say(`a mine at (${r}, ${c}): the game is lost`, true);
    return;
  }
  const stack = [[r, c]];
  while (stack.length) {
    const [i, j] = stack.pop(), cell = S.cells[key(i, j)];
    if (cell.s === "number" || cell.s === "flag") continue;
    cell.s = "number"; cell.n = Number(g.counts[i][j]);
    if (cell.n === 0) for (const [dr, dc] of NEIGHBOURS) {
      const a = i + dr, b = j + dc;
      if (a >= 0 && b >= 0 && a < S.rows && b < S.cols) stack.push([a, b]);
    }
  }
  const closed = S.cells.filter((x) => x.s !== "number").length;
  if (closed === S.mines) { g.over = true; say("every safe cell is open: the game is won"); }
}

function clickCell(el, right) {
  const r = Number(el.dataset.row), c = Number(el.dataset.col), cell = S.cells[key(r, c)];
  if (right) {
    if (cell.s === "unknown" || cell.s === "flag") change(() => { cell.s = cell.s === "flag" ? "unknown" : "flag"; });
    return;
  }
  if (S.game) {
    if (!S.game.over && (cell.s === "unknown" || cell.s === "safe")) change(() => openCell(r, c));
    return;
  }
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

async function level(name) {
  const a = await runJob({ action: "level", level: name, board: boardText() });
  if (!a) return;
  showCount(a.solutions_str, a.solutions_log10);
  if (!a.feasible) { say("no solution: the counts contradict each other" + (S.mines !== null ? " or the total" : ""), true); return; }
  remember();
  const fresh = new Set();
  decide(a.safe.map(([r, c]) => [r, c, "safe"]).concat(a.mines.map(([r, c]) => [r, c, "mine"])), fresh);
  overlay = null;
  marks = { because: new Set(), fresh };
  draw();
  const open = S.cells.filter((x) => x.s === "unknown" || x.s === "flag").length;
  say(`${name.toUpperCase()} to a fixed point: ${a.safe.length} safe, ${a.mines.length} mines decided; ` +
      `${open} cells left open${a.status === "timeout" ? " (stopped at the time limit)" : ""}`);
}

async function step(name) {
  const a = await runJob({ action: "step", level: name, board: boardText() });
  if (!a) return;
  if (!a.step) { say(a.text); return; }
  remember();
  const fresh = new Set();
  decide(a.step.cells.map((x) => [x.row, x.col, x.value]), fresh);
  overlay = null;
  marks = { because: new Set(a.step.because.map((x) => key(x.row, x.col))), fresh };
  draw();
  say(`step (${a.step.level}): ${a.text}${a.step.total ? " [uses the total]" : ""}`);
}

async function probabilities() {
  const button = act("probabilities");
  if (button.getAttribute("aria-pressed") === "true") { clearAnalysis(); draw(); return; }
  const a = await runJob({ action: "probabilities", board: boardText() });
  if (!a) return;
  showCount(a.solutions_str, a.solutions_log10);
  if (!a.feasible) { say("no solution: nothing to weigh", true); return; }
  overlay = a.probabilities;
  button.setAttribute("aria-pressed", "true");
  $('[data-output="legend"]').hidden = false;
  draw();
  say(`probabilities of a mine on every unknown cell (${a.status}); ${a.solutions_str} solution${a.solutions_str === "1" ? "" : "s"}`);
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

async function exportBoard() {
  const format = $('[data-input="format"]').value;
  const a = await api("POST", "/api/export", { board: boardText(), format });
  download(a.filename, new Blob([bytesOf(a.data)]));
  say(`exported as ${format}: ${a.filename}` + (a.warnings.length ? "\nwarning: " + a.warnings.join("\nwarning: ") : ""));
}

async function picture(kind) {
  const a = await api("POST", "/api/render", { board: boardText() });
  if (kind === "svg") { download("board.svg", new Blob([a.svg], { type: "image/svg+xml" })); return; }
  const image = new Image();
  image.src = "data:image/svg+xml;base64," + btoa(unescape(encodeURIComponent(a.svg)));
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth * 2; canvas.height = image.naturalHeight * 2;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  canvas.toBlob((blob) => download("board.png", blob), "image/png");
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
  const handlers = {
    load: () => loadText($('[data-input="paste"]').value, "<paste>"),
    "new-game": () => newGame(false), "new-noguess": () => newGame(true),
    gac: () => level("gac"), "2rc": () => level("2rc"), "3rc": () => level("3rc"), full: () => level("full"),
    "step-gac": () => step("gac"), "step-2rc": () => step("2rc"), "step-3rc": () => step("3rc"),
    "step-full": () => step("full"), probabilities, cancel: () => cancel(true),
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
      const a = await api("POST", "/api/load", { data: btoa(binary), source: file.name });
      remember(); S = fromAnswer(a); clearAnalysis(); showCount(null); draw();
      say(`read ${a.rows} x ${a.cols} as ${a.notation} from ${file.name}`);
    }
  }));
  $('[data-input="mines"]').addEventListener("change", (e) => {
    const value = e.target.value.trim();
    change(() => { S.mines = value === "" ? null : Math.max(0, Math.floor(Number(value))); });
  });
  const board = $('[data-output="board"]');
  board.addEventListener("click", (e) => { const el = e.target.closest(".cell"); if (el) clickCell(el, e.shiftKey); });
  board.addEventListener("contextmenu", (e) => {
    const el = e.target.closest(".cell");
    if (el) { e.preventDefault(); clickCell(el, true); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.matches("textarea, input, select")) return;
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") { e.preventDefault(); undo(); return; }
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "y") { e.preventDefault(); redo(); return; }
    const el = document.querySelector(".cell:hover");
    if (!el || S.game) return;
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
