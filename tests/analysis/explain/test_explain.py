"""mineconv explain: each step is sound, its named counts alone force it, and the steps at a level decide
exactly what propagate (and, at full, analyze) decides; the sentences, the JSON, the pictures, exit codes."""
from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import mineconv as mc
from helpers import SAMPLES, brute_force, mine_sets, placed_board, random_board, run_cli
from mineconv.analysis import analyze, propagate
from mineconv.analysis.explain import explain

LEVELS = ("gac", "2rc", "3rc", "full")
SMALL_SAMPLES = ["seed-3x3.txt", "dusautoy-6x6.txt", "dusautoy-6x6-flagged.txt", "gecode-0.txt",
                 "kaye-splitter.txt", "tatham-9x9n10.txt", "kaye-config3.dots", "kaye-wire.dots"]


def boards(n: int):
    """Random small boards (some inconsistent) and larger consistent ones with more structure."""
    for seed in range(n):
        yield random_board(seed)
        yield placed_board(seed, 4 + seed % 4, 5 + seed % 3, density=0.25, hide=0.45)


def reference(puzzle: mc.Puzzle, level: str):
    """(consistent, values) of the level as propagate / analyze decide it."""
    if level == "full":
        a = analyze(puzzle)
        return a.feasible, a.values
    p = propagate(puzzle, level)
    return p.consistent, p.values


@pytest.mark.parametrize("level", LEVELS)
def test_explain_decides_exactly_what_the_level_decides(level):
    for p in itertools.chain(boards(60), (mc.read(SAMPLES / f) for f in SMALL_SAMPLES)):
        e = explain(p, level)
        ok, values = reference(p, level)
        assert e.consistent == ok, (level, str(p))
        if ok:
            assert np.array_equal(e.values, values), (level, str(p), e.values, values)
            assert e.solved == bool((values != -1).all())
            assert sorted(e.stuck) == sorted(tuple(rc) for rc in e.system.var_rc[values == -1].tolist())
        # every step's level is at most the level asked for, and the steps decide e.values and nothing else
        decided = {}
        for s in e.steps:
            assert LEVELS.index(s.level) <= LEVELS.index(level)
            for c in s.cells:
                assert (c.row, c.col) not in decided
                decided[(c.row, c.col)] = c.mine
        marked = {tuple(rc): bool(v) for rc, v in zip(e.system.var_rc.tolist(), e.values.tolist()) if v != -1}
        assert decided == marked


def justification_forces(p: mc.Puzzle, before: dict, step) -> bool:
    """Brute force over the open cells around the named counts (all open cells when the total is named):
    True when the named counts (and total), with the cells decided before the step, force every cell of
    the step to its value; None when they admit no placement at all."""
    around = lambda r, c: [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                           if (dr or dc) and 0 <= r + dr < p.rows and 0 <= c + dc < p.cols]
    unknown = [(r, c) for r in range(p.rows) for c in range(p.cols) if p[r, c] == "?" and (r, c) not in before]
    if step.total:
        free = unknown
    else:
        near = {rc for b in step.because for rc in around(b.row, b.col)}
        free = [rc for rc in unknown if rc in near]
    targets = {(c.row, c.col): c.mine for c in step.cells}
    assert set(targets) <= set(free)
    assert len(free) <= 22
    seen = {rc: set() for rc in targets}
    admitted = False
    for bits in itertools.product((False, True), repeat=len(free)):
        mine = dict(before)
        mine.update(zip(free, bits))
        ok = all(sum(1 for rc in around(b.row, b.col) if p[rc] == "*" or mine.get(rc, False)) == b.count
                 for b in step.because)
        if ok and step.total:
            ok = sum(mine.values()) + p.known_mine_count == p.mines
        if ok:
            admitted = True
            for rc in targets:
                seen[rc].add(mine[rc])
    if not admitted:
        return None   # the named counts contradict each other
    return all(seen[rc] == {value} for rc, value in targets.items())


def test_every_step_is_sound_and_its_named_counts_force_it():
    checked = {"gac": 0, "2rc": 0, "3rc": 0, "full": 0, "conflict": 0}
    for p in itertools.chain(boards(60), (mc.read(SAMPLES / f) for f in ("seed-3x3.txt", "gecode-0.txt",
                                                                           "dusautoy-6x6.txt"))):
        e = explain(p, "full")
        if not e.consistent:
            assert not brute_force(p).size
            # the counts named in the conflict (with the total when named) admit no placement at all
            decided = {(c.row, c.col): c.mine for s in e.steps for c in s.cells}
            assert e.conflict and (e.conflict_because or e.conflict_total)
            if e.conflict_because:
                fake = type("Conflict", (), {"because": e.conflict_because, "total": e.conflict_total, "cells": ()})
                assert justification_forces(p, decided, fake) is None, (str(p), e.conflict)
            checked["conflict"] += 1
            continue
        sols = mine_sets(p) if p.unknown_count <= 20 else None
        before: dict = {}
        for s in e.steps:
            if sols is not None:
                for c in s.cells:   # sound: every solution agrees
                    assert {((c.row, c.col) in sol) for sol in sols} == {c.mine}, (str(p), s.text)
            assert s.because or s.total
            assert len(s.because) == len(set(s.because))
            if s.level in ("gac", "2rc", "3rc") and not s.total:
                assert len(s.because) == {"gac": 1, "2rc": 2, "3rc": 3}[s.level], s.text
            assert justification_forces(p, before, s) is True, (str(p), s.text)
            checked[s.level] += 1
            before.update({(c.row, c.col): c.mine for c in s.cells})
    assert all(checked.values()), checked   # every kind of step was exercised


def first_text(rows, mines=None, level="full", index=0):
    return explain(mc.Puzzle.from_rows(rows, mines=mines), level).steps[index].text


def test_sentences_one_per_kind_of_step():
    assert first_text(["?1*"]) == "(0, 0) is safe: the 1 at (0, 1) already has its mine at (0, 2)"
    assert first_text(["0?"]) == "(0, 1) is safe: the 0 at (0, 0) has no mine around it"
    assert first_text(["1?"]) == ("(0, 1) is a mine: the 1 at (0, 0) needs 1 mine and (0, 1) is its only "
                                  "unknown neighbour left")
    assert first_text(["*2?"]) == ("(0, 2) is a mine: the 2 at (0, 1) has 1 mine at (0, 0) and needs 1 more, "
                                   "and (0, 2) is its only unknown neighbour left")
    assert first_text(["??"], mines=0) == "(0, 0) and (0, 1) are safe: the board has 0 mines and all of them are found"
    assert first_text(["??"], mines=2) == ("(0, 0) and (0, 1) are mines: the board has 2 mines, 0 are found, and "
                                           "exactly 2 unknown cells are left")
    # 2rc, the subset rule: the 1 below has its mine among cells the 2 also touches
    seed = mc.read(SAMPLES / "seed-3x3.txt")
    e = explain(seed, "2rc")
    assert [s.level for s in e.steps] == ["gac", "2rc"]
    assert e.steps[1].text == ("(0, 2) is safe: the 1 at (2, 1) needs 1 mine among (1, 2) and (2, 2), all of "
                               "which the 2 at (1, 1) also touches, so the 2 at (1, 1) has no mine left for (0, 2)")
    # 2rc, the difference rule: neither count's open cells lie inside the other's
    gecode = explain(mc.read(SAMPLES / "gecode-0.txt"))
    assert gecode.steps[0].text == (
        "(2, 0) and (4, 0) are safe and (4, 2) and (4, 3) are mines: the 1 at (3, 0) and the 3 at (3, 2) share "
        "(2, 1), (3, 1) and (4, 1), which hold exactly 1 mine (at most 1: the 1 at (3, 0) needs only 1 mine; "
        "at least 1: the 3 at (3, 2) needs 3 mines and has only 2 other unknown neighbours), so the 1 at (3, 0) "
        "has no mine left for (2, 0) and (4, 0) and the 3 at (3, 2) must have its other 2 mines on (4, 2) and "
        "(4, 3)")
    # 3rc: du Sautoy's board opens with three counts together
    ds = explain(mc.read(SAMPLES / "dusautoy-6x6.txt"))
    assert ds.steps[0].level == "3rc"
    assert ds.steps[0].text == (
        "(0, 0) is safe and (0, 3) and (3, 0) are mines: taken together, the 2 at (1, 1), the 2 at (1, 2) and "
        "the 2 at (2, 1) can be satisfied in several ways, and none puts a mine on (0, 0) and every one puts a "
        "mine on (0, 3) and (3, 0)")
    # full: a proof by contradiction naming a small set of counts
    assert gecode.steps[1].level == "full"
    assert gecode.steps[1].text == (
        "(1, 4), (2, 4) and (3, 4) are mines: if any of them were safe, no arrangement of mines would satisfy "
        "the 2 at (0, 2), the 2 at (1, 0), the 2 at (2, 2) and the 4 at (2, 3)")


def test_the_total_joins_a_full_proof_when_it_is_needed():
    # the 1 has its mine on one of two cells, so with a total of 1 the far cell (next to no count) is safe;
    # no single count, pair or triple sees it, and the total alone does not either (1 mine, 3 open cells)
    p = mc.Puzzle.from_rows(["?1?.?"], mines=1)
    for level in ("gac", "2rc", "3rc"):
        assert explain(p, level).steps == ()
    e = explain(p)
    assert [s.level for s in e.steps] == ["full"] and e.steps[0].total
    assert e.steps[0].text == ("(0, 4) is safe: if it were a mine, no arrangement of mines would satisfy the 1 "
                               "at (0, 1) and the total of 1 mine")
    assert e.to_json()["steps"][0]["because"] == [{"row": 0, "col": 1, "count": 1}]
    assert np.array_equal(reference(p, "full")[1], e.values)


def test_infeasible_boards_say_which_counts_contradict():
    e = explain(mc.Puzzle.from_rows(["*1*"]))
    assert not e.consistent and not e.solved
    assert e.conflict == "the 1 at (0, 1) has 2 mines around it, too many"
    e = explain(mc.Puzzle.from_rows(["1?1", "?2?", "111"]))
    ok, _ = reference(e.puzzle, "full")
    assert e.consistent == ok


def test_a_contradiction_only_the_total_reveals_is_named_with_the_total():
    # each 1 needs a mine of its own, the total allows one: no single count, pair or triple sees it
    p = mc.Puzzle.from_rows(["?1?.?1?"], mines=1)
    assert explain(p, "3rc").consistent and not explain(p, "3rc").steps
    e = explain(p)
    assert not e.consistent and not e.solved and e.steps == ()
    assert e.conflict == ("no arrangement of mines satisfies the 1 at (0, 1), the 1 at (0, 5) and the total of "
                          "1 mine together")
    assert e.to_json()["conflict"] == {"text": e.conflict, "total": True,
                                       "because": [{"row": 0, "col": 1, "count": 1}, {"row": 0, "col": 5, "count": 1}]}
    # a contradiction of one count alone names that count and not the total
    e = explain(mc.Puzzle.from_rows(["*1*?"], mines=3))
    assert e.conflict_because == (mc.analysis.steps.Clue(0, 1, 1),) and not e.conflict_total


def test_a_timeout_keeps_the_steps_proven_so_far(capsys):
    from mineconv.core.bounds import Bounds
    p = mc.read(SAMPLES / "expert-16x30.txt")
    whole = explain(p)
    cut = explain(p, bounds=Bounds(None, 1e-9))
    assert cut.timed_out and not cut.solved and cut.to_json()["status"] == "timeout"
    assert 0 < len(cut.steps) < len(whole.steps) and cut.steps == whole.steps[:len(cut.steps)]
    rc, out, _ = run_cli(capsys, "explain", SAMPLES / "expert-16x30.txt", "--timeout", "1e-9")
    assert rc == 1 and out.splitlines()[-1].startswith("timed out (")


def test_json_contract_and_exit_status(capsys):
    rc, out, err = run_cli(capsys, "explain", SAMPLES / "dusautoy-6x6.txt", "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["level"] == "full" and data["solved"] is True and data["open"] == []
    assert [s["step"] for s in data["steps"]] == list(range(1, len(data["steps"]) + 1))
    for s in data["steps"]:
        assert set(s) == {"step", "level", "cells", "because", "total", "text"}
        assert s["level"] in LEVELS and isinstance(s["total"], bool) and isinstance(s["text"], str)
        assert all(set(c) == {"row", "col", "value"} and c["value"] in ("safe", "mine") for c in s["cells"])
        assert all(set(b) == {"row", "col", "count"} for b in s["because"])
    lib = explain(mc.read(SAMPLES / "dusautoy-6x6.txt")).to_json()
    assert lib == data
    # stuck at a level: exit 1, the open cells listed, the last line says how many
    rc, out, _ = run_cli(capsys, "explain", SAMPLES / "kaye-splitter.txt", "--level", "2rc", "--json")
    data = json.loads(out)
    assert rc == 1 and data["solved"] is False and data["open"] and data["level"] == "2rc"
    rc, out, _ = run_cli(capsys, "explain", SAMPLES / "kaye-splitter.txt", "--level", "gac")
    assert rc == 1 and out.splitlines()[-1].startswith("stuck with ") and out.rstrip().endswith("open at level gac")
    assert out.splitlines()[0].startswith("1. [gac] ") or out.splitlines()[0].startswith(" 1. [gac] ")
    rc, out, _ = run_cli(capsys, "explain", SAMPLES / "seed-3x3.txt")
    assert rc == 1 and "stuck with 2 cells open at level full" in out


def test_infeasible_and_bad_input_exit_status(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("*1*\n")
    rc, out, _ = run_cli(capsys, "explain", bad)
    assert rc == 1 and out.splitlines()[-1] == "no solution: the 1 at (0, 1) has 2 mines around it, too many"
    broken = tmp_path / "broken.txt"
    broken.write_text("1??\n1x?\n")
    rc, out, err = run_cli(capsys, "explain", broken, "--from", "native")
    assert rc == 2 and out == "" and "broken.txt:2:2" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "explain", SAMPLES / "seed-3x3.txt", "--level", "4rc")
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "explain", SAMPLES / "seed-3x3.txt", "--timeout", "0")
    assert exc.value.code == 2


def test_svg_one_picture_per_step_highlights_the_reason(capsys, tmp_path):
    folder = tmp_path / "steps" / "deep"
    rc, out, err = run_cli(capsys, "explain", SAMPLES / "gecode-0.txt", "--svg", folder, "--json")
    assert rc == 0, err
    steps = json.loads(out)["steps"]
    files = sorted(p.name for p in folder.iterdir())
    assert files == [f"step-{i:03d}.svg" for i in range(1, len(steps) + 1)]
    ns = {"s": "http://www.w3.org/2000/svg"}
    earlier: set = set()
    for i, step in enumerate(steps, 1):
        root = ET.parse(folder / f"step-{i:03d}.svg").getroot()
        cells = {}
        for rect in root.iterfind(".//s:rect", ns):
            cls = rect.get("class", "").split()
            if "cell" in cls:
                cells[(int(rect.get("data-r")), int(rect.get("data-c")))] = cls
        because = {(b["row"], b["col"]) for b in step["because"]}
        new = {(c["row"], c["col"]): c["value"] for c in step["cells"]}
        assert {rc for rc, cls in cells.items() if "because" in cls} == because
        outlined = {(int(r.get("data-r")), int(r.get("data-c"))) for r in root.iterfind(".//s:rect", ns)
                    if r.get("class") == "because-outline"}
        assert outlined == because
        assert {rc: ("mine" if "mine" in cls else "safe") for rc, cls in cells.items() if "new" in cls} == new
        # cells decided by earlier steps are drawn as safe / mine, the rest of the unknown cells as unknown
        for rc in earlier:
            assert cells[rc][1] in ("safe", "mine")
        earlier |= set(new)
        assert step["text"].split(":")[0].split(" ")[0] in ET.tostring(root, encoding="unicode")
    # a file where the folder should be is refused before any work
    clash = tmp_path / "file.svg"
    clash.write_text("x")
    rc, out, err = run_cli(capsys, "explain", SAMPLES / "gecode-0.txt", "--svg", clash)
    assert rc == 2 and out == "" and "not one" in err and clash.read_text() == "x"
    # a folder that cannot be made is one message before any work (was: a traceback after all of it)
    rc, out, err = run_cli(capsys, "explain", SAMPLES / "gecode-0.txt", "--svg", clash / "inside")
    assert rc == 2 and out == "" and "cannot create the --svg folder" in err


def test_expert_board_at_full_is_quick():
    import time
    p = mc.read(SAMPLES / "expert-16x30.txt")
    start = time.perf_counter()
    e = explain(p, "full")
    assert time.perf_counter() - start < 20
    assert np.array_equal(e.values, analyze(p).values)


# bounded work (issue 25): steps stream, a memory budget holds the proofs ---------------------------------
def test_iter_steps_yields_explains_steps_in_order():
    for p in itertools.chain(boards(15), (mc.read(SAMPLES / f) for f in SMALL_SAMPLES[:4])):
        for level in LEVELS:
            assert tuple(mc.iter_steps(p, level)) == explain(p, level).steps


def test_iter_steps_gives_the_first_step_before_the_rest_are_found():
    # a 60x60 board decides thousands of cells; its first step comes before the pairs are even queued
    from mineconv.analysis.explain import Explainer
    p = mc.read(SAMPLES / "tatham-9x9n10.txt")
    big = mc.Puzzle.from_rows(["0" * 60] + ["?" * 60] * 3 + ["1" * 60] + ["?" * 60] * 55)
    for puzzle in (p, big):
        ex = Explainer(puzzle, "3rc")
        first = next(ex.steps())
        assert not ex.engine.groups_seeded and first.level == "gac"


@pytest.mark.parametrize("level", ["2rc", "full"])
def test_cli_streams_a_slow_explanation_with_numbers_aligned_to_the_unknown_cells(capsys, monkeypatch, level):
    import mineconv.cli.explain as cli_explain
    path = str(SAMPLES / "dusautoy-6x6.txt")
    code, held, _ = run_cli(capsys, "explain", path, "--level", level)
    monkeypatch.setattr(cli_explain, "STREAM_AFTER", 0.0)
    code2, streamed, _ = run_cli(capsys, "explain", path, "--level", level)
    assert code == code2
    unknown = mc.read(path).unknown_count
    lines, slines = held.splitlines(), streamed.splitlines()
    assert len(lines) == len(slines) and lines[-1] == slines[-1]
    width = len(str(unknown))
    for a, b in zip(lines[:-1], slines[:-1]):
        number, rest = a.split(".", 1)
        assert b == f"{int(number):>{width}}.{rest}"


def test_memory_budget_stops_the_full_level_with_its_reason(capsys, tmp_path):
    # a board only level full decides: its proofs need the SAT solver, which a 1 KiB budget refuses
    path = SAMPLES / "gecode-0.txt"
    e_full = explain(mc.read(path), "full")
    assert any(s.level == "full" for s in e_full.steps)
    code, out, _ = run_cli(capsys, "explain", str(path), "--memory-budget", "1K")
    assert code == 1
    last = out.splitlines()[-1]
    assert last.startswith("stopped: the proofs of explain's full level") and "--memory-budget" in last
    code, out, _ = run_cli(capsys, "explain", str(path), "--memory-budget", "1K", "--json")
    data = json.loads(out)
    assert code == 1 and data["status"] == "memory" and not data["solved"]
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "explain", str(path), "--memory-budget", "lots")
    assert exc.value.code == 2
