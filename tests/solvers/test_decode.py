"""mineconv decode: exit statuses 0/1/2/3, the JSON contract, answers made live by the real solvers."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from mineconv.formats.answer import Answer, decode_answer
from mineconv.core.errors import SolutionSyntaxError, VerificationError
from mineconv.formats.notations.native import canonical_text
from mineconv.core.puzzle import Puzzle
from mineconv.formats.writing import write

from helpers import require_tool, run_cli

SEED = Puzzle.from_rows(["1??", "12?", "01?"])                       # two solutions
UNIQUE = Puzzle.from_rows(["??????", "?2222?", "?2002?", "?2002?", "?2222?", "??????"])
UNIQUE_MINES = [[0, 2], [0, 3], [2, 0], [2, 5], [3, 0], [3, 5], [5, 2], [5, 3]]
KNOWN = Puzzle.from_rows(["*1?", "11?", "???"])                      # a known mine in the corner
LONE = Puzzle.from_rows(["1?..?"])                                   # (0, 4) is next to no count


def put(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def minisat(tmp_path: Path, puzzle: Puzzle, name: str = "m") -> tuple:
    exe = require_tool("minisat")
    cnf = tmp_path / f"{name}.cnf"
    write(puzzle, cnf, "cnf")
    out = tmp_path / f"{name}.out"
    subprocess.run([exe, "-verb=0", str(cnf), str(out)], capture_output=True, timeout=60)
    return cnf, out


# live answers ------------------------------------------------------------------------------------
def test_minisat_answer_decodes_to_the_solved_grid(tmp_path, capsys):
    cnf, out = minisat(tmp_path, UNIQUE)
    puzzle_file = put(tmp_path, "p.txt", canonical_text(UNIQUE))
    rc, text, err = run_cli(capsys, "decode", puzzle_file, out)
    assert rc == 0 and err == ""
    expected = UNIQUE.with_mines_at([tuple(m) for m in UNIQUE_MINES])
    assert text == canonical_text(expected)
    assert "?" not in text


def test_json_contract_exactly(tmp_path, capsys):
    cnf, out = minisat(tmp_path, UNIQUE)
    rc, text, _ = run_cli(capsys, "decode", cnf, out, "--json")   # the puzzle comes from the CNF's header
    data = json.loads(text)
    assert rc == 0
    assert data["status"] == "solved" and data["mines"] == UNIQUE_MINES
    assert set(data) >= {"status", "mines"}


def test_known_mines_are_listed_and_sorted(tmp_path, capsys):
    ans = put(tmp_path, "a.out", "SAT\n-1 -2 -3 -4 -5 0\n")   # ids: (0,2) (1,2) (2,0) (2,1) (2,2)
    pz = put(tmp_path, "p.txt", canonical_text(KNOWN))
    rc, text, _ = run_cli(capsys, "decode", pz, ans, "--json")
    assert rc == 0 and json.loads(text) == {"status": "solved", "mines": [[0, 0]], "format": "minisat"}


def test_infeasible_exits_1_with_empty_mines(tmp_path, capsys):
    bad = Puzzle.from_rows(["?1?", "?0?", "???"])
    cnf, out = minisat(tmp_path, bad)
    assert out.read_text().startswith("UNSAT")
    rc, text, _ = run_cli(capsys, "decode", cnf, out, "--json")
    assert rc == 1 and json.loads(text)["status"] == "infeasible" and json.loads(text)["mines"] == []
    rc, text, err = run_cli(capsys, "decode", cnf, out)
    assert rc == 1 and text == "" and "infeasible" in err


def test_unknown_exits_1(tmp_path, capsys):
    pz = put(tmp_path, "p.txt", canonical_text(SEED))
    rc, text, _ = run_cli(capsys, "decode", pz, put(tmp_path, "a.out", "INDET\n"), "--json")
    assert rc == 1 and json.loads(text)["status"] == "unknown"


def test_tampered_answer_exits_3_naming_the_cell(tmp_path, capsys):
    cnf, out = minisat(tmp_path, UNIQUE)
    lits = out.read_text().split("\n")[1].split()
    lits[0] = str(-int(lits[0]))                     # flip one cell
    bad = put(tmp_path, "bad.out", "SAT\n" + " ".join(lits) + "\n")
    rc, text, err = run_cli(capsys, "decode", cnf, bad)
    assert rc == 3 and text == ""
    assert "cell (" in err and "shows" in err and "Traceback" not in err


def test_tampered_total_count_exits_3(tmp_path):
    # every count is met, but the puzzle says 3 mines and the answer places 2
    ans = Answer("solved", "id", [1, 2, 3, 4], [1, 0, 1, 0])
    assert decode_answer(SEED, ans).mines == [[0, 1], [1, 2]]
    with pytest.raises(VerificationError, match="must hold 3 mines in all, the answer places 2") as info:
        decode_answer(SEED.replace(mines=3), ans)
    assert info.value.cell is None   # the total is about the whole board, not one cell
    with pytest.raises(VerificationError, match=r"cell \(1, 1\) shows 2 but the answer puts 3 mines"):
        decode_answer(SEED.replace(mines=2), Answer("solved", "id", [1, 2, 3, 4], [1, 1, 1, 0]))


def test_violation_names_its_cell_in_the_error_and_the_message(tmp_path, capsys):
    # SEED's x0_1 and x1_2 are mines in one solution; leaving x1_2 empty breaks the 2 at (1, 1) first
    ans = Answer("solved", "id", [1, 2, 3, 4], [1, 0, 0, 0], source="a.out")
    with pytest.raises(VerificationError) as info:
        decode_answer(SEED, ans)
    assert info.value.cell == (1, 1)
    assert str(info.value) == "a.out: the answer violates the puzzle: cell (1, 1) shows 2 but the answer puts " \
                              "1 mine around it"
    pz = put(tmp_path, "p.txt", canonical_text(SEED))
    rc, out, err = run_cli(capsys, "decode", pz, put(tmp_path, "a.out", "SAT\n1 -2 -3 -4 0\n"))
    assert (rc, out) == (3, "")
    assert err == f"mineconv: {tmp_path / 'a.out'}: the answer violates the puzzle: cell (1, 1) shows 2 but " \
                  "the answer puts 1 mine around it\n"


@pytest.mark.parametrize("text", ["SAT\n1 -2 3", "SAT\n", "SAT\n1 -2 ab -4 0\n", "SATT\n", "", "\x00\x01"])
def test_garbled_or_truncated_answer_exits_2(tmp_path, capsys, text):
    pz = put(tmp_path, "p.txt", canonical_text(SEED))
    rc, out, err = run_cli(capsys, "decode", pz, put(tmp_path, "a.out", text), "--from", "minisat")
    assert rc == 2 and out == "" and err.startswith("mineconv: ") and "Traceback" not in err


def test_wrong_puzzle_answer_exits_2(tmp_path, capsys):
    cnf, out = minisat(tmp_path, UNIQUE)                  # 20 variables
    pz = put(tmp_path, "p.txt", canonical_text(SEED))     # 4 variables, no total
    rc, text, err = run_cli(capsys, "decode", pz, out)
    assert rc == 2 and "not in the model" in err


def test_wrong_puzzle_names_exit_2(tmp_path, capsys):
    pz = put(tmp_path, "p.txt", canonical_text(SEED))
    for body in ("x0_0 1\nx0_1 0\nx0_2 0\nx1_2 0\nx2_2 0\n",      # (0, 0) is a count, not a cell
                 "x0_1 1\nx0_2 0\nx1_2 1\nx2_2 0\nx7_7 0\n",      # outside the grid
                 "x0_1 1\nx0_2 0\nx1_2 1\nx2_2 0\ny 0\n"):
        ans = put(tmp_path, "a.sol", "# Solution for model obj\n" + body)
        rc, _, err = run_cli(capsys, "decode", pz, ans)
        assert rc == 2, err


def test_missing_constrained_variable_exits_2(tmp_path, capsys):
    pz = put(tmp_path, "p.txt", canonical_text(SEED))
    rc, _, err = run_cli(capsys, "decode", pz, put(tmp_path, "a.sol", "# Solution for model obj\nx0_1 1\nx0_2 0\n"))
    assert rc == 2 and "leaves out" in err


def test_unconstrained_cell_may_be_missing_without_a_total(tmp_path, capsys):
    cnf, out = minisat(tmp_path, LONE)
    # minisat prints nothing for variable 2, which no clause mentions
    assert out.read_text().split("\n")[1].split() == ["1", "0"]
    rc, text, _ = run_cli(capsys, "decode", cnf, out, "--json")
    assert rc == 0 and json.loads(text)["mines"] == [[0, 1]]


def test_unconstrained_cell_is_required_with_a_total(tmp_path, capsys):
    # with a total count the cardinality constraint mentions every cell: leaving one out is an error
    p = LONE.replace(mines=2)
    with pytest.raises(SolutionSyntaxError, match="total mine count"):
        decode_answer(p, Answer("solved", "id", [1], [1]))
    cnf, out = minisat(tmp_path, p)
    rc, text, _ = run_cli(capsys, "decode", cnf, out, "--json")
    assert rc == 0 and json.loads(text)["mines"] == [[0, 1], [0, 4]]


def test_auxiliary_variables_beyond_the_header_are_rejected(tmp_path, capsys):
    p = UNIQUE.replace(mines=8)
    cnf, out = minisat(tmp_path, p)
    nv = int(next(ln for ln in cnf.read_text().splitlines() if ln.startswith("p cnf")).split()[2])
    rc, _, _ = run_cli(capsys, "decode", cnf, out)
    assert rc == 0
    lits = out.read_text().split("\n")[1].split()[:-1] + [str(nv + 1), "0"]
    rc, _, err = run_cli(capsys, "decode", cnf, put(tmp_path, "x.out", "SAT\n" + " ".join(lits) + "\n"))
    assert rc == 2 and f"1..{nv}" in err


def test_near_integral_values_round_and_fractions_are_rejected(tmp_path, capsys):
    pz = put(tmp_path, "p.txt", canonical_text(SEED))
    good = ("Optimal - objective value 0\n      0 x0_1  0.99999999  0\n      1 x0_2  1e-9  0\n"
            "      2 x1_2  1.0000001  0\n      3 x2_2  -0  0\n")
    rc, text, _ = run_cli(capsys, "decode", pz, put(tmp_path, "a.sol", good), "--json")
    assert rc == 0 and json.loads(text)["mines"] == [[0, 1], [1, 2]]
    rc, _, err = run_cli(capsys, "decode", pz, put(tmp_path, "b.sol", good.replace("0.99999999", "0.5")))
    assert rc == 2 and "b.sol:2" in err and "not 0 or 1" in err


def test_mathprog_raw_columns_cover_every_cell(tmp_path, capsys):
    # a MathProg model declares x[i,j] over all 9 cells: glpsol's raw file then has 9 columns
    grid = [0, 1, 0, 0, 0, 1, 0, 0, 0]
    raw = "s mip 5 9 o 0\n" + "".join(f"j {i + 1} {v}\n" for i, v in enumerate(grid)) + "e o f\n"
    pz = put(tmp_path, "p.txt", canonical_text(SEED))
    rc, text, _ = run_cli(capsys, "decode", pz, put(tmp_path, "a.raw", raw), "--json")
    assert rc == 0 and json.loads(text)["mines"] == [[0, 1], [1, 2]]
    raw7 = raw.replace("s mip 5 9", "s mip 5 7").replace("j 8 0\nj 9 0\n", "")
    rc, _, err = run_cli(capsys, "decode", pz, put(tmp_path, "b.raw", raw7))
    assert rc == 2 and "another puzzle" in err


def test_sparse_answers_default_to_zero(tmp_path, capsys):
    pz = put(tmp_path, "p.txt", canonical_text(SEED))
    scip = "objective value:    0\nx0_1     1 \t(obj:0)\nx2_2     1 \t(obj:0)\n"
    rc, text, _ = run_cli(capsys, "decode", pz, put(tmp_path, "a.sol", scip), "--json")
    assert rc == 0 and json.loads(text)["mines"] == [[0, 1], [2, 2]]


def test_conflicting_literals_exit_2(tmp_path, capsys):
    pz = put(tmp_path, "p.txt", canonical_text(SEED))
    rc, _, err = run_cli(capsys, "decode", pz, put(tmp_path, "a.out", "SAT\n1 -2 3 -4 -1 0\n"))
    assert rc == 2 and "two different values" in err


def test_glpsol_lp_raw_and_report_live(tmp_path, capsys):
    exe = require_tool("glpsol")
    lp = tmp_path / "u.lp"
    write(UNIQUE, lp, "lp")
    subprocess.run([exe, "--lp", str(lp), "--write", str(tmp_path / "u.raw"), "-o", str(tmp_path / "u.txt")],
                   capture_output=True, timeout=60)
    for ans in ("u.raw", "u.txt"):
        rc, text, _ = run_cli(capsys, "decode", lp, tmp_path / ans, "--json")
        assert rc == 0 and json.loads(text)["mines"] == UNIQUE_MINES


def test_cbc_and_infeasible_cbc_live(tmp_path, capsys):
    exe = require_tool("cbc")
    for puzzle, status in ((UNIQUE, "solved"), (Puzzle.from_rows(["?1?", "?0?", "???"]), "infeasible")):
        lp = tmp_path / "m.lp"
        write(puzzle, lp, "lp")
        sol = tmp_path / "m.sol"
        subprocess.run([exe, str(lp), "solve", "solu", str(sol)], capture_output=True, timeout=60)
        rc, text, _ = run_cli(capsys, "decode", lp, sol, "--json")
        assert json.loads(text)["status"] == status and rc == (0 if status == "solved" else 1)


def test_decode_answer_from_stdin(tmp_path, capsys, monkeypatch):
    import io
    import sys
    pz = put(tmp_path, "p.txt", canonical_text(SEED))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"s SATISFIABLE\nv 1 -2 -3 4 0\n")))
    rc, text, _ = run_cli(capsys, "decode", pz, "-", "--json")
    assert rc == 0 and json.loads(text)["mines"] == [[0, 1], [2, 2]]


# every external solver's own answer file, decoded against the model file mineconv wrote ----------
from mineconv.solvers import table # noqa: E402

# one program on the model file; clasp-asp runs gringo first (runners.run_clasp_asp), so it has no single command
EXTERNAL = [s for s in table.solver_names() if table.get_solver(s).program and s != "clasp-asp"]
LIVE_BOARDS = [(UNIQUE, "solved"), (UNIQUE.replace(mines=8), "solved"), (SEED.replace(mines=3), "infeasible"),
               (Puzzle.from_rows(["?1?", "?0?", "???"]), "infeasible")]


@pytest.mark.parametrize("solver", EXTERNAL)
def test_live_answer_of_every_solver_decodes_against_the_model_file(tmp_path, capsys, solver):
    spec = table.get_solver(solver)
    exe = require_tool(spec.program)
    for i, (puzzle, status) in enumerate(LIVE_BOARDS):
        model = tmp_path / f"m{i}{spec.suffix}"
        write(puzzle, model, spec.model_format)
        answer = tmp_path / f"answer{i}.txt"
        proc = subprocess.run([exe, *spec.args(model.name, answer.name, None)], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
        if spec.answer_file is None:
            answer.write_text(proc.stdout)
        # no --from: the reader is detected from the content; the puzzle comes from the model's header
        rc, out, err = run_cli(capsys, "decode", model, answer, "--json")
        data = json.loads(out)
        assert data["status"] == status, (solver, i, err)
        assert data["format"] == spec.answer_format
        assert rc == (0 if status == "solved" else 1)
        if status == "solved":
            assert data["mines"] == UNIQUE_MINES


def test_highs_solution_file_live(tmp_path, capsys):
    from conftest import require_module
    highspy = require_module("highspy")
    lp = tmp_path / "u.lp"
    write(UNIQUE, lp, "lp")
    for style, name in ((0, "raw.sol"), (1, "pretty.sol")):
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.readModel(str(lp))
        h.run()
        h.writeSolution(str(tmp_path / name), style)
        rc, out, _ = run_cli(capsys, "decode", lp, tmp_path / name, "--json")
        assert rc == 0 and json.loads(out)["mines"] == UNIQUE_MINES and json.loads(out)["format"] == "highs"


def test_tampered_named_answer_exits_3(tmp_path, capsys):
    exe = require_tool("cbc")
    lp = tmp_path / "u.lp"
    write(UNIQUE, lp, "lp")
    sol = tmp_path / "u.sol"
    subprocess.run([exe, str(lp), "solve", "solu", str(sol)], capture_output=True, timeout=60)
    lines = sol.read_text().splitlines()
    # flip the value of x0_2 (a mine in the only solution)
    k = next(i for i, ln in enumerate(lines) if " x0_2 " in ln)
    lines[k] = lines[k].replace(" 1 ", " 0 ", 1)
    bad = put(tmp_path, "bad.sol", "\n".join(lines) + "\n")
    rc, _, err = run_cli(capsys, "decode", lp, bad)
    assert rc == 3 and "cell (" in err


from hypothesis import given, settings, strategies as st  # noqa: E402

from mineconv.core.errors import MineconvError  # noqa: E402


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-8, 8).filter(bool), max_size=10), st.sampled_from([None, 2, 3]))
def test_any_literal_list_decodes_or_raises_our_error(lits, mines):
    # SEED has 4 cells: every list either verifies, or is rejected as unreadable (2) or wrong (3)
    puzzle = SEED.replace(mines=mines)
    try:
        dec = decode_answer(puzzle, Answer("solved", "id", [abs(v) for v in lits], [v > 0 for v in lits]))
    except MineconvError as exc:
        assert exc.exit_status in (2, 3)
        return
    assert dec.status == "solved"
    from mineconv.core.system import check_assignment
    assert check_assignment(puzzle, dec.grid) is None


def test_glpsol_mathprog_terminal_output(tmp_path, capsys):
    exe = require_tool("glpsol")
    for puzzle, status in ((UNIQUE, "solved"), (Puzzle.from_rows(["?1?", "?0?", "???"]), "infeasible")):
        mod = tmp_path / "b.mod"
        write(puzzle, mod, "mathprog")
        out = tmp_path / "b.out"
        out.write_text(subprocess.run([exe, "-m", str(mod)], capture_output=True, text=True, timeout=60).stdout)
        rc, text, _ = run_cli(capsys, "decode", mod, out, "--json")
        data = json.loads(text)
        assert data["status"] == status and data["format"] == "glpsol-grid"
        if status == "solved":
            assert rc == 0 and data["mines"] == UNIQUE_MINES
            body = out.read_text()
            # tampered: move a mine within the first row -> 3; cut before the end -> 2
            assert "grid: ..**.." in body
            put(tmp_path, "bad.out", body.replace("grid: ..**..", "grid: .**...", 1))
            rc, _, err = run_cli(capsys, "decode", mod, tmp_path / "bad.out")
            assert rc == 3 and "cell (" in err
            cut = body[:body.index("grid:") + 12]
            rc, _, err = run_cli(capsys, "decode", mod, put(tmp_path, "cut.out", cut), "--from", "glpsol-grid")
            assert rc == 2 and "truncated" in err
        else:
            assert rc == 1
