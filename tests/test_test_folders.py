"""The tests' own layout (tests/README.md): folders that mirror the source, a test file for every notation,
test modules that pytest can tell apart, and no test that imports a private name."""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator, List, Tuple

from helpers import ROOT

TESTS = ROOT / "tests"
SOURCE = ROOT / "converters"
# Modules named private that issue 39 is renaming (formats/notations/_rows, ...): tests may import them until
# they have their public names; nothing else named private may be imported by a test.
BEING_RENAMED = {
    "mineconv.formats.notations._rows", "mineconv.formats.notations._grid_common",
    "mineconv.formats.notations._nodes", "mineconv.formats.notations._cpdata",
    "mineconv.formats.notations._replay_common", "mineconv.formats._located", "mineconv.formats._layout",
    "mineconv.core._compat",
}


def all_test_modules() -> List[Path]:
    """Every test module under tests/ (the fixtures hold none)."""
    return sorted(p for p in TESTS.rglob("test_*.py") if "fixtures" not in p.relative_to(TESTS).parts)


def private(name: str) -> bool:
    """A name that says it is private: one leading underscore (dunders are not private)."""
    return name.startswith("_") and not name.startswith("__")


def private_imports(tree: ast.AST) -> Iterator[Tuple[int, str]]:
    """(line, what) for each import of a private module or name, the modules being renamed left out."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if any(private(part) for part in node.module.split(".")) and node.module not in BEING_RENAMED:
                yield node.lineno, f"from {node.module} import ..."
            for alias in node.names:
                if private(alias.name) and f"{node.module}.{alias.name}" not in BEING_RENAMED:
                    yield node.lineno, f"from {node.module} import {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(private(part) for part in alias.name.split(".")) and alias.name not in BEING_RENAMED:
                    yield node.lineno, f"import {alias.name}"
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None))
              == "import_module" and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            module = node.args[0].value
            if any(private(part) for part in module.split(".")) and module not in BEING_RENAMED:
                yield node.lineno, f"import_module({module!r})"


def registers_a_format(path: Path) -> bool:
    """Whether a module calls register_format (a notation does; the helpers the notations share do not)."""
    return any(isinstance(node, ast.Call) and getattr(node.func, "id", None) == "register_format"
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def notation_modules() -> List[str]:
    """The modules of formats/notations/ that register a format."""
    return sorted(p.stem for p in (SOURCE / "formats" / "notations").glob("*.py") if registers_a_format(p))


def test_every_notation_has_its_own_test_file() -> None:
    modules = notation_modules()
    assert len(modules) >= 33 and "native" in modules and "avf" in modules
    missing = [m for m in modules if not (TESTS / "formats" / "notations" / f"test_{m}.py").is_file()]
    assert not missing, f"notations without tests/formats/notations/test_<module>.py: {missing}"


def test_no_test_imports_a_private_name() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {what}"
             for path in all_test_modules() + sorted(TESTS.glob("*helpers.py"))
             for line, what in private_imports(ast.parse(path.read_text(encoding="utf-8")))]
    assert not found, "tests import private names (test through a public function):\n" + "\n".join(found)


def test_the_private_import_check_finds_each_kind() -> None:
    text = ("from mineconv.core.puzzle import _over_limit\nimport mineconv.encode._hidden\n"
            "from mineconv.formats._secret import x\nimportlib.import_module('mineconv.cli._x')\n"
            "from mineconv.formats._located import error_at\nfrom mineconv.core import __version__\n")
    assert [line for line, _ in private_imports(ast.parse(text))] == [1, 2, 3, 4]


def test_test_modules_have_distinct_names() -> None:
    # pytest imports a test module by its file name (no __init__.py in tests/): two of a name clash
    names = [p.name for p in all_test_modules()]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})


def test_test_folders_mirror_source_packages() -> None:
    # tests/formats/notations/ holds the tests of converters/formats/notations/, and so on; theme tests (the
    # house's rules, fuzzing, hostile input, memory and signals) stay at the top
    folders = sorted({p.parent.relative_to(TESTS) for p in all_test_modules()} - {Path(".")})
    assert Path("formats/notations") in folders
    strays = [str(f) for f in folders if not (SOURCE / f / "__init__.py").is_file()]
    assert not strays, f"test folders named after no package of converters/: {strays}"
