"""generate refuses what it cannot sensibly make, before allocating anything: one clean error, exit 2."""
from __future__ import annotations

import pytest

from mineconv.cli import main


def run(capsys, *argv):
    """main(argv) -> (exit status, stdout, stderr); argparse's own errors exit through SystemExit."""
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


BASE = ("generate", "--density", "0.1")


@pytest.mark.parametrize("extra,message", [
    (("--rows", "100000", "--cols", "100000"), "10000000000 cells is over the limit of 16777216"),
    (("--rows", "20", "--cols", "20", "--max-cells", "399"), "400 cells is over the limit of 399"),
    (("--rows", "0", "--cols", "5"), "at least one row and one column, got 0 x 5"),
    (("--rows", "5", "--cols", "5", "--seed", "-1"), "a seed is from 0 to 9223372036854775807, got -1"),
    (("--rows", "5", "--cols", "5", "--openings", "-3", "--reveal", "game"), "--openings must be 0 or more"),
    (("--rows", "5", "--cols", "5", "--density", "nan"), "the density is from 0 to 1, got nan"),
    (("--rows", "5", "--cols", "5", "--seed", "٣"), "'٣' is not a whole number"),
])
def test_refused_before_any_work(tmp_path, capsys, extra, message):
    status, out, err = run(capsys, *BASE, *extra, "-o", tmp_path / "x.txt")
    assert status == 2 and message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_count_into_an_existing_file_is_refused(tmp_path, capsys):
    target = tmp_path / "existing.txt"
    target.write_text("keep me\n")
    status, _, err = run(capsys, *BASE, "--rows", "4", "--cols", "4", "--count", "2", "-o", target)
    assert status == 2 and "--count writes a folder of boards, but this is an existing file" in err
    assert target.read_text() == "keep me\n"


def test_the_limit_can_be_raised(tmp_path, capsys):
    status, _, _ = run(capsys, *BASE, "--rows", "20", "--cols", "20", "--max-cells", "400", "--seed", "1",
                       "-o", tmp_path / "x.txt")
    assert status == 0 and (tmp_path / "x.txt").read_text().count("\n") >= 20
