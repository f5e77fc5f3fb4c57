"""A total mine count too large for a CNF cardinality encoding is refused at once, not after exhausting memory."""
from __future__ import annotations

import pytest

from mineconv import FormatError, Puzzle, read
from mineconv.cli import main
from mineconv.encode.cnf import encode_cnf


def _open_board(rows: int, cols: int, mines: int) -> Puzzle:
    return Puzzle(rows, cols, "?" * (rows * cols), mines=mines)


def test_huge_total_is_refused_with_advice(monkeypatch):
    monkeypatch.setattr("mineconv.encode.cardinality.CARD_WORK_LIMIT", 100 * 40)
    with pytest.raises(FormatError, match="too large to encode in CNF.*lp, mps, opb"):
        encode_cnf(_open_board(10, 10, 41))
    # the same board below the limit, and the trivial bounds, still encode
    assert encode_cnf(_open_board(10, 10, 40)).card.count > 0
    assert encode_cnf(_open_board(10, 10, 0)).card.count == 100


def test_convert_ignore_total_and_no_file_on_refusal(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("mineconv.encode.cardinality.CARD_WORK_LIMIT", 10)
    src = tmp_path / "b.txt"
    src.write_text("mines: 5\n??????\n??????\n")
    out = tmp_path / "b.cnf"
    assert main(["convert", str(src), "-o", str(out)]) == 2
    assert "too large to encode in CNF" in capsys.readouterr().err
    assert not out.exists() and list(tmp_path.iterdir()) == [src]
    assert main(["convert", str(src), "-o", str(out), "--ignore-total"]) == 0
    assert "mines:" not in out.read_text()
    assert main(["convert", str(src), "-o", str(tmp_path / "b.lp")]) == 0  # linear formats state it directly
    assert "total:" in (tmp_path / "b.lp").read_text()
    assert read(str(src)).mines == 5
