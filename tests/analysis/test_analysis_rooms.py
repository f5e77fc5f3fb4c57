"""analysis/ in rooms (issue 39): the flat module paths of before still import, as the very modules of the rooms."""
import importlib
import pathlib
import re
import sys

import pytest

import mineconv.analysis
from mineconv.analysis.oldpaths import OLD_PATHS

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("old", sorted(OLD_PATHS))
def test_an_old_path_is_the_module_in_its_room(old):
    module = importlib.import_module(f"mineconv.analysis.{old}")
    new = f"mineconv.analysis.{OLD_PATHS[old]}"
    assert module is sys.modules[new] is importlib.import_module(new)
    # the module keeps its own name and spec: pickles, tracebacks and reloads name the room
    assert module.__name__ == module.__spec__.name == new
    assert getattr(mineconv.analysis, old) is module


def test_old_names_read_from_old_paths():
    from mineconv.analysis import counting, treecount, treesweep
    from mineconv.analysis.audit import audit
    from mineconv.analysis.steps import Clue
    from mineconv.analysis.verdict import verdict

    assert treecount.row_sweep and treesweep.packed_sweep and counting.count_solutions
    assert verdict.__module__ == "mineconv.analysis.verdicts.verdict"
    assert audit.__module__ == "mineconv.analysis.verdicts.audit"
    assert mineconv.analysis.steps.Clue is Clue


def test_a_monkeypatch_through_an_old_path_reaches_the_room(monkeypatch):
    from mineconv.analysis import backbone
    from mineconv.analysis.levels import backbone as in_room

    monkeypatch.setattr(backbone, "FALLBACK_SECONDS", 0.25)
    assert in_room.FALLBACK_SECONDS == 0.25


def test_every_analysis_path_the_readme_docs_and_tests_name_imports():
    texts = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *(ROOT / "tests").rglob("*.py")]
    texts.remove(pathlib.Path(__file__).resolve())   # its own unknown name below
    named = set()
    for path in texts:
        named |= set(re.findall(r"mineconv\.analysis(?:\.[a-z_]+)+", path.read_text(encoding="utf-8")))
    assert "mineconv.analysis.verdict.verdict" in named and "mineconv.analysis.audit.audit" in named
    for dotted in sorted(named):
        parts = dotted.split(".")
        for cut in range(len(parts), 1, -1):   # the longest module prefix, then the names read from it
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ModuleNotFoundError:
                continue
            for name in parts[cut:]:
                obj = getattr(obj, name)
            break
        else:
            pytest.fail(f"{dotted} does not import")


def test_an_unknown_name_is_still_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'treecounts'"):
        mineconv.analysis.treecounts
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("mineconv.analysis.treecounts")
