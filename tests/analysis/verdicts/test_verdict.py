"""mineconv verdict: "guess" exactly when no cell is decided, every certificate valid, every named cell decided.

The judge is brute force written from the rules (helpers.brute_force / mine_sets), sharing no code with the
verdict; `--check` is tested to accept what the verdict produces and to refuse tampered certificates.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from helpers import SAMPLES, mine_sets, placed_board, random_board, run_cli
from mineconv import Puzzle, parse
from mineconv.analysis.verdict import check_certificate, verdict
from mineconv.core.errors import VerificationError


def judge(puzzle: Puzzle):
    """(solutions as sets of mine cells, decided cells {cell: 'safe'|'mine'}) by brute force."""
    sols = mine_sets(puzzle)
    decided = {}
    for cell in puzzle.unknown_cells:
        inside = {cell in s for s in sols}
        if len(inside) == 1:
            decided[cell] = "mine" if inside.pop() else "safe"
    return sols, decided


def boards():
    rng = np.random.default_rng(23)
    out = []
    for _ in range(80):
        out.append(random_board(rng, max_unknown=12))
    for seed in range(40):
        p = placed_board(seed, 4, 4, density=0.3, hide=0.6)
        out.append(p)
        out.append(p.replace(mines=sum(row.count("?") for row in p.grid_lines) // 3 or None))
    return [p for p in out if p.unknown_count <= 14]


@pytest.mark.parametrize("number", range(0, 160, 1))
def test_verdict_against_brute_force(number):
    all_boards = boards()
    if number >= len(all_boards):
        pytest.skip("fewer boards")
    puzzle = all_boards[number]
    sols, decided = judge(puzzle)
    v = verdict(puzzle)
    if not sols:
        assert v is None
        return
    assert v is not None and v.count == len(sols)
    if not puzzle.unknown_cells:
        assert v.verdict == "solved"
        return
    if decided:
        assert v.verdict == "no-guess"
        assert decided[v.cell] == v.value
        if "safe" in set(decided.values()) and any(c.get("value") == "safe" for c in v.proof["cells"]):
            assert v.value == "safe"
    else:
        assert v.verdict == "guess"
        assert all(frozenset(map(tuple, s)) in sols for s in v.to_json()["solutions"])
        for cell in puzzle.unknown_cells:
            assert {cell in set(map(tuple, s)) for s in v.to_json()["solutions"]} == {True, False}
        assert len(v.solutions) <= len(puzzle.unknown_cells) + 1
        assert "a guess is forced" in check_certificate(puzzle, v.to_json())
    # the best guess is a cell of the highest chance of safety
    if v.best_guess is not None:
        unknown = puzzle.unknown_cells
        p_safe = {cell: sum(cell not in s for s in sols) / len(sols) for cell in unknown}
        r, c = v.best_guess["cell"]
        assert abs(p_safe[(r, c)] - max(p_safe.values())) < 1e-12
        assert abs(v.best_guess["p_safe"] - p_safe[(r, c)]) < 1e-12


def test_guess_certificate_is_checked_without_a_solver():
    puzzle = parse("???\n?1?\n???\n")
    cert = verdict(puzzle).to_json()
    assert cert["verdict"] == "guess" and cert["certificate_size"] == 8
    assert "8 unknown cells" in check_certificate(puzzle, cert)
    short = dict(cert, solutions=cert["solutions"][:-1])
    with pytest.raises(VerificationError, match="puts a mine on"):
        check_certificate(puzzle, short)
    wrong = dict(cert, solutions=cert["solutions"] + [[[0, 0], [0, 1]]])
    with pytest.raises(VerificationError, match="not a solution"):
        check_certificate(puzzle, wrong)
    off = dict(cert, solutions=[[[5, 5]]])
    with pytest.raises(VerificationError, match="not a cell"):
        check_certificate(puzzle, off)


def test_no_guess_proof_is_checked_by_enumerating_its_counts():
    puzzle = parse((SAMPLES / "dusautoy-6x6.txt").read_text())
    cert = verdict(puzzle).to_json()
    assert cert["verdict"] == "no-guess" and cert["value"] == "safe"
    assert "makes (0, 0) safe" in check_certificate(puzzle, cert)
    flipped = dict(cert, value="mine")
    with pytest.raises(VerificationError, match="allow"):
        check_certificate(puzzle, flipped)


def test_cli_verdict_json_and_check(tmp_path, capsys):
    src = tmp_path / "p.txt"
    src.write_text("???\n?1?\n???\n")
    status, out, _ = run_cli(capsys, "verdict", src, "--json")
    assert status == 0 and json.loads(out)["verdict"] == "guess"
    cert = tmp_path / "c.json"
    cert.write_text(out)
    status, out, _ = run_cli(capsys, "verdict", src, "--check", cert)
    assert status == 0 and out.startswith("certificate holds")
    bad = json.loads(cert.read_text())
    bad["solutions"] = bad["solutions"][:2]
    cert.write_text(json.dumps(bad))
    status, _, err = run_cli(capsys, "verdict", src, "--check", cert)
    assert status == 3 and "no solution of the certificate" in err
    status, out, _ = run_cli(capsys, "verdict", SAMPLES / "seed-3x3.txt")
    assert status == 0 and out.startswith("verdict: no guess needed")
    src.write_text("1?\n??\n8?\n")
    status, _, err = run_cli(capsys, "verdict", src)
    assert status == 2
    src.write_text("mines: 3\n1?\n??\n")
    status, out, _ = run_cli(capsys, "verdict", src)
    assert status == 1 and out.startswith("no solution")
