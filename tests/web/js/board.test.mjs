// The page's board functions under Node (run by tests/web/test_page_script.py): cell cycling, the board's
// text, a game's flood fill and chords, the counters, decisions, hints and a replay's board.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  boardText, cellAt, chordCells, closedCount, CYCLE, decide, emptyBoard, floodOpen, fromAnswer, hintCell,
  minesLeft, nextValue, replayBoard, setCell, typedValue,
} from "../../../converters/web/static/board.mjs";

// a board from rows of the canonical symbols, with "F" for a flag
function boardOf(rows) {
  const board = emptyBoard(rows.length, rows[0].length);
  rows.forEach((row, r) => [...row].forEach((ch, c) => {
    const cell = cellAt(board, r, c);
    if (ch >= "0" && ch <= "8") setCell(cell, Number(ch));
    else setCell(cell, { "*": "mine", ".": "safe", F: "flag", "?": "unknown" }[ch]);
  }));
  return board;
}

const rowsOf = (board) => boardText(board).trimEnd().split("\n").slice(-board.rows);

test("a click cycles a puzzle's cell through unknown, 0 to 8, mine, safe and back", () => {
  const cell = { s: "unknown", n: 0 };
  const seen = [];
  for (let i = 0; i < CYCLE.length; i++) {
    setCell(cell, nextValue(cell));
    seen.push(cell.s === "number" ? cell.n : cell.s);
  }
  assert.deepEqual(seen, [0, 1, 2, 3, 4, 5, 6, 7, 8, "mine", "safe", "unknown"]);
  assert.equal(nextValue({ s: "flag", n: 0 }), 0, "a flag is taken as unknown");
  assert.equal(nextValue({ s: "number", n: 8 }), "mine");
});

test("a key typed over a cell names its value", () => {
  assert.deepEqual(["0", "8", "9", "?", "u", "*", "m", ".", "s", "f", "x"].map(typedValue),
                   [0, 8, undefined, "unknown", "unknown", "mine", "mine", "safe", "safe", "flag", undefined]);
});

test("the board's text: headers, then a symbol a cell, a flag written as unknown", () => {
  const board = boardOf(["1F?", "*.0"]);
  assert.equal(boardText(board), "1??\n*.0\n");
  Object.assign(board, { name: "two  rows", mines: 3, start: [1, 2] });
  assert.equal(boardText(board), "name: two  rows\nmines: 3\nstart: 1,2\n1??\n*.0\n");
  board.mines = 0;
  assert.match(boardText(board), /^name: two {2}rows\nmines: 0\n/, "a total of 0 is written");
});

test("a server's answer read back writes the text it was read from", () => {
  const answer = { rows: 2, cols: 3, grid: ["12?", "*.."], mines: 4, start: [0, 2], name: "x" };
  const board = fromAnswer(answer);
  assert.equal(boardText(board), "name: x\nmines: 4\nstart: 0,2\n12?\n*..\n");
  assert.equal(boardText(fromAnswer({ rows: 1, cols: 1, grid: ["?"] })), "?\n", "no name, total or start");
});

test("opening a zero opens its region of zeros and the counts around it; flags stay", () => {
  // mines:  *...      counts: 1100
  //         ....              1100
  //         ....              0000
  const counts = ["X100", "1100", "0000"];
  const board = emptyBoard(3, 4);
  setCell(cellAt(board, 2, 3), "flag");
  assert.equal(floodOpen(board, counts, 2, 0), 10);
  assert.deepEqual(rowsOf(board), ["?100", "1100", "000?"]);
  assert.equal(cellAt(board, 2, 3).s, "flag");
  const again = emptyBoard(3, 4);
  assert.equal(floodOpen(again, counts, 0, 1), 1, "a count opens alone");
  assert.deepEqual(rowsOf(again), ["?1??", "????", "????"]);
});

test("a chord opens a number's closed neighbours only when its flags are all placed", () => {
  const board = boardOf(["F1?", "?1?"]);
  assert.deepEqual(chordCells(board, 0, 1), [[0, 2], [1, 0], [1, 2]]);
  assert.deepEqual(chordCells(board, 1, 1), [[0, 2], [1, 0], [1, 2]]);
  setCell(cellAt(board, 0, 2), "flag");
  assert.deepEqual(chordCells(board, 0, 1), [], "two flags around a 1");
  assert.deepEqual(chordCells(boardOf(["1?"]), 0, 0), [], "no flag placed");
});

test("mines left: the total less the flags, and outside a game less the known mines", () => {
  const board = boardOf(["F*?", "???"]);
  assert.equal(minesLeft(board), null);
  board.mines = 5;
  assert.equal(minesLeft(board), 3);
  board.game = { over: true };
  assert.equal(minesLeft(board), 4, "a game's revealed mines were not placed by the player");
  assert.equal(closedCount(board), 6);
});

test("a level's findings decide closed cells only, and say which", () => {
  const board = boardOf(["1F?", "?.?"]);
  const fresh = decide(board, [[0, 0, "mine"], [0, 1, "safe"], [0, 2, "mine"], [1, 1, "mine"]]);
  assert.deepEqual([...fresh], [1, 2]);
  assert.deepEqual(rowsOf(board), ["1.*", "?.?"]);
});

test("a hint prefers a proven-safe closed cell beside a number", () => {
  const board = boardOf(["???", "??1"]);
  assert.deepEqual(hintCell(board, [[0, 0], [0, 2], [1, 2]]), [0, 2]);
  assert.deepEqual(hintCell(board, [[0, 0]]), [0, 0]);
  assert.equal(hintCell(board, [[1, 2]]), null, "an open cell is no hint");
});

test("a replay's board after some frames: its openings, a mine opened, flags toggled", () => {
  const replay = { rows: 2, cols: 2, mines: 1, counts: ["1X", "11"], mineSet: new Set([1]),
                   frames: [{ open: [[0, 0]], flag: [] }, { open: [], flag: [[0, 1]] },
                            { open: [], flag: [[0, 1]] }, { open: [[0, 1]], flag: [] }] };
  assert.deepEqual(rowsOf(replayBoard(replay, 0)), ["??", "??"]);
  assert.equal(replayBoard(replay, 0).replay, true);
  assert.equal(cellAt(replayBoard(replay, 2), 0, 1).s, "flag");
  assert.equal(cellAt(replayBoard(replay, 3), 0, 1).s, "unknown");
  assert.deepEqual(rowsOf(replayBoard(replay, 4)), ["1*", "??"]);
  assert.equal(replayBoard(replay, 4).mines, 1);
});
