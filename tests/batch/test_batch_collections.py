"""batch over files that hold several puzzles: one output per puzzle, the manifest says which, --puzzle N,
a bad puzzle failing alone, --skip-existing per puzzle, an interrupt between two puzzles of one file."""
from __future__ import annotations

import json
import shutil
import signal
from pathlib import Path

import numpy as np
import pytest

import mineconv
from helpers import SAMPLES, run_cli
from mineconv.batch import run_batch

FIELDS = SAMPLES / "pc110102-fields.in"              # 2 contest fields
CASES = SAMPLES / "exercism-minesweeper.exercism.json"  # 3 cases, the first without rows (numbered, empty)
SINGLE = SAMPLES / "seed-3x3.txt"


def _manifest(path: Path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _mines(puzzle) -> list:
    # a layout reads as its full reveal (issue 40.3): its unknown cells are exactly its mines
    return sorted((r, c) for r, line in enumerate(puzzle.grid_lines) for c, ch in enumerate(line) if ch in "*?")


def test_a_collection_gives_one_solvable_output_per_puzzle_and_the_manifest_says_which(tmp_path, capsys):
    work = tmp_path / "in"
    work.mkdir()
    for sample in (FIELDS, CASES, SINGLE):
        shutil.copy(sample, work / sample.name)
    out, manifest = tmp_path / "out", tmp_path / "manifest.jsonl"
    status, _, err = run_cli(capsys, "batch", work / FIELDS.name, work / CASES.name, work / SINGLE.name,
                             "-o", out, "-t", "cnf", "--manifest", manifest, "-j", "1")
    assert status == 0, err
    assert "5 converted, 1 skipped, 0 failed (3 inputs holding 6 puzzles, 5 files written)" in err
    assert sorted(p.name for p in out.rglob("*.cnf")) == [
        "exercism-minesweeper-2.cnf", "exercism-minesweeper-3.cnf", "pc110102-fields.in-1.cnf",
        "pc110102-fields.in-2.cnf", "seed-3x3.cnf"]
    rows = _manifest(manifest)
    single = rows.pop()
    assert set(single) == {"input", "status", "outputs", "error"}  # a file of one puzzle: the line as before
    assert single["outputs"][0]["path"].endswith("seed-3x3.cnf")
    for sample, stem in ((FIELDS, "pc110102-fields.in"), (CASES, "exercism-minesweeper")):
        mine = [r for r in rows if r["input"] == str(work / sample.name)]
        status_info, info, _ = run_cli(capsys, "info", sample, "--json")
        listed = json.loads(info)["puzzles"]
        assert [(r["puzzle"], r["label"], r["puzzles"]) for r in mine] == \
            [(p["index"], p["label"], len(listed)) for p in listed]  # numbered and labelled as `info` lists them
        empty = [r for r in mine if r.get("empty")]   # the empty case: numbered, skipped, nothing written
        assert [(r["puzzle"], r["status"], r["outputs"]) for r in empty] == \
            ([(1, "skipped", [])] if sample == CASES else [])
        for row, puzzle in zip([r for r in mine if not r.get("empty")], mineconv.read_all(sample)):
            (output,) = row["outputs"]
            assert row["status"] == "converted" and row["error"] is None
            assert output["path"] == str(out / f"{stem}-{row['puzzle']}.cnf")
            decoded = mineconv.solve(output["path"])  # the header gives the board back; the embedded solver solves it
            assert decoded.status == "solved"
            assert decoded.puzzle.grid_lines == puzzle.grid_lines and decoded.puzzle.name == puzzle.name
            assert sorted(map(tuple, np.argwhere(decoded.grid).tolist())) == _mines(puzzle)


def test_a_collection_notation_file_of_one_puzzle_keeps_its_plain_name_and_line(tmp_path):
    one = tmp_path / "one.uva"
    one.write_text("2 3\n*..\n..*\n0 0\n")
    result = run_batch([str(one)], str(tmp_path / "out"), ["cnf"], jobs=1, manifest=str(tmp_path / "m.jsonl"))
    assert [set(r) for r in _manifest(tmp_path / "m.jsonl")] == [{"input", "status", "outputs", "error"}]
    assert result.records[0]["outputs"][0]["path"] == str(tmp_path / "out" / "one.cnf")
    assert "puzzle" not in result.summary()


def test_puzzle_n_converts_that_puzzle_of_each_collection_and_single_files_as_they_are(tmp_path, capsys):
    out = tmp_path / "out"
    status, _, err = run_cli(capsys, "batch", FIELDS, CASES, SINGLE, "-o", out, "-t", "cnf", "--puzzle", "2",
                             "--manifest", tmp_path / "m.jsonl")
    assert status == 0 and "warning" not in err, err
    assert sorted(p.name for p in out.rglob("*.cnf")) == [
        "exercism-minesweeper-2.cnf", "pc110102-fields.in-2.cnf", "seed-3x3.cnf"]
    rows = _manifest(tmp_path / "m.jsonl")
    assert [(r.get("puzzle"), r.get("label")) for r in rows] == [(2, "Field #2"), (2, "mine surrounded by spaces"),
                                                                 (None, None)]
    second = list(mineconv.read_all(FIELDS))[1]
    assert mineconv.solve(str(out / "pc110102-fields.in-2.cnf")).puzzle.grid_lines == second.grid_lines
    # a collection without that many puzzles fails like a bad file; a bad value fails the request at once
    status, _, err = run_cli(capsys, "batch", FIELDS, "-o", tmp_path / "o3", "-t", "cnf", "--puzzle", "3")
    assert status == 1 and "--puzzle 3 asks for field 3, but the file holds only 2 fields" in err
    status, _, err = run_cli(capsys, "batch", FIELDS, "-o", tmp_path / "o4", "-t", "cnf", "--puzzle", "0")
    assert status == 2 and "--puzzle counts from 1" in err


def test_a_bad_puzzle_of_a_collection_fails_alone(tmp_path, capsys):
    data = json.loads(CASES.read_text(encoding="utf-8"))
    data["cases"][1]["expected"][0] = "112"   # case 2's annotation is wrong; case 3 is fine (case 1 is empty)
    bad = tmp_path / "cases.exercism.json"
    bad.write_text(json.dumps(data, indent=1), encoding="utf-8")
    status, _, err = run_cli(capsys, "batch", bad, "-o", tmp_path / "out", "-t", "cnf,lp",
                             "--manifest", tmp_path / "m.jsonl")
    assert status == 1
    empty, first, second = _manifest(tmp_path / "m.jsonl")
    assert empty["status"] == "skipped" and empty["puzzle"] == 1 and empty["empty"] == "no rows"
    assert first["status"] == "failed" and first["outputs"] == [] and first["puzzle"] == 2
    assert first["error"].startswith(f"{bad}:") and "annotation shows '2'" in first["error"]
    assert first["error"] in err  # reported as a bad file is
    assert second["status"] == "converted" and [o["format"] for o in second["outputs"]] == ["cnf", "lp"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["cases-3.cnf", "cases-3.lp"]
    assert "1 converted, 1 skipped, 1 failed (1 input holding 3 puzzles, 2 files written)" in err


def test_skip_existing_keeps_each_puzzle_and_rewrites_only_the_missing_one(tmp_path):
    out = tmp_path / "out"
    first = run_batch([str(FIELDS)], str(out), ["cnf"], jobs=1)
    assert [r["status"] for r in first.records] == ["converted", "converted"]
    again = run_batch([str(FIELDS)], str(out), ["cnf"], jobs=1, skip_existing=True)
    assert [(r["status"], r["puzzle"]) for r in again.records] == [("skipped", 1), ("skipped", 2)]
    (out / "pc110102-fields.in-2.cnf").unlink()
    third = run_batch([str(FIELDS)], str(out), ["cnf"], jobs=1, skip_existing=True)
    assert [r["status"] for r in third.records] == ["skipped", "converted"]
    assert third.files_written == 1


def test_a_puzzle_output_never_replaces_another_inputs(tmp_path):
    work = tmp_path / "in"
    work.mkdir()
    shutil.copy(FIELDS, work / "f.uva")
    shutil.copy(SINGLE, work / "f-1.txt")     # its output f-1.cnf is also the name of f.uva's first field
    result = run_batch([str(work)], str(tmp_path / "out"), ["cnf"], jobs=1)
    by = {(Path(r["input"]).name, r.get("puzzle")): r for r in result.records}
    assert by[("f-1.txt", None)]["status"] == "converted"
    assert by[("f.uva", 1)]["status"] == "failed" and "also another input's" in by[("f.uva", 1)]["error"]
    assert by[("f.uva", 2)]["status"] == "converted"
    assert mineconv.solve(str(tmp_path / "out" / "f-1.cnf")).puzzle.grid_lines == mineconv.read(SINGLE).grid_lines


def test_a_puzzle_output_is_never_the_manifest(tmp_path):
    out = tmp_path / "out"
    result = run_batch([str(FIELDS)], str(out), ["cnf"], jobs=1, manifest=str(out / "pc110102-fields.in-2.cnf"))
    assert [r["status"] for r in result.records] == ["converted", "failed"]
    assert "output would be the manifest" in result.records[1]["error"]
    assert json.loads((out / "pc110102-fields.in-2.cnf").read_text().splitlines()[0])["puzzle"] == 1


def test_an_interrupt_between_two_puzzles_lists_exactly_what_is_on_disk(tmp_path, monkeypatch):
    from mineconv.batch import convert_items

    convert_unit = convert_items._Worker._convert_unit

    def stop_at_the_second(self, item, unit, *args, **kwargs):
        if unit.number == 2:   # Ctrl-C once the first puzzle's outputs are in (-j 1: in this process)
            raise KeyboardInterrupt
        return convert_unit(self, item, unit, *args, **kwargs)

    monkeypatch.setattr(convert_items._Worker, "_convert_unit", stop_at_the_second)
    out = tmp_path / "out"
    result = run_batch([str(FIELDS)], str(out), ["cnf", "lp"], jobs=1, manifest=str(tmp_path / "m.jsonl"))
    assert result.interrupted and result.signal == signal.SIGINT
    assert [(r["puzzle"], r["status"]) for r in result.records] == [(1, "converted")]
    on_disk = sorted(p.name for p in out.rglob("*") if p.is_file())
    assert on_disk == ["pc110102-fields.in-1.cnf", "pc110102-fields.in-1.lp"]  # no journal or temp left
    assert [r["puzzle"] for r in _manifest(tmp_path / "m.jsonl")] == [1]
    assert result.summary().startswith("interrupted after 1 of 1 input: 1 converted")


@pytest.mark.parametrize("executor", ["local", "dask"])
def test_parallel_runs_expand_collections_too(tmp_path, executor):
    if executor == "dask":
        pytest.importorskip("dask.distributed", reason="the dask extra is not installed")
    inputs = [str(FIELDS), str(CASES), str(SINGLE)]
    result = run_batch(inputs, str(tmp_path / "out"), ["cnf"], jobs=2, executor=executor)
    assert [(Path(r["input"]).name, r.get("puzzle")) for r in result.records] == [
        (FIELDS.name, 1), (FIELDS.name, 2), (CASES.name, 1), (CASES.name, 2), (CASES.name, 3), (SINGLE.name, None)]
    assert result.files_written == 5
