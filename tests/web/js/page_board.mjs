// A bridge for tests/web/test_page_script.py: runs the page's own board functions on the boards Python sends
// (JSON on stdin) so the test can compare them with their Python homes. Not a test file of its own.
//   in:  {"answers": [board_answer, ...], "opens": [{"rows", "cols", "counts", "row", "col"}, ...]}
//   out: {"texts": [boardText(fromAnswer(a)), ...], "opens": [[row of digits and "?", ...], ...]}
import { readFileSync } from "node:fs";

import { boardText, emptyBoard, floodOpen, fromAnswer } from "../../../converters/web/static/board.mjs";

const given = JSON.parse(readFileSync(0, "utf8"));
const texts = given.answers.map((a) => boardText(fromAnswer(a)));
const opens = given.opens.map(({ rows, cols, counts, row, col }) => {
  const board = emptyBoard(rows, cols);
  floodOpen(board, counts, row, col);
  return Array.from({ length: rows }, (_, r) => board.cells.slice(r * cols, (r + 1) * cols)
    .map((x) => (x.s === "number" ? String(x.n) : "?")).join(""));
});
process.stdout.write(JSON.stringify({ texts, opens }));
