"""`mineconv batch` under hostile conditions (issue 13): interrupted runs, symbolic links out of OUTDIR, the
input limits on every kind of worker, and `-q` (issue 12).

The interrupt tests run the batch as a subprocess in a session of its own, stop it by a signal once some
outputs exist, and compare what the run says it wrote (its summary line and its manifest) with what is on
disk: every input has all of its outputs or none, and the manifest lists exactly the files present.
"""
from __future__ import annotations

import collections
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import ROOT, require_module, run_cli, session_processes
from mineconv.formats.notations.native import canonical_text
from mineconv.make.generate import random_puzzle

# a CNF with its total is the slowest of the three: an output set takes long enough to be cut in half
FORMATS = ["cnf", "lp", "mps"]
EXTS = (".cnf", ".lp", ".mps")
N_INPUTS = 300
SIGNAL_AFTER = 45   # whole outputs on disk before the signal goes out


@pytest.fixture(scope="module")
def boards(tmp_path_factory) -> Path:
    """N_INPUTS game boards of 40 x 40 with their mine totals: a run over them lasts several seconds."""
    src = tmp_path_factory.mktemp("hostile-src")
    for i in range(N_INPUTS):
        p = random_puzzle(40, 40, density=0.15, reveal="game", seed=i)
        (src / f"g{i:04d}.txt").write_text(canonical_text(p))
    return src


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT))


def _interrupt(src: Path, out: Path, manifest: Path, sig: int, *extra: str) -> subprocess.CompletedProcess:
    """Run a batch, send sig once SIGNAL_AFTER outputs are whole, and wait for every process of it to end."""
    proc = subprocess.Popen([sys.executable, "-m", "mineconv", "batch", str(src), "-o", str(out), "-t",
                             ",".join(FORMATS), "--manifest", str(manifest), "-q", *extra],
                            cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if out.is_dir() and sum(1 for p in out.iterdir() if p.name.endswith(EXTS)) >= SIGNAL_AFTER:
                break
            time.sleep(0.005)
        assert proc.poll() is None, "the run ended before it could be interrupted: " + proc.communicate()[1]
        if sig == signal.SIGTERM:
            proc.send_signal(sig)           # `kill PID`: the main process only
        else:
            os.killpg(proc.pid, sig)        # Ctrl-C, or the terminal hanging up: the whole job
        _, err = proc.communicate(timeout=120)
        deadline = time.monotonic() + 30
        while session_processes(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not session_processes(proc.pid), "processes of the run outlived it"
    finally:
        if proc.poll() is None or session_processes(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, "", err)


def _check_matches_disk(out: Path, manifest: Path, proc: subprocess.CompletedProcess, sig: int) -> None:
    err = proc.stderr
    assert "Traceback" not in err, err[-3000:]
    assert proc.returncode == 128 + sig, (proc.returncode, err[-2000:])
    names = sorted(p.name for p in out.iterdir())
    assert not [n for n in names if n.startswith(".")], f"hidden files left: {names[:10]}"
    on_disk = {str(out / n) for n in names}
    # all outputs of an input or none
    per_input = collections.Counter(n.rsplit(".", 1)[0] for n in names)
    assert set(per_input.values()) <= {len(FORMATS)}, [k for k, v in per_input.items() if v != len(FORMATS)]
    rows = [json.loads(line) for line in manifest.read_text().splitlines()]
    listed = {o["path"]: o for r in rows for o in r["outputs"]}
    assert set(listed) == on_disk, (len(listed), len(on_disk))
    for path, o in listed.items():
        data = Path(path).read_bytes()
        assert (o["size"], o["sha256"]) == (len(data), hashlib.sha256(data).hexdigest()), path
    assert all(r["status"] == "converted" for r in rows)
    m = re.search(r"interrupted after (\d+) of (\d+) inputs: (\d+) converted, 0 skipped, 0 failed "
                  r"\(\d+ inputs, (\d+) files? written\)", err)
    assert m, err[-2000:]
    done, total, converted, files = map(int, m.groups())
    assert (done, total, converted, files) == (len(rows), N_INPUTS, len(per_input), len(on_disk))
    assert SIGNAL_AFTER // len(FORMATS) <= converted < N_INPUTS


STOPS = [(signal.SIGINT, "1"), (signal.SIGINT, "2"), (signal.SIGTERM, "1"), (signal.SIGTERM, "2"),
         (signal.SIGHUP, "1"), (signal.SIGHUP, "2")]


@pytest.mark.parametrize("sig,jobs", STOPS, ids=[f"{signal.Signals(s).name}-j{j}" for s, j in STOPS])
def test_an_interrupted_batch_reports_exactly_what_is_on_disk(tmp_path, boards, sig, jobs):
    out, manifest = tmp_path / "out", tmp_path / "m.jsonl"
    proc = _interrupt(boards, out, manifest, sig, "-j", jobs)
    _check_matches_disk(out, manifest, proc, sig)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_dask_batch_reports_exactly_what_is_on_disk(tmp_path, boards, sig):
    require_module("dask.distributed")
    out, manifest = tmp_path / "out", tmp_path / "m.jsonl"
    proc = _interrupt(boards, out, manifest, sig, "-j", "2", "--executor", "dask")
    _check_matches_disk(out, manifest, proc, sig)


# --- symbolic links inside OUTDIR ----------------------------------------------------------------------
def test_no_folder_is_made_through_a_symlink_leading_out_of_outdir(tmp_path, capsys):
    puzzle = canonical_text(random_puzzle(4, 4, mines=3, seed=1))
    src = tmp_path / "in"
    (src / "x" / "deep").mkdir(parents=True)
    (src / "x" / "deep" / "inner.txt").write_text(puzzle)
    (src / "fine.txt").write_text(puzzle)
    (src / "linked.txt").write_text(puzzle)
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (elsewhere / "target.lp").write_text("precious\n")
    (out / "x").symlink_to(elsewhere)                       # a subfolder of OUTDIR that leads out of it
    (out / "linked.lp").symlink_to(elsewhere / "target.lp")  # an output file that leads out of it
    status, _, err = run_cli(capsys, "batch", src, "-o", out, "-t", "cnf,lp", "-j", "1", "-q",
                             "--manifest", tmp_path / "m.jsonl")
    assert status == 1
    assert sorted(p.name for p in elsewhere.iterdir()) == ["target.lp"]   # no 'deep' folder made out there
    assert (elsewhere / "target.lp").read_text() == "precious\n"
    assert (out / "linked.lp").is_symlink()
    assert f"mineconv: {src / 'x' / 'deep' / 'inner.txt'}: refusing to write {out / 'x' / 'deep' / 'inner.cnf'}: " \
           "a symbolic link leads outside the output folder" in err
    assert f"mineconv: {src / 'linked.txt'}: refusing to write {out / 'linked.lp'}: " in err
    assert sorted(p.name for p in out.iterdir()) == ["fine.cnf", "fine.lp", "linked.lp", "x"]
    assert "1 converted, 0 skipped, 2 failed" in err


# --- the input limits in every kind of worker ----------------------------------------------------------
@pytest.mark.parametrize("executor", ["local-1", "local-2", "dask"])
def test_max_cells_and_max_bytes_reach_every_worker(tmp_path, executor):
    if executor == "dask":
        require_module("dask.distributed")
    src = tmp_path / "in"
    src.mkdir()
    (src / "small.txt").write_text(canonical_text(random_puzzle(5, 5, mines=3, seed=1)))
    (src / "wide.txt").write_text(canonical_text(random_puzzle(10, 10, mines=10, seed=2)))
    (src / "long.txt").write_text("# " + "x" * 2000 + "\n" + canonical_text(random_puzzle(3, 3, mines=1, seed=3)))
    args = ["-j", executor[-1]] if executor.startswith("local") else ["-j", "1", "--executor", "dask"]
    proc = subprocess.run([sys.executable, "-m", "mineconv", "batch", str(src), "-o", str(tmp_path / "out"),
                           "-t", "cnf", "--max-cells", "50", "--max-bytes", "1000", "-q", *args],
                          cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=180)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "1 converted, 0 skipped, 2 failed" in proc.stderr, proc.stderr[-2000:]
    assert "wide.txt: a 10 x 10 board has more than 50 cells (the --max-cells limit" in proc.stderr
    assert "long.txt:1:1001: the input goes on past 1000 bytes (the --max-bytes limit" in proc.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["small.cnf"]


# --- -q ------------------------------------------------------------------------------------------------
def test_quiet_batch_prints_no_warning_but_every_failure_and_the_summary(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    (src / "total.txt").write_text(canonical_text(random_puzzle(5, 5, mines=3, seed=1)))  # dots drop the total
    (src / "bad.txt").write_text("?1?\n?9?\n")
    args = ["batch", src, "-o", tmp_path / "out", "-t", "dots", "-j", "1"]
    status, _, loud = run_cli(capsys, *args)
    assert status == 1 and "warning" in loud   # there is a warning to silence
    status, _, err = run_cli(capsys, *args, "-q")
    assert status == 1
    assert "warning" not in err
    lines = err.splitlines()
    assert lines[0].startswith(f"mineconv: {src / 'bad.txt'}:2:2: ")
    assert lines[-1].startswith("mineconv batch: 1 converted, 0 skipped, 1 failed")
    assert all(not ln.startswith("mineconv: ") or str(src / "bad.txt") in ln for ln in lines[:-1])
