"""Every command in the README runs as written, in order, after the README's own install line.

Every ```sh and ```python block of README.md runs in the README's order in ONE fresh folder that holds a
link to the repository's samples/, as a reader typing them one after the other would: a line that
overwrote a file an earlier section made (and a later one reads) or that needed a file made only further
down fails here. A line ending in `\\` continues on the next; `#` starts a comment. A line must exit 0,
with no traceback.

It runs as after `pip install .` (the README's first line), without the optional extras: their modules
(EXTRA_MODULES, checked against pyproject.toml) are hidden from it. A line that needs one must say so on
that line (`pip install 'mineconv[pictures]'` in its comment), and only then runs with it. `pip install`
steps are what the test environment already did, so only the command after their `&&` runs; the
test-suite line itself is not re-run. A line that calls an external solver is passed over (with a
warning naming it) when the program is missing, and fails under CI=true.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import urllib.request
import warnings
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

import pytest

from tests.conftest import IN_CI, ROOT, SAMPLES, require_tool

README = ROOT / "README.md"
# the modules each optional extra brings (pyproject.toml's [project.optional-dependencies] is the home of
# the extras; test_every_extra_is_hidden says when this table drifts from it)
EXTRA_MODULES: Dict[str, List[str]] = {"highs": ["highspy"], "dask": ["dask", "distributed"],
                                       "pictures": ["cairosvg"], "cpsat": ["ortools"], "xcsp": ["pycsp3"]}
NOT_EXTRAS = {"progress", "test", "lint"}   # progress is empty; test and lint are for developers
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


def commands(text: str, first_line: int) -> List[Tuple[int, str, str]]:
    """The commands of a shell block: (first line, command, its raw lines with their comments);
    continuation lines joined, comments dropped from the command."""
    out: List[Tuple[int, str, str]] = []
    pending, raw_lines, start = "", [], first_line
    for n, raw in enumerate(text.split("\n"), first_line):
        line = raw.split(" # ")[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not pending:
            start, raw_lines = n, []
        raw_lines.append(raw)
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        cmd = (pending + line).strip()
        pending = ""
        if cmd:
            out.append((start, cmd, "\n".join(raw_lines)))
    return out


def extras_named(raw: str) -> Set[str]:
    """The extras a README line says it needs (`mineconv[NAME]` anywhere on it, its comment included)."""
    return set(re.findall(r"mineconv\[([a-z0-9_-]+)\]", raw))


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


def in_order() -> List[Tuple[str, int, str]]:
    """Every block of the README in its order: (kind 'sh' or 'python', first line, text)."""
    return sorted([("sh", start, text) for start, text in SH_BLOCKS] +
                  [("python", start, text) for start, text in blocks("python")], key=lambda b: b[1])


def test_the_readme_has_runnable_blocks():
    assert SH_BLOCKS and blocks("python"), "README.md must keep its ```sh and ```python examples"
    first = commands(SH_BLOCKS[0][1], SH_BLOCKS[0][0])
    assert len(first) == 2 and "mineconv" in first[0][1] and "pytest" in first[1][1], \
        "the README's first block is exactly the two fresh-machine commands"
    assert first[0][1].startswith("pip install . &&"), "the README's install line is a plain `pip install .`"


def test_every_extra_is_hidden():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    extras = set(re.findall(r"^([a-z0-9_-]+) = \[", section, re.M))
    assert extras - NOT_EXTRAS == set(EXTRA_MODULES), "EXTRA_MODULES must list every optional extra's modules"


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "samples").symlink_to(SAMPLES)
    return tmp_path


def _env(hidden: Optional[Path] = None) -> Dict[str, str]:
    """The environment of a README line; with `hidden`, a folder of stubs shadowing the extras' modules."""
    path = [str(hidden)] if hidden is not None else []
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([*path, str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


def hide_extras(folder: Path) -> Path:
    """A folder of stubs, first on PYTHONPATH, under which importing an extra's module fails as if it were
    not installed (`pip install .` without extras)."""
    folder.mkdir()
    for extra, modules in EXTRA_MODULES.items():
        for module in modules:
            (folder / module).mkdir()
            (folder / module / "__init__.py").write_text(
                f"raise ModuleNotFoundError(\"No module named {module!r} (hidden: the README runs as after "
                f"`pip install .`; this is the {extra} extra)\", name={module!r})\n")
    return folder


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


def _run_sh(cmd: str, raw: str, line: int, workdir: Path, hidden: Path, passed_over: List[str]) -> None:
    """Run one README shell line as the reader would: without the extras unless the line names them."""
    named = extras_named(raw)
    assert named <= set(EXTRA_MODULES), f"README.md:{line}: names an extra pyproject.toml lacks: {named}"
    if cmd.startswith("mineconv serve"):
        run_server(cmd, workdir, line)
        return
    for prog in programs(cmd):
        if prog in SOLVER_PROGRAMS and shutil.which(prog) is None:
            if IN_CI:
                require_tool(prog)   # a failure under CI=true
            passed_over.append(f"README.md:{line} ({prog} is not installed)")
            return
    env = _env() if named else _env(hidden)
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=workdir, env=env, capture_output=True,
                          text=True, timeout=600)
    how = "" if named else " (as after `pip install .`: a line that needs an extra says so on that line)"
    assert proc.returncode == 0, (f"README.md:{line}: `{cmd}` exited {proc.returncode}{how}\n"
                                  f"stdout: {proc.stdout[-2000:]}\nstderr: {proc.stderr[-2000:]}")
    assert "Traceback" not in proc.stderr, f"README.md:{line}: `{cmd}`\n{proc.stderr[-2000:]}"


def section_of(line: int) -> str:
    """The README heading a line sits under."""
    heads = [(n, text) for n, text in enumerate(README.read_text(encoding="utf-8").split("\n"), 1)
             if text.startswith("## ") and n < line]
    return heads[-1][1] if heads else "(top)"


def snapshot(folder: Path) -> Dict[str, Tuple[int, int]]:
    """(mtime in ns, size) of every file the README's lines made in the folder (samples/ left out)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if d != "samples"]
        for name in filenames:
            st = os.stat(os.path.join(dirpath, name))
            found[os.path.relpath(os.path.join(dirpath, name), folder)] = (st.st_mtime_ns, st.st_size)
    return found


def check_owners(before: Dict[str, Tuple[int, int]], after: Dict[str, Tuple[int, int]], owner: Dict[str, str],
                 section: str, start: int) -> None:
    """Fail when a block rewrites a file an earlier section made (a reader's later line would read the
    wrong one); a file a block makes first belongs to the block's section."""
    for path, stamp in after.items():
        if path not in owner:
            owner[path] = section
        elif before.get(path) != stamp and owner[path] != section:
            pytest.fail(f"README.md:{start} ({section}) rewrites {path}, which {owner[path]} made: name it "
                        "otherwise, so that every section's files stay what it made")


def test_the_readme_runs_in_order_in_one_folder(workdir):
    hidden = hide_extras(workdir.parent / "hidden-extras")
    passed_over: List[str] = []
    owner: Dict[str, str] = {}
    for kind, start, text in in_order():
        before = snapshot(workdir)
        _run_block(kind, start, text, workdir, hidden, passed_over)
        check_owners(before, snapshot(workdir), owner, section_of(start), start)
    if passed_over:
        warnings.warn("README lines passed over: " + "; ".join(passed_over))


def _run_block(kind: str, start: int, text: str, workdir: Path, hidden: Path, passed_over: List[str]) -> None:
    """Run one block of the README in the folder, as the reader would."""
    if kind == "python":
        env = _env() if extras_named(text) else _env(hidden)
        proc = subprocess.run([sys.executable, "-c", text], cwd=workdir, env=env, capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 0, f"README.md:{start}: python block failed\n{proc.stderr[-3000:]}"
        return
    for line, cmd, raw in commands(text, start):
        cmd = runnable(cmd)
        if cmd:
            _run_sh(cmd, raw, line, workdir, hidden, passed_over)


def test_a_later_section_rewriting_an_earlier_ones_file_is_caught():
    owner: Dict[str, str] = {}
    check_owners({}, {"board.txt": (1, 10)}, owner, "## Command line", 1)
    check_owners({"board.txt": (1, 10)}, {"board.txt": (2, 10)}, owner, "## Command line", 5)   # its own: fine
    with pytest.raises(pytest.fail.Exception, match="rewrites board.txt, which ## Command line made"):
        check_owners({"board.txt": (2, 10)}, {"board.txt": (3, 12)}, owner, "## CNF formulas as boards", 9)


def test_a_line_needing_an_extra_fails_without_it(tmp_path):
    # the proof that the hiding works: PNG output needs the pictures extra
    hidden = hide_extras(tmp_path / "hidden")
    cmd = f"mineconv render {SAMPLES / 'seed-3x3.txt'} -o seed.png"
    bare = subprocess.run(["bash", "-c", cmd], cwd=tmp_path, env=_env(hidden), capture_output=True, text=True)
    assert bare.returncode == 2 and "needs CairoSVG" in bare.stderr and "Traceback" not in bare.stderr
    assert extras_named("mineconv render b.txt -o b.png   # pip install 'mineconv[pictures]'") == {"pictures"}
