"""A click in a game on the assistant page: opened by the page itself, or asked of the server (issue 39)?

    python benchmarks/bench_page_click.py                  # 9x9/10, 16x30/99, 100x100/1600, 100x100/0
    python benchmarks/bench_page_click.py --repeat 50

Starts `mineconv serve`, opens the page in Chromium (/usr/bin/chromium, through Playwright) and times, for
each board, in the page: the page's own flood fill (`floodOpen` of static/board.mjs on a closed board, the
click that opens most), and the round trip of the lightest request that carries the board (`/api/load` of
its text: what an "open this cell" action would cost at the least, before its own work). In this process:
`core/layout.opened_state` on the same click (the server's work for that action). Medians in milliseconds.
"""
from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import time
from typing import Tuple

import numpy as np

from mineconv.core.layout import mine_counts, opened_state

import harness

BOARDS = ((9, 9, 10), (16, 30, 99), (100, 100, 1600), (100, 100, 0))

TIMED_IN_PAGE = """async ([rows, cols, counts, r, c, text, token, repeat]) => {
  const { emptyBoard, floodOpen } = await import("/static/board.mjs");
  const fill = [], trip = [];
  for (let i = 0; i < repeat; i++) {
    const board = emptyBoard(rows, cols);
    let t = performance.now();
    floodOpen(board, counts, r, c);
    fill.push(performance.now() - t);
    t = performance.now();
    const answer = await fetch("/api/load", { method: "POST", body: JSON.stringify({ text, format: "native" }),
      headers: { "Content-Type": "application/json", Authorization: `token ${token}` } });
    await answer.json();
    trip.push(performance.now() - t);
  }
  return [fill, trip];
}"""


def biggest_click(grid: np.ndarray) -> Tuple[int, int]:
    """The safe cell whose click opens the most cells (a zero in the largest region, else any safe cell)."""
    first = np.argwhere(~grid)[0]
    best, size = (int(first[0]), int(first[1])), -1
    for r, c in np.argwhere((mine_counts(grid) == 0) & ~grid)[:200]:
        opened = len(grid.flat) - opened_state(grid, int(r), int(c)).cells.count("?")
        if opened > size:
            best, size = (int(r), int(c)), opened
    return best


def main() -> None:
    """Time each board and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    harness.add_options(parser)
    args = parser.parse_args()
    rec = harness.recorder(args, "bench_page_click")
    from playwright.sync_api import sync_playwright

    proc = subprocess.Popen([sys.executable, "-m", "mineconv", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    token = url.partition("token=")[2]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector("body[data-ready=true]")
            print("board          cells opened  page flood fill  /api/load round trip  opened_state (Python)")
            for rows, cols, mines in BOARDS:
                rng = np.random.default_rng(39)
                grid = np.zeros(rows * cols, dtype=bool)
                grid[rng.choice(rows * cols, size=mines, replace=False)] = True
                grid = grid.reshape(rows, cols)
                r, c = biggest_click(grid)
                counts = ["".join(str(int(n)) for n in row) for row in mine_counts(grid).tolist()]
                shown = opened_state(grid, r, c)
                text = "\n".join(shown.grid_lines) + "\n"
                fill, trip = page.evaluate(TIMED_IN_PAGE, [rows, cols, counts, r, c, text, token, args.repeat])
                python = []
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    opened_state(grid, r, c)
                    python.append((time.perf_counter() - t) * 1000)
                opened = rows * cols - shown.cells.count("?")
                print(f"{rows}x{cols}/{mines:<6} {opened:>12}  {statistics.median(fill):>12.3f} ms  {statistics.median(trip):>17.2f} ms"
                      f"  {statistics.median(python):>16.2f} ms")
                case = {"board": f"{rows}x{cols}/{mines}", "opened": opened, "repeat": args.repeat}
                rec.record("page flood fill", statistics.median(fill), "ms", case=case)
                rec.record("round trip /api/load", statistics.median(trip), "ms", case=case)
                rec.record("opened_state", statistics.median(python), "ms", case=case)
            browser.close()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)


if __name__ == "__main__":
    main()
