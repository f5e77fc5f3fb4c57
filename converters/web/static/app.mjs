// mineconv assistant: the page keeps the board and its history; the server reads, reasons and exports.
// This module starts the page: it fills the lists from the server's info and wires every control to its
// work (board.mjs the board, state.mjs the page's one state object, render.mjs the drawing, api.mjs the
// server, play/bring/reason/takeaway/replay.mjs what the buttons do, contract.mjs the data-* names).
import { api, cancel, guarded } from "./api.mjs";
import { loadFile, loadSample, loadText } from "./bring.mjs";
import { action, exposeToTests, input, output } from "./contract.mjs";
import { scaleColour, short, unb64url } from "./look.mjs";
import { clickCell, newGame, redo, setTotal, typeCell, undo } from "./play.mjs";
import { best, hint, level, probabilities, step } from "./reason.mjs";
import { draw, drawCounters } from "./render.mjs";
import { wireReplay } from "./replay.mjs";
import { page } from "./state.mjs";
import { exportBoard, permalink, picture } from "./takeaway.mjs";

const HANDLERS = {
  load: () => loadText(input("paste").value, "<paste>"),
  "new-game": () => newGame(false), "new-noguess": () => newGame(true),
  gac: () => level("gac"), "2rc": () => level("2rc"), "3rc": () => level("3rc"), full: () => level("full"),
  "step-gac": () => step("gac"), "step-2rc": () => step("2rc"), "step-3rc": () => step("3rc"),
  "step-full": () => step("full"), probabilities, hint, best, cancel: () => cancel(true),
  undo: async () => undo(), redo: async () => redo(), export: exportBoard,
  svg: () => picture("svg"), png: () => picture("png"), permalink: async () => permalink(),
};

function fillLists(info) {
  const format = input("format");
  for (const name of info.formats) format.add(new Option(name, name, false, name === "native"));
  for (const name of info.samples) input("sample").add(new Option(name, name));
  for (const name of info.notations || []) input("notation").add(new Option(name, name));
}

function wireBoard() {
  const board = output("board");
  const cellOf = (e) => e.target.closest(".cell");
  board.addEventListener("click", (e) => { const el = cellOf(e); if (el) clickCell(el, e.shiftKey); });
  board.addEventListener("mousedown", (e) => { if (e.button === 1) e.preventDefault(); });   // no autoscroll
  board.addEventListener("auxclick", (e) => {
    const el = cellOf(e);
    if (el && e.button === 1) { e.preventDefault(); clickCell(el, false, true); }
  });
  board.addEventListener("contextmenu", (e) => {
    const el = cellOf(e);
    if (el) { e.preventDefault(); clickCell(el, true); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.matches("textarea, input, select")) return;
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") { e.preventDefault(); undo(); return; }
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "y") { e.preventDefault(); redo(); return; }
    typeCell(document.querySelector(".cell:hover"), e.key);
  });
}

// a long count shows its ends; a click shows every digit, and a copy takes them all
function wireCount() {
  const count = output("solutions");
  count.addEventListener("click", () => {
    if (!count.dataset.value) return;
    const whole = count.dataset.whole !== "true";
    count.dataset.whole = String(whole);
    count.textContent = whole ? count.dataset.value : short(count.dataset.value);
  });
  count.addEventListener("copy", (e) => {
    if (!count.dataset.value) return;
    e.preventDefault();
    e.clipboardData.setData("text/plain", count.dataset.value);
  });
}

async function start() {
  fillLists(await api("GET", "/api/info"));
  for (const [name, handler] of Object.entries(HANDLERS)) action(name).addEventListener("click", () => guarded(handler));
  const sample = input("sample");
  sample.addEventListener("change", () => guarded(() => loadSample(sample.value)));
  input("file").addEventListener("change", (e) => guarded(() => loadFile(e.target.files[0])));
  input("mines").addEventListener("change", (e) => setTotal(e.target.value));
  wireBoard();
  wireCount();
  wireReplay();
  const linked = location.hash.match(/^#board=([A-Za-z0-9_-]+)$/);
  if (linked) await loadText(unb64url(linked[1]), "<permalink>");
  else draw();
  document.body.dataset.ready = "true";
}

exposeToTests(page, scaleColour);
setInterval(() => { const g = page.board.game; if (g && g.started && !g.ended) drawCounters(); }, 250);
guarded(start);
