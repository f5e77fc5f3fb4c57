// Talking to the server: its one `api()` (every request carries the run's token), jobs polled to their end.
import { busy, say } from "./render.mjs";
import { page } from "./state.mjs";

// the server's key for this run comes in the address it printed (?token=...): kept, then hidden from the bar
const TOKEN = (() => {
  const url = new URL(location.href), given = url.searchParams.get("token"), name = "mineconv-token";
  try {
    if (!given) return sessionStorage.getItem(name) || localStorage.getItem(name) || "";
    sessionStorage.setItem(name, given);
    localStorage.setItem(name, given);   // a permalink opened in a new tab finds it too
  } catch (e) { /* storage turned off: the key lives as long as this page */ }
  url.searchParams.delete("token");
  history.replaceState(null, "", url.pathname + url.search + url.hash);
  return given || "";
})();

/** One request to the server's API; its JSON answer, or an Error with the server's words. */
export async function api(method, path, body) {
  const response = await fetch(path, { method, headers: { "Content-Type": "application/json",
                                                          Authorization: `token ${TOKEN}` },
                                       body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok || answer.error) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}

/** Heavy work: asked for at `start` (a big export's file at /api/downloads), polled until done; its answer,
 *  or null when cancelled. `started` sees the first answer. One job at a time: a new one cancels the last. */
export async function runJob(request, start = "/api/jobs", started = null) {
  if (page.job) await cancel(false);
  const mine = { id: null, cancelled: false };
  page.job = mine;
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
    if (page.job === mine) { page.job = null; busy(false); }
  }
}

/** Cancel the job in progress (and say so when `tell`). */
export async function cancel(tell = true) {
  const current = page.job;
  if (!current) return;
  current.cancelled = true;
  page.job = null;
  busy(false);
  if (current.id) { try { await api("DELETE", `/api/jobs/${current.id}`); } catch (e) { /* already gone */ } }
  if (tell) say("cancelled");
}

/** Run work; an error it throws becomes the page's red message. */
export async function guarded(work) {
  try { await work(); } catch (e) { say(String(e.message || e), true); }
}
