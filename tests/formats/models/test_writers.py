"""The solver-file writers: golden files, headers, line limits, legal names, determinism, CLI = library."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from mineconv.formats import reading, registry, writing
from mineconv.cli import main
from mineconv.make.generate import place_mines
from mineconv.core.layout import full_reveal
from mineconv.formats.header import read_header
from mineconv.core.puzzle import Puzzle

from regen_golden import CASES, FORMATS, GOLDEN, golden_name, render

MODEL_FORMATS = FORMATS
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("fmt", MODEL_FORMATS)
def test_golden(case: str, fmt: str) -> None:
    path = GOLDEN / golden_name(case, fmt)
    assert path.is_file(), f"missing golden file {path.name}: run python3 tests/regen_golden.py"
    assert render(CASES[case], fmt) == path.read_text(encoding="utf-8"), \
        f"{path.name} differs; if the change is intended, run python3 tests/regen_golden.py and review the diff"


@pytest.mark.parametrize("fmt", MODEL_FORMATS)
def test_header_recovers_the_puzzle(fmt: str) -> None:
    puzzle = Puzzle.from_rows(["1??*", "12?.", "01??"], mines=4, name="header check")
    back = read_header(writing.dumps(puzzle, fmt))
    assert back == puzzle


@pytest.mark.parametrize("fmt", MODEL_FORMATS)
def test_output_is_deterministic_and_lines_are_short(fmt: str) -> None:
    puzzle = full_reveal(place_mines(40, 60, density=0.25, seed=11))
    a = writing.dumps(puzzle, fmt)
    b = writing.dumps(puzzle, fmt)
    assert a == b
    body = [ln for ln in a.splitlines() if not ln.startswith(("c ", "\\ ", "* ", "# ", "; "))]
    if fmt == "opb":
        # minisat+ wants each constraint on one line: only the total may be long, the counts are short
        body = [ln for ln in body if ln.count(" x") <= 8]
        assert len(body) >= len(a.splitlines()) - 1 - sum(ln.startswith("* ") for ln in a.splitlines())
    assert max(len(ln) for ln in body) <= 255


def test_dimacs_header_counts_are_exact() -> None:
    puzzle = Puzzle.from_rows(["1??*?", "12?.?", "01???"], mines=5)
    text = writing.dumps(puzzle, "cnf")
    lines = [ln for ln in text.splitlines() if not ln.startswith("c")]
    assert lines[0].startswith("p cnf ")
    nv, nc = map(int, lines[0].split()[2:])
    clauses = lines[1:]
    assert len(clauses) == nc
    assert all(ln.endswith(" 0") or ln == "0" for ln in clauses)
    used = {abs(int(t)) for ln in clauses for t in ln.split()[:-1]}
    assert max(used) == nv


def test_dimacs_empty_clause_for_an_impossible_count() -> None:
    text = writing.dumps(Puzzle.from_rows(["1.", "..", "?."]), "cnf")
    body = [ln for ln in text.splitlines() if not ln.startswith("c")]
    assert body == ["p cnf 1 1", "0"]


def test_lp_names_are_legal_and_sections_in_order() -> None:
    puzzle = Puzzle.from_rows(["1??*", "12?.", "01??"], mines=4)
    text = writing.dumps(puzzle, "lp")
    body = [ln for ln in text.splitlines() if not ln.startswith("\\")]
    assert [ln for ln in body if not ln.startswith(" ")] == ["Minimize", "Subject To", "Binary", "End"]
    names = set(re.findall(r"\b([A-Za-z]\w*)\b", " ".join(body[1:])))
    names -= {"Subject", "To", "Binary", "End", "obj"}
    assert all(NAME_RE.match(n) for n in names)
    assert {"x0_1", "x0_2", "x1_2", "x2_2", "x2_3", "c0_0", "total"} <= names


def test_cli_convert_equals_library(tmp_path: Path) -> None:
    src = tmp_path / "p.txt"
    src.write_text("1??\n12?\n01?\n", encoding="utf-8")
    for fmt in MODEL_FORMATS:
        ext = registry.get_format(fmt).extensions[0]
        out = tmp_path / f"p-{fmt}{ext}"
        assert main(["convert", str(src), "-o", str(out), "--to", fmt, "--mines", "2"]) == 0
        puzzle = reading.read(src).replace(mines=2)
        assert out.read_text(encoding="utf-8") == writing.dumps(puzzle, fmt)


def test_extension_picks_the_format(tmp_path: Path) -> None:
    src = tmp_path / "p.txt"
    src.write_text("1??\n12?\n01?\n", encoding="utf-8")
    for fmt in MODEL_FORMATS:
        ext = registry.get_format(fmt).extensions[0]
        if fmt == "fixed-mps":
            continue  # .mps means free MPS
        out = tmp_path / f"q{ext}"
        assert main(["convert", str(src), "-o", str(out)]) == 0
        assert out.read_text(encoding="utf-8") == writing.dumps(reading.read(src), fmt), fmt


def test_bad_card_encoding_exits_2_and_leaves_no_file(tmp_path: Path, capsys) -> None:
    src = tmp_path / "p.txt"
    src.write_text("1??\n12?\n01?\n", encoding="utf-8")
    out = tmp_path / "p.cnf"
    assert main(["convert", str(src), "-o", str(out), "--mines", "2", "--card-encoding", "bogus"]) == 2
    assert "unknown cardinality encoding 'bogus'" in capsys.readouterr().err
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [src]


def test_fixed_mps_fields_sit_in_their_columns() -> None:
    text = writing.dumps(Puzzle.from_rows(["1??*", "12?.", "01??"], mines=4), "fixed-mps")
    body = [ln for ln in text.splitlines() if not ln.startswith("*")]
    assert body[0] == "NAME          MINES"
    section = None
    for ln in body[1:]:
        if not ln.startswith(" "):
            section = ln
            continue
        if section == "ROWS":
            assert ln[0] == " " and ln[3] == " " and ln[1] in "NE" and len(ln[4:]) <= 8
        elif section in ("COLUMNS", "RHS") and "MARKER" not in ln:
            assert ln[:4] == "    " and ln[12:14] == "  " and ln[22:24] == "  "
            assert ln[14:22].strip() and ln[24:36].strip().lstrip("-").isdigit()
            if len(ln) > 36:
                assert ln[36:39] == "   " and ln[39:47].strip() and ln[49:61].strip().lstrip("-").isdigit()
        elif section == "BOUNDS":
            assert ln[:4] == " BV " and ln[4:12] == "BND     " and ln[14:22].strip()


def test_fixed_mps_refuses_long_names_and_points_to_free_mps(tmp_path: Path, capsys) -> None:
    wide = Puzzle.from_rows(["?" * 1001, "1" + "?" * 1000] + ["?" * 1001] * 999)
    with pytest.raises(Exception) as err:
        writing.dumps(wide, "fixed-mps")
    assert "free MPS" in str(err.value) and "8 characters" in str(err.value)
    assert writing.dumps(Puzzle.from_rows(["?" * 1000]), "fixed-mps").count("x0_999") == 3
    # only names that exist count: a long row number with short column numbers still fits
    tall = Puzzle.from_rows(["." * 1200] * 1234 + ["?1" + "." * 1198])
    assert " x1234_0 " in writing.dumps(tall, "fixed-mps")
    src = tmp_path / "wide.txt"
    writing.write(wide, src, "native")
    out = tmp_path / "wide.mps"
    assert main(["convert", str(src), "-o", str(out), "--to", "fixed-mps"]) == 2
    assert "free MPS" in capsys.readouterr().err
    assert not out.exists()


def test_mps_extension_means_free_mps() -> None:
    assert reading.guess_format("a.mps", kind=None, direction="write").name == "mps"


def test_columns_in_id_order() -> None:
    puzzle = Puzzle.from_rows(["1??*?", "12?.?", "01???"], mines=5)
    text = writing.dumps(puzzle, "mps")
    cols = text[text.index("COLUMNS"):text.index("RHS\n")].splitlines()[2:-1]
    seen = []
    for ln in cols:
        name = ln.split()[0]
        if not seen or seen[-1] != name:
            seen.append(name)
    expected = [f"x{r}_{c}" for r, c in puzzle.unknown_cells]
    assert seen == expected


@pytest.mark.parametrize("fmt", ["lp", "mps", "fixed-mps", "smt2"])
def test_names_are_the_naming_module_s_and_legal_everywhere(fmt: str) -> None:
    from mineconv.core.naming import con_name, var_name

    puzzle = Puzzle.from_rows(["1??*?", "12?.?", "01???"], mines=5)
    text = writing.dumps(puzzle, fmt)
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith(("\\", "*", ";")))
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", body))
    cells = {var_name(r, c) for r, c in puzzle.unknown_cells}
    assert cells <= words
    assert {w for w in words if re.fullmatch(r"x\d+_\d+", w)} == cells
    if fmt != "smt2":
        from mineconv.encode.linear import constraint_rows
        from mineconv.core.system import build_system

        system = build_system(puzzle)
        # every count with an unknown neighbour; (2, 0) shows 0 with none around it: nothing to state
        counts = {con_name(r, c) for r, c in system.con_rc[constraint_rows(system)].tolist()}
        assert "c2_0" not in counts and len(counts) == system.num_constraints - 1
        assert {w for w in words if re.fullmatch(r"c\d+_\d+", w)} == counts
        assert "total" in words
    assert all(NAME_RE.match(w) and not re.fullmatch(r"[eE]\d.*", w) for w in words)


def test_bulk_number_text_matches_str() -> None:
    import numpy as np

    from mineconv.encode import bulk_text

    values = np.array([0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 10001, 99999999, 100000000,
                       123456789012, 16000000])
    for signed in (False, True):
        vals = np.concatenate([values, -values[1:]]) if signed else values
        got = [bulk_text.squeeze(item).decode() for item in bulk_text.numbers(vals, signed=signed)]
        assert got == [str(v) for v in vals.tolist()]
        assert bulk_text.squeeze(bulk_text.number_items(vals, b"<", b">")) == "".join(f"<{v}>" for v in vals.tolist()).encode()
    with pytest.raises(ValueError):
        bulk_text.numbers(np.array([-1]))
    names = bulk_text.texts(["ab", "c", ""])
    assert bulk_text.join(3, [b"[", names, (names, np.array([2, 0, 1])), b"]\n"]) == b"[ab]\n[cab]\n[c]\n"
    builder = bulk_text.TableBuilder()
    first = builder.add(["x", "y"])
    tails = builder.add(bulk_text.numbers(np.array([7, 80, 900])))
    table = builder.build()
    assert (first.at(1), tails.at(0), tails.at(2)) == (1, 2, 4)
    assert bulk_text.squeeze(table.take([tails.at(2), first.at(0), tails.at(1)])) == b"900x80"
    assert list(bulk_text.chunks(7, 3)) == [(0, 3), (3, 6), (6, 7)] and list(bulk_text.chunks(0, 3)) == []


def test_value_table_indexes_every_value_narrow_or_wide() -> None:
    import numpy as np

    from mineconv.encode import bulk_text

    rng = np.random.default_rng(5)
    for low, high in ((-8, 8), (1, 1), (0, bulk_text.RANGE_SPAN - 1), (0, bulk_text.RANGE_SPAN), (-3, 10 ** 6)):
        values = rng.integers(low, high + 1, size=500)
        values[:2] = low, high
        table, index = bulk_text.value_table(values)
        assert [table[i] for i in index.tolist()] == values.tolist()
        assert table == sorted(table) and len(table) <= max(bulk_text.RANGE_SPAN, len(set(values.tolist())))
    assert bulk_text.value_table(np.zeros(0, dtype=np.int64))[0] == []


def test_mps_names_do_not_depend_on_the_machine_s_byte_order() -> None:
    # the packed 8-byte names say '<u8': the bytes of a name are the same on any machine. A 1000 x 1000
    # board, every cell known safe but four unknown cells and a 1 beside each: names of one to three digits
    # on each side of the '_'
    cells = bytearray(b"." * 1000 * 1000)
    for r, c in [(0, 7), (12, 345), (999, 999), (5, 0)]:
        cells[r * 1000 + c] = ord("?")
        cells[r * 1000 + c - 1 + 2 * (c == 0)] = ord("1")
    puzzle = Puzzle(1000, 1000, cells.decode())

    def columns(fmt: str) -> list:
        text = writing.dumps(puzzle, fmt)
        body = text[text.index("\nCOLUMNS\n") + 9:text.index("\nRHS\n")].splitlines()
        return [line for line in body if "MARKER" not in line]

    got = [line.split()[0] for line in columns("mps")]
    assert got == ["x0_7", "x5_0", "x12_345", "x999_999"]
    assert [line.split()[3] for line in columns("mps")] == ["c0_6", "c5_1", "c12_344", "c999_998"]
    spaced = [line[4:12] for line in columns("fixed-mps")]    # fixed MPS: names in columns 5-12
    assert spaced == ["x0_7    ", "x5_0    ", "x12_345 ", "x999_999"]
    assert [line[39:47] for line in columns("fixed-mps")] == ["c0_6    ", "c5_1    ", "c12_344 ", "c999_998"]


@pytest.mark.parametrize("fmt", MODEL_FORMATS)
def test_a_text_stream_s_newline_applies_to_every_line(fmt: str, tmp_path: Path) -> None:
    # the registry owns a path (bytes, '\n' everywhere); a user's text stream gets text through its own
    # write(), so newline="\r\n" turns every line end into CRLF, the bulk-written lines too
    puzzle = full_reveal(place_mines(12, 15, density=0.3, seed=3)).replace(name="crlf")
    want = writing.dumps(puzzle, fmt)
    path = tmp_path / "crlf.out"
    with open(path, "w", newline="\r\n", encoding="utf-8") as out:
        writing.dump(puzzle, out, fmt)
    data = path.read_bytes()
    assert data == want.replace("\n", "\r\n").encode("utf-8")
    assert data.count(b"\n") == data.count(b"\r\n") == want.count("\n") > 50
    writing.write(puzzle, tmp_path / "lf.out", fmt)
    assert (tmp_path / "lf.out").read_bytes() == want.encode("utf-8") and b"\r" not in want.encode()
    with open(tmp_path / "b.out", "wb") as raw:   # a binary stream gets the bytes as written
        writing.dump(puzzle, raw, fmt)
    assert (tmp_path / "b.out").read_bytes() == want.encode("utf-8")


def test_every_text_writer_follows_the_stream_s_newline(tmp_path: Path) -> None:
    # the notation writers too (and any added later): one line-end convention per file, whatever the stream
    import io
    import warnings

    from mineconv.core.errors import MineconvError

    puzzle = Puzzle.from_rows(["1??*", "12?.", "01??"], mines=4, name="crlf")
    checked = []
    for f in registry.formats():
        if f.writer is None or f.binary:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want = writing.dumps(puzzle, f.name)
            except MineconvError:
                continue   # a notation that cannot hold this puzzle at all
            stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\r\n")
            writing.dump(puzzle, stream, f.name)
        stream.flush()
        assert stream.buffer.getvalue() == want.replace("\n", "\r\n").encode("utf-8"), f.name
        checked.append(f.name)
    assert set(MODEL_FORMATS) <= set(checked) and len(checked) > len(MODEL_FORMATS)
