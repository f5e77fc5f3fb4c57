// The page's test contract (README, "The assistant": "For scripts and tests the page keeps a contract";
// tests/web/test_web.py, tests/web/test_page_*.py): the `data-*` names its elements carry, found only through
// these functions, and the few names its browser tests read from `window`. Extend it, never change it.
//   data-action="NAME"   a button the person presses       data-input="NAME"   a field they fill
//   data-output="NAME"   what the page tells them          data-replay="NAME"  the replay's controls
//   on the board's cells: data-row, data-col, data-state, data-p, data-sure, data-hit, data-wrong-flag,
//   data-hint, data-advised; on <body>: data-ready="true" once the page has started.

/** The button of data-action NAME. */
export const action = (name) => document.querySelector(`[data-action="${name}"]`);
/** The field of data-input NAME. */
export const input = (name) => document.querySelector(`[data-input="${name}"]`);
/** The element of data-output NAME. */
export const output = (name) => document.querySelector(`[data-output="${name}"]`);
/** The replay control of data-replay NAME. */
export const control = (name) => document.querySelector(`[data-replay="${name}"]`);
/** The replay timeline's buttons, one per opening (data-opening: its index in `audit --json`'s clicks). */
export const openings = () => document.querySelectorAll("[data-opening]");
/** The data-* keys (dataset names) of a cell that the drawing sets afresh each time. */
export const CELL_MARKS = ["p", "hit", "wrongFlag", "hint", "sure", "advised"];

/** The names the browser tests read and set on `window`: views onto the page's one state object (`page`
 *  of state.mjs), not variables of their own. S: the board; scaleColour: the overlay's colours;
 *  STREAM_FROM and EXPORT_LIMIT: the export sizes at which a file streams and past which none is offered. */
export function exposeToTests(page, scaleColour) {
  Object.defineProperties(window, {
    S: { get: () => page.board },
    scaleColour: { value: scaleColour },
    STREAM_FROM: { get: () => page.limits.streamFrom, set: (v) => { page.limits.streamFrom = v; } },
    EXPORT_LIMIT: { get: () => page.limits.exportLimit, set: (v) => { page.limits.exportLimit = v; } },
  });
}
