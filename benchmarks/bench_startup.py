"""Start-up: CPU seconds of whole `mineconv` processes, side by side with the interpreter's own floor.

    python benchmarks/bench_startup.py                        # this install
    python benchmarks/bench_startup.py --python /path/to/other/venv/bin/python --label before

Each task runs in a fresh process, `--repeat` times (interleaved across installs, so a busy machine
slows every install alike); the median of the child's user + system CPU is reported. Bytecode is
compiled first (`compileall`), because this machine sets PYTHONDONTWRITEBYTECODE and would otherwise
measure the compiler on every run. Tasks:

- `python -c pass` and `import numpy, pysat.solvers`: the floors nothing of ours can beat;
- `mineconv --version`;
- `mineconv solve` on a 3x3 board (embedded solver);
- `mineconv convert` of a 1000x1000 board (20% mines, fully revealed) to .lp, .mps, .cnf and .mod.

Under the table, the ratios of issue 24's start-up targets for each install, side by side: `--version` over
`python -c pass` (target at most 3) and the 3x3 solve over `import numpy, pysat.solvers` (at most 1.25).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import harness

# issue 24's start-up targets: (task, floor task it is measured against, the largest ratio allowed)
TARGETS = (("mineconv --version", "python -c pass", 3.0), ("mineconv solve 3x3", "import numpy, pysat", 1.25))

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BOARD_3X3 = ROOT / "samples" / "seed-3x3.txt"


def cpu_of(cmd: Sequence[str], cwd: Path) -> float:
    """User + system CPU seconds of one child process running cmd."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(list(cmd), cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def big_board(folder: Path, python: str) -> Path:
    """A 1000x1000 fully revealed board with 20% mines, written once in the native notation."""
    path = folder / "big.txt"
    script = ("import numpy as np, mineconv; from mineconv.core.layout import full_reveal;"
              "g = np.random.default_rng(7).random((1000, 1000)) < 0.2;"
              f"mineconv.write(full_reveal(g), {str(path)!r})")
    legacy = script.replace("from mineconv.core.layout import full_reveal",
                            "from mineconv.generate import full_reveal")
    if subprocess.run([python, "-c", script], capture_output=True).returncode != 0:
        subprocess.run([python, "-c", legacy], check=True)
    return path


def tasks(python: str, folder: Path, board: Path) -> List[Tuple[str, List[str]]]:
    """(label, command) of every measured task for one install."""
    cli = [python, "-m", "mineconv"]
    out = []
    out.append(("python -c pass", [python, "-c", "pass"]))
    out.append(("import numpy, pysat", [python, "-c", "import numpy, pysat.solvers"]))
    out.append(("mineconv --version", cli + ["--version"]))
    out.append(("mineconv solve 3x3", cli + ["solve", str(BOARD_3X3)]))
    for ext in ("lp", "mps", "cnf", "mod"):
        out.append((f"convert 1000x1000 .{ext}", cli + ["convert", str(board), "-o", str(folder / f"big.{ext}")]))
    return out


def main(argv: Sequence[str] = ()) -> int:
    """Measure every task for each install and print a table of median CPU seconds."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", action="append", default=[], help="another install's python (repeatable)")
    ap.add_argument("--label", action="append", default=[], help="a label for each --python")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--skip-big", action="store_true", help="leave out the 1000x1000 conversions")
    harness.add_options(ap)
    args = ap.parse_args(list(argv) or None)
    rec = harness.recorder(args, "bench_startup")
    pythons = [sys.executable] + args.python
    labels = ["this"] + (args.label + [f"other{i}" for i in range(len(args.label), len(args.python))])
    for python in pythons:  # bytecode once, so no run pays for compiling
        code = "import mineconv, os, compileall; compileall.compile_dir(os.path.dirname(mineconv.__file__), quiet=1)"
        subprocess.run([python, "-c", code], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        board = big_board(folder, sys.executable)
        plan = {label: tasks(python, folder, board) for label, python in zip(labels, pythons)}
        names = [name for name, _ in plan[labels[0]] if not (args.skip_big and name.startswith("convert"))]
        times: Dict[Tuple[str, str], List[float]] = {}
        for _ in range(args.repeat):
            for label in labels:
                for name, cmd in plan[label]:
                    if name in names:
                        times.setdefault((label, name), []).append(cpu_of(cmd, ROOT))
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} median CPU seconds of {args.repeat} runs, "
          f"load average {os.getloadavg()[0]:.1f}")
    print("| task | " + " | ".join(labels) + " |")
    print("|---|" + "---:|" * len(labels))
    median = {key: statistics.median(values) for key, values in times.items()}
    for name in names:
        cells = [f"{median[(label, name)]:.3f}" for label in labels]
        print(f"| {name} | " + " | ".join(cells) + " |")
        for label in labels:
            rec.record("CPU seconds", median[(label, name)], "s", side(label), {"task": name},
                       harness.spread(times[(label, name)]), python=pythons[labels.index(label)])
    print()
    print("| ratio (target) | " + " | ".join(labels) + " |")
    print("|---|" + "---:|" * len(labels))
    for task, floor, most in TARGETS:
        cells = [f"{median[(label, task)] / median[(label, floor)]:.2f}x" for label in labels]
        print(f"| {task} / {floor} (<= {most:g}x) | " + " | ".join(cells) + " |")
        for label in labels:
            rec.record("ratio to the floor", median[(label, task)] / median[(label, floor)], "x", side(label),
                       {"task": f"{task} / {floor}"}, target=most)
    return 0


def side(label: str) -> str:
    """The side a label's figures are recorded under: this install is 'mineconv', another 'mineconv LABEL'."""
    return harness.US if label == "this" else f"{harness.US} {label}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
