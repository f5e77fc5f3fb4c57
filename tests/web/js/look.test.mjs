// The page's words and colours under Node (run by tests/web/test_page_script.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  b64url, cellSize, percentText, refusedCell, scaleColour, short, sizeText, unb64url,
} from "../../../converters/web/static/look.mjs";

test("the overlay's scale: its ends and middle, clamped outside [0, 1]", () => {
  assert.equal(scaleColour(0), "rgb(49,54,149)");
  assert.equal(scaleColour(0.5), "rgb(226,226,190)");
  assert.equal(scaleColour(1), "rgb(165,0,38)");
  assert.equal(scaleColour(-1), scaleColour(0));
  assert.equal(scaleColour(2), scaleColour(1));
  assert.equal(scaleColour(0.1), "rgb(59,86,165)", "halfway between the first two stops");
});

test("a probability as a cell shows it", () => {
  assert.deepEqual([0.001, 0.004, 0.456, 0.996].map((p) => percentText(p, 20)), ["<1", "<1", "46", ">99"]);
  assert.equal(percentText(0.456, 30), "46%", "cells of 30 px have room for the sign");
});

test("cells fit 760 px, between 16 and 40 px", () => {
  assert.deepEqual([[9, 9], [16, 30], [100, 100]].map(([r, c]) => cellSize(r, c)), [40, 25, 16]);
});

test("a long number shows its ends and length", () => {
  assert.equal(short("1".repeat(24)), "1".repeat(24));
  const long = "1234567890" + "0".repeat(20) + "654321";
  assert.equal(short(long), "123456789000…654321 (36 digits)");
});

test("sizes in words", () => {
  assert.deepEqual([0, 1023, 1024, 1536, 1048576 * 2.5].map(sizeText),
                   ["0 bytes", "1023 bytes", "1.0 KB", "1.5 KB", "2.5 MB"]);
});

test("a permalink's text survives URL-safe base64, Unicode too", () => {
  const text = "name: Kaye’s splitter ✹\nmines: 3\n??>>\n";
  const coded = b64url(text);
  assert.match(coded, /^[A-Za-z0-9_-]+$/);
  assert.equal(unb64url(coded), text);
});

test("the cell a refused job names", () => {
  assert.deepEqual(refusedCell("cell (3, 12) shows 9: a count is 0 to 8"), [3, 12]);
  assert.equal(refusedCell("no cell here"), null);
});
