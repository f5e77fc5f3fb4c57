"""What the tests share: paths, the external-tool gates, a CLI runner, brute force and random boards.

Test modules import it as `from helpers import ...`, from any folder under tests/ (pyproject's pytest
`pythonpath` puts tests/ on sys.path, under both `pytest` and `python -m pytest`).
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, FrozenSet, List, Optional, Set, Tuple, Union

import numpy as np
import pytest

from mineconv import Puzzle
from mineconv.cli import main

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"   # captured solver outputs (tests/fixtures/README.md)
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

Rng = Union[int, np.random.Generator]


# external tools ------------------------------------------------------------------------------------
def require_tool(name: str) -> str:
    """Path of an external program; skips locally with the reason, fails under CI=true."""
    path = shutil.which(name)
    if path is None:
        msg = f"external solver {name!r} is not installed (.ci/run installs it)"
        if IN_CI:
            pytest.fail(msg + " -- under CI=true a missing solver is a failure")
        pytest.skip(msg)
    return path


def require_module(name: str) -> Any:
    """Import a Python module; skips locally with the reason, fails under CI=true."""
    try:
        return __import__(name)
    except ImportError:
        msg = f"Python module {name!r} is not installed (pip install -e .[test])"
        if IN_CI:
            pytest.fail(msg + " -- under CI=true this is a failure")
        pytest.skip(msg)


def session_processes(session: int) -> List[int]:
    """Processes of a session still running (zombies excluded: they can write nothing), from /proc."""
    alive = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":  # fields: state, ppid, pgrp, session, ...
            alive.append(int(stat_file.parent.name))
    return alive


# the command line ----------------------------------------------------------------------------------
def run_cli(capsys: Any, *argv: Any) -> Tuple[int, str, str]:
    """Run `mineconv ARGV...` in-process; (exit status, stdout, stderr). Arguments may be paths or numbers."""
    capsys.readouterr()   # what earlier steps printed is not this command's output
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def run_tool(cmd: List[str], cwd: Path, timeout: float = 120) -> "subprocess.CompletedProcess[str]":
    """Run an external program (a solver) in cwd; its completed process with text output."""
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


# brute force ---------------------------------------------------------------------------------------
def brute_force(puzzle: Puzzle, mines: Optional[int] = None) -> np.ndarray:
    """Every solution, as an (n, k) bool matrix over the unknown cells in row-major (DIMACS id) order.

    Written from the rules alone (each revealed count equals the mines around it, known mines included;
    the total, when there is one), without build_system or check_assignment, so that it can judge them.
    Every assignment is tried at once: up to about 20 unknown cells.
    """
    cells = puzzle.unknown_cells
    k = len(cells)
    assert k <= 22, f"{k} unknown cells are too many to enumerate"
    index = {rc: i for i, rc in enumerate(cells)}
    bits = ((np.arange(2 ** k, dtype=np.int64)[:, None] >> np.arange(k)) & 1).astype(np.int8)
    ok = np.ones(2 ** k, dtype=bool)
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            n = puzzle.count(r, c)
            if n is None:
                continue
            around = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                      if (dr or dc) and 0 <= r + dr < puzzle.rows and 0 <= c + dc < puzzle.cols]
            known = sum(puzzle[rc] == "*" for rc in around)
            ok &= bits[:, [index[rc] for rc in around if rc in index]].sum(axis=1) == n - known
    total = puzzle.mines if mines is None else mines
    if total is not None:
        ok &= bits.sum(axis=1) == total - puzzle.known_mine_count
    return bits[ok].astype(bool)


def solution_set(puzzle: Puzzle, mines: Optional[int] = None) -> Set[Tuple[int, ...]]:
    """brute_force as a set of 0/1 tuples (bit i is the cell with DIMACS id i + 1)."""
    return {tuple(int(b) for b in row) for row in brute_force(puzzle, mines)}


def mine_sets(puzzle: Puzzle, mines: Optional[int] = None) -> Set[FrozenSet[Tuple[int, int]]]:
    """brute_force as a set of solutions, each the frozenset of its mine cells (known mines included)."""
    known = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if puzzle[r, c] == "*"]
    cells = puzzle.unknown_cells
    return {frozenset(known + [rc for rc, b in zip(cells, row) if b]) for row in brute_force(puzzle, mines)}


# random boards -------------------------------------------------------------------------------------
def _counts(mines: np.ndarray) -> np.ndarray:
    """The number of mines around each cell, by shifting the padded grid (independent of the library)."""
    R, C = mines.shape
    padded = np.pad(mines, 1).astype(np.int8)
    return sum(padded[1 + dr:1 + dr + R, 1 + dc:1 + dc + C]
               for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


def placed_board(rng: Rng, rows: int, cols: int, *, density: float = 0.2, hide: float = 0.4,
                 marks: bool = False, **fields: Any) -> Puzzle:
    """A consistent board: mines placed at random, counts shown, some cells hidden (and, with marks, some
    mines shown as '*' and some hidden safe cells as '.'); `fields` go to Puzzle (mines=, name=, ...)."""
    rng = np.random.default_rng(rng)
    mines = rng.random((rows, cols)) < density
    sym = np.frombuffer(b"012345678", dtype=np.uint8)[_counts(mines)].copy()
    hidden = rng.random((rows, cols)) < hide
    sym[mines | hidden] = ord("?")
    if marks:
        sym[mines & (rng.random((rows, cols)) < 0.5)] = ord("*")
        sym[~mines & hidden & (rng.random((rows, cols)) < 0.3)] = ord(".")
    return Puzzle(rows, cols, sym.tobytes().decode(), **fields)


def random_board(rng: Rng, max_unknown: int = 14) -> Puzzle:
    """A small board (1-5 x 1-5) mixing counts, unknowns, known mines and known safe cells, with at most
    max_unknown unknown cells; sometimes inconsistent (a wrong count, a wrong total): often no solution."""
    rng = np.random.default_rng(rng)
    while True:
        p = _random_board(rng)
        if p.unknown_count <= max_unknown:
            return p


def _random_board(rng: np.random.Generator) -> Puzzle:
    R, C = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    mines = rng.random((R, C)) < rng.uniform(0.1, 0.5)
    counts = _counts(mines)
    limit = _counts(np.ones((R, C), dtype=bool))   # how many neighbours each cell has
    cells = []
    for r in range(R):
        for c in range(C):
            u = rng.random()
            if mines[r, c]:
                cells.append("*" if u < 0.15 else "?")
            elif u < 0.45:
                cells.append("?")
            elif u < 0.5:
                cells.append(".")
            else:
                cells.append(str(counts[r, c]))
    if rng.random() < 0.15:  # a wrong count somewhere: often no solution at all
        i = int(rng.integers(R * C))
        if cells[i] in "012345678" and int(cells[i]) < limit.ravel()[i]:
            cells[i] = str(int(cells[i]) + 1)
    total = None
    u = rng.random()
    if u < 0.4:
        total = int(mines.sum())
    elif u < 0.55:
        total = int(rng.integers(0, R * C + 1))
    return Puzzle(R, C, "".join(cells), mines=total)


# the real replays (third-party files, never copied in) ------------------------------------------------
# beside the repository; MINECONV_REPLAYS names another place (a git worktree elsewhere, say)
REPLAYS = Path(os.environ.get("MINECONV_REPLAYS") or ROOT.parent / "shared" / "replays")
REPLAY_EXTENSIONS = (".avf", ".rmv", ".mvf", ".evf", ".rawvf")
# ms-toollib 1.5 reads Clone 0.97 only; it aborts on the other .mvf versions (SOURCE.txt says so too)
TOOLLIB_UNREADABLE = {"mvf_0.96_beta_or_earlier.mvf", "mvf_2006_release_1.mvf", "mvf_2007_release_2.mvf"}


def require_replays() -> List[Path]:
    """The real replay files; skips locally with the reason, fails under CI=true."""
    files = sorted(p for p in REPLAYS.glob("*/*") if p.suffix in REPLAY_EXTENSIONS) if REPLAYS.is_dir() else []
    if not files:
        msg = f"the real replays are not in {REPLAYS} (the shared folder beside the repository)"
        if IN_CI:
            pytest.fail(msg + " -- under CI=true this is a failure")
        pytest.skip(msg)
    return files


def replay_ids() -> List[str]:
    """test ids of the real replays (folder/name), or ['none'] when they are not there."""
    return [f"{p.parent.name}/{p.name}" for p in sorted(REPLAYS.glob("*/*"))
            if p.suffix in REPLAY_EXTENSIONS] or ["none"]


def mutate(rng: random.Random, seed: str, alphabet: str, most: int = 4) -> str:
    """seed with 1..most random edits (a character replaced, deleted or inserted from alphabet)."""
    chars = list(seed)
    for _ in range(rng.randint(1, most)):
        i = rng.randrange(len(chars))
        op = rng.random()
        if op < 0.4:
            chars[i] = rng.choice(alphabet)
        elif op < 0.7:
            del chars[i]
        else:
            chars.insert(i, rng.choice(alphabet))
    return "".join(chars)


# A child's peak RSS, measured from a small launcher. A process forked from pytest starts with pytest's
# resident pages counted (300-600 MB late in the suite), and Linux keeps that high-water mark across exec,
# so os.wait4 on a child of pytest itself reports pytest's size, not the command's. The launcher is a fresh
# interpreter of ~10 MB: it forks the command under the address-space limit and reports the command's own
# ru_maxrss (KB) and exit status on its last stderr line.
_LAUNCHER = """import os, resource, subprocess, sys
limit = int(sys.argv[1])
def cap():
    if limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
child = subprocess.Popen(sys.argv[2:], preexec_fn=cap)
_, status, usage = os.wait4(child.pid, 0)
sys.stderr.write(f"\\nmeasured: {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}\\n")
"""


def run_measured_child(argv: List[str], limit: int = 0, timeout: float = 60,
                       stdout: Any = subprocess.DEVNULL) -> Tuple[int, str, float, float, str]:
    """`python -m mineconv ARGV` under `limit` bytes of address space (0: none): exit status, stderr, peak
    RSS in MB, wall seconds, and stdout when `stdout` is subprocess.PIPE."""
    import time
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-c", _LAUNCHER, str(limit), sys.executable, "-m", "mineconv",
                             *map(str, argv)], stdout=stdout, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)   # the launcher's group: the command goes with it
        out, err = proc.communicate()
    text = err.decode(errors="replace")
    body, _, last = text.rstrip("\n").rpartition("\n")
    if not last.startswith("measured: "):
        return -9, text, 0.0, time.monotonic() - started, ""
    peak_kb, status = (int(x) for x in last.split()[1:])
    return status, body, peak_kb / 1024, time.monotonic() - started, (out or b"").decode(errors="replace")
