"""The CLI on puzzle notations: convert, info, formats, stdin/stdout, and every bad-input path."""
from __future__ import annotations

import contextlib
import io
import json
import sys

import pytest

from mineconv import LossyConversionWarning, dumps, parse, read
from tests.helpers import run_cli
from mineconv.cli import main
from tests.conftest import SAMPLES

SEED_TXT = "1??\n12?\n01?\n"


run = run_cli  # (exit status, stdout, stderr) of `mineconv ARGV...`


@pytest.mark.parametrize("src,fmt,ext", [
    ("dusautoy-6x6.txt", None, "dat"), ("dusautoy-6x6.dat", None, "json"), ("dusautoy-6x6.json", None, "txt"),
    ("seed-3x3.pred.json", None, "dat"), ("dusautoy-6x6-flagged.mine", None, "json"),
    ("gecode-0.dots", "dots", "json"), ("dusautoy-6x6-flagged.dat", None, "mine"),
])
def test_convert_samples_by_extension(tmp_path, capsys, src, fmt, ext):
    out = tmp_path / f"out.{ext}"
    argv = ["convert", SAMPLES / src, "-o", out] + (["--from", fmt] if fmt else [])
    status, _, err = run(capsys, *argv)
    assert status == 0, err
    assert read(out).cells == read(SAMPLES / src, fmt).cells


def test_convert_output_equals_library_output(tmp_path, capsys):
    for fmt, ext in (("dat", "dat"), ("json", "json"), ("pred-json", "pred.json"), ("native", "txt")):
        out = tmp_path / f"o.{ext}"
        assert run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", out, "--to", fmt)[0] == 0
        with pytest.warns(LossyConversionWarning) if fmt == "pred-json" else contextlib.nullcontext():
            want = dumps(read(SAMPLES / "seed-3x3.txt"), fmt)  # pred-json drops the notes
        assert out.read_text() == want


def test_dots_by_extension_or_by_name(tmp_path, capsys):
    assert run(capsys, "convert", SAMPLES / "gecode-0.dots", "-o", tmp_path / "x.txt")[0] == 0
    assert read(tmp_path / "x.txt").cells == read(SAMPLES / "gecode-0.txt").cells
    hakank = tmp_path / "minesweeper_config3.txt"  # hakank's own file names end in .txt
    hakank.write_text((SAMPLES / "kaye-config3.dots").read_text())
    status, _, err = run(capsys, "convert", hakank, "-o", tmp_path / "y.json", "-v")
    # the count lines match the grid: dots, detected with no doubt (native would choke on the line "8")
    assert status == 0 and err.startswith(f"mineconv: read {hakank} as dots (detected from the content)\n"
                                          f"mineconv: wrote {tmp_path / 'y.json'} as json\n"
                                          f"mineconv: convert took ")
    assert read(tmp_path / "y.json") == read(SAMPLES / "kaye-config3.dots")
    assert run(capsys, "convert", hakank, "--from", "dots", "-o", tmp_path / "z.json")[0] == 0
    assert (tmp_path / "z.json").read_text() == (tmp_path / "y.json").read_text()
    assert run(capsys, "convert", SAMPLES / "gecode-0.txt", "-o", tmp_path / "g.dots", "--to", "dots")[0] == 0
    assert (tmp_path / "g.dots").read_text() == "6\n6\n" + (SAMPLES / "gecode-0.dots").read_text()


def test_output_format_from_compound_extension(tmp_path, capsys):
    assert run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", tmp_path / "s.pred.json")[0] == 0
    assert (tmp_path / "s.pred.json").read_text() == (SAMPLES / "seed-3x3.pred.json").read_text()
    assert run(capsys, "convert", SAMPLES / "seed-3x3.pred.json", "-o", tmp_path / "s.json")[0] == 0
    assert '"format": "mineconv-puzzle"' in (tmp_path / "s.json").read_text()


def test_mines_option_lets_mine_be_written(tmp_path, capsys):
    out = tmp_path / "s.mine"
    status, _, err = run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", out)
    assert status == 2 and "--mines" in err and not out.exists()
    assert run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", out, "--mines", "2")[0] == 0
    assert out.read_text() == "3x3x2\n1HH\n12H\n01H\n"


def test_stdin_and_stdout(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SEED_TXT.encode())))
    status, out, err = run(capsys, "convert", "-", "-o", "-", "--to", "pred-json")
    assert status == 0, err
    assert parse(out, "pred-json").cells == "1??12?01?"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"3x3x2\n1HH\n12H\n01H\n")))
    status, out, err = run(capsys, "convert", "-", "--from", "mine", "-o", "-", "--to", "dat")
    assert status == 0 and "param mines := 2;" in out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1?x\n")))
    status, out, err = run(capsys, "convert", "-", "-o", "-", "--from", "native", "--to", "json")
    assert status == 2 and out == "" and err.startswith("mineconv: <stdin>:1:3: ")


def test_info_on_each_notation(capsys):
    for name, fmt in (("dusautoy-6x6-flagged.dat", None), ("dusautoy-6x6-flagged.mine", None),
                      ("kaye-config3.dots", "dots"), ("seed-3x3.pred.json", None)):
        status, out, err = run(capsys, "info", SAMPLES / name, "--json", *(["--from", fmt] if fmt else []))
        assert status == 0, err
        data = json.loads(out)
        want = read(SAMPLES / name, fmt)
        assert (data["rows"], data["cols"], data["mines"]) == (want.rows, want.cols, want.mines)
        assert data["known_mines"] == want.known_mine_count
    status, out, _ = run(capsys, "info", SAMPLES / "dusautoy-6x6-flagged.mine")
    assert "known mines: 2" in out and "total mines: 8" in out


def test_formats_lists_the_notations(capsys):
    status, out, _ = run(capsys, "formats", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    for name, ext in (("dat", ".dat"), ("json", ".json"), ("pred-json", ".pred.json"), ("mine", ".mine")):
        assert rows[name]["kind"] == "puzzle" and rows[name]["read"] and rows[name]["write"]
        assert ext in rows[name]["extensions"]
    assert rows["dots"]["read"] and rows["dots"]["extensions"] == [".dots"]
    assert rows["cnf"]["write_options"] == ["mines", "card_encoding", "system"] and rows["native"]["write_options"] == []
    status, out, _ = run(capsys, "formats")
    assert "pred-json" in out and "dots" in out
    assert "also named: gecode, hakank" in out and "also named: pb\n" in out


# every bad-input path: one line FILE:LINE:COL: message, the offending line, exit 2, no output file ----
BAD = [
    # (file name, --from, content, line, column, message part)
    ("a.txt", None, "1??\n1x?\n", 2, 2, "'x' is not a cell symbol"),
    ("a.txt", None, "1??\n12\n", 2, 1, "rectangular"),
    ("a.txt", None, "4?\n??\n", 1, 1, "only 3 neighbours"),
    ("a.txt", None, "rows: 3\n1?\n", 1, 1, "header says rows: 3"),
    ("a.dat", None, "/* never closed\nparam n := 1;", 1, 1, "never closed"),
    ("a.dat", None, "param n := 2;\n", 2, 1, "no 'param R"),
    ("a.dat", None, "param n := 3;\nparam R : 1 2 := 1 -1 -1 2 -1 -1;", 1, 12, "param n says 3 columns"),
    ("a.dat", None, "param n := 2;\nparam R : 1 2 :=\n1 -1 -1\n2 -1 x;", 4, 6, "'x' is not a number"),
    ("a.dat", None, "param n := 2;\nparam R : 1 2 :=\n1 -1 -1\n2 -1 9;", 4, 6, "R[2,2] = 9"),
    ("a.dat", None, "param n := 2;\nparam R : 1 2 :=\n1 -1 -1\n3 -1 -1;", 4, 1, "row label '3'"),
    ("a.dat", None, "param n := 2;\nparam R : 1 3 :=\n1 -1 -1\n2 -1 -1;", 2, 13, "column labels of R"),
    ("a.dat", None, "param n := 2;\nparam R : 1 2 :=\n1 -1 -1\n2 -1;", 4, 1, "row 2 is incomplete"),
    ("a.dat", None, "param n := 2;\nparam R : 1 2 :=\n1 -1 -1\n2 1 -1;\nparam M : 1 2 :=\n1 0 0\n2 1 0;", 7, 3,
     "M[2,1] = 1 marks a known mine"),
    ("a.dat", None, "param n := 2;\nparam R : 1 2 :=\n1 -1 -1\n2 -1 4;", 4, 6, "only 3 neighbours"),
    ("a.dat", None, "param n := 2;\nparam q := 2;", 2, 7, "unknown parameter 'q'"),
    ("a.dat", None, "param n := 2\nparam R : 1 2 := 1 -1 -1 2 -1 -1;", 2, 1, "unexpected"),
    ("a.dat", None, "param n := 1;\nparam R : 1 := 1 -1;\nend;\nx", 4, 1, "after 'end;'"),
    ("a.dat", None, "param n := 1;\nparam mines := 5;\nparam R : 1 := 1 -1;", 2, 16, "exceeds"),
    ("a.json", None, '{"format": "mineconv-puzzle", "version": 1,\n "grid": ["1?", "1?"\n}', 3, 1,
     "not valid JSON"),
    ("a.json", None, '{"format": "mineconv-puzzle", "version": 1, "grid": ["1?"], "colour": 2}', 1, 61,
     "unknown key 'colour'"),
    ("a.json", None, '{"format": "mineconv-puzzle", "version": 2, "grid": ["1?"]}', 1, 31, "unsupported version"),
    ("a.json", None, '{"format": "mineconv-puzzle", "version": 1,\n "grid": ["1?",\n          "?x"]}', 3, 13,
     "'x' is not a cell symbol"),
    ("a.json", None, '{"format": "mineconv-puzzle", "version": 1, "grid": ["4?", "??"]}', 1, 55, "only 3 neighbours"),
    ("a.json", None, '{"format": "mineconv-puzzle", "version": 1, "mines": -1, "grid": ["?"]}', 1, 45, '"mines"'),
    ("a.json", None, '{"format": "mineconv-puzzle", "version": 1,\n "grid": ["1?"],\n "grid": ["?1"]}', 3, 2,
     "the key 'grid' is given twice"),
    ("p.json", None, '{"rows": 1, "cols": 2, "rows": 1, "revealed": [], "unrevealed": [[0, 1], [0, 0]]}', 1, 24,
     "the key 'rows' is given twice"),
    ("p.json", None, '{"rows": 1, "cols": 2, "revealed": [[0, 0, 1]], "unrevealed": [[0, 1], [0, 0]]}', 1, 72,
     "cell (0, 0) is listed twice"),
    ("p.json", None, '{"rows": 1, "cols": 3, "revealed": [[0, 0, 1]], "unrevealed": [[0, 1]]}', 1, 49,
     "cell (0, 2) is neither revealed nor unrevealed"),
    ("p.json", None, '{"rows": 1, "cols": 2, "revealed": [[0, 0, 1]], "unrevealed": [[0, 2]]}', 1, 64,
     "outside the 1 x 2 grid"),
    ("p.json", None, '{"rows": 1, "cols": 2,\n "revealed": [[0, 0, 9]], "unrevealed": [[0, 1]]}', 2, 15,
     "count 9 is not 0-8"),
    ("p.json", None, '{"type": "Minesweeper", "data": {"rows": 1, "cols": 2, "revealed": [[0, 0, "1"]], '
                     '"unrevealed": [[0, 1]]}}', 1, 69, "revealed item 0 must be"),
    ("a.mine", None, "3x2\nHHH\n", 1, 1, "WIDTHxHEIGHTxMINES"),
    ("a.mine", None, "3x2x1\nHHH\nHH\n", 3, 3, "row 2 has 2 cells"),
    ("a.mine", None, "3x2x1\nHHH\nHxH\n", 3, 2, "'x' is not a JSMinesweeper cell"),
    ("a.mine", None, "3x2x1\nHHH\n", 3, 1, "only 1 row,"),
    ("a.mine", None, "2x1x1\nH8\n", 2, 2, "only 1 neighbour"),
    ("a.mine", None, "2x1x3\nHH\n", 1, 1, "exceeds"),
    ("a.dots", "dots", "..1\n.a.\n", 2, 2, "'a' is not a cell of the dot notation"),
    ("a.dots", "dots", "3\n3\n...\n...\n", 1, 1, "says 3 rows but 2 follow"),
    ("a.dots", "dots", "...\n..\n", 2, 1, "rectangular"),
]


@pytest.mark.parametrize("name,fmt,content,line,col,message", BAD)
def test_bad_input_is_one_located_error(tmp_path, capsys, name, fmt, content, line, col, message):
    src = tmp_path / name
    src.write_text(content)
    out = tmp_path / "out.txt"
    argv = ["convert", src, "-o", out] + (["--from", fmt] if fmt else [])
    status, stdout, err = run(capsys, *argv)
    assert status == 2, err
    first = err.splitlines()[0]
    assert first.startswith(f"mineconv: {src}:{line}:{col}: "), err
    assert message in first, err
    # the offending line and a caret under the column follow the message
    assert err.splitlines()[1].strip() == content.split("\n")[line - 1].strip()
    assert err.splitlines()[2].index("^") == 4 + col - 1
    assert "Traceback" not in err and stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no output, no temp file left behind
    # info reports the same error
    status, _, err2 = run(capsys, "info", src, *(["--from", fmt] if fmt else []))
    assert status == 2 and err2.splitlines()[0] == first


def test_file_level_errors(tmp_path, capsys):
    out = tmp_path / "o.txt"
    status, _, err = run(capsys, "convert", tmp_path / "missing.dat", "-o", out)
    assert status == 2 and err.strip() == f"mineconv: {tmp_path / 'missing.dat'}: no such file"
    bad = tmp_path / "b.txt"
    bad.write_bytes(b"1??\n1\xff?\n")
    status, _, err = run(capsys, "convert", bad, "-o", out)
    assert status == 2 and err.startswith(f"mineconv: {bad}:2:2: not UTF-8")
    status, _, err = run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", out, "--to", "nonsense")
    assert status == 2 and "unknown writable format 'nonsense'" in err and "dat" in err
    status, _, err = run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", out, "--from", "nonsense")
    assert status == 2 and "unknown readable format 'nonsense'" in err
    unknown = tmp_path / "u.json"
    unknown.write_text('{"something": "else"}')
    status, _, err = run(capsys, "convert", unknown, "-o", out)
    assert status == 2 and "cannot tell the input notation" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.txt", "u.json"]


def test_failed_conversion_keeps_an_existing_output(tmp_path, capsys):
    out = tmp_path / "o.mine"
    out.write_text("old\n")
    status, _, err = run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", out)  # .mine needs --mines
    assert status == 2 and out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.mine"]


# convert IN OUT (meshio / pandoc style) beside -o OUT, and the -f / -t short forms -----------------------
def test_positional_output_equals_dash_o(tmp_path, capsys):
    assert run(capsys, "convert", SAMPLES / "seed-3x3.txt", tmp_path / "a.lp")[0] == 0
    assert run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", tmp_path / "b.lp")[0] == 0
    assert (tmp_path / "a.lp").read_text() == (tmp_path / "b.lp").read_text() != ""
    status, out, err = run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-", "-t", "pred-json", "-q")
    assert status == 0 and err == "" and parse(out, "pred-json").cells == "1??12?01?"


def test_short_from_and_to(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"3x3x2\n1HH\n12H\n01H\n")))
    status, out, err = run(capsys, "convert", "-", "-f", "mine", "-o", "-", "-t", "dat")
    assert status == 0 and "param mines := 2;" in out, err
    assert run(capsys, "convert", SAMPLES / "seed-3x3.txt", tmp_path / "s.mps", "-t", "fixed-mps")[0] == 0
    assert (tmp_path / "s.mps").read_text() == dumps(read(SAMPLES / "seed-3x3.txt"), "fixed-mps")


@pytest.mark.parametrize("outputs,message", [
    ((), "no output: give it as the second argument (OUT) or with -o OUT"),
    (("a.cnf", "-o", "b.cnf"), "the output is named twice"),
])
def test_output_named_once(tmp_path, capsys, outputs, message):
    argv = [SAMPLES / "seed-3x3.txt"] + [tmp_path / o if o.endswith(".cnf") else o for o in outputs]
    status, out, err = run(capsys, "convert", *argv)
    assert status == 2 and out == "" and err.startswith("mineconv: ") and message in err
    assert "Traceback" not in err and list(tmp_path.iterdir()) == []


def test_stdout_is_named_stdout_in_messages(capsys):
    status, _, err = run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", "-")
    assert status == 2 and err.startswith("mineconv: <stdout>: cannot tell the output format") and "<stdin>" not in err
    status, _, err = run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-", "-t", "json", "-v")
    assert status == 0 and "mineconv: wrote <stdout> as json\n" in err


def test_card_encodings_are_listed(capsys):
    from mineconv.encode import CARD_ENCODINGS, DEFAULT_CARD_ENCODING
    status, out, _ = run(capsys, "formats", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["cnf"]["card_encodings"] == list(CARD_ENCODINGS) and "seqcounter" in CARD_ENCODINGS
    assert rows["cnf"]["default_card_encoding"] == DEFAULT_CARD_ENCODING == "kmtotalizer"
    assert "card_encodings" not in rows["lp"]
    status, out, _ = run(capsys, "formats")
    assert f"--card-encoding: {', '.join(CARD_ENCODINGS)} (default kmtotalizer)" in out
    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    out = capsys.readouterr().out
    assert "default kmtotalizer" in " ".join(out.split()) and "seqcounter" in out


def test_output_after_options(monkeypatch, tmp_path, capsys):
    # argparse fills positionals from their first run only: OUT after an option still counts
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((SAMPLES / "seed-3x3.json").read_bytes())))
    status, out, err = run(capsys, "convert", "-", "-f", "json", "-", "-t", "lp")
    assert status == 0 and out == dumps(read(SAMPLES / "seed-3x3.json"), "lp"), err
    assert run(capsys, "convert", SAMPLES / "seed-3x3.txt", "-t", "lp", tmp_path / "a.lp")[0] == 0
    assert (tmp_path / "a.lp").read_text() == dumps(read(SAMPLES / "seed-3x3.txt"), "lp")
    for extra in ([tmp_path / "b.lp", tmp_path / "c.lp"], ["--bogus", tmp_path / "b.lp"]):
        with pytest.raises(SystemExit) as exc:
            main(["convert", str(SAMPLES / "seed-3x3.txt"), "-t", "lp", *map(str, extra)])
        assert exc.value.code == 2 and "unrecognized arguments" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [tmp_path / "a.lp"]


@pytest.mark.parametrize("content", ["", "\n\n", "  \n\t\n"])
def test_empty_input_says_it_is_empty(tmp_path, capsys, content):
    empty = tmp_path / "empty"
    empty.write_text(content)
    for argv in (("info", empty), ("grade", empty), ("convert", empty, "-o", tmp_path / "x.cnf")):
        status, out, err = run(capsys, *argv)
        assert status == 2 and "the input is empty (or only blank lines): there is no puzzle to read" in err
        assert "Traceback" not in err and out == ""
    status, _, err = run(capsys, "decode", SAMPLES / "seed-3x3.txt", empty)
    assert status == 2 and "there is no solver answer to read" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]
