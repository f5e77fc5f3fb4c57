"""Time parse + write of every solver format on a big board, against PuLP and glpsol doing the same job.

    python benchmarks/bench_formats.py                      # 1000x1000, 20% mines, every safe cell revealed
    python benchmarks/bench_formats.py --size 300 --skip-pulp
    python benchmarks/bench_formats.py --formats lp,mps --keep bench-out

The board is Chlond's setting: a random mine placement (fixed seed) with every safe cell showing its count
and the total mine count given. Each measurement runs in a fresh Python process, so "wall" is what a user
waits for `mineconv convert` (interpreter start-up and imports included) and "peak MB" is that process's
own maximum resident size. Every format is written twice and the two outputs must be byte-identical.
Baselines, also in fresh processes: PuLP building the same model (mineconv.encode.to_pulp) then
`writeLP` / `writeMPS`, and glpsol translating the MathProg model (`glpsol --check -m FILE.mod --wlp`).
The command is also timed by --user-python, when given: an interpreter of a virtual environment holding a
plain (not editable) install, as a user's `pip install mineconv` makes one (`python -m venv DIR && DIR/bin/pip
install .`). A development environment pays at every start for what its site-packages hold: here an
editable install's import finder and a certificate hook load `pathlib`, `importlib.resources` and `certifi`
(`python -c pass`: 85 ms of CPU, against 14 ms in the plain venv), a cost no user's install has.
Targets: each format at least 50x faster than PuLP build + write (issue 24 target 5; it was 20x), judged on
the `mineconv convert` command (by --user-python when given: a user's install), peak memory under 300 MB.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

import harness

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ["cnf", "lp", "mps", "fixed-mps", "mathprog", "opb", "smt2", "mzn", "asp", "xcsp"]
EXT = {"cnf": ".cnf", "lp": ".lp", "mps": ".mps", "fixed-mps": ".mps", "mathprog": ".mod", "opb": ".opb",
       "smt2": ".smt2", "mzn": ".mzn", "asp": ".asp", "xcsp": ".xml"}
SPEED_TARGET = 50.0   # issue 24 target 5 (issue 9's was 20)
MEMORY_TARGET_MB = 300.0
# the command's CPU is the least of this many runs: on the 2-core machine two runs of the same command
# moved by up to 50% (0.40 to 0.62 s for .cnf) with nothing else running
CLI_RUNS = 5

CHILD_WRITE = r"""
import json, resource, sys, time
c0, t0 = time.process_time(), time.perf_counter()
from mineconv.formats import reading, writing
c1, t1 = time.process_time(), time.perf_counter()
puzzle = reading.read(sys.argv[1])
writing.write(puzzle, sys.argv[2], sys.argv[3])
c2, t2 = time.process_time(), time.perf_counter()
print(json.dumps({"import": t1 - t0, "work": t2 - t1, "work_cpu": c2 - c1,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

CHILD_PULP = r"""
import json, resource, sys, time, warnings
warnings.simplefilter("ignore")
from mineconv.formats import reading, writing
from mineconv.encode import to_pulp
puzzle = reading.read(sys.argv[1])
clock = time.process_time
c0, t0 = clock(), time.perf_counter()
prob = to_pulp(puzzle)
c1, t1 = clock(), time.perf_counter()
prob.writeLP(sys.argv[2])
c2, t2 = clock(), time.perf_counter()
prob.writeMPS(sys.argv[3])
c3, t3 = clock(), time.perf_counter()
print(json.dumps({"build": t1 - t0, "writeLP": t2 - t1, "writeMPS": t3 - t2,
                  "build_cpu": c1 - c0, "writeLP_cpu": c2 - c1, "writeMPS_cpu": c3 - c2,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def sha256(path: Path) -> str:
    """Digest of a file, read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def cli_cpu(board: Path, out: Path, fmt: str, sha: str, python: str = sys.executable) -> float:
    """CPU seconds of `mineconv convert BOARD -o OUT --to FMT` in a fresh process (as a user runs it: the CLI's
    argument parsing and its one BLAS thread included), by the given interpreter; its bytes must be the
    library's."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([python, "-m", "mineconv", "convert", str(board), "-o", str(out), "--to", fmt, "-q"],
                          cwd=out.parent, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0 or sha256(out) != sha:
        raise SystemExit(f"mineconv convert --to {fmt} failed or wrote other bytes:\n{proc.stderr}")
    out.unlink()
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def child(code: str, *args: str) -> Dict:
    """Run code in a fresh interpreter; its JSON report plus the wall time of the whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"child failed ({' '.join(args)}):\n{proc.stderr}")
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    report["wall"] = wall
    report["cpu"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return report


def make_board(size: int, density: float, seed: int, folder: Path) -> Path:
    """Write the benchmark board in the native notation; return its path."""
    sys.path.insert(0, str(ROOT))
    from mineconv.formats import writing
    from mineconv.make.generate import place_mines
    from mineconv.core.layout import full_reveal

    puzzle = full_reveal(place_mines(size, size, density=density, seed=seed))
    path = folder / f"board-{size}.txt"
    writing.write(puzzle, path, "native")
    print(f"board: {size} x {size}, {puzzle.unknown_count} unknown cells (mines), "
          f"{puzzle.stats['revealed']} counts, total {puzzle.mines}")
    return path


def main(argv: Optional[List[str]] = None) -> int:
    """Run the benchmark and print the table and the verdicts."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1000, help="board side (default 1000)")
    ap.add_argument("--density", type=float, default=0.2, help="mine density (default 0.2)")
    ap.add_argument("--seed", type=int, default=1, help="random seed of the mine placement (default 1)")
    ap.add_argument("--formats", default=",".join(FORMATS), help="comma-separated formats (default all)")
    ap.add_argument("--skip-pulp", action="store_true", help="do not run the PuLP baseline (slow: minutes)")
    ap.add_argument("--skip-glpsol", action="store_true", help="do not run the glpsol baseline")
    ap.add_argument("--user-python", metavar="PYTHON",
                    help="also time `mineconv convert` by this interpreter: a virtual environment with a plain "
                         "`pip install .` (column x PuLP(user))")
    ap.add_argument("--keep", metavar="DIR", help="write the files here and keep them (default: a temp folder)")
    harness.add_options(ap)
    args = ap.parse_args(argv)
    formats = [f for f in args.formats.split(",") if f]
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="mineconv-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        return run(args, formats, folder)
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


def run(args: argparse.Namespace, formats: List[str], folder: Path) -> int:
    """The measurements (files in folder)."""
    board = make_board(args.size, args.density, args.seed, folder)
    results: Dict[str, Dict] = {}
    for fmt in formats:
        runs = []
        for i in range(2):
            out = folder / f"out-{fmt}-{i}{EXT[fmt]}"
            report = child(CHILD_WRITE, str(board), str(out), fmt)
            report["bytes"] = out.stat().st_size
            report["sha"] = sha256(out)
            if i:
                out.unlink()
            runs.append(report)
        best = min(runs, key=lambda r: r["cpu"])
        best["cli_cpu"] = min(cli_cpu(board, folder / f"cli-{fmt}{EXT[fmt]}", fmt, runs[0]["sha"]) for _ in range(CLI_RUNS))
        if args.user_python:
            best["user_cpu"] = min(cli_cpu(board, folder / f"user-{fmt}{EXT[fmt]}", fmt, runs[0]["sha"],
                                           args.user_python) for _ in range(CLI_RUNS))
        best["identical"] = runs[0]["sha"] == runs[1]["sha"]
        best["peak_mb"] = max(r["peak_mb"] for r in runs)
        results[fmt] = best
        print(f"  {fmt:<10} wall {best['wall']:6.2f} s  cpu {best['cpu']:6.2f} s  (parse + write: cpu "
              f"{best['work_cpu']:.2f} s; `mineconv convert`: cpu {best['cli_cpu']:.2f} s)  peak "
              f"{best['peak_mb']:6.1f} MB", flush=True)

    pulp = None
    if not args.skip_pulp:
        print("PuLP baseline (build + writeLP + writeMPS) ...", flush=True)
        pulp = child(CHILD_PULP, str(board), str(folder / "pulp.lp"), str(folder / "pulp.mps"))
        print(f"  PuLP cpu: build {pulp['build_cpu']:.1f} s, writeLP {pulp['writeLP_cpu']:.1f} s, writeMPS "
              f"{pulp['writeMPS_cpu']:.1f} s (wall {pulp['build']:.1f} + {pulp['writeLP']:.1f} + "
              f"{pulp['writeMPS']:.1f} s), peak {pulp['peak_mb']:.0f} MB", flush=True)

    glpsol_s = glpsol_cpu = None
    glpsol = shutil.which("glpsol")
    if not args.skip_glpsol and glpsol:
        mod = folder / "glpsol-input.mod"
        if "mathprog" in results:
            mod = folder / "out-mathprog-0.mod"
        else:
            child(CHILD_WRITE, str(board), str(mod), "mathprog")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        proc = subprocess.run([glpsol, "--check", "-m", str(mod), "--wlp", str(folder / "glpsol.lp")],
                              capture_output=True, text=True)
        glpsol_s = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        glpsol_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        if proc.returncode != 0:
            print(proc.stdout[-2000:])
            glpsol_s = None
        else:
            print(f"glpsol translating the MathProg model to LP: {glpsol_s:.1f} s (cpu {glpsol_cpu:.1f} s)",
                  flush=True)

    print()
    print(f"{'format':<10} {'wall s':>7} {'cpu s':>6} {'cli cpu':>7} {'peak MB':>8} {'out MB':>7} {'same':>5} "
          f"{'x PuLP':>7} {'x PuLP(cli)':>11} {'x PuLP(user)':>12} {'x PuLP(work)':>12} {'x glpsol':>8}")
    ok = True
    for fmt, r in results.items():
        ratio = ratio_cli = ratio_work = ratio_user = g = None
        if pulp:
            # PuLP's cost for this job: building the model, then its own writer for the format family
            pulp_cpu = pulp["build_cpu"] + (pulp["writeMPS_cpu"] if "mps" in fmt else pulp["writeLP_cpu"])
            ratio = pulp_cpu / r["cpu"]
            ratio_cli = pulp_cpu / r["cli_cpu"]
            ratio_work = pulp_cpu / r["work_cpu"]
            ratio_user = pulp_cpu / r["user_cpu"] if "user_cpu" in r else None
        if glpsol_s:
            g = glpsol_cpu / r["cpu"]
        fmt_ratio = (lambda x, w=7: f"{x:{w}.1f}" if x is not None else " " * (w - 1) + "-")
        print(f"{fmt:<10} {r['wall']:7.2f} {r['cpu']:6.2f} {r['cli_cpu']:7.2f} {r['peak_mb']:8.1f} "
              f"{r['bytes'] / 1e6:7.1f} {'yes' if r['identical'] else 'NO':>5} {fmt_ratio(ratio)} "
              f"{fmt_ratio(ratio_cli, 11)} {fmt_ratio(ratio_user, 12)} {fmt_ratio(ratio_work, 12)} "
              f"{fmt_ratio(g, 8)}")
        # the target is judged on the command as users run it: by --user-python's plain install when given,
        # else by this interpreter (whose development install pays import hooks at every start)
        judged = ratio_user if ratio_user is not None else ratio_cli
        ok &= r["identical"] and r["peak_mb"] < MEMORY_TARGET_MB and (judged is None or judged >= SPEED_TARGET)
    print()
    print("CPU seconds (a busy machine stretches wall time much more). x PuLP: PuLP build + writeLP (writeMPS "
          "for MPS) over a whole process reading and writing through the library (start-up, imports, parse, "
          "write); x PuLP(cli): over the `mineconv convert` command's process; x PuLP(user): the same command "
          "by --user-python; x PuLP(work): "
          "over our parse + write alone; x glpsol: glpsol translating the .mod over our whole process")
    column = "x PuLP(user)" if args.user_python else "x PuLP(cli)"
    print(f"targets: >= {SPEED_TARGET:.0f}x PuLP ({column}: the whole `mineconv convert` process), "
          f"peak < {MEMORY_TARGET_MB:.0f} MB, "
          f"identical bytes: {'met' if ok else 'NOT met'}")
    record(harness.recorder(args, "bench_formats", peers=["pulp"]), args, results, pulp, glpsol_cpu if glpsol_s else None)
    return 0 if ok else 1


def record(rec: harness.Recorder, args: argparse.Namespace, results: Dict[str, Dict], pulp: Optional[Dict],
           glpsol_cpu: Optional[float]) -> None:
    """Each format's figures, PuLP's (build + its writer for the format's family) and glpsol's beside them."""
    board = {"size": args.size, "density": args.density, "seed": args.seed}
    for fmt, r in results.items():
        case = {"format": fmt, **board}
        rec.record("process CPU seconds", r["cpu"], "s", case=case, peak_mb=r["peak_mb"], out_bytes=r["bytes"],
                   identical=r["identical"], parse_write_cpu=r["work_cpu"], wall=r["wall"])
        rec.record("convert CPU seconds", r["cli_cpu"], "s", case=case, runs=CLI_RUNS)
        if "user_cpu" in r:
            rec.record("convert CPU seconds", r["user_cpu"], "s", "mineconv (user install)", case, runs=CLI_RUNS)
        if pulp:
            pulp_cpu = pulp["build_cpu"] + (pulp["writeMPS_cpu"] if "mps" in fmt else pulp["writeLP_cpu"])
            rec.record("convert CPU seconds", pulp_cpu, "s", "PuLP build + write", case, peak_mb=pulp["peak_mb"])
        if glpsol_cpu is not None and fmt == "mathprog":
            rec.record("convert CPU seconds", glpsol_cpu, "s", "glpsol --check --wlp", case)


if __name__ == "__main__":
    sys.exit(main())
