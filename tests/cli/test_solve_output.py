"""solve -o OUT: what solve prints goes to a file, atomically, as every other writing command does (issue 40.8)."""
from __future__ import annotations

import json

from tests.conftest import SAMPLES
from tests.helpers import run_cli

SEED = SAMPLES / "seed-3x3.txt"
DUSAUTOY = SAMPLES / "dusautoy-6x6.txt"


def test_o_holds_what_stdout_would(capsys, tmp_path):
    rc, shown, _ = run_cli(capsys, "solve", DUSAUTOY)
    out = tmp_path / "out.txt"
    rc2, printed, _ = run_cli(capsys, "solve", DUSAUTOY, "-o", out)
    assert (rc, rc2) == (0, 0)
    assert printed == ""
    assert out.read_text() == shown
    assert "*" in shown


def test_o_with_json_and_all(capsys, tmp_path):
    out = tmp_path / "all.json"
    rc, printed, _ = run_cli(capsys, "solve", SEED, "--all", "--json", "--output", out)
    assert rc == 0 and printed == ""
    doc = json.loads(out.read_text())
    assert doc["count"] == 2 and doc["complete"] is True
    out = tmp_path / "one.json"
    assert run_cli(capsys, "solve", SEED, "--json", "-o", out)[0] == 0
    assert json.loads(out.read_text())["unique"] is False


def test_o_jsonl_streams_every_line_into_the_file(capsys, tmp_path):
    out = tmp_path / "s.jsonl"
    rc, printed, _ = run_cli(capsys, "solve", SEED, "--jsonl", "-o", out)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert rc == 0 and printed == ""
    assert [d.get("solution") for d in lines] == [1, 2, None]
    assert lines[-1]["count"] == 2


def test_bad_input_leaves_no_file(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1??\n1x?\n")
    out = tmp_path / "out.txt"
    rc, _, err = run_cli(capsys, "solve", bad, "-o", out)
    assert rc == 2 and "bad.txt:2:2" in err
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [bad]   # no stray temp file either


def test_o_refuses_to_overwrite_its_input(capsys, tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(SEED.read_text())
    rc, _, err = run_cli(capsys, "solve", board, "-o", board)
    assert rc == 2 and "input" in err
    assert board.read_text() == SEED.read_text()


def test_o_is_in_help(capsys):
    try:
        run_cli(capsys, "solve", "--help")
    except SystemExit:
        pass
    assert "-o OUTPUT, --output OUTPUT" in capsys.readouterr().out
