"""The benchmarks' one harness: timing, side-by-side pairing, a stamp of machine and commit, JSON lines.

A benchmark script uses it in four steps:

    ap = argparse.ArgumentParser(...); harness.add_options(ap)          # --record PATH / --no-record
    rec = harness.recorder(args, "bench_small", peers=["ms_toollib"])  # the stamp is taken here, once
    spread = harness.time_call(lambda: analyze(p), repeat=15, number=20)   # or time_process / pair
    rec.record("seconds per call", spread.median, "s", case={"board": "9x9/10"}, spread=spread)

Each `record` appends one JSON line, one measured figure, to `benchmarks/results/<bench>.jsonl`:

    {"kind": "figure", "bench": ..., "figure": ..., "value": ..., "unit": ..., "side": "mineconv" or a
     peer's name, "case": {what was measured: board, format, ...}, "spread": {"min", "median", "max", "n"},
     "extra": {...}, "stamp": {"date", "time" (UTC), "commit", "dirty", "argv",
                               "machine": {"cpu", "cores", "ram_gib", "python", "system", "load"},
                               "versions": {"mineconv", "numpy", and each peer}}}

`benchmarks/report.py` turns these lines into README's tables and the plots. Lines of kind "row" are
tables dated before the harness, converted from README's Markdown (their cells kept as written).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
US = "mineconv"


# timing ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Spread:
    """Repeated measurements of one figure: every run kept, read as min / median / max."""

    runs: Tuple[float, ...]

    @property
    def min(self) -> float:
        """The least run (the one a busy machine disturbed least)."""
        return min(self.runs)

    @property
    def median(self) -> float:
        """The middle run."""
        return statistics.median(self.runs)

    @property
    def max(self) -> float:
        """The greatest run."""
        return max(self.runs)

    def as_dict(self) -> Dict[str, float]:
        """The JSON form: min, median, max and the number of runs."""
        return {"min": self.min, "median": self.median, "max": self.max, "n": len(self.runs)}


def spread(values: Iterable[float]) -> Spread:
    """A Spread of the given measurements (at least one)."""
    runs = tuple(float(v) for v in values)
    if not runs:
        raise ValueError("a spread needs at least one measurement")
    return Spread(runs)


CLOCKS: Dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def time_call(call: Callable[[], Any], repeat: int = 5, number: int = 1, clock: str = "cpu") -> Spread:
    """In-process: seconds per call of `repeat` rounds of `number` calls each (the round's mean)."""
    tick = CLOCKS[clock]
    runs = []
    for _ in range(repeat):
        start = tick()
        for _ in range(number):
            call()
        runs.append((tick() - start) / number)
    return Spread(tuple(runs))


class ChildPeer:
    """A peer in a long-lived child process that answers one JSON line per JSON line asked (so that its rounds
    and this process's alternate, and a change of load hits both alike); restarted when an input kills it."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.argv = list(argv)
        self.proc: Optional[subprocess.Popen] = None

    def ask(self, question: Any) -> Any:
        """The child's answer to one question; None when the question killed the child."""
        if self.proc is None:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(json.dumps(question) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            self.proc.wait()
            self.proc = None
            return None
        return json.loads(line)

    def close(self) -> None:
        """End the child."""
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait()
            self.proc = None


def children_cpu() -> float:
    """User + system CPU seconds of every child process waited for so far."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


@dataclass(frozen=True)
class ProcessRun:
    """One whole child process: its CPU seconds (user + system), wall seconds and what it printed."""

    cpu: float
    wall: float
    returncode: int
    stdout: str
    stderr: str


def run_process(argv: Sequence[str], cwd: Optional[Path] = None, timeout: Optional[float] = None,
                stdin: Optional[str] = None) -> ProcessRun:
    """Run argv to its end; the kernel's account of its CPU (getrusage of the children) and the wall clock."""
    before, start = children_cpu(), time.perf_counter()
    done = subprocess.run(list(argv), cwd=cwd, input=stdin, capture_output=True, text=True, timeout=timeout)
    return ProcessRun(children_cpu() - before, time.perf_counter() - start, done.returncode, done.stdout,
                      done.stderr)


def time_process(argv: Sequence[str], repeat: int = 5, cwd: Optional[Path] = None, clock: str = "cpu") -> Spread:
    """Whole process: CPU (or wall) seconds of `repeat` fresh runs of argv, each required to exit 0."""
    runs = []
    for _ in range(repeat):
        got = run_process(argv, cwd=cwd)
        if got.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} exited {got.returncode}: {got.stderr.strip()[-300:]}")
        runs.append(got.cpu if clock == "cpu" else got.wall)
    return Spread(tuple(runs))


# pairing ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Paired:
    """One input measured by every side, side by side: side name -> its Spread over the rounds."""

    case: Any
    sides: Dict[str, Spread]


def pair(cases: Sequence[Any], sides: Mapping[str, Callable[[Any], float]], rounds: int = 1) -> List[Paired]:
    """Measure every side on the same inputs, rounds alternating side by side on each input (so a change
    of the machine's load hits every side alike); each side's callable returns one measurement."""
    out = []
    for case in cases:
        runs: Dict[str, List[float]] = {name: [] for name in sides}
        for _ in range(rounds):
            for name, measure in sides.items():
                runs[name].append(measure(case))
        out.append(Paired(case, {name: Spread(tuple(values)) for name, values in runs.items()}))
    return out


# the stamp -------------------------------------------------------------------------------------------
def git_commit(root: Path = ROOT) -> Tuple[Optional[str], bool]:
    """(short commit of the checkout, whether it has uncommitted changes); (None, False) outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True)
    except OSError:
        return None, False
    if head.returncode != 0:
        return None, False
    return head.stdout.strip(), bool(dirty.stdout.strip())


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo where there is one)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def ram_gib() -> Optional[float]:
    """Physical memory in GiB, or None where the system does not say."""
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 30, 1)
    except (ValueError, OSError, AttributeError):
        return None


def version_of(distribution: str) -> Optional[str]:
    """The installed version of a distribution (a peer: ms_toollib, d4 ...), None when absent."""
    from importlib import metadata

    for name in (distribution, distribution.replace("_", "-")):
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


def machine() -> Dict[str, Any]:
    """What the figures were measured on."""
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "ram_gib": ram_gib(),
            "python": platform.python_version(), "system": platform.platform(),
            "load": round(os.getloadavg()[0], 2)}


def stamp(peers: Sequence[str] = (), argv: Optional[Sequence[str]] = None,
          versions: Optional[Mapping[str, Optional[str]]] = None) -> Dict[str, Any]:
    """Date and time (UTC), commit, machine and versions (ours, numpy's, each peer's) of a run."""
    now = datetime.datetime.now(datetime.timezone.utc)
    commit, dirty = git_commit()
    found = {name: version_of(name) for name in (US, "numpy", *peers)}
    found.update(versions or {})
    return {"date": now.strftime("%Y-%m-%d"), "time": now.strftime("%H:%M:%S"), "commit": commit, "dirty": dirty,
            "argv": list(sys.argv[1:] if argv is None else argv), "machine": machine(), "versions": found}


# recording -------------------------------------------------------------------------------------------
def results_path(bench: str) -> Path:
    """Where a benchmark's JSON lines live."""
    return RESULTS / f"{bench}.jsonl"


class Recorder:
    """Appends one JSON line per measured figure, every line carrying the run's stamp (taken once)."""

    def __init__(self, bench: str, path: Optional[Path], peers: Sequence[str] = (),
                 argv: Optional[Sequence[str]] = None) -> None:
        self.bench = bench
        self.path = path
        self.stamp = stamp(peers, argv)
        self.lines: List[Dict[str, Any]] = []

    def record(self, figure: str, value: Optional[float], unit: str, side: str = US,
               case: Optional[Mapping[str, Any]] = None, spread: Optional[Spread] = None,
               **extra: Any) -> Dict[str, Any]:
        """Append one figure (value in unit, measured on `side`, for `case`) and return its line."""
        line: Dict[str, Any] = {"kind": "figure", "bench": self.bench, "figure": figure, "value": value,
                                "unit": unit, "side": side, "case": dict(case or {})}
        if spread is not None:
            line["spread"] = spread.as_dict()
        if extra:
            line["extra"] = extra
        line["stamp"] = self.stamp
        self.lines.append(line)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as out:
                out.write(json.dumps(line, sort_keys=False) + "\n")
        return line


def add_options(ap: argparse.ArgumentParser) -> None:
    """The options every benchmark shares: where its JSON lines go, or none."""
    ap.add_argument("--record", type=Path, metavar="PATH",
                    help="append the figures as JSON lines here (default benchmarks/results/<bench>.jsonl)")
    ap.add_argument("--no-record", action="store_true", help="measure and print, record nothing")


def recorder(args: argparse.Namespace, bench: str, peers: Sequence[str] = (),
             argv: Optional[Sequence[str]] = None) -> Recorder:
    """The Recorder the shared options ask for."""
    path = None if args.no_record else (args.record or results_path(bench))
    return Recorder(bench, path, peers, argv)


def read(path: Path) -> List[Dict[str, Any]]:
    """Every JSON line of a results file, in order (none when it does not exist)."""
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]
