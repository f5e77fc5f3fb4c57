"""core/graph.py is the one home of union-find (issue 39): a second copy anywhere in the package fails here.

Its answers are held to a plain search in tests/solvers/test_solve_parts.py; this file holds where it lives.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import List

from tests.conftest import ROOT

SOURCE = ROOT / "converters"
HOME = SOURCE / "core" / "graph.py"


def union_find_copies(path: Path) -> List[str]:
    """Lines of `path` that write a union-find's parent link: `p[x] = p[p[x]]` (path halving) or
    `while p[x] != x` (the walk to the root)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
            target, value = node.targets[0], node.value
            if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Subscript) \
                    and ast.dump(value.value) == ast.dump(target.value) == ast.dump(value.slice.value) \
                    and ast.dump(value.slice.slice) == ast.dump(target.slice):
                found.append(f"{path.name}:{node.lineno} path halving")
        elif isinstance(node, ast.While) and isinstance(node.test, ast.Compare) \
                and isinstance(node.test.left, ast.Subscript) and len(node.test.comparators) == 1 \
                and ast.dump(node.test.left.slice) == ast.dump(node.test.comparators[0]) \
                and isinstance(node.test.ops[0], ast.NotEq):
            found.append(f"{path.name}:{node.lineno} a walk to the root")
    return found


def test_union_find_has_one_home():
    copies = [line for path in sorted(SOURCE.rglob("*.py")) if path != HOME for line in union_find_copies(path)]
    assert copies == [], "use core/graph.component_roots"


def test_the_check_sees_the_copy_that_used_to_stand_in_make(tmp_path):
    # the shape make/noguess_replay.py and analysis/counting.py had before they used core/graph
    copy = tmp_path / "copy.py"
    copy.write_text("def find(x):\n    while parent[x] != x:\n        parent[x] = parent[parent[x]]\n"
                    "        x = parent[x]\n    return x\n")
    assert [line.split(" ", 1)[1] for line in union_find_copies(copy)] == ["a walk to the root", "path halving"]
