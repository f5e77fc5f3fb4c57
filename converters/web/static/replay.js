// mineconv assistant: replays played back (issue 38, point 11). A classic script beside app.js, sharing
// its globals (S, draw, say, runJob ...); every request still goes through app.js's api().
"use strict";

let R = null;   // the replay: {rows, cols, counts, mine_cells, frames, audit, at, timer}

function replayControl(name) { return document.querySelector(`[data-replay="${name}"]`); }

// the board as the player saw it after the first `at` frames: opened cells show their counts, flags on
function replayBoard(at) {
  const board = emptyBoard(R.rows, R.cols);
  board.mines = R.mines;
  board.replay = true;
  for (const frame of R.frames.slice(0, at)) {
    for (const [r, c] of frame.open) {
      const cell = board.cells[r * R.cols + c];
      const mine = R.mineSet.has(r * R.cols + c);
      cell.s = mine ? "mine" : "number"; cell.n = mine ? 0 : Number(R.counts[r][c]);
    }
    for (const [r, c] of frame.flag) {
      const cell = board.cells[r * R.cols + c];
      if (cell.s === "unknown" || cell.s === "flag") cell.s = cell.s === "flag" ? "unknown" : "flag";
    }
  }
  return board;
}

// `focus`: an opening of the timeline, shown on the board just before it (what the player decided on)
function showFrame(at, focus = null) {
  R.at = Math.max(0, Math.min(R.frames.length, at));
  S = replayBoard(R.at);
  const last = R.at ? R.frames[R.at - 1] : null;
  const opening = focus !== null ? null : last && last.opening !== null ? R.audit.clicks[last.opening] : null;
  if (opening && opening.hit) {   // the mine that was hit: the opened cell holding one (a chord opens several)
    const hit = last.open.find(([r, c]) => R.mineSet.has(r * R.cols + c));
    S.game = { over: true, lost: hit || [opening.row, opening.col], layout: null };
  }
  clearAnalysis();
  if (opening) marks.because = new Set([key(opening.row, opening.col)]);
  if (focus !== null) marks.because = new Set([key(R.audit.clicks[focus].row, R.audit.clicks[focus].col)]);
  draw();
  const slider = replayControl("slider");
  slider.value = String(R.at);
  replayControl("clock").textContent = `${(last ? last.t : 0).toFixed(2)} s`;
  replayControl("clock").dataset.value = String(last ? last.t : 0);
  for (const el of document.querySelectorAll("[data-opening]")) {
    const current = focus !== null ? focus : opening !== null ? last.opening : null;
    el.setAttribute("aria-current", String(Number(el.dataset.opening) === current));
  }
  if (focus !== null) { say(`${openingText(focus, R.audit.clicks[focus])} (the board just before it)`); return; }
  say(opening ? openingText(last.opening, opening) : R.at ? `${last.t.toFixed(2)} s: flag toggled` :
      `replay ${R.source}: ${R.rows} x ${R.cols}, ${R.mines} mines; press Play or drag the slider`);
}

function openingText(n, o) {
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
  const line = document.querySelector('[data-output="replay-timeline"]');
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
  const summary = document.querySelector('[data-output="replay-summary"]');
  summary.textContent = `${a.clicks.length} openings; guesses: ${a.forced_guesses} forced, ${a.avoidable_guesses} avoidable; ` +
                        `${luck}; 3BV ${a.bbbv}, clicks ${a.clicks_total}${a.lost ? "; lost" : ""}`;
  summary.dataset.luck = a.luck === null ? "" : String(a.luck);
  summary.dataset.bbbv = String(a.bbbv);
}

function pause() {
  if (R && R.timer) { clearTimeout(R.timer); R.timer = null; }
  const play = replayControl("play");
  play.setAttribute("aria-pressed", "false");
  play.textContent = "Play";
}
// play from here: each frame after the one before, at the replay's own pace (waits capped at a second)
function play() {
  if (R.timer) { pause(); return; }
  if (R.at >= R.frames.length) showFrame(0);
  const button = replayControl("play");
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
  let binary = "";
  bytes.forEach((b) => { binary += String.fromCharCode(b); });
  const a = await runJob({ action: "replay", data: btoa(binary), source: file.name });
  if (!a) return;
  if (R) pause();
  remember();
  R = Object.assign(a, { at: 0, timer: null, speed: 1, source: file.name,
                         mineSet: new Set(a.mine_cells.map(([r, c]) => r * a.cols + c)) });
  showCount(null);
  const slider = replayControl("slider");
  slider.max = String(R.frames.length);
  document.querySelector('[data-output="replay"]').hidden = false;
  drawTimeline();
  showFrame(0);
}

(function wireReplay() {
  document.querySelector('[data-input="replay"]').addEventListener("change", (e) => guarded(async () => {
    if (e.target.files[0]) await openReplay(e.target.files[0]);
  }));
  replayControl("play").addEventListener("click", () => { if (R) play(); });
  replayControl("back").addEventListener("click", () => { if (R) { pause(); showFrame(R.at - 1); } });
  replayControl("forward").addEventListener("click", () => { if (R) { pause(); showFrame(R.at + 1); } });
  replayControl("slider").addEventListener("input", (e) => { if (R) { pause(); showFrame(Number(e.target.value)); } });
})();
