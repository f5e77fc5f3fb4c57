"""`mineconv serve`: a big export through the download ticket (issue 38, point 8), timed, with the server's memory.

    python benchmarks/bench_download.py                 # a 200x200 game, 8,000 mines, 40% of the safe cells open
    python benchmarks/bench_download.py --size 100

Makes the board (seeded), writes its CNF with `mineconv convert -o` (timed), then drives a server as the
page does: the size measured in a worker (`export_size`), the file written by a worker (`POST
/api/downloads`), then `GET /download/<ticket>` read in 1 MB chunks. Prints each step's seconds, the
server process's peak RSS (VmHWM) before and after, and whether the streamed bytes equal convert's.
"""
from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, Dict, Optional

import numpy as np

import harness


def board_text(size: int, mines: int, seed: int) -> str:
    """A game in progress: a random layout, 40% of its safe cells open (their numbers), the rest unknown."""
    rng = np.random.default_rng(seed)
    layout = np.zeros(size * size, bool)
    layout[rng.choice(size * size, mines, replace=False)] = True
    layout = layout.reshape(size, size)
    padded = np.pad(layout, 1).astype(int)
    counts = sum(padded[1 + dr:size + 1 + dr, 1 + dc:size + 1 + dc]
                 for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
    opened = (rng.random((size, size)) < 0.4) & ~layout
    rows = ["".join(str(counts[r, c]) if opened[r, c] else "?" for c in range(size)) for r in range(size)]
    return "\n".join(["name: big game", f"mines: {mines}", *rows]) + "\n"


def peak_rss_kb(pid: int) -> int:
    """A process's peak resident set size (VmHWM), in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM"):
            return int(line.split()[1])
    return -1


class Served:
    """A running `mineconv serve` and its API."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "mineconv", "serve", "--port", "0", "--job-timeout", "300"],
                                     stdout=subprocess.PIPE, text=True, start_new_session=True)
        assert self.proc.stdout is not None
        self.base, _, query = self.proc.stdout.readline().strip().partition("?")
        self.token = query.partition("token=")[2]
        self.port = int(self.base.rstrip("/").rsplit(":", 1)[1])

    def call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        request = urllib.request.Request(self.base.rstrip("/") + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            answer: Dict[str, Any] = json.loads(response.read())
            return answer

    def finished(self, job: Dict[str, Any]) -> Dict[str, Any]:
        while job["state"] in ("queued", "running"):
            job = self.call("GET", f"/api/jobs/{job['id']}?wait=1")
        return job

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=30)


def main() -> int:
    """Time each step of the export and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--mines", type=int, default=None, help="default: a fifth of the cells")
    parser.add_argument("--seed", type=int, default=3)
    harness.add_options(parser)
    args = parser.parse_args()
    rec = harness.recorder(args, "bench_download")
    case = {"size": args.size, "mines": args.mines or args.size * args.size // 5, "seed": args.seed}
    board = board_text(args.size, args.mines or args.size * args.size // 5, args.seed)
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "board.txt", Path(folder) / "board.cnf"
        source.write_text(board)
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "mineconv", "convert", str(source), "--to", "cnf", "-o", str(target)],
                       check=True)
        print(f"convert -o: {time.monotonic() - started:.1f} s, {target.stat().st_size} bytes")
        rec.record("seconds", time.monotonic() - started, "s", case={**case, "step": "convert -o"},
                   bytes=target.stat().st_size)
        expected = hashlib.sha256(target.read_bytes()).hexdigest()
    served = Served()
    try:
        print(f"server peak RSS at start: {peak_rss_kb(served.proc.pid)} kB")
        started = time.monotonic()
        sized = served.finished(served.call("POST", "/api/jobs", {"action": "export_size", "board": board,
                                                                  "format": "cnf"}))
        print(f"export_size: {sized['state']}, {time.monotonic() - started:.1f} s, "
              f"{sized.get('answer', {}).get('bytes')} bytes")
        rec.record("seconds", time.monotonic() - started, "s", case={**case, "step": "export_size job"},
                   state=sized["state"])
        started = time.monotonic()
        first = served.call("POST", "/api/downloads", {"board": board, "format": "cnf"})
        written = served.finished(first)
        print(f"file written: {written['state']}, {time.monotonic() - started:.1f} s")
        rec.record("seconds", time.monotonic() - started, "s", case={**case, "step": "file job"},
                   state=written["state"])
        started = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
        connection.request("GET", f"/download/{first['ticket']}")
        response = connection.getresponse()
        digest, sent = hashlib.sha256(), 0
        while True:
            block = response.read(1 << 20)
            if not block:
                break
            digest.update(block)
            sent += len(block)
        print(f"streamed: {response.status}, {sent} bytes, {time.monotonic() - started:.1f} s, "
              f"same bytes as convert: {digest.hexdigest() == expected}")
        rec.record("seconds", time.monotonic() - started, "s", case={**case, "step": "streamed"}, bytes=sent,
                   same_bytes=digest.hexdigest() == expected)
        print(f"server peak RSS after: {peak_rss_kb(served.proc.pid)} kB")
        rec.record("server peak RSS", peak_rss_kb(served.proc.pid) / 1024, "MB", case=case)
    finally:
        served.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
