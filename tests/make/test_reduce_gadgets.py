"""Every reduce gadget proved by brute force: all completions of the fragment, checked against its truth table."""
from __future__ import annotations

import itertools
from typing import Dict, List, Tuple

import pytest

from mineconv.make.gadgets import GADGETS, TILE_ACC_COL, TILE_WIRE_ROW, TILES, Gadget


def completions(rows: Tuple[str, ...]) -> List[Dict[Tuple[int, int], int]]:
    """Every assignment of the unknown cells that meets every count of the fragment (depth-first, plain)."""
    R, C = len(rows), len(rows[0])
    unknown = [(r, c) for r in range(R) for c in range(C) if rows[r][c] == "?" or rows[r][c].isalpha()]
    counts = []
    for r in range(R):
        for c in range(C):
            if rows[r][c].isdigit():
                near = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                        if (dr or dc) and 0 <= r + dr < R and 0 <= c + dc < C]
                need = int(rows[r][c]) - sum(rows[rr][cc] == "*" for rr, cc in near)
                counts.append((need, [u for u in near if u in set(unknown)]))
    order = {u: i for i, u in enumerate(unknown)}
    # a count is checked once its last cell (in the order) is set
    closing: Dict[int, list] = {}
    for need, cells in counts:
        closing.setdefault(max((order[u] for u in cells), default=-1), []).append((need, cells))
    out: List[Dict[Tuple[int, int], int]] = []
    value: Dict[Tuple[int, int], int] = {}
    if any(need != 0 for need, _ in closing.get(-1, [])):
        return out

    def go(i: int) -> None:
        if i == len(unknown):
            out.append(dict(value))
            return
        for v in (0, 1):
            value[unknown[i]] = v
            if all(sum(value[u] for u in cells) == need for need, cells in closing.get(i, [])):
                go(i + 1)
        del value[unknown[i]]

    go(0)
    return out


def named(g: Gadget) -> Dict[str, Tuple[int, int]]:
    return {ch: (r, c) for r, row in enumerate(g.rows) for c, ch in enumerate(row) if ch.isalpha()}


@pytest.mark.parametrize("gadget", GADGETS, ids=lambda g: g.name)
def test_gadget_truth_table(gadget: Gadget) -> None:
    cells = named(gadget)
    sols = completions(gadget.rows)
    by_input: Dict[Tuple[int, ...], list] = {}
    for sol in sols:
        by_input.setdefault(tuple(sol[cells[n]] for n in gadget.inputs), []).append(sol)
    for values in itertools.product((0, 1), repeat=len(gadget.inputs)):
        want = gadget.truth(dict(zip(gadget.inputs, values)))
        got = by_input.get(values, [])
        if want is None:
            assert got == [], f"{gadget.name}: inputs {values} are inconsistent but have completions"
            continue
        assert len(got) == 1, f"{gadget.name}: inputs {values} have {len(got)} completions, not exactly one"
        for name, v in want.items():
            assert got[0][cells[name]] == v, f"{gadget.name}: inputs {values}: {name} is {got[0][cells[name]]}"


@pytest.mark.parametrize("tile", TILES, ids=lambda g: g.name)
def test_tile_border(tile: Gadget) -> None:
    """Tiles share their border: '.' there except the four terminals, so no count sees into a neighbour."""
    R, C = tile.height, tile.width
    assert named(tile) == {"W": (TILE_WIRE_ROW, 0), "E": (TILE_WIRE_ROW, C - 1),
                           "N": (0, TILE_ACC_COL), "S": (R - 1, TILE_ACC_COL)}
    border = [tile.rows[0], tile.rows[-1], "".join(r[0] for r in tile.rows), "".join(r[-1] for r in tile.rows)]
    assert all(set(line) <= set(".WENS") for line in border)


def test_enumerator_sees_a_wrong_count() -> None:
    """The checker itself: a wire step with '2' instead of '1' has one completion, not one per input."""
    assert len(completions(("...", "A1B", "..."))) == 2
    assert len(completions(("...", "A2B", "..."))) == 1
