"""Never misread: content detection, the weighing of readings that disagree, and advice for unreadable input."""
from __future__ import annotations

import json
import warnings

import pytest

from helpers import SAMPLES, run_cli
from mineconv import Puzzle, parse, read
from mineconv.analysis import analyze
from mineconv.core.errors import FormatError, MineconvError, PuzzleSyntaxError
from mineconv.formats.registry import LIKELY, NO, POSSIBLE, WEAK, get_format, register_format, unregister_format
from mineconv.core.errors import AmbiguousInputWarning
from mineconv.formats.reading import parse_reading, read_reading
from mineconv.formats.hints import resemblance

# Gecode's examples/minesweeper.cc problem 0, as a bare grid: '.' is an unknown cell
GECODE0 = "..2.3.\n2.....\n..24.3\n1.34..\n.....3\n.3.3..\n"
GECODE0_PUZZLE = Puzzle.from_rows(["??2?3?", "2?????", "??24?3", "1?34??", "?????3", "?3?3??"])


def quietly(fn, *args, **kwargs):
    """fn(...) with every warning turned into an error: the call must not warn."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(*args, **kwargs)


# the dot grid that also fits native text ------------------------------------------------------------
def test_a_bare_dot_grid_reads_with_dot_unknown_and_warns(tmp_path):
    path = tmp_path / "gecode0.txt"       # .txt, the native extension: the old misreading
    path.write_text(GECODE0)
    with pytest.warns(AmbiguousInputWarning) as seen:
        reading = read_reading(path)
    assert reading.puzzle == GECODE0_PUZZLE and reading.format.name == "dots" and reading.how == "content"
    message = str(seen[0].message)
    assert "native" in message and "--from native" in message and "nothing to solve" in message
    assert [f.name for f, _ in reading.others] == ["native"]
    # the alternative stays one flag away, and naming it is not ambiguous
    assert quietly(read, path, "native").unknown_count == 0


def test_the_dot_grid_solves_instead_of_being_infeasible(tmp_path, capsys):
    path = tmp_path / "gecode0.txt"
    path.write_text(GECODE0)
    status, out, err = run_cli(capsys, "solve", path, "--json")
    assert status == 0 and json.loads(out)["status"] == "solved"
    assert err.startswith("mineconv: warning: ") and "--from native" in err


def test_hakank_problem_files_are_detected_without_doubt(tmp_path):
    # comment lines, the row and column counts, the rows; then a licence block, no final newline, trailing spaces
    text = ("# Minesweeper problem.\n% from Gecode/examples/minesweeper.cc  problem 0\n6\n6\n"
            + GECODE0.replace("\n", "  \n", 1) + "#\n# Licensed under the Apache License, Version 2.0")
    path = tmp_path / "minesweeper_0.txt"
    path.write_text(text)
    reading = quietly(read_reading, path)
    assert reading.format.name == "dots" and reading.puzzle.cells == GECODE0_PUZZLE.cells
    assert get_format("dots").detect(text) == LIKELY
    assert get_format("native").detect(text) == NO     # native has no % comments (and "6" is no row)


# real files, as they come from hakank's problem sets (samples/README.md); their puzzles' published
# solution counts (Gecode's problems are unique; Kaye's configuration has 4 and his wire 2)
@pytest.mark.parametrize("name,same_as,solutions", [
    ("gecode-1.hakank.txt", None, 1),           # '#' header comments, then the counts and rows
    ("kaye-config3.hakank.txt", "kaye-config3.dots", 4),   # a licence block after the grid, no final newline
    ("kaye-wire.hakank.txt", "kaye-wire.dots", 2),         # 5 rows of 14: the counts are not a square's
])
def test_real_hakank_files_read_as_they_come(name, same_as, solutions):
    reading = quietly(read_reading, SAMPLES / name)
    assert reading.format.name == "dots" and reading.how == "content"
    if same_as:
        assert reading.puzzle.cells == read(SAMPLES / same_as).cells
    assert analyze(reading.puzzle).to_json()["solutions"] == solutions


@pytest.mark.parametrize("text,dots,native", [
    ("6\n6\n" + GECODE0, LIKELY, WEAK),
    ("6\n5\n" + GECODE0, POSSIBLE, WEAK),           # counts that do not match: dots, and its reader says why
    (GECODE0, POSSIBLE, POSSIBLE),
    ("121\n232\n", WEAK, POSSIBLE),                 # no '.': nothing unknown, both read the same
    ("1??\n12?\n", NO, LIKELY),                     # '?' is native's own
    ("mines: 1\n1.\n..\n", NO, LIKELY),
    ('  "..2.3.",\n  "2.....",\n', POSSIBLE, NO),    # rows quoted in C or Python source
    ("1.*\n...\n", NO, POSSIBLE),
])
def test_dots_and_native_confidences(text, dots, native):
    assert get_format("dots").detect(text) == dots
    assert get_format("native").detect(text) == native


def test_a_file_named_for_its_notation_is_not_ambiguous(tmp_path):
    path = tmp_path / "g.dots"
    path.write_text(GECODE0)
    assert quietly(read, path) == GECODE0_PUZZLE


def test_readings_that_agree_do_not_warn():
    assert quietly(parse, "121\n232\n").cells == "121232"    # dots and native read the same puzzle


# the registry's weighing works for any notation, without edits to it ------------------------------
@pytest.fixture
def notation():
    """Register temporary notations; each is removed after the test."""
    made = []

    def make(name, detect, reader):
        register_format(name, [], "puzzle", reader=reader, detect=detect)
        made.append(name)

    yield make
    for name in made:
        unregister_format(name)


def _all_digits(text):
    return POSSIBLE if text.strip() and set(text) <= set("0123456789\n") else NO


def test_a_new_notation_that_reads_a_different_puzzle_is_weighed_and_named(notation):
    # a notation where '0' means unknown: a digit grid is a puzzle there, a solved board in native
    notation("test-zero-unknown", _all_digits,
             lambda text, source: Puzzle.from_rows([r.replace("0", "?") for r in text.split()]))
    with pytest.warns(AmbiguousInputWarning, match=r"read as test-zero-unknown .*--from native"):
        reading = parse_reading("111\n101\n111\n")
    assert reading.format.name == "test-zero-unknown" and reading.puzzle.unknown_count == 1


def test_a_new_notation_that_fails_is_passed_over_silently(notation):
    def refuse(text, source):
        raise PuzzleSyntaxError("not mine after all", source=source, line=1, column=1)
    notation("test-refuser", lambda text: LIKELY if text.startswith("1") else NO, refuse)
    assert quietly(parse, "111\n1?1\n").cells == "1111?1"   # native reads it; the refuser's error is not shown


def test_of_two_readings_with_unknowns_the_likelier_wins_and_the_other_is_named(notation):
    notation("test-likely", lambda text: LIKELY if "?" in text else NO,
             lambda text, source: Puzzle.from_rows(["?" * len(r) for r in text.split()]))
    with pytest.warns(AmbiguousInputWarning, match="--from test-likely"):
        reading = parse_reading("1??\n12?\n")
    assert reading.format.name == "native"   # same level (LIKELY): the name order decides, and says so


# advice for input that no notation reads -------------------------------------------------------------
def test_cannot_tell_suggests_what_the_content_resembles(tmp_path, capsys):
    path = tmp_path / "puzzle.in"
    path.write_text("param n := 3;\nparam T : 1 2 3 :=\n1 -1 -1 -1\n;\nend;\n")
    with pytest.raises(FormatError, match=r"cannot tell the input notation .*looks most like dat \(.*`param`.*\): "
                                          r"try --from dat"):
        read(path)
    status, _, err = run_cli(capsys, "convert", path, "-o", tmp_path / "o.json")
    assert status == 2 and "try --from dat" in err and "Traceback" not in err


def test_cannot_tell_names_a_solver_answer_given_as_a_puzzle(tmp_path):
    path = tmp_path / "answer.out"
    path.write_text("s SATISFIABLE\nv 1 -2 0\n")
    with pytest.raises(FormatError, match=r"solver answer \(competition\): `mineconv decode"):
        read(path)


def test_resemblance_ranks_a_partial_fit():
    like = resemblance("A title line nobody allows\n6\n6\n" + GECODE0)
    assert like[0][1].name == "dots" and like[0][2] == "after its first line"
    assert resemblance("") == []


def test_a_named_notation_that_fails_points_to_the_likelier_one():
    with pytest.raises(MineconvError, match=r"looks more like native .*try --from native"):
        parse("1??\n12?\n", "dots")


def test_a_detected_notation_that_fails_says_it_was_detected():
    with pytest.raises(MineconvError, match=r"says 6 rows but 5 follow \[read as dots, the notation the content "
                                            r"looks most like"):
        parse("6\n6\n" + "".join(GECODE0.splitlines(True)[:5]))


def test_a_wrong_extension_points_to_the_notation_the_content_has(tmp_path):
    path = tmp_path / "title.txt"
    path.write_text("Minesweeper, problem 0\n6\n6\n" + GECODE0)
    with pytest.raises(MineconvError, match=r"looks more like dots \(after its first line\): try --from dots"):
        read(path)


# which notation was used -----------------------------------------------------------------------------
def test_info_and_convert_verbose_name_the_notation(tmp_path, capsys):
    status, out, _ = run_cli(capsys, "info", SAMPLES / "kaye-config3.dots")
    assert status == 0 and "notation:    dots (detected from the content)" in out
    status, out, _ = run_cli(capsys, "info", SAMPLES / "seed-3x3.txt", "--json")
    assert json.loads(out)["notation"] == "native"
    status, out, _ = run_cli(capsys, "info", SAMPLES / "seed-3x3.txt", "--from", "text")
    assert "notation:    native (named with --from)" in out
    status, _, err = run_cli(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", "-", "--to", "dat", "-v")
    assert status == 0 and err.startswith(f"mineconv: read {SAMPLES / 'seed-3x3.txt'} as native (detected from "
                                          "the content)\nmineconv: wrote <stdout> as dat\nmineconv: convert took ")
    status, _, err = run_cli(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", "-", "--to", "dat")
    assert status == 0 and err == ""


def test_batch_detects_like_read_and_records_the_ambiguity(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    (src / "minesweeper_1.txt").write_bytes((SAMPLES / "gecode-1.hakank.txt").read_bytes())
    (src / "bare.txt").write_text(GECODE0)
    manifest = tmp_path / "m.jsonl"
    status, _, err = run_cli(capsys, "batch", src, "-o", tmp_path / "out", "-t", "json", "--manifest", manifest)
    assert status == 0, err
    assert read(tmp_path / "out" / "bare.json") == GECODE0_PUZZLE
    assert read(tmp_path / "out" / "minesweeper_1.json").cells == read(SAMPLES / "gecode-1.hakank.txt").cells
    records = {json.loads(line)["input"].rsplit("/", 1)[-1]: json.loads(line) for line in manifest.open()}
    assert "--from native" in records["bare.txt"]["warnings"][0] and "warnings" not in records["minesweeper_1.txt"]
    assert "mineconv: warning: " in err and "bare.txt" in err


def test_a_native_extension_does_not_silence_a_reading_with_something_to_solve(notation, tmp_path):
    # a notation where '1' means unknown reads this grid as a puzzle too: native wins on its own
    # extension (same level, .txt), but the other reading is named all the same
    notation("test-one-unknown", lambda text: LIKELY if "?" in text else NO,
             lambda text, source: Puzzle.from_rows([r.replace("1", "?") for r in text.split()]))
    path = tmp_path / "p.txt"
    path.write_text("1??\n12?\n")
    with pytest.warns(AmbiguousInputWarning, match="--from test-one-unknown"):
        assert read_reading(path).format.name == "native"
