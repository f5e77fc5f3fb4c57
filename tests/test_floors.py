"""The house's rules, read from the source by walking every module's syntax tree.

import-linter (run by .ci/run) holds the floors; these tests hold what it does not see: cycles through
function-level imports, private names borrowed across modules, the package root imported from below, the
size of rooms (modules and functions), and names: a private module (`_x`) used outside its folder, one file
name in two folders, a format module's reader, writer or detector named after another word than its module.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set, Tuple

SOURCE = Path(__file__).resolve().parent.parent / "converters"
PACKAGE = "mineconv"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80
# the floors, bottom to top; a module may import from its own floor or any floor below it
FLOORS = [{"core"}, {"encode"}, {"formats"}, {"solvers", "analysis"}, {"make"}, {"present"}, {"batch"},
          {"web"}, {"cli"}]


def module_name(path: Path) -> str:
    """mineconv.a.b for converters/a/b.py (and mineconv.a for converters/a/__init__.py)."""
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGE] + parts)


def all_modules() -> Dict[str, Path]:
    """Every module of the package by dotted name."""
    return {module_name(p): p for p in sorted(SOURCE.rglob("*.py"))}


MODULES = all_modules()


def imports_of(name: str, path: Path) -> List[Tuple[str, str, int]]:
    """(target module, imported name or '', line) for each mineconv import in the module, at any depth."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target != PACKAGE and not target.startswith(PACKAGE + "."):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in MODULES:
                    found.append((sub, "", node.lineno))
                else:
                    found.append((target, alias.name, node.lineno))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                    found.append((alias.name, "", node.lineno))
    return found


def import_graph() -> Dict[str, Set[str]]:
    """Module -> the mineconv modules it imports (function-level imports included)."""
    return {name: {t for t, _, _ in imports_of(name, path) if t in MODULES and t != name}
            for name, path in MODULES.items()}


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def floor_of(name: str) -> int:
    """The floor number of a module (0 = core), or -1 for the package root and __main__."""
    parts = name.split(".")
    if len(parts) < 2:
        return -1
    for number, floor in enumerate(FLOORS):
        if parts[1] in floor:
            return number
    return -1


def test_cycle_finder_sees_a_ring():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle():
    assert cycles(import_graph()) == []


def test_every_module_lives_on_a_floor():
    homeless = [n for n in MODULES if floor_of(n) < 0 and n not in (PACKAGE, f"{PACKAGE}.__main__")]
    assert homeless == []


def test_imports_run_down_the_floors():
    upward = []
    for name, path in MODULES.items():
        here = floor_of(name)
        if here < 0:
            continue
        for target, _, line in imports_of(name, path):
            there = floor_of(target)
            if target == PACKAGE:
                upward.append(f"{path.name}:{line} imports the package root")
            elif there > here:
                upward.append(f"{name}:{line} -> {target} (a floor up)")
            elif there == here and target.split(".")[1] != name.split(".")[1]:
                upward.append(f"{name}:{line} -> {target} (side by side on one floor)")
    assert upward == []


def test_no_private_name_borrowed():
    borrowed = [f"{name}:{line} takes {target}.{what}"
                for name, path in MODULES.items()
                for target, what, line in imports_of(name, path)
                if what.startswith("_") and not what.startswith("__")]
    assert borrowed == []


def test_rooms_are_small():
    big = [f"{p.relative_to(SOURCE)}: {n} lines" for p in MODULES.values()
           if (n := len(p.read_text("utf-8").splitlines())) > MAX_MODULE_LINES]
    assert big == []


def test_functions_are_short():
    long = []
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(SOURCE)}:{node.lineno} {node.name}: {length} lines")
    assert long == []


def test_imports_of_sees_private_and_function_level_imports(tmp_path):
    fake = tmp_path / "fake.py"
    fake.write_text("from .errors import _hidden\n\ndef f():\n    from ..formats import registry\n")
    found = imports_of("mineconv.core.fake", fake)
    assert ("mineconv.core.errors", "_hidden", 1) in found
    assert ("mineconv.formats.registry", "", 4) in found


# Names (issue 39). A module named `_x` belongs to its folder: only modules beside it may import it; a helper
# that other folders need gets a public name that says what it is. Each entry here is a module another
# folder may still import, with the reason it may.
PRIVATE_SHARED: Dict[str, str] = {}
# Two modules with one file name in different folders make a reader ask which one is meant. Modules of
# cli/ are exempt by their own rule: each is named after its subcommand (tests/cli/test_startup.py ties them).
# Each entry here is a name two folders may share, with the reason.
SHARED_NAMES: Dict[str, str] = {}
# the folders whose modules register formats, and the verb of each function register_format takes
FORMAT_FOLDERS = ("formats/notations", "formats/models", "formats/answers")
VERBS = {"reader": "read", "writer": "write", "detect": "detect"}


def private_imports_outside(modules: Dict[str, Path]) -> List[str]:
    """Imports of a module named `_x` from a module outside its folder (allow-listed ones left out)."""
    found = []
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for target, _, line in imports_of(name, path):
            folder, _, stem = target.rpartition(".")
            if stem.startswith("_") and not stem.startswith("__") and folder != here \
                    and target not in PRIVATE_SHARED:
                found.append(f"{name}:{line} imports {target} from another folder")
    return found


def shared_names(names: List[str]) -> Dict[str, List[str]]:
    """File names (a leading _ ignored) that modules or packages in different folders share, cli/'s left out."""
    by_name: Dict[str, List[str]] = {}
    for name in names:
        parts = name.split(".")
        if len(parts) < 2 or name == f"{PACKAGE}.__main__" or (len(parts) == 3 and parts[1] == "cli"):
            continue
        by_name.setdefault(parts[-1].lstrip("_"), []).append(name)
    return {stem: sorted(found) for stem, found in by_name.items() if len(found) > 1 and stem not in SHARED_NAMES}


def registrations(path: Path) -> List[Tuple[str, str, str, int]]:
    """(format name, keyword, function name, line) for each function a module hands to register_format."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "register_format" and node.args \
                and isinstance(node.args[0], ast.Constant):
            for keyword in node.keywords:
                if keyword.arg in VERBS and isinstance(keyword.value, ast.Name):
                    found.append((str(node.args[0].value), keyword.arg, keyword.value.id, node.lineno))
    return found


def misnamed_format_functions(path: Path) -> List[str]:
    """A format module's public reader, writer and detector are read_/write_/detect_<module>; a module that
    registers a second format names that format's own functions after it (read_gurobi_json, write_int_csv)."""
    found = registrations(path)
    several = len({fmt for fmt, _, _, _ in found}) > 1
    wrong = []
    for fmt, keyword, function, line in found:
        verb = VERBS[keyword]
        allowed = {f"{verb}_{path.stem}"} | ({f"{verb}_{fmt.replace('-', '_')}"} if several else set())
        if not function.startswith("_") and function not in allowed:
            wrong.append(f"{path.parent.name}/{path.name}:{line} {keyword}={function}, not {' or '.join(sorted(allowed))}")
    return wrong


def test_private_modules_stay_in_their_folder():
    assert private_imports_outside(MODULES) == []


def test_private_module_check_sees_a_borrowed_module(tmp_path):
    (tmp_path / "b.py").write_text("from ..formats._rows import decode\nfrom ..core._compat import x\n"
                                   "from ._own import y\n")
    found = private_imports_outside({f"{PACKAGE}.make.b": tmp_path / "b.py"})
    assert [entry.split(" imports ")[1] for entry in found] == [f"{PACKAGE}.formats._rows from another folder",
                                                                f"{PACKAGE}.core._compat from another folder"]


def test_no_two_folders_share_a_file_name():
    assert shared_names(list(MODULES)) == {}


def test_shared_name_check_sees_a_clash():
    names = [f"{PACKAGE}.solvers.quick", f"{PACKAGE}.analysis.quick", f"{PACKAGE}.cli.play", f"{PACKAGE}.make.play",
             f"{PACKAGE}.core.layout", f"{PACKAGE}.formats._layout", f"{PACKAGE}.batch", f"{PACKAGE}.web.batch"]
    assert shared_names(names) == {"quick": [f"{PACKAGE}.analysis.quick", f"{PACKAGE}.solvers.quick"],
                                   "layout": [f"{PACKAGE}.core.layout", f"{PACKAGE}.formats._layout"],
                                   "batch": [f"{PACKAGE}.batch", f"{PACKAGE}.web.batch"]}


def test_format_functions_are_named_after_their_module():
    modules = [p for folder in FORMAT_FOLDERS for p in sorted((SOURCE / folder).glob("[a-z]*.py"))]
    assert sum(len(registrations(p)) for p in modules) > 100    # the check reads the registrations it holds
    assert [wrong for p in modules for wrong in misnamed_format_functions(p)] == []


def test_format_function_check_sees_a_misnamed_reader(tmp_path):
    fake = tmp_path / "jsmines.py"
    fake.write_text('register_format("mine", [".mine"], "puzzle", reader=read_mine, detect=_detect)\n')
    assert [w.split(" ", 1)[1] for w in misnamed_format_functions(fake)] == ["reader=read_mine, not read_jsmines"]
    fake.write_text('register_format("a", [], "solution", reader=read_jsmines)\n'
                    'register_format("b-json", [], "solution", reader=read_b_json, detect=detect_b)\n')
    assert [w.split(" ", 1)[1] for w in misnamed_format_functions(fake)] == ["detect=detect_b, not detect_b_json or "
                                                                             "detect_jsmines"]
