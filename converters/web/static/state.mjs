// The page's state: one object, owned here, handed to the modules that read and change it.
import { clone, emptyBoard } from "./board.mjs";

const HISTORY = 500;   // undo snapshots kept

/** No marks on the board: the cells a step used and found, a hint, the best move, a refused cell. */
export const noMarks = () => ({ because: new Set(), fresh: new Set(), hint: null, advised: null, error: null });

export const page = {
  board: emptyBoard(9, 9),   // as the size inputs say
  past: [], future: [],      // undo and redo snapshots of the board
  overlay: null,             // the probabilities grid while shown
  marks: noMarks(),
  job: null,                 // {id, cancelled} of the work in progress
  replay: null,              // the replay being watched (replay.mjs)
  // exports larger than streamFrom never pass through the tab (a 247 MB CNF in base64 crashed it): the server
  // writes the file and the browser fetches it by a one-use ticket; past exportLimit the page offers none
  limits: { streamFrom: 4 * 1048576, exportLimit: 2048 * 1048576 },
};

/** Keep the board as it is for undo (a change follows), and forget what was undone. */
export function remember() {
  page.past.push(clone(page.board));
  if (page.past.length > HISTORY) page.past.shift();
  page.future.length = 0;
}

/** Step back (`from` page.past, `to` page.future) or forward (the other way); false when there is nowhere to go. */
export function travel(from, to) {
  if (!from.length) return false;
  to.push(clone(page.board));
  page.board = from.pop();
  return true;
}

/** Forget what was computed on the board (the overlay and the marks). */
export function forget() {
  page.overlay = null;
  page.marks = noMarks();
}
