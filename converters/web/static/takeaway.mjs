// Taking the board away: exports in any format the server writes, pictures, a permalink.
import { api, runJob } from "./api.mjs";
import { boardText } from "./board.mjs";
import { input, output } from "./contract.mjs";
import { b64url, sizeText } from "./look.mjs";
import { say } from "./render.mjs";
import { page } from "./state.mjs";

function download(name, blob) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
}

// base64 to a Blob through the browser's own decoder (a data: URL), not a JavaScript array per byte
async function blobOf(b64, type = "application/octet-stream") {
  return (await fetch(`data:${type};base64,${b64}`)).blob();
}

const warningsText = (a) => (a.warnings.length ? "\nwarning: " + a.warnings.join("\nwarning: ") : "");

/** Export the board in the chosen format. An export is a file: its size is measured first (in a worker) and
 *  said, then it downloads (it is never written into the page); a big one streams from the server, one past
 *  the export limit is left to `mineconv convert`. */
export async function exportBoard() {
  const format = input("format").value;
  const sized = await runJob({ action: "export_size", board: boardText(page.board), format });
  if (!sized) return;
  const out = output("export-size");
  out.textContent = `${sized.filename}: ${sizeText(sized.bytes)}`;
  out.dataset.value = String(sized.bytes);
  const { streamFrom, exportLimit } = page.limits;
  if (sized.bytes > exportLimit) {
    say(`the ${format} file would be ${sizeText(sized.bytes)}, more than the page offers to download ` +
        `(${sizeText(exportLimit)}): export the board as native and run\n  mineconv convert board.txt --to ${format} -o ${sized.filename}`, true);
    return;
  }
  if (sized.bytes > streamFrom) return exportFile(format, sized);
  say(`exporting as ${format}: ${sized.filename}, ${sizeText(sized.bytes)}; downloading…`);
  const a = await api("POST", "/api/export", { board: boardText(page.board), format });
  download(a.filename, await blobOf(a.data));
  say(`exported as ${format}: ${a.filename} (${sizeText(a.bytes)})${warningsText(a)}`);
}

// a big export: a worker writes the file on the server, then a hidden link fetches it once by its ticket
// (a link cannot carry the token; the ticket is the secret), so its bytes never enter the page
async function exportFile(format, sized) {
  say(`exporting as ${format}: ${sized.filename}, ${sizeText(sized.bytes)}; writing the file…`);
  let ticket = null;
  const a = await runJob({ board: boardText(page.board), format }, "/api/downloads", (first) => { ticket = first.ticket; });
  if (!a) return;
  const link = document.createElement("a");
  link.href = `/download/${encodeURIComponent(ticket)}`;
  link.download = a.filename;
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
  say(`exported as ${format}: ${a.filename} (${sizeText(a.bytes)}), saved by the browser as a download${warningsText(a)}`);
}

/** The board as a picture ("svg" or "png"); with the overlay on, the probabilities drawn on it. */
export async function picture(kind) {
  const text = boardText(page.board);
  const a = page.overlay ? await runJob({ action: "picture", board: text }) : await api("POST", "/api/render", { board: text });
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

/** An address that reloads this board: in the address bar and copied. */
export function permalink() {
  const url = `${location.origin}${location.pathname}#board=${b64url(boardText(page.board))}`;
  history.replaceState(null, "", url);
  if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
  say(`permalink (also in the address bar):\n${url}`);
}
