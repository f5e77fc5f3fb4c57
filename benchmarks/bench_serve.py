"""`mineconv serve`: how long a small job waits behind heavy ones (issue 41, point 5), before and after the lanes.

    python benchmarks/bench_serve.py                                        # this install
    python benchmarks/bench_serve.py --python /path/to/other/venv/bin/python --label before

Starts a server (`--workers`, `--job-timeout`, `--worker-memory` as given), times a small job alone (the
probabilities of Dusautoy's 6x6 board, a worker already warm), then queues `--heavy` heavy jobs (the
probabilities of a 60x60 lattice at density 0.4 with its total, which runs to any time limit) and times
the same small job again, from its POST until the poll that says it is done. The heavy jobs are then
cancelled and the server stopped. An install whose server prints no token (before issue 41) is driven
without one.
"""
from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

import harness

ROOT = Path(__file__).resolve().parents[1]


class Served:
    """A running `mineconv serve` and its API."""

    def __init__(self, python: str, flags: Tuple[str, ...]) -> None:
        self.proc = subprocess.Popen([python, "-m", "mineconv", "serve", "--port", "0", *flags],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        assert self.proc.stdout is not None
        url = self.proc.stdout.readline().strip()
        self.base, _, query = url.partition("?")
        self.token = query.partition("token=")[2]

    def call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"token {self.token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base.rstrip("/") + path, data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            answer: Dict[str, Any] = json.loads(response.read())
            return answer

    def timed(self, body: Dict[str, Any], limit: float) -> Tuple[float, str]:
        """Seconds from the POST until the job is finished (or `limit`), and its last state."""
        started = time.monotonic()
        job = self.call("POST", "/api/jobs", body)
        while job["state"] in ("queued", "running") and time.monotonic() - started < limit:
            job = self.call("GET", f"/api/jobs/{job['id']}?wait=1")
        return time.monotonic() - started, job["state"]

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def main() -> int:
    """Time the small job alone and behind the heavy ones; print one table row."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", default=sys.executable, help="the interpreter of the install to measure")
    parser.add_argument("--label", default="this install")
    parser.add_argument("--workers", default="2")
    parser.add_argument("--heavy", type=int, default=10)
    parser.add_argument("--job-timeout", default="20")
    parser.add_argument("--worker-memory", default="1500M")
    parser.add_argument("--limit", type=float, default=150.0, help="seconds to wait for the small job at most")
    harness.add_options(parser)
    args = parser.parse_args()
    rec = harness.recorder(args, "bench_serve")

    import mineconv
    from mineconv.formats.notations.native import canonical_text
    from mineconv.make.generate import lattice_text
    small = {"action": "probabilities",
             "board": canonical_text(mineconv.read(ROOT / "samples" / "dusautoy-6x6.txt").replace(notes=()))}
    heavy = {"action": "probabilities", "board": lattice_text(60, 60, 0.4, total=True, seed=3)}

    served = Served(args.python, ("--workers", args.workers, "--job-timeout", args.job_timeout,
                                  "--worker-memory", args.worker_memory))
    try:
        served.timed(small, args.limit)                     # a worker started and warm
        alone, _ = served.timed(small, args.limit)
        ids = [served.call("POST", "/api/jobs", heavy)["id"] for _ in range(args.heavy)]
        time.sleep(1.0)
        behind, state = served.timed(small, args.limit)
        for job_id in ids:
            served.call("DELETE", f"/api/jobs/{job_id}")
    finally:
        served.stop()
    print(f"| {args.label} | {args.workers} | {args.heavy} | {alone:.2f} | {behind:.2f} ({state}) |")
    side = harness.US if args.python == sys.executable else f"{harness.US} {args.label}"
    limits = {"workers": args.workers, "job_timeout": args.job_timeout, "worker_memory": args.worker_memory}
    rec.record("small job seconds", alone, "s", side, {"queue": "alone"}, python=args.python, **limits)
    rec.record("small job seconds", behind, "s", side, {"queue": f"behind {args.heavy} heavy"}, state=state,
               python=args.python, **limits)
    return 0


if __name__ == "__main__":
    sys.exit(main())
