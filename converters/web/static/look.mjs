// How the page writes numbers and colours: pure functions (Node's tests run them, tests/web/js/look.test.mjs).

// The overlay's scale diverges at 50% (blue below, orange above: the axis colour-blind readers keep,
// after ColorBrewer's RdYlBu), so 45% and 55% differ in hue; certain cells are off the scale, drawn as
// the board draws a decided cell (a white cell with a green check, a mine cell with its star).
const SCALE = [[0, [49, 54, 149]], [0.2, [69, 117, 180]], [0.4, [145, 191, 219]], [0.5, [226, 226, 190]],
               [0.6, [253, 174, 97]], [0.8, [244, 109, 67]], [1, [165, 0, 38]]];

/** The overlay's colour for a mine probability p, as CSS rgb(). */
export function scaleColour(p) {
  const x = Math.min(1, Math.max(0, p));
  let i = 0;
  while (i < SCALE.length - 2 && x > SCALE[i + 1][0]) i++;
  const [x0, a] = SCALE[i], [x1, b] = SCALE[i + 1], t = (x - x0) / (x1 - x0);
  return `rgb(${a.map((v, k) => Math.round(v + (b[k] - v) * t)).join(",")})`;
}

/** A probability as a cell shows it: whole percents, "<1" and ">99" at the ends, "%" on cells of 30 px and more. */
export function percentText(p, size) {
  const pct = p < 0.005 ? "<1" : p > 0.995 ? ">99" : String(Math.round(p * 100));
  return size >= 30 ? `${pct}%` : pct;
}

/** A cell's size in pixels: the board fits 760 px, cells between 16 and 40 px. */
export function cellSize(rows, cols) {
  return Math.max(16, Math.min(40, Math.floor(760 / Math.max(cols, rows))));
}

/** A long number on the page: its first and last digits and how many there are (as `analyze` shortens a count). */
export function short(str) {
  return str.length <= 24 ? str : `${str.slice(0, 12)}…${str.slice(-6)} (${str.length} digits)`;
}

/** A file's size in words: bytes, KB or MB. */
export function sizeText(bytes) {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1048576).toFixed(1)} MB`;
}

/** Text as URL-safe base64 (UTF-8, no padding): a permalink's board. */
export function b64url(text) {
  return btoa(unescape(encodeURIComponent(text))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The text b64url wrote. */
export function unb64url(text) {
  return decodeURIComponent(escape(atob(text.replace(/-/g, "+").replace(/_/g, "/"))));
}

/** What a job refused because of one cell says first ("cell (r, c) ..."): that cell, or null. */
export function refusedCell(message) {
  const at = String(message).match(/^cell \((\d+), (\d+)\)/);
  return at ? [Number(at[1]), Number(at[2])] : null;
}
