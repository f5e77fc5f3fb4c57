"""Outputs never destroy data: an input is never overwritten, special files are written in place (never
renamed over), and a path that cannot be written is one clean error (exit 2) with nothing left behind."""
from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
import threading

import pytest

from mineconv import dumps, read
from tests.helpers import ROOT, SAMPLES, run_cli


run = run_cli


def digest(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


@pytest.fixture
def puzzle_file(tmp_path):
    p = tmp_path / "victim.txt"
    p.write_bytes((SAMPLES / "seed-3x3.txt").read_bytes())
    return p


@pytest.mark.parametrize("argv", [
    ("convert", "{in}", "-o", "{in}", "--to", "cnf"),
    ("convert", "{in}", "-o", "{link}", "--to", "lp"),
    ("analyze", "{in}", "-o", "{in}"),
    ("render", "{svg}", "--from", "native", "-o", "{svg}"),  # a picture's extension, so only the guard refuses
])
def test_an_output_that_is_an_input_is_refused(tmp_path, capsys, puzzle_file, argv):
    link = tmp_path / "link.txt"
    link.symlink_to(puzzle_file)
    svg = tmp_path / "victim.svg"  # a puzzle that happens to be named like a picture
    svg.write_bytes(puzzle_file.read_bytes())
    before = digest(puzzle_file), digest(svg)
    status, _, err = run(capsys, *(a.format(**{"in": puzzle_file, "link": link, "svg": svg}) for a in argv))
    assert status == 2 and "is also an input of this command" in err and "Traceback" not in err
    assert (digest(puzzle_file), digest(svg)) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "victim.svg", "victim.txt"]  # no temp file


def test_library_writes_may_replace_a_file_read_earlier(tmp_path, puzzle_file):
    # the guard belongs to the command line: a script may read a file and deliberately rewrite it
    from mineconv import write
    write(read(puzzle_file), puzzle_file, "cnf")
    assert puzzle_file.read_text().startswith("c mineconv")


def test_dev_null_is_written_not_replaced(capsys, puzzle_file):
    assert run(capsys, "convert", puzzle_file, "-o", os.devnull, "--to", "cnf")[0] == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_a_full_device_is_a_clean_error_and_stays_a_device(capsys, puzzle_file):
    status, _, err = run(capsys, "convert", puzzle_file, "-o", "/dev/full", "--to", "cnf")
    assert status == 2 and err.strip() == "mineconv: /dev/full: no space left on the device"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_stdout_to_a_full_device_is_a_clean_error(puzzle_file):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "mineconv", "convert", str(puzzle_file), "-o", "-",
                               "--to", "cnf"], stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "<stdout>: no space left on the device" in proc.stderr


def test_a_fifo_gets_the_data_and_stays_a_fifo(tmp_path, capsys, puzzle_file):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    assert run(capsys, "convert", puzzle_file, "-o", fifo, "--to", "cnf")[0] == 0
    reader.join(10)
    assert got and got[0].decode() == dumps(read(puzzle_file), "cnf")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("target,message", [
    ("missing-folder/out.cnf", "its folder does not exist"),
    (".", "is a folder, not a file"),
])
def test_unwritable_outputs_are_one_clean_error(tmp_path, capsys, puzzle_file, target, message):
    status, _, err = run(capsys, "convert", puzzle_file, "-o", tmp_path / target, "--to", "cnf")
    assert status == 2 and err.strip().endswith(message) and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["victim.txt"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_one_clean_error(tmp_path, capsys, puzzle_file):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        status, _, err = run(capsys, "convert", puzzle_file, "-o", ro / "x.cnf", "--to", "cnf")
    finally:
        ro.chmod(0o755)
    assert status == 2 and err.strip().endswith("permission denied")


@pytest.mark.parametrize("where", ["input", "output"])
def test_a_batch_manifest_never_replaces_an_input_or_an_output(tmp_path, capsys, where):
    src = tmp_path / "in"
    src.mkdir()
    victim = src / "a.txt"
    victim.write_bytes((SAMPLES / "seed-3x3.txt").read_bytes())
    before = digest(victim)
    out = tmp_path / "out"
    manifest = victim if where == "input" else out / "a.cnf"
    status, _, err = run(capsys, "batch", src, "-o", out, "-t", "cnf", "-q", "--manifest", manifest)
    assert status == 2 and f"the manifest would overwrite an {where} of this run" in err
    assert digest(victim) == before and not (out / "a.cnf").exists()
