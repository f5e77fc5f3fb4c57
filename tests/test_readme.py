"""Every command in the README runs as written (so the README cannot rot).

Each ```sh block of README.md is run line by line, in order, in one fresh folder that holds a link to the
repository's samples/ (so `samples/...` paths work and outputs land in the folder); a line ending in `\\`
continues on the next; `#` starts a comment. A line must exit 0. `pip install` steps are what the test
environment already did, so only the command after their `&&` runs; the test-suite line itself is not
re-run. Lines that call an external solver follow the other solver tests: skipped locally with the reason
when the program is missing, a failure under CI=true. ```python blocks run as one script each.
"""
from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import List, Tuple

import pytest

from tests.conftest import ROOT, SAMPLES, require_tool

README = ROOT / "README.md"
SOLVER_PROGRAMS = {"glpsol", "minisat", "cbc", "lp_solve", "picosat", "z3", "clasp", "minisat+", "cadical",
                   "highs", "minizinc", "clingo", "gringo"}


def blocks(kind: str) -> List[Tuple[int, str]]:
    """(first line number, text) of each fenced block of this kind in the README."""
    found, lines = [], README.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```" + kind:
            start, body = i + 2, []
            i += 1
            while lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            found.append((start, "\n".join(body)))
        i += 1
    return found


def commands(text: str, first_line: int) -> List[Tuple[int, str]]:
    """The commands of a shell block: continuation lines joined, comments dropped."""
    out: List[Tuple[int, str]] = []
    pending, start = "", first_line
    for n, raw in enumerate(text.split("\n"), first_line):
        line = raw.split(" # ")[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not pending:
            start = n
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        cmd = (pending + line).strip()
        pending = ""
        if cmd:
            out.append((start, cmd))
    return out


def runnable(cmd: str) -> str:
    """What of a README command the test runs ('' for nothing)."""
    if "pytest" in cmd:
        return ""  # the test suite itself: this is it running
    if cmd.startswith("pip install"):
        return cmd.split("&&", 1)[1].strip() if "&&" in cmd else ""
    return cmd


def programs(cmd: str) -> List[str]:
    """The programs a shell command line starts (first word of each pipeline or && / ; part)."""
    progs = []
    for part in re.split(r"&&|\|\||[|;]", cmd):
        words = shlex.split(part.replace("<", " < ").replace(">", " > "))
        if words:
            progs.append(words[0])
    return progs


SH_BLOCKS = blocks("sh")
CASES = [(start, cmds) for start, text in SH_BLOCKS for cmds in [commands(text, start)]]


def test_the_readme_has_runnable_blocks():
    assert SH_BLOCKS and blocks("python"), "README.md must keep its ```sh and ```python examples"
    first = commands(SH_BLOCKS[0][1], SH_BLOCKS[0][0])
    assert len(first) == 2 and "mineconv" in first[0][1] and "pytest" in first[1][1], \
        "the README's first block is exactly the two fresh-machine commands"


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "samples").symlink_to(SAMPLES)
    return tmp_path


def _env():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


def run_server(cmd: str, workdir: Path, line: int) -> None:
    """A command that serves until stopped (`mineconv serve`): its first line is the page's address,
    the page answers, and Ctrl-C stops it with exit 130."""
    require_tool("mineconv")
    proc = subprocess.Popen(["bash", "-c", f"exec {cmd}"], cwd=workdir, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), f"README.md:{line}: `{cmd}` printed {url!r}"
        with urllib.request.urlopen(url, timeout=30) as page:
            assert b"data-action" in page.read()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130, f"README.md:{line}: `{cmd}` did not stop on Ctrl-C"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.parametrize("start,cmds", CASES, ids=[f"README.md:{s}" for s, _ in CASES])
def test_shell_block_runs_as_written(workdir, start, cmds):
    for line, cmd in cmds:
        cmd = runnable(cmd)
        if not cmd:
            continue
        if cmd.startswith("mineconv serve"):
            run_server(cmd, workdir, line)
            continue
        for prog in programs(cmd):
            if prog in SOLVER_PROGRAMS:
                require_tool(prog)
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=workdir, env=_env(),
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, (f"README.md:{line}: `{cmd}` exited {proc.returncode}\n"
                                      f"stdout: {proc.stdout[-2000:]}\nstderr: {proc.stderr[-2000:]}")
        assert "Traceback" not in proc.stderr, f"README.md:{line}: `{cmd}`\n{proc.stderr[-2000:]}"


@pytest.mark.parametrize("start,code", blocks("python"), ids=[f"README.md:{s}" for s, _ in blocks("python")])
def test_python_block_runs_as_written(workdir, start, code):
    proc = subprocess.run([sys.executable, "-c", code], cwd=workdir, env=_env(), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, f"README.md:{start}: python block failed\n{proc.stderr[-3000:]}"
