"""Answers of today's clingo from PyPI (`python -m clingo`, 5.8: `pyclingo version`, `Answer: 1 (Time: ...)`)
are read as well as Debian's clingo 5.4's: each run on the same boards, decoded and verified, must agree."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from helpers import SAMPLES, mine_sets, require_module, require_tool, run_cli
from mineconv import parse, write

BOARDS = {"one": (SAMPLES / "dusautoy-6x6.txt").read_text(), "two": "1??\n12?\n01?\n",
          "none": "mines: 3\n1?\n??\n"}


def pypi_clingo(*args: str) -> str:
    require_module("clingo")
    return subprocess.run([sys.executable, "-m", "clingo", *args], capture_output=True, text=True).stdout


@pytest.mark.parametrize("name", sorted(BOARDS))
@pytest.mark.parametrize("style", ["text", "json"])
def test_pypi_and_debian_clingo_answers_decode_alike(tmp_path, capsys, name, style):
    puzzle = parse(BOARDS[name])
    model = tmp_path / "b.asp"
    write(puzzle, model)
    extra = ["--outf=2"] if style == "json" else []
    out = pypi_clingo(str(model), *extra)
    assert ("pyclingo version" in out) if style == "text" else ('"pyclingo version' in out)
    (tmp_path / "new.out").write_text(out)
    debian = require_tool("clingo")
    (tmp_path / "old.out").write_text(subprocess.run([debian, str(model), *extra], capture_output=True,
                                                     text=True).stdout)
    decoded = []
    for answer in ("new.out", "old.out"):
        status, text, err = run_cli(capsys, "decode", model, tmp_path / answer, "--json")
        result = json.loads(text)
        if name == "none":
            assert status == 1 and result["status"] == "infeasible", err
        else:
            assert status == 0 and result["status"] == "solved", err
            assert frozenset(map(tuple, result["mines"])) in mine_sets(puzzle)
        decoded.append(result["status"])
    assert decoded[0] == decoded[1]


def test_pypi_clingo_enumeration_lines_are_read(tmp_path, capsys):
    puzzle = parse(BOARDS["two"])
    model = tmp_path / "b.asp"
    write(puzzle, model)
    out = pypi_clingo(str(model), "--models=0")
    assert "Answer: 2 (Time:" in out
    (tmp_path / "all.out").write_text(out)
    status, text, _ = run_cli(capsys, "decode", model, tmp_path / "all.out", "--json")
    assert status == 0 and "2 models" in json.loads(text)["why"]
