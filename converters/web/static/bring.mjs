// Bringing a puzzle: pasted text, a shipped sample or a file, read by the server in any notation.
import { api } from "./api.mjs";
import { fromAnswer } from "./board.mjs";
import { input, output } from "./contract.mjs";
import { takeBoard } from "./play.mjs";
import { say } from "./render.mjs";

// a paste the page cannot read: the page's words, the line and column named and selected in the paste
function pasteError(failed) {
  const where = output("paste-error");
  const box = input("paste");
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

/** Read text (pasted, a sample's, a permalink's) in the notation chosen, or the one detected. */
export async function loadText(text, source) {
  const notation = input("notation").value || undefined;
  const a = await api("POST", "/api/load", { text, source, format: notation, located: true });
  if (a.failed) { pasteError(a.failed); return; }
  pasteError(null);
  takeBoard(fromAnswer(a));
  const warn = a.warnings.length ? "\nwarning: " + a.warnings.join("\nwarning: ") : "";
  say(`read ${a.rows} x ${a.cols} as ${a.notation}${a.mines !== null ? `, ${a.mines} mines in all` : ""}${warn}`);
}

/** The shipped sample chosen in its list, into the paste box and onto the board. */
export async function loadSample(name) {
  if (!name) return;
  const a = await api("POST", "/api/sample", { name });
  input("paste").value = a.text;
  await loadText(a.text, a.name);
}

/** A file opened: text goes through the paste box; other bytes (a binary notation) to the server as base64. */
export async function loadFile(file) {
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = null;
  try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch (err) { text = null; }
  if (text !== null && !text.includes("\u0000")) {
    input("paste").value = text;
    await loadText(text, file.name);
    return;
  }
  const a = await api("POST", "/api/load", { data: base64Of(bytes), source: file.name,
                                             format: input("notation").value || undefined });
  takeBoard(fromAnswer(a));
  say(`read ${a.rows} x ${a.cols} as ${a.notation} from ${file.name}`);
}

/** A file's bytes as base64 (for a request body). */
export function base64Of(bytes) {
  let binary = "";
  bytes.forEach((b) => { binary += String.fromCharCode(b); });
  return btoa(binary);
}
