"""The module paths of analysis before its rooms (issue 39), each still importable: one table, one finder.

`import mineconv.analysis.treecount` (or `from mineconv.analysis import treecount`) hands over the very
module that now lives at `mineconv.analysis.counting.sweep.rows`: the same object, not a copy that
re-exports, so its names, and a test's monkeypatch of them, are the module's own. Nothing inside mineconv
imports an old path; they serve code written against the flat analysis/ of before (the README names
`mineconv.analysis.verdict.verdict` and `mineconv.analysis.audit.audit`). `counting` and `explain` need no
row: they are rooms now, whose faces hand on the public names their modules had.
"""
import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Optional, Sequence

# old module (under mineconv.analysis) -> where it lives now
OLD_PATHS = {
    "propagation": "levels.propagation", "backbone": "levels.backbone", "grade": "levels.grade",
    "boardcount": "counting.board", "polynomials": "counting.polynomials", "packing": "counting.packing",
    "marginals": "counting.marginals", "treecount": "counting.sweep.rows", "treesweep": "counting.sweep.packed",
    "treetotal": "counting.sweep.total", "decompose": "counting.tree.decompose", "treedp": "counting.tree.dp",
    "treejoin": "counting.tree.join", "treeweigh": "counting.tree.weigh",
    "quick": "small.quick", "frontier": "small.frontier", "groups": "small.groups",
    "steps": "explain.steps", "proofs": "explain.proofs", "board_index": "explain.board_index",
    "verdict": "verdicts.verdict", "certificate": "verdicts.certificate", "audit": "verdicts.audit",
    "regions": "verdicts.regions",
}


class OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers an old module path of `package` with the module at its new path (the same module object)."""

    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(self, fullname: str, path: Optional[Sequence[str]] = None,
                  target: Optional[ModuleType] = None) -> Optional[importlib.machinery.ModuleSpec]:
        """A spec for an old path of the package; None for every other name (the next finder's)."""
        parent, _, name = fullname.rpartition(".")
        if parent != self.package or name not in OLD_PATHS:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        """The module at the new path, imported there under its own name."""
        module = importlib.import_module(f"{self.package}.{OLD_PATHS[spec.name.rpartition('.')[2]]}")
        spec.loader_state = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run (the module ran at its new path); it gets back its own spec, which the import set."""
        module.__spec__ = module.__spec__.loader_state  # type: ignore[union-attr]


def old_module(package: str, name: str) -> ModuleType:
    """The module an old path names, read as an attribute of the package (`mineconv.analysis.steps`)."""
    if name not in OLD_PATHS:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return importlib.import_module(f"{package}.{name}")


def install(package: str) -> None:
    """Puts the finder of `package`'s old paths on sys.meta_path, once."""
    if not any(isinstance(f, OldPaths) and f.package == package for f in sys.meta_path):
        sys.meta_path.append(OldPaths(package))
