"""Start-up stays light (issue 24): what a fresh `mineconv` process imports for --version and for a small solve,
the package root's lazy names, and the CLI's lazy parser reading exactly like the full one.

The import checks run the command in a child process and list what it imported, so a module that gains an eager
import of numpy, lark, pysat or every notation makes them fail.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Set

import pytest

from mineconv.cli import COMMANDS, build_parser
from tests.conftest import FIXTURES, ROOT, SAMPLES


# runs `python -m mineconv ARGV...` in this child, then lists every module it imported
CHILD = """
import runpy, sys
argv, report = sys.argv[2:], sys.argv[1]
sys.argv = ["mineconv", *argv]
try:
    runpy.run_module("mineconv", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    status = exc.code
with open(report, "w") as fh:
    fh.write(f"{status}\\n" + "\\n".join(sorted(sys.modules)))
"""


def imported_by(tmp_path, *argv: str) -> Set[str]:
    """Every module a fresh `python -m mineconv ARGV...` imports (the command must succeed)."""
    report = tmp_path / "modules.txt"
    proc = subprocess.run([sys.executable, "-c", CHILD, str(report), *argv], capture_output=True, text=True,
                          timeout=120)
    status, *mods = report.read_text().splitlines()
    assert status in ("0", "1"), proc.stderr[-2000:]
    return set(mods)


def test_version_imports_almost_nothing(tmp_path):
    mods = imported_by(tmp_path, "--version")
    heavy = {"numpy", "lark", "pysat", "pulp", "json", "mineconv.formats", "mineconv.encode",
             "mineconv.core.puzzle", "mineconv.analysis", "mineconv.solvers"}
    assert "mineconv.cli" in mods
    assert heavy & mods == set()
    # of the subcommands, none: their modules are imported only to run them
    assert {m for m in mods if m.startswith("mineconv.cli.")} == set()


def test_a_small_solve_imports_what_it_needs_only(tmp_path):
    mods = imported_by(tmp_path, "solve", str(SAMPLES / "seed-3x3.txt"))
    assert {"pysat.solvers", "mineconv.cli.solve", "mineconv.formats.notations.native"} <= mods
    # the native text of a small board is read without Lark, and solved without numpy (solvers/small_solve.py: numpy
    # alone was a third of the command's CPU); no writer, answer reader or analysis is needed
    unwanted = {"numpy", "lark", "regex", "pulp", "mineconv.formats.models", "mineconv.formats.answers",
                "mineconv.analysis", "mineconv.present", "mineconv.make.reduce", "mineconv.encode.cpsat_model",
                "xml.etree.ElementTree", "mineconv.cli.convert", "numpy.ma", "subprocess", "pkgutil",
                "mineconv.solvers.runners", "mineconv.formats.writing",
                # the numpy path's modules: the answer model, the linear system, the array CNF, solve()
                "mineconv.formats.answer", "mineconv.core.system", "mineconv.encode.cnf", "mineconv.encode.linear",
                "mineconv.solvers.solving"}
    assert unwanted & mods == set()
    # detection's light first pass imports only the notations a plain grid of '?' and digits could be
    for notation in ("mbf", "avf", "evf", "rmv", "mvf", "dzn", "essence", "mineconv_json", "ms_board", "pzprv3",
                     "asp_facts", "leetcode", "quoted_rows", "ascii_grid", "rawvf", "exercism", "mathprog_dat",
                     "blog_text", "contest_fields", "dots", "int_matrix", "kata"):
        assert f"mineconv.formats.notations.{notation}" not in mods


def test_every_public_name_resolves_in_a_fresh_process():
    code = ("import sys, mineconv; assert 'numpy' not in sys.modules, 'import mineconv imported numpy'\n"
            "from mineconv import read, Puzzle, render, reduce, solutions, list_formats\n"
            "missing = [n for n in mineconv.__all__ if not hasattr(mineconv, n)]\n"
            "assert not missing, missing\n"
            "assert set(mineconv.__all__) <= set(dir(mineconv))\n"
            "assert mineconv.read(sys.argv[1])._repr_svg_().startswith('<?xml')   # the lazy notebook picture\n")
    proc = subprocess.run([sys.executable, "-c", code, str(SAMPLES / "seed-3x3.txt")], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_an_unknown_name_is_an_attribute_error():
    import mineconv

    with pytest.raises(AttributeError):
        mineconv.no_such_name  # noqa: B018


def subparsers(ap: argparse.ArgumentParser) -> argparse._SubParsersAction:
    return next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))


def test_the_command_table_holds_each_modules_own_help_line():
    import pkgutil

    import mineconv.cli

    assert sorted(m.name for m in pkgutil.iter_modules(mineconv.cli.__path__)) == sorted(COMMANDS)
    full = subparsers(build_parser())
    lines = {a.dest: a.help for a in full._choices_actions}
    assert lines == COMMANDS


def test_each_command_module_reads_its_help_line_from_the_table():
    import ast

    for name in COMMANDS:
        tree = ast.parse((ROOT / "converters" / "cli" / f"{name}.py").read_text(encoding="utf-8"))
        helps = [ast.unparse(k.value) for node in ast.walk(tree) if isinstance(node, ast.Call)
                 and getattr(node.func, "attr", None) == "add_parser" for k in node.keywords if k.arg == "help"]
        assert helps == [f"COMMANDS[{name!r}]"], (
            f"cli/{name}.py: its help line's one home is COMMANDS in cli/__init__.py (what `mineconv --help` "
            f"prints without importing the module); register() passes help=COMMANDS[{name!r}], not {helps}")


@pytest.mark.parametrize("command", [None, "solve", "convert"])
def test_the_lazy_parser_prints_the_full_parsers_help(command):
    lazy = build_parser([command] if command else [])
    assert lazy.format_help() == build_parser().format_help()
    if command:
        assert subparsers(lazy).choices[command].format_help() == \
            subparsers(build_parser()).choices[command].format_help()


def test_no_extension_means_two_kinds_of_format_in_one_direction():
    # the registry loads one folder per kind: a path's candidates must not depend on which folders are loaded
    from mineconv.formats.registry import formats

    for direction in ("read", "write"):
        kinds = {}
        for f in formats():
            if f.can(direction):
                for ext in f.extensions:
                    kinds.setdefault(ext, set()).add(f.kind)
        assert {ext: k for ext, k in kinds.items() if len(k) > 1} == {}


@pytest.mark.parametrize("dist", ["mineconv", "python-sat", "PuLP", "numpy", "lark", "pip", "no-such-dist-xyz"])
def test_installed_version_agrees_with_importlib_metadata(dist):
    from importlib import metadata

    from mineconv.core.about import installed_version

    try:
        expected = metadata.version(dist)
    except metadata.PackageNotFoundError:
        expected = None
    assert installed_version(dist) == expected


def test_version_and_a_solver_file_need_no_importlib_metadata(tmp_path):
    # importlib.metadata imports the email package: more than the rest of --version
    assert {"importlib.metadata", "email"} & imported_by(tmp_path, "--version") == set()
    out = tmp_path / "seed.lp"
    mods = imported_by(tmp_path, "convert", str(SAMPLES / "seed-3x3.txt"), str(out))
    assert "mineconv " in out.read_text() and {"importlib.metadata", "email", "lark"} & mods == set()


# every sample, every test fixture and the real replays (when present): what the light detection pass is held to
DETECTED = sorted(p for folder in (SAMPLES, FIXTURES, ROOT.parent / "shared" / "replays") if folder.is_dir()
                  for p in folder.rglob("*") if p.is_file() and p.stat().st_size < 1 << 22)


def test_every_puzzle_notation_has_a_signature_matching_its_registration():
    from mineconv.formats.registry import formats
    from mineconv.formats.signatures import SIGNATURES
    by_module: dict = {}
    for f in formats("puzzle"):
        by_module.setdefault(f.reader.__module__.rsplit(".", 1)[-1], []).append(f)   # type: ignore[union-attr]
    assert sorted(by_module) == sorted(SIGNATURES), "a notation module needs its line in formats/signatures.py"
    for module, fmts in by_module.items():
        sig = SIGNATURES[module]
        assert sorted(sig.names) == sorted(n for f in fmts for n in (f.name, *f.aliases)), module
        assert sorted(sig.extensions) == sorted(e for f in fmts for e in f.extensions), module
        assert {sig.binary} == {f.binary for f in fmts}, module
        assert sorted(sig.read_options) == sorted({o for f in fmts for o in f.read_options}), module


def _contents(path):
    from mineconv.core.fileio import decode_bytes
    data = path.read_bytes()
    try:
        text = decode_bytes(data, str(path))
    except Exception:
        text = None
    return text, data


def test_a_signature_turns_away_only_content_its_notations_detectors_refuse():
    from mineconv.formats.detection import content_for, detect_score
    from mineconv.formats.registry import formats
    from mineconv.formats.signatures import SIGNATURES
    assert len(DETECTED) > 40
    fmts = formats("puzzle")
    for path in DETECTED:
        text, data = _contents(path)
        for f in fmts:
            sig = SIGNATURES[f.reader.__module__.rsplit(".", 1)[-1]]   # type: ignore[union-attr]
            content = content_for(f, text, data)
            if sig.could is None or content is None or sig.could(content):
                continue
            assert detect_score(f, content) == 0, f"{path}: the signature of {f.name} turns away what it detects"


# ranks every file given with detection's light first pass (a fresh process: no notation imported before; over
# all the files it imports most of them, but each file is ranked with what the files before it let through)
RANKS = """
import json, sys
from pathlib import Path
from mineconv.core.fileio import decode_bytes
from mineconv.formats.detection import rank_formats
from mineconv.formats.registry import candidates_for_path
out = []
for name in sys.argv[1:]:
    data = Path(name).read_bytes()
    try:
        text = decode_bytes(data, name)
    except Exception:
        text = None
    prefer = candidates_for_path(name, kind="puzzle", direction="read")
    out.append([[s, f.name] for s, f in rank_formats(text, data, prefer=prefer)] + [[f.name for f in prefer]])
print(json.dumps(out))
"""


def test_the_light_detection_ranks_every_sample_as_the_full_one():
    import json

    from mineconv.formats.detection import rank_formats
    from mineconv.formats.registry import candidates_for_path, formats
    formats("puzzle")   # the full load: every notation imported, every detector asked
    proc = subprocess.run([sys.executable, "-c", RANKS, *map(str, DETECTED)], capture_output=True, text=True,
                          timeout=300, check=True)
    light = json.loads(proc.stdout)
    assert len(light) == len(DETECTED)
    for path, got in zip(DETECTED, light):
        text, data = _contents(path)
        prefer = candidates_for_path(path, kind="puzzle", direction="read")
        want = [[s, f.name] for s, f in rank_formats(text, data, prefer=prefer)] + [[f.name for f in prefer]]
        assert got == want, path


def test_a_conversion_to_a_solver_file_imports_only_the_notations_it_needs(tmp_path):
    # the output's extension is looked up in every kind: the notations go by their signatures' extensions
    mods = imported_by(tmp_path, "convert", str(SAMPLES / "seed-3x3.txt"), str(tmp_path / "out.lp"))
    assert {"mineconv.formats.models.cplex_lp", "mineconv.formats.notations.native"} <= mods
    assert {"mineconv.formats.notations.mbf", "mineconv.formats.notations.dzn"} & mods == set()


def test_argparse_asks_gettext_once_a_message_while_the_command_line_is_read(monkeypatch, capsys):
    import gettext

    from mineconv.cli import main
    looked_up = []
    plain = gettext.find
    monkeypatch.setattr(gettext, "find", lambda *a, **k: looked_up.append(a) or plain(*a, **k))
    before = gettext.dgettext, gettext.dngettext
    with pytest.raises(SystemExit):     # main builds the parser and reads the command line: --help ends there
        main(["solve", "--help"])
    help_text = capsys.readouterr().out
    assert len(looked_up) < 10      # 57 without: three messages for each command's placeholder parser
    assert (gettext.dgettext, gettext.dngettext) == before
    assert help_text == subparsers(build_parser(["solve"])).choices["solve"].format_help()


def test_every_model_name_and_alias_has_its_module_in_the_table():
    from mineconv.formats.registry import MODEL_MODULES, formats
    names = {}
    for f in formats("model"):
        for name in (f.name, *f.aliases):
            names[name] = f.writer.__module__.rsplit(".", 1)[-1]   # type: ignore[union-attr]
    assert MODEL_MODULES == names, "a solver-file writer needs its names in registry.MODEL_MODULES"


def test_every_model_extension_has_its_module_in_the_table():
    from mineconv.formats.registry import MODEL_EXTENSIONS, formats
    modules: dict = {}
    for f in formats("model"):
        for ext in f.extensions:
            modules.setdefault(ext, []).append(f.writer.__module__.rsplit(".", 1)[-1])   # type: ignore[union-attr]
    assert MODEL_EXTENSIONS == {e: tuple(dict.fromkeys(m)) for e, m in modules.items()}, \
        "a solver-file writer needs its extensions in registry.MODEL_EXTENSIONS"


CONVERT_BY_EXTENSION = """
import sys
from mineconv.cli import main
code = main(["convert", sys.argv[1], "-o", sys.argv[2], "-q"])
print(code)
print("\\n".join(sorted(sys.modules)))
"""


@pytest.mark.parametrize("ext, module", [(".mps", "mps"), (".lp", "cplex_lp"), (".cnf", "dimacs"), (".opb", "opb")])
def test_converting_by_extension_imports_only_that_writer(tmp_path, ext, module):
    # the output's extension names the writer: no other writer module is imported, and no answer reader
    out = tmp_path / ("out" + ext)
    proc = subprocess.run([sys.executable, "-c", CONVERT_BY_EXTENSION, str(SAMPLES / "seed-3x3.txt"), str(out)],
                          capture_output=True, text=True, timeout=120, check=True)
    code, *mods = proc.stdout.split()
    assert code == "0" and "mineconv " in out.read_text()
    writers = {m for m in mods if m.startswith("mineconv.formats.models.")}
    assert writers == {"mineconv.formats.models." + module}
    assert not {m for m in mods if m.startswith("mineconv.formats.answers")}


WRITE_BY_NAME = """
import sys
from mineconv.formats import reading, writing
writing.write(reading.read(sys.argv[1]), sys.argv[2], sys.argv[3])
print("\\n".join(sorted(sys.modules)))
"""


@pytest.mark.parametrize("fmt", ["lp", "cplex-lp", "fixed-mps", "gmpl"])
def test_writing_by_format_name_imports_only_that_writer(tmp_path, fmt):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-c", WRITE_BY_NAME, str(SAMPLES / "seed-3x3.txt"), str(out), fmt],
                          capture_output=True, text=True, timeout=120, check=True)
    mods = set(proc.stdout.split())
    assert "mineconv " in out.read_text()
    writers = {m for m in mods if m.startswith("mineconv.formats.models.")}
    assert len(writers) == 1 and not {m for m in mods if m.startswith("mineconv.formats.answers")}


BLAS = """
import os, sys
from mineconv.cli import main
try:
    main(["--version"])
except SystemExit:
    pass
print(os.environ.get("OPENBLAS_NUM_THREADS"))
"""


@pytest.mark.parametrize("given, expected", [(None, "1"), ("3", "3")])
def test_the_cli_asks_openblas_for_one_thread_unless_the_user_chose(given, expected):
    # OpenBLAS spins a thread per core up when numpy is imported: ~80 ms of CPU a command, for no BLAS work
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given:
        env["OPENBLAS_NUM_THREADS"] = given
    proc = subprocess.run([sys.executable, "-c", BLAS], capture_output=True, text=True, timeout=120, env=env,
                          check=True)
    assert proc.stdout.split()[-1] == expected


def test_a_conversion_runs_without_the_cyclic_collector(tmp_path):
    """The CLI's start-up and a whole convert (numpy imported, a big board's arrays made) pause the collector:
    it ran ~50 times in a 1000 x 1000 conversion, ~15 ms of its 0.4 s."""
    board = tmp_path / "board.txt"
    board.write_text("mines: 40\n" + "\n".join("?1" * 50 for _ in range(100)) + "\n")
    code = ("import gc, sys\nimport mineconv.cli\nruns = []\nboard, lp, cnf = sys.argv[1:4]\n"
            "gc.callbacks.append(lambda phase, info: runs.append(info['generation']) if phase == 'stop' else None)\n"
            "sys.argv = ['mineconv', 'convert', board, lp, '-q']\n"
            "status = mineconv.cli.main()\n"
            "print(status, len(runs), gc.isenabled(), gc.get_freeze_count() > 0)\n"
            # called by other code with its own arguments, main() freezes nothing: that code lives on
            "gc.unfreeze()\nstatus = mineconv.cli.main(['convert', board, cnf, '-q'])\n"
            "print(status, gc.isenabled(), gc.get_freeze_count())\n")
    proc = subprocess.run([sys.executable, "-c", code, str(board), str(tmp_path / "board.lp"),
                           str(tmp_path / "board.cnf")], capture_output=True, text=True, timeout=120)
    assert proc.stdout.splitlines() == ["0 0 True True", "0 True 0"], proc.stderr[-2000:]


def test_version_imports_neither_typing_nor_shutil(tmp_path):
    """`mineconv --version` in a bare interpreter (-S: no site hooks, which import typing and shutil here but not
    in a user's plain install) loads no typing (type names are for checkers only) and no shutil (argparse's help
    formatter, which building a parser makes, imports it with bz2, lzma and zlib)."""
    (tmp_path / "mineconv").symlink_to(ROOT / "converters", target_is_directory=True)
    code = ("import sys; sys.path.insert(0, sys.argv[1])\nfrom mineconv.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit as exc:\n    print('exit', exc.code)\n"
            "print(sorted({'typing', 'shutil', 'argparse'} & set(sys.modules)))\n")
    proc = subprocess.run([sys.executable, "-S", "-c", code, str(tmp_path)], capture_output=True, text=True,
                          timeout=120)
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("mineconv ") and lines[-2] == "exit 0", proc.stderr[-2000:]
    assert lines[-1] == "['argparse']"
