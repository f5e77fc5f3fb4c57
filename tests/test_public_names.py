"""The package root's public names have one home, `_HOMES` in converters/__init__.py: `__all__` is derived from it
at run time, and the TYPE_CHECKING block that type checkers read instead must name the same things (issue 39)."""
from __future__ import annotations

import ast
from typing import Dict, Tuple

from tests.conftest import ROOT

INIT = ROOT / "converters" / "__init__.py"


def _tree() -> ast.Module:
    return ast.parse(INIT.read_text(encoding="utf-8"))


def homes() -> Dict[str, Tuple[str, str]]:
    """name -> (module, attribute), as `_HOMES` spells it."""
    for node in _tree().body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["_HOMES"]:
            out = {}
            for module, entries in ast.literal_eval(node.value).items():
                for entry in entries:
                    name, _, attribute = entry.partition(":")
                    out[name] = (module, attribute or name)
            return out
    raise AssertionError("no literal _HOMES in converters/__init__.py")


def type_checking_names() -> Dict[str, Tuple[str, str]]:
    """name -> (module, attribute), as the last `if TYPE_CHECKING:` block tells type checkers."""
    block = [n for n in _tree().body if isinstance(n, ast.If) and getattr(n.test, "id", None) == "TYPE_CHECKING"][-1]
    modules: Dict[str, str] = {}   # a module imported under a private name, for the `name = _module.attr` lines
    out: Dict[str, Tuple[str, str]] = {}
    for node in block.body:
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.asname and alias.asname.startswith("_"):
                    modules[alias.asname] = f"{module}.{alias.name}" if node.module else f".{alias.name}"
                else:
                    # "X as X": mypy --strict counts only this form (or an assignment) as exported
                    assert alias.asname == alias.name, f"write `{alias.name} as {alias.name}` in the block"
                    out[alias.name] = (module, alias.name)
        elif isinstance(node, ast.Assign):
            value = node.value
            assert isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name), ast.dump(node)
            (target,) = node.targets
            out[getattr(target, "id", "")] = (modules[value.value.id], value.attr)
        else:
            raise AssertionError(f"unexpected statement in the TYPE_CHECKING block: {ast.dump(node)}")
    return out


def test_type_checking_block_names_what_homes_names():
    home, copy = homes(), type_checking_names()
    assert copy == home, (
        "converters/__init__.py: the TYPE_CHECKING block differs from _HOMES, the one home of the public names "
        f"(add or fix it in _HOMES, then mirror it in the block): only in _HOMES {sorted(set(home) - set(copy))}, "
        f"only in the block {sorted(set(copy) - set(home))}, "
        f"elsewhere {sorted(n for n in set(home) & set(copy) if home[n] != copy[n])}")


def test_all_is_homes_and_the_version():
    import mineconv
    assert sorted(mineconv.__all__) == sorted([*homes(), "__version__"])
