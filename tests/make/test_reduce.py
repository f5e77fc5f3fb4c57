"""mineconv reduce: CNF formula -> board, counted against pysat; DIMACS errors; the wires header; the CLI."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Tuple

import pytest
from pysat.solvers import Minisat22

import mineconv as mc
from mineconv.formats.dimacs_formula import Formula, parse_formula
from mineconv.formats.notations.native import canonical_text, read_native
from mineconv.make.reduce import board_shape, labels, reduce
from tests.helpers import require_tool, run_cli, run_tool


def count_models(formula: Formula) -> int:
    """The formula's models over all its variables, by pysat with blocking clauses (independent of mineconv)."""
    every = [[v, -v] for v in range(1, formula.variables + 1)]   # so each model names every variable
    with Minisat22(bootstrap_with=[list(c) for c in formula.clauses] + every) as solver:
        n = 0
        while solver.solve():
            model = [lit for lit in solver.get_model() if abs(lit) <= formula.variables]
            n += 1
            if not model:
                break
            solver.add_clause([-lit for lit in model])
        return n


def random_formula(rng: random.Random, n: int, m: int, width: Tuple[int, int]) -> Formula:
    clauses = tuple(tuple(rng.choice((1, -1)) * rng.randint(1, n) for _ in range(rng.randint(*width)))
                    for _ in range(m))
    return Formula(n, clauses)


@pytest.mark.parametrize("seed", range(12))
def test_random_3sat_counts_match(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 6)
    formula = random_formula(rng, n, rng.randint(0, 4 * n), (3, 3))
    assert mc.analyze(reduce(formula)).solutions == count_models(formula)


@pytest.mark.parametrize("seed", range(8))
def test_wider_and_mixed_clauses_count(seed: int) -> None:
    """Widths 0 to 6: empty clauses, repeated literals and tautologies among them."""
    rng = random.Random(100 + seed)
    n = rng.randint(1, 5)
    formula = random_formula(rng, n, rng.randint(1, 6), (0 if seed % 4 == 0 else 1, 6))
    assert mc.analyze(reduce(formula)).solutions == count_models(formula)


def test_satisfiable_and_unsatisfiable_both_occur() -> None:
    """The random families above are not all one kind: a known sat and a known unsat formula."""
    sat = parse_formula("p cnf 3 3\n1 2 3 0\n-1 -2 0\n-3 0\n")
    unsat = parse_formula("p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n")
    assert mc.analyze(reduce(sat)).solutions == count_models(sat) == 2
    assert mc.analyze(reduce(unsat)).solutions == 0


def test_unused_variables_and_no_clauses() -> None:
    formula = parse_formula("p cnf 4 1\n2 0\n")
    board = reduce(formula)
    assert len(board.wires) == 4 and mc.analyze(board).solutions == 8
    assert mc.analyze(reduce(parse_formula("p cnf 3 0\n"))).solutions == 8
    assert mc.analyze(reduce(parse_formula("p cnf 0 0\n"))).solutions == 1
    assert mc.analyze(reduce(parse_formula("p cnf 0 1\n0\n"))).solutions == 0


def test_each_solution_is_one_model() -> None:
    """Parsimony seen directly: every board solution decodes to a distinct model of the formula."""
    formula = parse_formula("p cnf 3 2\n1 -2 0\n2 3 0\n")
    board = reduce(formula)
    models = set()
    for dec in mc.solutions(board):
        model = mc.cnf_model(board, dec.grid)
        assert formula.satisfied_by(model)
        models.add(tuple(model))
    assert len(models) == count_models(formula) == mc.analyze(board).solutions


def test_size_law() -> None:
    for n, m in ((1, 1), (10, 43), (50, 200)):
        rows, cols = board_shape(n, m)
        assert rows * cols == (13 * n + 5) * (12 * m + 7) <= 2000 * n * m + 10000
    assert board_shape(10, 43)[0] * board_shape(10, 43)[1] < 10 ** 6


def test_size_limit_refused_before_building() -> None:
    with pytest.raises(mc.MineconvError, match="more than the limit of 1000"):
        reduce(parse_formula("p cnf 100000 1\n1 0\n"), max_cells=1000)


def test_dimacs_reader_accepts_the_usual_shapes() -> None:
    text = "c a comment\np cnf 4 3\nc inside\n1 -2\n 3 0 -1 0\n0\n%\n0\n"
    f = parse_formula(text)
    assert f.variables == 4 and f.clauses == ((1, -2, 3), (-1,), ())


@pytest.mark.parametrize("text, where, what", [
    ("p cnf 2 1\n1 3 0\n", (2, 3), "names variable 3"),
    ("p cnf 2 1\n1 x 0\n", (2, 3), "'x' is not a literal"),
    ("1 2 0\n", (1, 1), "before the problem line"),
    ("c nothing\n", (1, 1), "no problem line"),
    ("p cnf 2 2\n1 2 0\n", (1, 1), "declares 2 clauses, the file has 1"),
    ("p cnf two 1\n1 0\n", (1, 7), "not a whole number"),
])
def test_dimacs_errors_are_located(tmp_path: Path, capsys, text: str, where: Tuple[int, int], what: str) -> None:
    src = tmp_path / "bad.cnf"
    src.write_text(text)
    out = tmp_path / "board.txt"
    rc, _, err = run_cli(capsys, "reduce", src, "-o", out)
    assert rc == 2 and not out.exists()
    assert f"bad.cnf:{where[0]}:{where[1]}: " in err and what in err


def test_cli_max_cells(tmp_path: Path, capsys) -> None:
    src = tmp_path / "f.cnf"
    src.write_text("p cnf 50 1\n1 2 0\n")
    rc, _, err = run_cli(capsys, "reduce", src, "-o", tmp_path / "b.txt", "--max-cells", "500")
    assert rc == 2 and "more than the limit of 500" in err and not (tmp_path / "b.txt").exists()


def test_wires_header_round_trips_and_others_report_it_lost() -> None:
    board = reduce(parse_formula("p cnf 2 1\n1 -2 0\n"))
    text = canonical_text(board)
    assert "wires: 1=5,1 2=18,1\n" in text
    assert read_native(text) == board
    with pytest.warns(mc.LossyConversionWarning, match="cells of the CNF variables"):
        mc.dumps(board, "json")
    plain = board.replace(wires=())
    assert "\nwires:" not in canonical_text(plain)


def test_bad_wires_header_is_located() -> None:
    with pytest.raises(mc.PuzzleSyntaxError, match="header 'wires'"):
        read_native("wires: 1=0,0 3=0,1\n??\n")
    with pytest.raises(mc.PuzzleSyntaxError, match="outside"):
        read_native("wires: 1=5,0\n??\n")


def test_solve_json_gives_the_model(tmp_path: Path, capsys) -> None:
    src = tmp_path / "f.cnf"
    src.write_text("p cnf 3 2\n1 -2 3 0\n-1 0\n")
    board = tmp_path / "board.txt"
    assert run_cli(capsys, "reduce", src, "-o", board)[0] == 0
    rc, out, _ = run_cli(capsys, "solve", board, "--json")
    model = json.loads(out)["cnf_model"]
    assert rc == 0 and len(model) == 3 and parse_formula(src.read_text()).satisfied_by(model)
    rc, out, _ = run_cli(capsys, "analyze", board, "--json")
    assert rc == 0 and '"solutions": 3' in out


def test_minisat_round_trip_gives_the_model(tmp_path: Path, capsys) -> None:
    minisat = require_tool("minisat")
    src = tmp_path / "f.cnf"
    src.write_text("p cnf 3 3\n1 2 0\n-1 3 0\n-3 -2 0\n")
    board = tmp_path / "board.txt"
    run_cli(capsys, "reduce", src, "-o", board)
    assert run_cli(capsys, "convert", board, tmp_path / "board.cnf")[0] == 0
    run_tool([minisat, "board.cnf", "board.out"], tmp_path)
    rc, out, _ = run_cli(capsys, "decode", board, tmp_path / "board.out", "--json")
    model = json.loads(out)["cnf_model"]
    assert rc == 0 and parse_formula(src.read_text()).satisfied_by(model)


def test_render_annotate_names_the_gadgets(tmp_path: Path, capsys) -> None:
    src = tmp_path / "f.cnf"
    src.write_text("p cnf 2 1\n1 -2 0\n")
    board = tmp_path / "board.txt"
    run_cli(capsys, "reduce", src, "-o", board)
    rc, out, _ = run_cli(capsys, "render", board, "-o", "-", "--annotate")
    assert rc == 0
    for name in ("variable", "tap x", "tap not-x", "false source", "forced true"):
        assert f'class="gadget {name}"' in out
    kinds = [lab.gadget for lab in labels(mc.read(board))]
    assert kinds.count("variable") == 2 and "crossing" not in kinds
    plain = tmp_path / "plain.txt"
    plain.write_text("1?\n??\n")
    rc, _, err = run_cli(capsys, "render", plain, "-o", "-", "--annotate")
    assert rc == 2 and "no 'wires' header" in err


ROUND_TRIP = ["p cnf 0 0\n", "p cnf 1 0\n", "p cnf 1 1\n1 0\n", "p cnf 1 1\n-1 0\n", "p cnf 0 1\n0\n", "p cnf 0 2\n0\n0\n",
              "p cnf 3 0\n", "p cnf 2 1\n1 -1 0\n", "p cnf 2 2\n1 2 0\n-1 -2 0\n"]


@pytest.mark.parametrize("text", ROUND_TRIP + [f"random {seed}" for seed in range(6)])
def test_a_reduced_board_reads_back_as_itself(text: str, tmp_path: Path, capsys) -> None:
    """Issue 41, 12: whatever the board holds (even no unknown cell), its file reads back, notation
    detected, as the same board, and counts the formula's models over its declared variables."""
    if text.startswith("random"):
        rng = random.Random(int(text.split()[1]))
        n = rng.randint(0, 4)
        formula = random_formula(rng, n, rng.randint(0, 3), (1, 3)) if n else Formula(0, ())
        text = f"p cnf {formula.variables} {len(formula.clauses)}\n" + "".join(
            " ".join(map(str, c)) + " 0\n" for c in formula.clauses)
    src = tmp_path / "f.cnf"
    src.write_text(text)
    out = tmp_path / "board.txt"
    rc, _, err = run_cli(capsys, "reduce", src, "-o", out)
    assert rc == 0, err
    formula = parse_formula(text, source=str(src))
    written = reduce(formula)
    back = mc.read(out)
    assert back == written
    assert mc.analyze(back).solutions == count_models(formula)
    rc, report, _ = run_cli(capsys, "analyze", out, "--json")
    assert json.loads(report)["solutions"] == count_models(formula)
