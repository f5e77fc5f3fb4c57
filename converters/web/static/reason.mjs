// Reasoning on what the page shows: the levels, one step, probabilities, a hint, the best move (all the
// server's, in worker processes; the page marks and says what they found).
import { runJob } from "./api.mjs";
import { boardText, decide, hintCell, key } from "./board.mjs";
import { action, output } from "./contract.mjs";
import { refusedCell, short } from "./look.mjs";
import { clearAnalysis, draw, say, showCount } from "./render.mjs";
import { noMarks, page, remember } from "./state.mjs";

const LEVEL_NAMES = { gac: "GAC", "2rc": "2-RC", "3rc": "3-RC", full: "full" };

// a board with no solution: the counts that contradict each other, named as `explain` names them
function noSolution(conflict) {
  page.marks = Object.assign(noMarks(), { because: new Set((conflict.because || []).map(([r, c]) => key(page.board, r, c))) });
  page.overlay = null;
  action("probabilities").setAttribute("aria-pressed", "false");
  output("legend").hidden = true;
  draw();
  say(conflict.text, true);
}

// a job refused because of one cell of the board: that cell outlined, the message in words
function cellError(e) {
  const at = refusedCell(e.message || e);
  if (at) { page.marks.error = at; draw(); }
  throw e;
}

/** A level (gac, 2rc, 3rc, full) to its fixed point: the cells it decides, decided on the board. */
export async function level(name) {
  const a = await runJob({ action: "level", level: name, board: boardText(page.board) }).catch(cellError);
  if (!a) return;
  showCount(a.solutions_str, a.solutions_log10);
  if (!a.feasible) { noSolution(a.conflict); return; }
  remember();
  const found = a.safe.map(([r, c]) => [r, c, "safe"]).concat(a.mines.map(([r, c]) => [r, c, "mine"]));
  page.marks = Object.assign(noMarks(), { fresh: decide(page.board, found) });
  page.overlay = null;
  draw();
  const open = page.board.cells.filter((x) => x.s === "unknown" || x.s === "flag").length;
  say(`${name.toUpperCase()} to a fixed point: ${a.safe.length} safe, ${a.mines.length} mines decided; ` +
      `${open} cells left open${a.status === "timeout" ? " (stopped at the time limit)" : ""}`);
}

// Each step is labelled with the level that found it. A level includes the ones below it (as in Bayer,
// Snyder and Choueiry's applet, where 2-RC runs on what GAC leaves), so 2-RC's steps begin with GAC's:
// the message says so when the step asked for at one level was found by a lower one.
/** The next deduction the level can make, decided on the board with the counts it used marked. */
export async function step(name) {
  const a = await runJob({ action: "step", level: name, board: boardText(page.board) }).catch(cellError);
  if (!a) return;
  if (a.conflict) { noSolution(a.conflict); return; }
  if (!a.step) { say(a.text); return; }
  remember();
  const fresh = decide(page.board, a.step.cells.map((x) => [x.row, x.col, x.value]));
  page.overlay = null;
  page.marks = Object.assign(noMarks(), { because: new Set(a.step.because.map((x) => key(page.board, x.row, x.col))), fresh });
  draw();
  const lower = a.step.level !== name ? `; ${LEVEL_NAMES[name]}'s steps begin with ${LEVEL_NAMES[a.step.level]}'s` : "";
  say(`step (${a.step.level}${lower}): ${a.text}${a.step.total ? " [uses the total]" : ""}`);
}

/** Each closed cell's chance of a mine drawn on the board (pressed again: taken away). */
export async function probabilities() {
  const button = action("probabilities");
  if (button.getAttribute("aria-pressed") === "true") { clearAnalysis(); draw(); return; }
  const a = await runJob({ action: "probabilities", board: boardText(page.board) }).catch(cellError);
  if (!a) return;
  showCount(a.solutions_str, a.solutions_log10);
  if (!a.feasible) { noSolution(a.conflict); return; }
  page.overlay = a.probabilities;
  button.setAttribute("aria-pressed", "true");
  output("legend").hidden = false;
  draw();
  say(`probabilities of a mine on every unknown cell (${a.status}); ${short(a.solutions_str)} solution${a.solutions_str === "1" ? "" : "s"}`);
}

// a hint in a game: one closed cell proven safe (by the full level, on what the player sees), marked but
// not opened; or the word that every opening is now a guess
/** A hint in a game in play. */
export async function hint() {
  const g = page.board.game;
  if (!g || g.over || g.pending) { say("a hint needs a game in play"); return; }
  const a = await runJob({ action: "level", level: "full", board: boardText(page.board) });
  if (!a) return;
  const pick = hintCell(page.board, a.safe);
  page.marks.hint = pick;
  draw();
  say(pick ? `hint: (${pick[0]}, ${pick[1]}) is safe in every arrangement of the mines; open it yourself`
           : "hint: no closed cell is proven safe; every opening now is a guess");
}

// the best move (the engine of `mineconv advise`): a proven-safe cell when there is one, else the guess that
// wins most often; marked, not opened, with the engine's reason and its exact chance of a mine
/** The engine's best move, marked on the board. */
export async function best() {
  const g = page.board.game;
  if (g && (g.over || g.pending)) { say(g.over ? "the game is over" : "choose the first cell first"); return; }
  const a = await runJob({ action: "advise", board: boardText(page.board) }).catch(cellError);
  if (!a) return;
  if (!a.feasible) { noSolution(a.conflict); return; }
  page.marks.advised = a.move;
  draw();
  if (!a.move) { say("best move: none: every closed cell is a proven mine"); return; }
  const [r, c] = a.move;
  const risk = a.p_mine === 0 ? "safe" : `${(a.p_mine * 100).toFixed(1)}% chance of a mine`;
  const weighed = a.alternatives.length > 1 ? `; ${a.alternatives.length} cells weighed` : "";
  say(`best move: (${r}, ${c}), ${risk}: ${a.why}${weighed}`);
}
