// Replays played back (issue 38, point 11): the board as the player saw it, event by event, with the
// audit of each opening (`mineconv audit`) on a timeline.
import { guarded, runJob } from "./api.mjs";
import { key, replayBoard } from "./board.mjs";
import { control, input, openings, output } from "./contract.mjs";
import { base64Of } from "./bring.mjs";
import { clearAnalysis, draw, say, showCount } from "./render.mjs";
import { page, remember } from "./state.mjs";

// the replay (page.replay): the server's {rows, cols, mines, counts, mine_cells, frames, audit}, and where
// the page is in it: {at, timer, speed, source, mineSet}

// `focus`: an opening of the timeline, shown on the board just before it (what the player decided on)
function showFrame(at, focus = null) {
  const R = page.replay;
  R.at = Math.max(0, Math.min(R.frames.length, at));
  page.board = replayBoard(R, R.at);
  const last = R.at ? R.frames[R.at - 1] : null;
  const opening = focus !== null ? null : last && last.opening !== null ? R.audit.clicks[last.opening] : null;
  if (opening && opening.hit) {   // the mine that was hit: the opened cell holding one (a chord opens several)
    const hit = last.open.find(([r, c]) => R.mineSet.has(key(page.board, r, c)));
    page.board.game = { over: true, lost: hit || [opening.row, opening.col], layout: null };
  }
  clearAnalysis();
  const marked = focus !== null ? R.audit.clicks[focus] : opening;
  if (marked) page.marks.because = new Set([key(page.board, marked.row, marked.col)]);
  draw();
  control("slider").value = String(R.at);
  control("clock").textContent = `${(last ? last.t : 0).toFixed(2)} s`;
  control("clock").dataset.value = String(last ? last.t : 0);
  const current = focus !== null ? focus : opening !== null ? last.opening : null;
  for (const el of openings()) {
    el.setAttribute("aria-current", String(Number(el.dataset.opening) === current));
  }
  if (focus !== null) { say(`${openingText(focus, R.audit.clicks[focus])} (the board just before it)`); return; }
  say(opening ? openingText(last.opening, opening) : R.at ? `${last.t.toFixed(2)} s: flag toggled` :
      `replay ${R.source}: ${R.rows} x ${R.cols}, ${R.mines} mines; press Play or drag the slider`);
}

/** An opening of the replay in words: its number, time, cell, chance of a mine, rating and the engine's move. */
export function openingText(n, o) {
  const p = o.p_mine === null ? "not rated" : `P(mine) ${(o.p_mine * 100).toFixed(1)}% (${o.p_text})`;
  const why = { first: "the first click", safe: "no risk: the cell was proven safe",
                forced: "a forced guess: no cell was proven safe", avoidable: "an avoidable guess: a safe cell existed",
                unrated: "not rated in time" }[o.rating];
  const sure = o.p_mine === 1 ? "; the counts had proven it a mine" : "";
  // on a guess, the engine's move in the same position (as `mineconv audit` gives it), beside the player's
  const e = o.engine;
  const engine = !e ? "" : e.cell[0] === o.row && e.cell[1] === o.col ? "; the engine's move too" :
    `; the engine would open (${e.cell[0]}, ${e.cell[1]}), ${(e.p_mine * 100).toFixed(1)}%: ${e.why}`;
  return `opening ${n + 1} at ${o.time.toFixed(2)} s: ${o.kind} on (${o.row}, ${o.col}), ` +
         `${p}; ${why}${sure}${engine}${o.hit ? "; a mine: the game is lost" : ""}`;
}

function drawTimeline() {
  const R = page.replay;
  const line = output("replay-timeline");
  line.textContent = "";
  R.audit.clicks.forEach((o, n) => {
    const b = document.createElement("button");
    b.dataset.opening = String(n);
    b.dataset.rating = o.rating;
    if (o.p_mine !== null) b.dataset.pMine = String(o.p_mine);
    b.textContent = o.p_mine === null ? `${n + 1}` : `${n + 1}·${Math.round(o.p_mine * 100)}%`;
    b.title = openingText(n, o);
    b.addEventListener("click", () => { pause(); if (o.frame !== null) showFrame(o.frame, n); });
    line.appendChild(b);
  });
  const a = R.audit;
  const luck = a.luck === null ? `luck: none (${a.luck_reason})` : `luck ${a.luck.toFixed(3)}`;
  const summary = output("replay-summary");
  summary.textContent = `${a.clicks.length} openings; guesses: ${a.forced_guesses} forced, ${a.avoidable_guesses} avoidable; ` +
                        `${luck}; 3BV ${a.bbbv}, clicks ${a.clicks_total}${a.lost ? "; lost" : ""}`;
  summary.dataset.luck = a.luck === null ? "" : String(a.luck);
  summary.dataset.bbbv = String(a.bbbv);
}

function pause() {
  const R = page.replay;
  if (R && R.timer) { clearTimeout(R.timer); R.timer = null; }
  const button = control("play");
  button.setAttribute("aria-pressed", "false");
  button.textContent = "Play";
}

// play from here: each frame after the one before, at the replay's own pace (waits capped at a second)
function play() {
  const R = page.replay;
  if (R.timer) { pause(); return; }
  if (R.at >= R.frames.length) showFrame(0);
  const button = control("play");
  button.setAttribute("aria-pressed", "true");
  button.textContent = "Pause";
  const next = () => {
    if (R.at >= R.frames.length) { pause(); return; }
    const wait = R.at ? (R.frames[R.at].t - R.frames[R.at - 1].t) * 1000 / R.speed : 0;
    R.timer = setTimeout(() => { showFrame(R.at + 1); next(); }, Math.max(20, Math.min(1000, wait)));
  };
  next();
}

async function openReplay(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const a = await runJob({ action: "replay", data: base64Of(bytes), source: file.name });
  if (!a) return;
  if (page.replay) pause();
  remember();
  page.replay = Object.assign(a, { at: 0, timer: null, speed: 1, source: file.name,
                                   mineSet: new Set(a.mine_cells.map(([r, c]) => r * a.cols + c)) });
  showCount(null);
  control("slider").max = String(a.frames.length);
  output("replay").hidden = false;
  drawTimeline();
  showFrame(0);
}

/** The replay's controls wired: its file field, Play, the arrows and the slider. */
export function wireReplay() {
  input("replay").addEventListener("change", (e) => guarded(async () => {
    if (e.target.files[0]) await openReplay(e.target.files[0]);
  }));
  const R = () => page.replay;
  control("play").addEventListener("click", () => { if (R()) play(); });
  control("back").addEventListener("click", () => { if (R()) { pause(); showFrame(R().at - 1); } });
  control("forward").addEventListener("click", () => { if (R()) { pause(); showFrame(R().at + 1); } });
  control("slider").addEventListener("input", (e) => { if (R()) { pause(); showFrame(Number(e.target.value)); } });
}
