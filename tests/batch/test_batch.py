"""Batch conversion: folders and globs, bad files, path safety, manifest, resuming, interrupts, Dask."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, require_module
from helpers import session_processes
from mineconv.batch import collect_inputs, format_error, output_extension, resolve_formats, run_batch
from mineconv.cli import main
from mineconv.core.errors import FormatError, MineconvError, PuzzleSyntaxError
from mineconv.formats.notations.native import canonical_text
from mineconv.make.generate import random_puzzle
from mineconv.formats.writing import dumps
from mineconv.formats.registry import get_format, register_format, unregister_format
from mineconv.formats.reading import parse


FORMATS = ["native", "cnf", "lp", "json"]
# cheap ones for the long interrupt runs (a CNF with the total mine count is large on big boards)
FAST_FORMATS = ["native", "json", "mps"]


def _boards(folder: Path, n: int, *, rows: int = 9, cols: int = 11, sub: str = "") -> list:
    target = folder / sub if sub else folder
    target.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        p = random_puzzle(rows, cols, mines=rows * cols // 6, reveal="game", seed=i, name=f"b{i}")
        path = target / f"b{i:03d}.txt"
        path.write_text(canonical_text(p))
        out.append((path, p))
    return out


def _ext(name: str) -> str:
    return output_extension(get_format(name))


def _all_files(folder: Path) -> list:
    return sorted(p for p in folder.rglob("*") if p.is_file() or p.is_symlink())


def _no_temp_files(folder: Path) -> bool:
    return not [p for p in folder.rglob("*") if p.name.endswith(".part")]


# --- formats and inputs --------------------------------------------------------------------------------
def test_resolve_formats_by_name_extension_and_list():
    assert [f.name for f in resolve_formats(["native"])] == ["native"]
    assert [f.name for f in resolve_formats([".txt"])] == ["native"]
    assert [f.name for f in resolve_formats(["txt,native", "native"])] == ["native"]
    with pytest.raises(FormatError):
        resolve_formats(["nonesuch"])
    with pytest.raises(FormatError):
        resolve_formats([".nonesuch"])
    with pytest.raises(FormatError):
        resolve_formats([","])


def test_two_formats_with_one_extension_are_refused():
    with pytest.raises(FormatError, match="both write '.mps' files"):
        resolve_formats(["mps,fixed-mps"])


def test_folder_glob_and_file_inputs_name_their_outputs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _boards(tmp_path / "in", 2, sub="deep/er")
    _boards(tmp_path / "in", 1)
    (tmp_path / "in" / ".hidden.txt").write_text("1\n")
    (tmp_path / "in" / "notes.md").write_text("not a puzzle\n")
    items, missing = collect_inputs(["in"], "out")
    assert missing == []
    assert [i.rel for i in items] == ["b000", "deep/er/b000", "deep/er/b001"]
    items, _ = collect_inputs(["in/deep/*/*.txt"], "out")
    assert [i.rel for i in items] == ["er/b000", "er/b001"]
    # a matched folder is named from the glob's base too; a matched file is taken whatever its extension
    items, _ = collect_inputs(["in/*"], "out")
    assert [i.rel for i in items] == ["b000", "deep/er/b000", "deep/er/b001", "notes.md"]
    # one rule (issue 40.10): a file named on its own is placed by its bare name, as its folder's files are
    with pytest.warns(UserWarning, match="in/deep/er/b001.txt: a file named with its folder now"):
        items, _ = collect_inputs(["in/deep/er/b001.txt", str(tmp_path / "in" / "b000.txt")], "out")
    assert [i.rel for i in items] == ["b001", "b000"]
    # with --from every file of a folder is an input, except hidden ones
    items, _ = collect_inputs(["in"], "out", from_="native")
    assert sorted(i.rel for i in items) == ["b000", "deep/er/b000", "deep/er/b001", "notes.md"]


def test_batch_converts_a_folder_into_every_format(tmp_path):
    boards = _boards(tmp_path / "in", 6, sub="sub")
    out = tmp_path / "out"
    assert main(["batch", str(tmp_path / "in"), "-o", str(out), "-t", ",".join(FORMATS), "-j", "1", "-q"]) == 0
    for path, puzzle in boards:
        for name in FORMATS:
            target = out / "sub" / (path.stem + _ext(name))
            assert target.read_text(encoding="utf-8") == dumps(puzzle, name)
    assert len(_all_files(out)) == len(boards) * len(FORMATS)


def test_parallel_run_writes_the_same_files_and_manifest(tmp_path):
    _boards(tmp_path / "in", 40)
    r1 = run_batch([str(tmp_path / "in")], str(tmp_path / "o1"), FORMATS, jobs=1,
                   manifest=str(tmp_path / "m1.jsonl"))
    r2 = run_batch([str(tmp_path / "in")], str(tmp_path / "o2"), FORMATS, jobs=2,
                   manifest=str(tmp_path / "m2.jsonl"))
    assert r1.count("converted") == r2.count("converted") == 40
    files1 = {p.relative_to(tmp_path / "o1"): p.read_bytes() for p in _all_files(tmp_path / "o1")}
    files2 = {p.relative_to(tmp_path / "o2"): p.read_bytes() for p in _all_files(tmp_path / "o2")}
    assert files1 == files2 and len(files1) == 40 * len(FORMATS)
    m1 = (tmp_path / "m1.jsonl").read_text().replace("/o1/", "/oX/")
    m2 = (tmp_path / "m2.jsonl").read_text().replace("/o2/", "/oX/")
    assert m1 == m2  # input order, whatever order the workers finished in


def test_manifest_lists_outputs_with_size_and_sha256(tmp_path):
    _boards(tmp_path / "in", 3)
    (tmp_path / "in" / "zz-bad.txt").write_text("12\n3x\n")
    manifest = tmp_path / "m.jsonl"
    code = main(["batch", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-t", ",".join(FORMATS),
                 "--manifest", str(manifest), "-q"])
    assert code == 1
    rows = [json.loads(line) for line in manifest.read_text().splitlines()]
    assert [Path(r["input"]).name for r in rows] == ["b000.txt", "b001.txt", "b002.txt", "zz-bad.txt"]
    for row in rows[:3]:
        assert row["status"] == "converted" and row["error"] is None
        assert [o["format"] for o in row["outputs"]] == FORMATS
        for o in row["outputs"]:
            data = Path(o["path"]).read_bytes()
            assert o["size"] == len(data)
            assert o["sha256"] == hashlib.sha256(data).hexdigest()
    bad = rows[3]
    assert bad["status"] == "failed" and bad["outputs"] == []
    assert bad["error"].startswith(f"{tmp_path / 'in' / 'zz-bad.txt'}:2:2: ")


# --- bad inputs ----------------------------------------------------------------------------------------
def _bad_folder(folder: Path) -> dict:
    """Bad files of every kind, each with the text its report must contain."""
    folder.mkdir(parents=True, exist_ok=True)
    bad = {}
    (folder / "corrupt.txt").write_text("?1?\n1*1\n?1?x\n")
    bad["corrupt.txt"] = ":3:4: "
    (folder / "count9.txt").write_text("???\n?9?\n???\n")
    bad["count9.txt"] = ":2:2: "
    (folder / "empty.txt").write_bytes(b"")
    bad["empty.txt"] = ":1:1: no grid rows"
    (folder / "binary.txt").write_bytes(b"?1\x00\x00PK\x03\x04" * 100)
    bad["binary.txt"] = ":1:3: binary data"
    (folder / "random.txt").write_bytes(bytes(range(256)) * 8)
    bad["random.txt"] = ":2:118: not UTF-8 text (byte 0x80)"
    (folder / "huge-line.txt").write_text("?" * 300_000 + "z" + "?" * 100_000 + "\n")
    bad["huge-line.txt"] = ":1:300001: 'z' is not a cell symbol"
    (folder / "latin1.txt").write_bytes("# caf\xe9\n?1\n".encode("latin-1"))
    bad["latin1.txt"] = ":1:6: not UTF-8"
    (folder / "broken-link.txt").symlink_to(folder / "nowhere")
    bad["broken-link.txt"] = ": cannot read"
    (folder / "loop.txt").symlink_to(folder / "loop.txt")
    bad["loop.txt"] = ": cannot read"
    (folder / "fifo.txt").unlink(missing_ok=True)
    os.mkfifo(folder / "fifo.txt")
    bad["fifo.txt"] = ": not a regular file"
    if os.geteuid() != 0:  # root reads a mode-000 file anyway
        (folder / "unreadable.txt").write_text("1\n")
        (folder / "unreadable.txt").chmod(0)
        bad["unreadable.txt"] = ": permission denied"
    return bad


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bad_files_are_reported_and_good_ones_converted(tmp_path, capsys, jobs):
    good = _boards(tmp_path / "in", 5)
    bad = _bad_folder(tmp_path / "in")
    out = tmp_path / "out"
    manifest = tmp_path / "m.jsonl"
    code = main(["batch", str(tmp_path / "in"), "-o", str(out), "-t", ",".join(FORMATS), "-j", jobs,
                 "--manifest", str(manifest)])
    err = capsys.readouterr().err
    assert code == 1
    for name, expected in bad.items():
        line = next(ln for ln in err.splitlines() if ln.startswith(f"mineconv: {tmp_path / 'in' / name}"))
        assert expected in line, (name, line)
        assert len(line) < 400  # a 400 KB line is shown as an excerpt
    assert "Traceback" not in err and "internal error" not in err
    assert f"{len(good)} converted, 0 skipped, {len(bad)} failed" in err
    expected_files = {out / (p.stem + _ext(n)) for p, _ in good for n in FORMATS}
    assert set(_all_files(out)) == expected_files
    for path, puzzle in good:
        assert parse((out / (path.stem + ".txt")).read_text(), "native") == puzzle
    rows = [json.loads(line) for line in manifest.read_text().splitlines()]
    assert sorted(Path(r["input"]).name for r in rows if r["status"] == "failed") == sorted(bad)


def test_missing_inputs_and_empty_globs_are_failures(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _boards(tmp_path / "in", 1)
    code = main(["batch", "in", "nonesuch.txt", "none/*.txt", "-o", "out", "-t", "native", "-q"])
    err = capsys.readouterr().err
    assert code == 1
    assert "mineconv: nonesuch.txt: no such file or folder" in err
    assert "mineconv: none/*.txt: no file matches this pattern" in err
    assert "1 converted, 0 skipped, 2 failed" in err


def test_outputs_that_would_collide_are_refused(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("1?\n")
    (tmp_path / "in" / "a.mines").write_text("?1\n")
    assert main(["batch", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-t", "native", "-q"]) == 1
    assert f"{tmp_path / 'in' / 'a.txt'}: its output" in capsys.readouterr().err
    assert (tmp_path / "out" / "a.txt").read_text() == "?1\n"  # inputs are taken in name order


def test_an_output_never_overwrites_its_input(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("1?\n")
    (tmp_path / "b.mines").write_text("?1\n")
    assert main(["batch", str(tmp_path / "a.txt"), str(tmp_path / "b.mines"), "-o", str(tmp_path), "-t",
                 "native", "-q"]) == 1
    assert "would overwrite the input itself" in capsys.readouterr().err
    assert (tmp_path / "a.txt").read_text() == "1?\n"
    assert (tmp_path / "b.txt").read_text() == "?1\n"


def test_strict_fails_an_input_that_would_lose_information(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.json").write_text(dumps(random_puzzle(3, 4, mines=2, seed=1, name=" # odd "),
                                                   "json"))
    out = tmp_path / "out"
    assert main(["batch", str(tmp_path / "in"), "-o", str(out), "-t", "native", "--strict", "-q"]) == 1
    assert "native cannot express" in capsys.readouterr().err
    assert not out.exists() or not list(out.iterdir())
    assert main(["batch", str(tmp_path / "in"), "-o", str(out), "-t", "native"]) == 0  # -q would hide it
    assert f"mineconv: warning: {tmp_path / 'in' / 'a.json'}: native cannot express" in capsys.readouterr().err


def test_unknown_format_is_a_usage_error(tmp_path, capsys):
    _boards(tmp_path / "in", 1)
    assert main(["batch", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-t", "nonesuch"]) == 2
    assert "unknown writable format 'nonesuch'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_long_lines_are_shown_as_an_excerpt_with_the_caret_in_place():
    text = "a" * 1000 + "X" + "b" * 1000
    exc = PuzzleSyntaxError("bad", source="f.txt", line=3, column=1001, line_text=text)
    report = format_error(exc, "f.txt")
    head, shown, caret = report.split("\n")
    assert head == "f.txt:3:1001: bad"
    assert shown.strip().startswith("...") and shown.endswith("...")
    assert shown[caret.index("^")] == "X"


# --- nothing outside OUTDIR ----------------------------------------------------------------------------
def _snapshot(root: Path, skip: Path) -> set:
    return {p for p in root.rglob("*") if not str(p).startswith(str(skip))}


def test_path_traversal_in_names_and_globs_stays_inside_outdir(tmp_path, monkeypatch):
    work = tmp_path / "work"
    (work / "a" / "b").mkdir(parents=True)
    monkeypatch.chdir(work / "a" / "b")
    puzzle = random_puzzle(4, 4, mines=3, seed=1)
    for name in ("x.txt", "..txt", "...txt", "-dash.txt", "new\nline.txt", "sp ace.txt", "ünï.txt"):
        (work / "a" / name).write_text(canonical_text(puzzle))
    (tmp_path / "outside.txt").write_text(canonical_text(puzzle))
    out = work / "a" / "b" / "out"
    # an evil symbolic link already inside OUTDIR, pointing out of it
    out.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (out / "x").symlink_to(tmp_path / "elsewhere")
    (work / "a" / "x").mkdir()
    (work / "a" / "x" / "inner.txt").write_text(canonical_text(puzzle))
    before = _snapshot(tmp_path, out)
    code = main(["batch", "../*/inner.txt", "../*.txt", "../..txt", "../...txt", "../../a/../a/x.txt", "../..//a/./sp ace.txt",
                 str(tmp_path / "outside.txt"), "../../../outside.txt", "../x/../x/*.txt", "../x", "-o", "out",
                 "-t", "native", "-q", "--manifest", str(tmp_path / "m.jsonl")])
    after = _snapshot(tmp_path, out)
    assert after - before == {tmp_path / "m.jsonl"}
    assert not list((tmp_path / "elsewhere").iterdir())
    rows = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()]
    for row in rows:
        for o in row["outputs"]:
            real = os.path.realpath(o["path"])
            assert real.startswith(str(out) + os.sep)
    # the file under the evil link is refused, the others are converted
    failed = [r for r in rows if r["status"] == "failed"]
    assert [Path(r["input"]).name for r in failed] == ["inner.txt"]
    assert "symbolic link leads outside" in failed[0]["error"]
    assert code == 1
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(["-dash.txt", "..txt", "...txt", "new\nline.txt", "outside.txt", "sp ace.txt", "x",
                            "x.txt", "ünï.txt"])


def test_input_folder_inside_outdir_is_refused_and_outdir_is_never_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _boards(tmp_path / "in", 2)
    assert main(["batch", "in", "-o", "in/out", "-t", "native", "-q"]) == 0
    assert main(["batch", "in", "-o", "in/out", "-t", "native", "-q"]) == 0  # the outputs are not inputs
    assert sorted(p.name for p in (tmp_path / "in" / "out").iterdir()) == ["b000.txt", "b001.txt"]
    assert main(["batch", "in/out", "-o", "in", "-t", "native", "-q"]) == 1


# --- resuming ------------------------------------------------------------------------------------------
def test_skip_existing_keeps_newer_outputs_and_redoes_the_rest(tmp_path, capsys):
    boards = _boards(tmp_path / "in", 4)
    out = tmp_path / "out"
    args = ["batch", str(tmp_path / "in"), "-o", str(out), "-t", ",".join(FORMATS), "-q"]
    assert main(args) == 0
    capsys.readouterr()
    assert main(args + ["--skip-existing", "--manifest", str(tmp_path / "m.jsonl")]) == 0
    assert "0 converted, 4 skipped, 0 failed" in capsys.readouterr().err
    rows = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()]
    for row in rows:
        assert row["status"] == "skipped"
        for o in row["outputs"]:
            assert o["sha256"] == hashlib.sha256(Path(o["path"]).read_bytes()).hexdigest()
    # a changed input and a deleted output are redone; the rest stays
    path0 = boards[0][0]
    newer = random_puzzle(5, 5, mines=4, seed=99)
    path0.write_text(canonical_text(newer))
    future = time.time() + 10
    os.utime(path0, (future, future))
    (out / ("b001" + _ext(FORMATS[-1]))).unlink()
    assert main(args + ["--skip-existing"]) == 0
    assert "2 converted, 2 skipped, 0 failed" in capsys.readouterr().err
    assert parse((out / "b000.txt").read_text(), "native") == newer
    assert (out / ("b001" + _ext(FORMATS[-1]))).exists()


# --- reader options ------------------------------------------------------------------------------------
@pytest.fixture
def coded_notation():
    """A throwaway notation with a reader option: native text in which --codes 'u?' makes each 'u' a '?'."""
    native = get_format("native")  # also loads every shipped format first

    def reader(text: str, source: str, codes: str = "") -> object:
        return native.reader(text.translate(str.maketrans(codes[0::2], codes[1::2])), source)

    register_format("coded-test", [".coded"], "puzzle", reader=reader, autodetect=False,
                    read_options={"codes": "pairs of characters: each first one reads as the second"})
    yield
    unregister_format("coded-test")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_reader_options_reach_the_readers_in_the_workers(tmp_path, capsys, coded_notation, jobs):
    src = tmp_path / "in"
    boards = _boards(src, 4, sub="plain")
    (src / "coded").mkdir()
    for path, _ in boards:
        (src / "coded" / path.name).with_suffix(".coded").write_text(path.read_text().replace("?", "u"))
    args = ["batch", str(src), "-o", str(tmp_path / "out"), "-t", "native", "-j", jobs, "-q"]
    assert main(args) == 1  # without the option the coded boards do not read
    assert "4 converted, 0 skipped, 4 failed" in capsys.readouterr().err
    assert main(args[:-1] + ["-o", str(tmp_path / "out2"), "--codes", "u?"]) == 0  # no -q: it hides warnings
    err = capsys.readouterr().err
    assert "8 converted, 0 skipped, 0 failed" in err
    # the native files do not take the option: each says so, as `mineconv convert` would
    assert err.count("mineconv: warning: ") == 4
    assert f"warning: {boards[0][0]}: option 'codes' has no effect on the native notation" in err
    for path, puzzle in boards:
        for sub in ("plain", "coded"):
            assert (tmp_path / "out2" / sub / path.name).read_text() == canonical_text(puzzle)


def test_unknown_reader_option_is_a_bad_request(tmp_path, coded_notation):
    _boards(tmp_path / "in", 1)
    with pytest.raises(MineconvError, match="reader option 'codez'"):
        run_batch([str(tmp_path / "in")], str(tmp_path / "out"), ["native"], read_options={"codez": "u?"})
    result = run_batch([str(tmp_path / "in")], str(tmp_path / "out"), ["native"], jobs=1,
                       read_options={"codes": None})  # an option not given is no option
    assert result.count("converted") == 1 and "warnings" not in result.records[0]


# --- interrupts ----------------------------------------------------------------------------------------
def _start_batch(src: Path, out: Path, *extra: str, jobs: int = 2) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # a session of its own: a signal can go to the whole job, as Ctrl-C at a terminal sends it, and no
    # process of the run can outlive the test unnoticed
    return subprocess.Popen([sys.executable, "-m", "mineconv", "batch", str(src), "-o", str(out), "-t",
                             ",".join(FAST_FORMATS), "-j", str(jobs), *extra], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def _whole_outputs(out: Path) -> int:
    # hidden names are temp files still being written
    return sum(1 for p in out.iterdir() if not p.name.startswith(".")) if out.is_dir() else 0


def _wait_for_outputs(out: Path, proc: subprocess.Popen, at_least: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if _whole_outputs(out) >= at_least:
            return
        time.sleep(0.005)


def _wait_for_job_end(session: int, timeout: float = 30) -> list:
    deadline = time.monotonic() + timeout
    while session_processes(session) and time.monotonic() < deadline:
        time.sleep(0.01)
    return session_processes(session)


def _check_outputs_whole(out: Path, expected: dict) -> int:
    """Every output present is exactly what the library writes for its input; returns how many there are."""
    n = 0
    for path in out.iterdir():
        assert not path.name.startswith("."), f"temp file left behind: {path.name}"
        assert path.read_text(encoding="utf-8") == expected[path.name], f"truncated or wrong: {path.name}"
        n += 1
    return n


# Enough work that an uninterrupted run lasts seconds here (about 1.8 s at -j 2 on an idle machine), while
# the signal goes out once SIGNAL_AFTER of its N_BIG * 3 outputs are whole: the run cannot end first.
N_BIG = 800
SIGNAL_AFTER = 30


@pytest.fixture(scope="module")
def big_inputs(tmp_path_factory):
    """Enough boards that a batch run lasts a few seconds, and the text of each of their outputs."""
    src = tmp_path_factory.mktemp("interrupt-src")
    expected = {}
    for i in range(N_BIG):
        p = random_puzzle(40, 40, density=0.15, reveal="game", seed=i)
        (src / f"g{i:04d}.txt").write_text(canonical_text(p))
        for name in FAST_FORMATS:
            expected[f"g{i:04d}{_ext(name)}"] = dumps(p, name)
    return src, expected


@pytest.mark.parametrize("sig,jobs", [(signal.SIGINT, 2), (signal.SIGTERM, 2), (signal.SIGKILL, 2),
                                      (signal.SIGTERM, 1)])
def test_interrupted_batch_leaves_no_truncated_file_and_resumes(tmp_path, big_inputs, sig, jobs):
    big_inputs, expected = big_inputs
    out = tmp_path / "out"
    proc = _start_batch(big_inputs, out, "-q", jobs=jobs)
    try:
        _wait_for_outputs(out, proc, SIGNAL_AFTER)
        assert proc.poll() is None, "the run ended before it could be interrupted: " + proc.communicate()[1]
        # Ctrl-C reaches every process of the job, `kill PID` only the main one; SIGKILL goes to the whole
        # job, so nothing is still writing while the outputs are checked
        if sig == signal.SIGTERM:
            proc.send_signal(sig)
        else:
            os.killpg(proc.pid, sig)
        _, err = proc.communicate(timeout=60)
        left = _wait_for_job_end(proc.pid)
        assert not left, f"processes of the run still alive after it ended: {left}"
    finally:
        if proc.poll() is None or session_processes(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == (-signal.SIGKILL if sig == signal.SIGKILL else 128 + sig), err
    if sig != signal.SIGKILL:
        assert "Traceback" not in err
        assert "interrupted after " in err and f" of {N_BIG} inputs" in err
        assert _no_temp_files(out), sorted(p.name for p in out.iterdir() if p.name.startswith("."))
    done = _check_outputs_whole(out if sig != signal.SIGKILL else _drop_temps(out), expected)
    assert SIGNAL_AFTER <= done < N_BIG * len(FAST_FORMATS)
    proc = _start_batch(big_inputs, out, "-q", "--skip-existing")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert _check_outputs_whole(out, expected) == N_BIG * len(FAST_FORMATS)
    skipped = int(err.split(" skipped")[0].rsplit(" ", 1)[1])
    assert skipped >= done // len(FAST_FORMATS) - 2  # inputs with every output already whole were kept


class _Finalized:
    """Runs a function from __del__, where Python drops any exception it raises (as for a collected stream)."""

    def __init__(self, fn) -> None:
        self.fn = fn

    def __del__(self) -> None:
        self.fn()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_stop_lost_in_a_finalizer_still_ends_the_pool_worker(tmp_path, monkeypatch):
    from mineconv.batch import Item, Settings, convert_items

    converted = []

    def convert(self, item):
        converted.append(item.index)
        # the SIGTERM handler ran while a dropped stream was being finalized: its SystemExit is lost
        _Finalized(lambda: convert_items._exit_on_signal(signal.SIGTERM, None))
        return [{"input": item.path, "status": "converted", "outputs": [], "error": None}]

    monkeypatch.setattr(convert_items._Worker, "convert", convert)
    monkeypatch.setattr(convert_items, "_WORKER", convert_items._Worker(Settings(str(tmp_path), ("native",))))
    monkeypatch.setattr(convert_items, "_STOPPED_BY", None)
    with pytest.raises(SystemExit) as stop:
        convert_items.pool_chunk([Item(0, "a.txt", "a"), Item(1, "b.txt", "b"), Item(2, "c.txt", "c")])
    assert stop.value.code == 128 + signal.SIGTERM
    assert converted == [0]  # the worker ends at the next item, not after its chunk (or never)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_stop_lost_in_a_finalizer_still_ends_the_run(tmp_path, monkeypatch):
    from mineconv.batch import convert_items

    _boards(tmp_path / "in", 16)
    convert = convert_items._Worker.convert

    def convert_and_lose_a_stop(self, item):
        if item.index == 0:  # SIGTERM arrives while a dropped stream is being finalized (-j 1: in this process)
            handler = signal.getsignal(signal.SIGTERM)
            _Finalized(lambda: handler(signal.SIGTERM, None))
        return convert(self, item)

    monkeypatch.setattr(convert_items._Worker, "convert", convert_and_lose_a_stop)
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    result = run_batch([str(tmp_path / "in")], str(tmp_path / "out"), ["native"], jobs=1)
    assert result.interrupted and result.signal == signal.SIGTERM
    assert 0 < len(result.records) < 16  # stopped after the first chunk, not at the end of the run
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before


def _drop_temps(out: Path) -> Path:
    # SIGKILL gives no chance to clean up: hidden temps and the run's journal may remain, but never a
    # truncated output
    for p in out.iterdir():
        if p.name.startswith(".") and (p.name.endswith(".part") or p.name.startswith(".mineconv-batch-")):
            p.unlink()
    return out


# --- Dask ----------------------------------------------------------------------------------------------
def test_dask_executor_on_a_local_cluster(tmp_path, capsys):
    require_module("dask")
    distributed = require_module("distributed")
    boards = _boards(tmp_path / "in", 12)
    (tmp_path / "in" / "bad.txt").write_text("9\n")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        code = main(["batch", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-t", ",".join(FORMATS),
                     "--executor", "dask", "--scheduler", cluster.scheduler_address, "-q",
                     "--manifest", str(tmp_path / "m.jsonl")])
    err = capsys.readouterr().err
    assert code == 1
    assert "12 converted, 0 skipped, 1 failed" in err
    assert f"{tmp_path / 'in' / 'bad.txt'}:1:1: " in err
    local = run_batch([str(tmp_path / "in")], str(tmp_path / "out2"), FORMATS, jobs=1,
                      manifest=str(tmp_path / "m2.jsonl"))
    assert local.count("converted") == 12
    assert (tmp_path / "m.jsonl").read_text().replace("/out/", "/X/") == \
        (tmp_path / "m2.jsonl").read_text().replace("/out2/", "/X/")
    for path, puzzle in boards:
        assert (tmp_path / "out" / (path.stem + ".txt")).read_text() == canonical_text(puzzle)


def test_dask_executor_without_a_scheduler_runs_a_local_cluster(tmp_path, capsys):
    require_module("distributed")
    _boards(tmp_path / "in", 3)
    assert main(["batch", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-t", "native", "-j", "1",
                 "--executor", "dask", "-q"]) == 0
    assert len(list((tmp_path / "out").iterdir())) == 3


def test_an_unreachable_scheduler_leaves_no_output_folder(tmp_path, capsys, monkeypatch):
    require_module("distributed")
    import dask.distributed
    _boards(tmp_path / "in", 1)

    def refuse(address, timeout=None):  # what Client says after its 30 s connect timeout, without the wait
        raise OSError(f"Timed out trying to connect to {address}")
    monkeypatch.setattr(dask.distributed, "Client", refuse)
    assert main(["batch", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-t", "native",
                 "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_manifest_inside_a_new_output_folder(tmp_path, capsys):
    _boards(tmp_path / "in", 2)
    out = tmp_path / "new-out"
    assert main(["batch", str(tmp_path / "in"), "-o", str(out), "-t", "native", "-q",
                 "--manifest", str(out / "manifest.jsonl")]) == 0
    assert len((out / "manifest.jsonl").read_text().splitlines()) == 2
    # a new user's `--manifest out/logs/m.jsonl`: the manifest's folder is created as -o's is
    assert main(["batch", str(tmp_path / "in"), "-o", str(tmp_path / "o2"), "-t", "native", "-q",
                 "--manifest", str(tmp_path / "o2" / "logs" / "m.jsonl")]) == 0
    assert len((tmp_path / "o2" / "logs" / "m.jsonl").read_text().splitlines()) == 2
    assert main(["batch", str(tmp_path / "in"), "-o", str(tmp_path / "o3"), "-t", "native", "-q",
                 "--manifest", str(tmp_path / "elsewhere" / "deep" / "m.jsonl")]) == 0
    assert len((tmp_path / "elsewhere" / "deep" / "m.jsonl").read_text().splitlines()) == 2


# --- progress ------------------------------------------------------------------------------------------
def test_plain_progress_lines_when_not_a_terminal(capsys):
    from mineconv.cli.batch import Progress

    progress = Progress(quiet=False, bar=False, every=0.0)
    progress.start(3)
    progress.record({"status": "converted", "error": None})
    progress.record({"status": "failed", "error": "f.txt:1:2: bad"})
    progress.close("summary here")
    err = capsys.readouterr().err.splitlines()
    assert err == ["mineconv batch: 1/3 done, 0 failed", "mineconv: f.txt:1:2: bad",
                   "mineconv batch: 2/3 done, 1 failed", "mineconv batch: summary here"]


def test_progress_bar_on_a_terminal(capsys):
    require_module("tqdm")
    from mineconv.cli.batch import Progress

    progress = Progress(quiet=False, bar=True)
    progress.start(2)
    progress.record({"status": "failed", "error": "f.txt:1:2: bad"})
    progress.record({"status": "converted", "error": None})
    progress.close("done")
    err = capsys.readouterr().err
    assert "2/2" in err and "mineconv: f.txt:1:2: bad" in err and err.endswith("mineconv batch: done\n")


def test_quiet_prints_failures_and_the_summary_only(capsys):
    from mineconv.cli.batch import Progress

    progress = Progress(quiet=True, bar=True, every=0.0)
    progress.start(2)
    progress.record({"status": "converted", "error": None})
    progress.record({"status": "failed", "error": "g.txt:3:1: bad"})
    progress.close("s")
    assert capsys.readouterr().err.splitlines() == ["mineconv: g.txt:3:1: bad", "mineconv batch: s"]


def test_unusable_output_folder_or_manifest_is_a_usage_error(tmp_path, capsys):
    _boards(tmp_path / "in", 1)
    (tmp_path / "file").write_text("x")
    assert main(["batch", str(tmp_path / "in"), "-o", str(tmp_path / "file"), "-t", "native"]) == 2
    assert "cannot create the output folder" in capsys.readouterr().err
    assert main(["batch", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-t", "native",
                 "--manifest", str(tmp_path / "file" / "logs" / "m.jsonl")]) == 2
    assert "cannot create the manifest's folder" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_an_unwritable_output_is_reported_not_raised(tmp_path, capsys):
    _boards(tmp_path / "in", 2)
    out = tmp_path / "out"
    out.mkdir()
    (out / "b000.txt").mkdir()  # a folder where the output file must go: the rename fails
    assert main(["batch", str(tmp_path / "in"), "-o", str(out), "-t", "native", "-q"]) == 1
    err = capsys.readouterr().err
    assert f"mineconv: {tmp_path / 'in' / 'b000.txt'}: cannot write the output {out / 'b000.txt'}: " in err
    assert "1 converted, 0 skipped, 1 failed" in err and "Traceback" not in err
    assert _no_temp_files(out)
