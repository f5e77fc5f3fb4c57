"""Every solution reader against the outputs captured from the real tools (tests/fixtures/outputs)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mineconv.core.errors import MineconvError, SolutionSyntaxError
from mineconv.formats.registry import formats, get_format
from mineconv.formats.reading import guess_format

from helpers import FIXTURES

A = (1, 0, 1, 0)   # x2 = 1: minisat, cbc, z3, lp_solve, cplex
B = (1, 0, 0, 1)   # x3 = 1: picosat, cadical, glpsol, gurobi, scip, clasp
X = ("x0", "x1", "x2", "x3")

# (file under outputs/, detected format, status, {key: value} or None)
CASES = [
    ("minisat/feas.out", "minisat", "solved", dict(zip((1, 2, 3, 4), A))),
    ("minisat/feas_verb0.out", "minisat", "solved", dict(zip((1, 2, 3, 4), A))),
    ("minisat/infeas.out", "minisat", "infeasible", None),
    ("minisat/emptyclause.out", "minisat", "infeasible", None),
    ("minisat/indet.out", "minisat", "unknown", None),
    ("minisat/quirk_unusedvars.out", "minisat", "solved", dict(zip((1, 2, 3, 4), A))),  # 5, 6 omitted
    ("picosat/feas.stdout", "competition", "solved", dict(zip((1, 2, 3, 4), B))),
    ("picosat/feas.sol", "competition", "solved", dict(zip((1, 2, 3, 4), B))),
    ("picosat/feas_all.stdout", "competition", "solved", dict(zip((1, 2, 3, 4), B))),
    ("picosat/infeas.stdout", "competition", "infeasible", None),
    ("picosat/unknown_l.stdout", "competition", "unknown", None),
    ("picosat/quirk_unusedvars.stdout", "competition", "solved", dict(zip((1, 2, 3, 4, 5, 6), B + (0, 0)))),
    ("cadical/feas.stdout", "competition", "solved", dict(zip((1, 2, 3, 4), B))),
    ("cadical/feas_q.stdout", "competition", "solved", dict(zip((1, 2, 3, 4), B))),
    ("cadical/infeas.stdout", "competition", "infeasible", None),
    ("cadical/emptyclause.stdout", "competition", "infeasible", None),
    ("cadical/unknown_t1.stdout", "competition", "unknown", None),        # `c UNKNOWN`, no s line
    ("cryptominisat/feas.stdout", "competition", "solved", dict(zip((1, 2, 3, 4), A))),
    ("cryptominisat/unknown_maxtime.stdout", "competition", "unknown", None),  # s INDETERMINATE
    ("clasp/feas.stdout", "competition", "solved", dict(zip((1, 2, 3, 4), B))),   # v before s, x names
    ("clasp/feas_cnf.stdout", "competition", "solved", dict(zip((1, 2, 3, 4), B))),
    ("clasp/infeas.stdout", "competition", "infeasible", None),
    ("minisatp/feas.stdout", "competition", "solved", dict(zip((1, 2, 3, 4), A))),  # ANSI codes in c lines
    ("minisatp/infeas.stdout", "competition", "infeasible", None),
    ("z3/feas_dimacs.stdout", "competition", "solved", dict(zip((1, 2, 3, 4), A))),  # no trailing 0
    ("z3/infeas_dimacs.stdout", "competition", "infeasible", None),
    ("z3/unknown_timeout.stdout", "competition", "unknown", None),
    ("z3/feas.stdout", "smt2-model", "solved", dict(zip(X, A))),   # labels, multi-line define-funs
    ("z3/feas_bool.stdout", "smt2-model", "solved", dict(zip(X, A))),
    ("z3/infeas.stdout", "smt2-model", "infeasible", None),       # followed by (error ...) lines
    ("glpsol/feas_lp.raw", "glpsol-raw", "solved", dict(zip((1, 2, 3, 4), B))),
    ("glpsol/feas_mps.raw", "glpsol-raw", "solved", dict(zip((1, 2, 3, 4), B))),
    ("glpsol/feas_math.raw", "glpsol-raw", "solved", dict(zip((1, 2, 3, 4), B))),
    ("glpsol/feas_lp_relax.raw", "glpsol-raw", "solved", dict(zip((1, 2, 3, 4), B))),  # s bas
    ("glpsol/quirk_order.raw", "glpsol-raw", "solved", dict(zip((1, 2, 3, 4), (1, 0, 1, 0)))),
    ("glpsol/infeas_lp.raw", "glpsol-raw", "infeasible", None),
    ("glpsol/infeas_math.raw", "glpsol-raw", "infeasible", None),
    ("glpsol/infeas_lp_relax.raw", "glpsol-raw", "unknown", None),   # presolver: s bas u u
    ("highs/feas_lp_glpsolraw.sol", "glpsol-raw", "solved", dict(zip((1, 2, 3, 4), A))),  # extra obj row
    ("highs/infeas_lp_glpsolraw.sol", "glpsol-raw", "infeasible", None),  # stops after the s line
    ("glpsol/feas_lp.txt", "glpsol-report", "solved", dict(zip(X, B))),
    ("glpsol/feas_lp_relax.txt", "glpsol-report", "solved", dict(zip(X, B))),
    ("glpsol/feas_math.txt", "glpsol-report", "solved", dict(zip(("x[x0]", "x[x1]", "x[x2]", "x[x3]"), B))),
    ("glpsol/quirk_longname.txt", "glpsol-report", "solved",
     {"x2": 0, "cell_r10_c11": 0, "cell_r11_c10_unknown": 1}),     # long names wrap a line
    ("glpsol/quirk_order.txt", "glpsol-report", "solved", {"x0": 1, "x3": 0, "x2": 1, "x1": 0}),
    ("glpsol/infeas_lp.txt", "glpsol-report", "infeasible", None),
    ("highs/feas_lp_glpsolpretty.sol", "glpsol-report", "solved", dict(zip(X, A))),
    ("highs/infeas_lp_glpsolpretty.sol", "glpsol-report", "infeasible", None),
    ("cbc/feas_lp.sol", "cbc", "solved", dict(zip(X, A))),
    ("cbc/feas_mps.sol", "cbc", "solved", dict(zip(X, A))),
    ("cbc/feas_all.sol", "cbc", "solved", dict(zip(X, A))),      # rows listed first
    ("cbc/feas_maxnodes0.sol", "cbc", "solved", dict(zip(X, A))),
    ("cbc/infeas_lp.sol", "cbc", "infeasible", None),          # garbage values after Infeasible
    ("cbc/infeas_mps.sol", "cbc", "infeasible", None),
    ("highs/feas_lp.sol", "highs", "solved", dict(zip(X, A))),
    ("highs/feas_mps.sol", "highs", "solved", dict(zip(X, A))),
    ("highs/feas_lp_pretty.sol", "highs", "solved", dict(zip(X, A))),
    ("highs/feas_lp_sparse.sol", "highs", "solved", {"x0": 1, "x2": 1}),
    ("highs/infeas_lp.sol", "highs", "infeasible", None),
    ("highs/infeas_lp_pretty.sol", "highs", "infeasible", None),
    ("highs/infeas_lp_sparse.sol", "highs", "infeasible", None),
    ("lp_solve/feas_lp_S4.stdout", "lp_solve", "solved", dict(zip(X, A))),   # dual blocks ignored
    ("lp_solve/feas_S3.stdout", "lp_solve", "solved", dict(zip(X, A))),
    ("lp_solve/feas_lp_default.stdout", "lp_solve", "solved", dict(zip(X, A))),
    ("lp_solve/quirk_longname_S3.stdout", "lp_solve", "solved",
     {"cell_r10_c11_a_very_long_variable_name_here": 1, "x2": 0}),
    ("lp_solve/infeas_lp_S4.stdout", "lp_solve", "infeasible", None),
    ("gurobi/feas_lp.sol", "gurobi", "solved", dict(zip(X, B))),
    ("gurobi/feas_lp.json", "gurobi-json", "solved", {"x0": 1, "x3": 1}),
    ("cplex/feas_lp.sol", "cplex", "solved", dict(zip(X, A))),
    ("cplex/feas_mps.sol", "cplex", "solved", dict(zip(X, A))),
    ("scip/feas_lp.sol", "scip", "solved", {"x0": 1, "x3": 1}),       # non-zeros only
    ("scip/infeas_lp.sol", "scip", "infeasible", None),
]


@pytest.mark.parametrize("path,fmt,status,values", CASES, ids=[c[0] for c in CASES])
def test_fixture(path, fmt, status, values):
    f = FIXTURES / "outputs" / path
    text = f.read_text()
    assert guess_format(str(f), text, kind="solution").name == fmt
    ans = get_format(fmt, kind="solution").reader(text, str(f))
    assert ans.status == status
    if values is None:
        assert len(ans.keys) == 0
        return
    got = {}
    for k, v in zip(ans.keys, ans.values):
        got[k if isinstance(k, str) else int(k)] = round(float(v))
    assert got == values
    assert ans.sparse == (fmt in ("scip", "gurobi-json") or "sparse" in path)


def test_picosat_all_counts_models():
    f = FIXTURES / "outputs" / "picosat" / "feas_all.stdout"
    assert get_format("competition").reader(f.read_text(), str(f)).solutions == 2


def test_cplex_noise_values_are_kept_for_rounding():
    text = ('<?xml version="1.0"?><CPLEXSolution version="1.2"><header solutionStatusValue="101"/>'
            '<variables><variable name="x0_1" index="0" value="1.0000000002"/>'
            '<variable name="x0_2" index="1" value="-1e-10"/></variables></CPLEXSolution>')
    ans = get_format("cplex").reader(text, "t.sol")
    assert [float(v) for v in ans.values] == [1.0000000002, -1e-10]


def test_fixture_detection_is_unambiguous():
    root = FIXTURES / "outputs"
    for path, fmt, _, _ in CASES:
        text = (root / path).read_text()
        hits = [f.name for f in formats("solution") if f.detect and f.detect(text)]
        assert hits == [fmt], (path, hits)


# garbled, truncated, unknown words --------------------------------------------------------------
BAD = [
    ("minisat", "SATISFIED\n1 -2 0\n", 1),           # unknown status word
    ("minisat", "SAT\n1 -2 3", 2),                   # truncated: no terminating 0
    ("minisat", "SAT\n", 1),                         # truncated: no literals
    ("minisat", "SAT\n1 -2 x 0\n", 2),
    ("minisat", "", None),                           # minisat writes nothing after a parse error
    ("competition", "s SATISFIABLE\nv 1 -2 0 3 -4 0\n", 2),   # literals after the terminating 0
    ("competition", "s MAYBE\n", 1),
    ("competition", "c only comments\n", None),       # truncated: no status
    ("competition", "s SATISFIABLE\n", 1),            # no model
    ("competition", "s SATISFIABLE\nv 1 -2 - 0\n", 2),
    ("competition", "s UNSATISFIABLE\nv 1 0\n", 2),
    ("competition", "s SATISFIABLE\ns UNSATISFIABLE\n", 2),
    ("competition", "models/percent.cnf:15: expected number\n", 1),  # picosat's parse error on stdout
    ("glpsol-raw", "s mip 1 2 o 0\ni 1 1\nj 1 1\nj 2 0\n", 4),     # no e o f
    ("glpsol-raw", "s mip 1 2 o 0\nj 1 1\ne o f\n", 2),            # a column missing
    ("glpsol-raw", "s mip 1 1 q 0\nj 1 1\ne o f\n", 1),
    ("glpsol-raw", "s mip 1 1 o 0\nj 1 abc\ne o f\n", 2),
    ("glpsol-report", "Problem: x\nStatus:     MAYBE\nObjective: 0\n", 2),
    ("cbc", "Optimal - objective value 0\n      0 x0   1   0\n      1 x1  ", 3),
    ("cbc", "Optimal - objective value 0\n      1 c1   1   0\n      0 x0  0  0\n      0 x1  0  0\n", 4),
    ("cbc", "Perfect - objective value 0\n", 1),
    ("cbc", "", None),
    ("highs", "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 0\n# Columns 3\nx0 1\n", None),
    ("highs", "Model status\nSuperb\n", 2),
    ("lp_solve", "\nValue of objective function: 0\n\nActual values of the variables:\nx0\n", 5),
    ("lp_solve", "Parse called\n", None),
    ("gurobi", "# Solution for model obj\n", None),
    ("gurobi", "# Solution for model obj\nx0 1 2\n", 2),
    ("cplex", '<CPLEXSolution version="1.2"><header solutionStatusValue="101"/><variables>', 1),
    ("scip", "objective value: 0\nx0 one\n", 2),
    ("smt2-model", "sat\n((x0 1)\n (x1 0)", 2),       # truncated: open parenthesis
    ("smt2-model", "maybe\n", 1),
    ("smt2-model", "sat\n", None),
    ("smt2-model", "sat\n((x0 (f 1)))\n", 2),
    ("pysat", "[1, -2, 3", 1),
    ("pysat", "[1, 0, 3]", 1),
    ("pysat", "[1, 2, x]", 1),
]


@pytest.mark.parametrize("fmt,text,line", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_answers_raise_with_a_line(fmt, text, line):
    with pytest.raises(SolutionSyntaxError) as info:
        get_format(fmt, kind="solution").reader(text, "answer.txt")
    err = info.value
    assert err.source == "answer.txt" and err.exit_status == 2
    if line is not None:
        assert err.line == line, str(err)
        assert str(err).startswith(f"answer.txt:{line}")


def test_pysat_lists():
    ans = get_format("pysat").reader("[1, -2, 3, -4]\n", "m.txt")
    assert ans.status == "solved" and list(ans.keys) == [1, 2, 3, 4] and list(ans.values) == [1, 0, 1, 0]
    assert get_format("pysat").reader("None\n", "m.txt").status == "infeasible"


def test_every_solution_format_has_a_detector():
    for f in formats("solution"):
        assert f.detect is not None and f.reader is not None, f.name


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(f.name for f in formats("solution"))),
       st.text(alphabet=st.sampled_from(list("sv cx01-23 \n()<>=.#eofjSATUNIDmipbasOptml")), max_size=80))
def test_any_text_parses_or_raises_our_error(fmt, text):
    try:
        ans = get_format(fmt).reader(text, "fuzz")
    except MineconvError:
        return
    assert ans.status in ("solved", "infeasible", "unknown")


def test_cbc_lists_only_non_zeros_of_larger_models():
    # CBC's default printing skips zero columns once a model is not tiny; gaps in the index mean that
    text = "Optimal - objective value 0.00000000\n      1 x0_2   1   0\n      3 x0_4   1   0\n"
    ans = get_format("cbc").reader(text, "a.sol")
    assert ans.sparse and list(ans.keys) == ["x0_2", "x0_4"]
    full = "Optimal - objective value 0\n      0 x0_1   0   0\n      1 x0_2   1   0\n"
    assert not get_format("cbc").reader(full, "a.sol").sparse
