"""The public API as a user sees it: nothing but `import mineconv` (read, write every format, solve, decode a
captured answer, analyze, render), and `mineconv.__all__` complete, typed and documented."""
from __future__ import annotations

import functools
import inspect
import typing
import warnings
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

import mineconv
from helpers import FIXTURES, SAMPLES, require_tool

SEED = SAMPLES / "seed-3x3.txt"             # two solutions
DU_SAUTOY = SAMPLES / "dusautoy-6x6.txt"    # one solution
DU_SAUTOY_MINES = [[0, 2], [0, 3], [2, 0], [2, 5], [3, 0], [3, 5], [5, 2], [5, 3]]
SEED_SOLUTIONS = ([[0, 1], [1, 2]], [[0, 1], [2, 2]])
CAPTURED = FIXTURES / "captured"

PROMISED = ["Puzzle", "read", "parse", "write", "dumps", "read_answer", "decode", "solve", "analyze", "to_cnf",
            "to_pulp", "build_system", "render", "check_assignment", "Violation", "Answer", "Decoded",
            "Analysis", "MineconvError", "PuzzleError", "PuzzleSyntaxError", "FormatError",
            "LossyConversionError", "LossyConversionWarning", "SolutionSyntaxError", "SolverError",
            "VerificationError"]


# the surface -----------------------------------------------------------------------------------------
def test_all_holds_the_promised_names_and_every_public_one():
    assert len(mineconv.__all__) == len(set(mineconv.__all__))
    assert set(PROMISED) <= set(mineconv.__all__)
    for name in mineconv.__all__:
        assert hasattr(mineconv, name), name
    # everything public that mineconv itself defines (not submodules, not typing helpers) is listed
    public = {name for name, obj in vars(mineconv).items()
              if not name.startswith("_") and not inspect.ismodule(obj)
              and getattr(obj, "__module__", "").startswith("mineconv")}
    assert public <= set(mineconv.__all__), public - set(mineconv.__all__)
    namespace: dict = {}
    exec("from mineconv import *", namespace)   # what a star import gives is exactly __all__
    assert set(namespace) - {"__builtins__"} == set(mineconv.__all__)


@pytest.mark.parametrize("name", [n for n in mineconv.__all__ if callable(getattr(mineconv, n))])
def test_every_public_callable_is_documented_and_typed(name):
    obj = getattr(mineconv, name)
    doc = inspect.getdoc(obj)
    assert doc and doc.strip().splitlines()[0], f"{name} has no docstring"
    if inspect.isfunction(obj):
        sig = inspect.signature(obj)
        assert sig.return_annotation is not sig.empty, f"{name} has no return annotation"
        for p in sig.parameters.values():
            assert p.annotation is not p.empty, f"{name}({p.name}) has no type hint"


def test_read_and_parse_return_a_puzzle():
    assert typing.get_type_hints(mineconv.read)["return"] is mineconv.Puzzle
    assert typing.get_type_hints(mineconv.parse)["return"] is mineconv.Puzzle
    p = mineconv.read(SEED)
    assert isinstance(p, mineconv.Puzzle)
    assert mineconv.parse("1??\n12?\n01?\n").grid_lines == p.grid_lines


def test_no_function_shadows_a_module():
    # the functions solve and render live in the subpackage solvers and the module picture, so every
    # module stays importable by its dotted path (patch targets included)
    import importlib
    import pkgutil

    import mineconv.present.picture as picture
    import mineconv.solvers.solving as solving

    assert callable(mineconv.solve) and callable(mineconv.render)
    assert solving.solve is mineconv.solve
    assert picture.render_svg(mineconv.read(SEED)) == mineconv.render(mineconv.read(SEED))
    for mod in pkgutil.walk_packages(mineconv.__path__, prefix="mineconv."):
        public = mod.name.rsplit(".", 1)[-1]
        if not public.startswith("_"):
            assert importlib.import_module(mod.name).__name__ == mod.name
            parent = importlib.import_module(mod.name.rsplit(".", 1)[0])
            assert getattr(parent, public) is importlib.import_module(mod.name), mod.name


# writing -------------------------------------------------------------------------------------------
def _writers():
    return [f for f in mineconv.list_formats() if f.writer is not None]


def test_write_every_format_and_read_back(tmp_path):
    p = mineconv.read(DU_SAUTOY)
    names = [f.name for f in _writers()]
    assert {"native", "json", "cnf", "lp", "mps", "fixed-mps", "opb", "smt2", "mathprog"} <= set(names)
    written = []
    for f in _writers():
        out = tmp_path / f"board-{f.name}{f.extensions[0] if f.extensions else '.out'}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", mineconv.LossyConversionWarning)
            try:
                lost = mineconv.write(p, out, f.name)
            except mineconv.FormatError:
                assert not out.exists(), f"{f.name} refused the puzzle but left a file"
                continue   # a notation that cannot hold an unsolved board (a complete mine layout)
            if not f.binary:
                assert out.read_text(encoding="utf-8") == mineconv.dumps(p, f.name), f.name
        written.append(f.name)
        if f.kind == "puzzle" and f.reader is not None and not lost:
            assert mineconv.read(out, f.name).grid_lines == p.grid_lines, f.name
        if f.kind == "model":
            # every solver file records the puzzle in its header: decode finds it there
            assert mineconv.decode(out, CAPTURED / "dusautoy-6x6.minisat.out", answer_format="minisat").mines \
                == DU_SAUTOY_MINES, f.name
    assert {"native", "json", "cnf", "lp", "mps", "fixed-mps", "opb", "smt2", "mathprog"} <= set(written)


def test_write_picks_the_format_from_the_extension(tmp_path):
    p = mineconv.read(SEED)
    mineconv.write(p, tmp_path / "s.lp")
    mineconv.write(p, tmp_path / "s.cnf")
    assert (tmp_path / "s.lp").read_text() == mineconv.dumps(p, "lp")
    assert (tmp_path / "s.cnf").read_text().splitlines()[-1] == mineconv.dumps(p, "cnf").splitlines()[-1]
    with pytest.raises(mineconv.FormatError):
        mineconv.write(p, tmp_path / "s.nope")


def test_lossy_write_warns_and_strict_refuses(tmp_path):
    p = mineconv.read(SEED).replace(mines=2)
    with pytest.warns(mineconv.LossyConversionWarning):
        lost = mineconv.write(p, tmp_path / "s.dots", "dots")
    assert lost
    with pytest.raises(mineconv.LossyConversionError):
        mineconv.dumps(p, "dots", strict=True)


# solving and decoding ------------------------------------------------------------------------------
def test_solve_a_puzzle_or_a_file():
    p = mineconv.read(DU_SAUTOY)
    d = mineconv.solve(p)
    assert isinstance(d, mineconv.Decoded)
    assert d.status == "solved" and d.mines == DU_SAUTOY_MINES
    assert d.solved_puzzle().grid_lines[0] == "..**.."
    assert mineconv.solve(DU_SAUTOY).mines == DU_SAUTOY_MINES            # a path works too
    assert mineconv.solve(p, mines=9).status == "infeasible"
    found, complete = mineconv.enumerate_solutions(mineconv.read(SEED))
    assert complete and sorted(d.mines for d in found) == sorted(SEED_SOLUTIONS)


def test_solve_with_an_installed_solver():
    require_tool("cbc")
    assert mineconv.solve(mineconv.read(DU_SAUTOY), "cbc", timeout=60).mines == DU_SAUTOY_MINES


def test_decode_captured_answers():
    # minisat's answer to the CNF mineconv wrote: the puzzle comes from the file's header
    d = mineconv.decode(CAPTURED / "dusautoy-6x6.cnf", CAPTURED / "dusautoy-6x6.minisat.out")
    assert d.status == "solved" and d.mines == DU_SAUTOY_MINES
    assert d.to_json() == {"status": "solved", "mines": DU_SAUTOY_MINES}
    # cbc's answer, against the puzzle itself, with the answer read first
    answer = mineconv.read_answer(CAPTURED / "seed-3x3.cbc.sol")
    assert isinstance(answer, mineconv.Answer) and answer.format == "cbc" and answer.status == "solved"
    d = mineconv.decode(mineconv.read(SEED), answer)
    assert d.mines in SEED_SOLUTIONS
    assert mineconv.decode(SEED, CAPTURED / "seed-3x3.cbc.sol", answer_format="cbc").mines == d.mines
    assert mineconv.decode(CAPTURED / "seed-3x3.lp", CAPTURED / "seed-3x3.cbc.sol").mines == d.mines


def test_decode_refuses_a_wrong_answer_naming_the_cell(tmp_path):
    bad = tmp_path / "bad.out"
    lits = (CAPTURED / "dusautoy-6x6.minisat.out").read_text().split()[1:]
    lits[2] = str(-int(lits[2]))   # (0, 2) is a mine in the only solution: leave it empty
    bad.write_text("SAT\n" + " ".join(lits) + "\n")
    with pytest.raises(mineconv.VerificationError) as info:
        mineconv.decode(CAPTURED / "dusautoy-6x6.cnf", bad)
    assert info.value.cell == (1, 1) and info.value.exit_status == 3
    assert "cell (1, 1) shows 2 but the answer puts 1 mine around it" in str(info.value)
    v = mineconv.check_assignment(mineconv.read(SEED), [[False] * 3] * 3)
    assert isinstance(v, mineconv.Violation) and v.cell == (0, 0) and str(v) == v.message
    with pytest.raises(mineconv.SolutionSyntaxError):
        bad.write_text("SAT\n1 2 x 0\n")
        mineconv.decode(CAPTURED / "dusautoy-6x6.cnf", bad)


def test_decode_reports_infeasible_as_a_status(tmp_path):
    ans = tmp_path / "unsat.out"
    ans.write_text("UNSAT\n")
    d = mineconv.decode(SEED, ans)
    assert d.status == "infeasible" and d.mines == []


def test_decode_rejects_what_is_not_a_puzzle_or_an_answer():
    with pytest.raises(TypeError):
        mineconv.decode(42, CAPTURED / "seed-3x3.cbc.sol")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        mineconv.decode(SEED, 42)  # type: ignore[arg-type]


# encoders, analysis, pictures, errors --------------------------------------------------------------
def test_encoders_and_the_linear_system():
    p = mineconv.read(SEED)
    system = mineconv.build_system(p)
    assert isinstance(system, mineconv.LinearSystem) and system.num_vars == p.unknown_count == 4
    cnf = mineconv.to_cnf(p, mines=2)
    assert cnf.nv >= 4 and cnf.clauses
    prob = mineconv.to_pulp(p)
    assert sorted(v.name for v in prob.variables()) == ["x0_1", "x0_2", "x1_2", "x2_2"]


def test_analyze():
    a = mineconv.analyze(mineconv.read(SEED))
    assert isinstance(a, mineconv.Analysis)
    assert a.solutions == 2 and not a.unique
    assert a.mine_cells == [(0, 1)] and a.safe_cells == [(0, 2)]
    assert a.probabilities == [1, 0, Fraction(1, 2), Fraction(1, 2)]
    assert mineconv.analyze(mineconv.read(DU_SAUTOY)).unique


def test_render_svg_with_and_without_analysis():
    p = mineconv.read(SEED)
    plain = mineconv.render(p)
    assert ET.fromstring(plain).tag.endswith("svg")
    a = mineconv.analyze(p)
    heat = mineconv.render(p, analysis=a)
    assert heat == mineconv.render(p, analysis=True) != plain
    assert mineconv.render(p, analysis=False) == plain
    assert ET.fromstring(mineconv.render(p, a, cell=10, heat=False)).tag.endswith("svg")


def test_errors_are_located_and_builtin_compatible():
    with pytest.raises(mineconv.PuzzleSyntaxError) as info:
        mineconv.parse("1??\n1x?\n01?\n", "native", source="b.txt")
    err = info.value
    assert isinstance(err, mineconv.MineconvError) and isinstance(err, ValueError)
    assert (err.source, err.line, err.column) == ("b.txt", 2, 2)
    assert str(err).startswith("b.txt:2:2: ")
    with pytest.raises(mineconv.MineconvError):
        mineconv.read(SAMPLES / "no-such-file.txt")


# results: data is an attribute, work is a method ---------------------------------------------------
def _results():
    """One of each public result, built the way a user builds it."""
    from mineconv.analysis.propagation import propagate

    p = mineconv.read(SEED)
    return {"Puzzle": p, "LinearSystem": mineconv.build_system(p), "Decoded": mineconv.solve(p),
            "Analysis": mineconv.analyze(p), "Propagation": propagate(p, "gac"),
            "PuzzleCNF": mineconv.to_cnf(p), "Answer": mineconv.read_answer(CAPTURED / "seed-3x3.cbc.sol"),
            "SolutionStream": mineconv.solutions(p), "Violation": mineconv.check_assignment(p, [[False] * 3] * 3)}


# accessors that were methods before the rule: the old call form still works, with a DeprecationWarning
FORMER_METHODS = [("Puzzle", "codes"), ("Puzzle", "grid_lines"), ("Puzzle", "unknown_cells"),
                  ("Puzzle", "known_mine_cells"), ("LinearSystem", "impossible"),
                  ("LinearSystem", "constrained_vars"), ("LinearSystem", "var_name_list"), ("Decoded", "mines"),
                  ("Analysis", "safe_cells"), ("Analysis", "mine_cells"), ("Analysis", "probabilities"),
                  ("Analysis", "probability_grid"), ("Analysis", "probability_array"),
                  ("Propagation", "safe_cells"), ("Propagation", "mine_cells")]

# what stays a method: it takes arguments, searches or counts, or builds another object or file
METHODS = {"Puzzle": {"from_rows", "count", "row", "neighbours", "replace", "with_mines_at"},
           "LinearSystem": set(), "Decoded": {"solved_puzzle", "to_json"},
           "Analysis": {"marked_puzzle", "to_json"}, "Propagation": set(),
           "PuzzleCNF": {"mines_of", "decode", "solutions"}, "Answer": {"error"}, "SolutionStream": set(),
           "Violation": set()}


@pytest.mark.parametrize("owner, name", FORMER_METHODS)
def test_a_former_method_is_an_attribute_and_its_call_form_warns(owner, name):
    import numpy as np

    result = _results()[owner]
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # the attribute spelling never warns
        value = getattr(result, name)
    assert value is not None
    with pytest.warns(DeprecationWarning, match=rf"{owner}\.{name}\(\) is deprecated: .*write \.{name} ") as got:
        called = value()
    assert called is value
    assert got[0].filename == __file__          # the warning points at the caller's line
    if isinstance(value, np.ndarray):
        assert np.array_equal(called, value, equal_nan=True)
        assert type(value + 0) is np.ndarray and type(value.sum()) is not type(value)   # no call form leaks
        assert repr(value).startswith("array(")
    else:
        assert type(value) is not list and isinstance(value, list)
        assert repr(value) == repr(list(value))
    import pickle
    back = pickle.loads(pickle.dumps(value))
    assert type(back) in (list, np.ndarray) and not callable(back)


def test_every_no_argument_accessor_of_a_result_is_an_attribute():
    results = _results()
    assert set(results) == set(METHODS)
    for owner, obj in results.items():
        cls = type(obj)
        ours = [k for k in cls.__mro__ if k.__module__.startswith("mineconv")]   # not pysat's CNF methods
        methods = {name for k in ours for name, member in vars(k).items()
                   if not name.startswith("_") and inspect.isroutine(getattr(cls, name))
                   and not isinstance(member, (property, functools.cached_property))}
        assert methods == METHODS[owner], (owner, methods ^ METHODS[owner])
        for name in methods:
            params = [p for p in inspect.signature(getattr(obj, name)).parameters.values()]
            builds = name in {"solved_puzzle", "marked_puzzle", "to_json"}
            assert params or builds, f"{owner}.{name}() takes no argument: make it an attribute"


def test_attribute_values_are_the_old_values():
    import json

    results = _results()
    p, d, a = results["Puzzle"], results["Decoded"], results["Analysis"]
    assert p.grid_lines == ["1??", "12?", "01?"] and p.unknown_cells == [(0, 1), (0, 2), (1, 2), (2, 2)]
    assert p.codes.tolist() == [[1, -1, -1], [1, 2, -1], [0, 1, -1]] and not p.codes.flags.writeable
    with pytest.raises(ValueError):
        p.codes[0, 0] = 3                       # the grid stays read-only through the attribute
    assert d.to_json()["mines"] in [list(map(list, s)) for s in SEED_SOLUTIONS]
    assert type(d.to_json()["mines"]) is list and type(a.to_json()["probabilities"]) is list
    assert json.loads(json.dumps(d.mines)) == d.mines
    assert a.probability_grid[0][1] == 1.0 and a.probability_array.shape == (3, 3)
    assert results["LinearSystem"].var_name_list == ["x0_1", "x0_2", "x1_2", "x2_2"]
    # no count, no probabilities: None, which cannot carry the old call form (a.probabilities() raises)
    none = mineconv.analyze(mineconv.read(SEED), mines=9)
    assert none.probabilities is None and none.probability_grid == [[None] * 3] * 3
