"""What a command-line user expects of any tool: -V, -v/-q everywhere, help with examples, shell completion."""
from __future__ import annotations

import argparse
import subprocess
from importlib import metadata

import pytest

import mineconv
from mineconv.cli import build_parser, main
from tests.helpers import require_tool, run_cli
from mineconv.formats.registry import formats
from tests.conftest import SAMPLES


run = run_cli  # (exit status, stdout, stderr) of `mineconv ARGV...`


def subcommands():
    """{name: parser} of every subcommand."""
    ap = build_parser()
    return next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction)).choices


SUBCOMMANDS = sorted(subcommands())


def test_the_expected_subcommands_exist():
    assert {"convert", "info", "formats", "solve", "decode", "analyze", "render", "generate", "batch",
            "solvers", "completion"} <= set(SUBCOMMANDS)


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version_names_the_libraries(capsys, flag):
    with pytest.raises(SystemExit) as exc:
        main([flag])
    assert exc.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"mineconv {mineconv.__version__}"
    want = {"pysat": "python-sat", "PuLP": "pulp", "numpy": "numpy", "lark": "lark"}
    for shown, dist in want.items():
        assert f"{shown} {metadata.version(dist)}" in lines
    assert lines[-1].startswith("Python 3.")


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_help_has_a_description_and_examples(capsys, command):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    parser = subcommands()[command]
    assert parser.description and len(parser.description) > 40, f"{command} --help has no description"
    assert " ".join(parser.description.split()) in " ".join(out.split())
    assert "\nexamples:\n" in out, f"{command} --help has no examples: epilog"
    examples = out.split("\nexamples:\n", 1)[1].splitlines()
    assert any(line.strip().startswith(f"mineconv {command}") for line in examples), out
    assert "-v, --verbose" in out and "-q, --quiet" in out


def test_top_level_help_has_examples(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and "mineconv convert samples/seed-3x3.txt seed.cnf" in out and "-V, --version" in out


def test_quiet_silences_warnings_and_verbose_says_what_was_chosen(tmp_path, capsys):
    # pred-json cannot hold the sample's notes: a warning, unless -q
    status, _, err = run(capsys, "convert", SAMPLES / "seed-3x3.txt", tmp_path / "a.pred.json")
    assert status == 0 and "warning: pred-json cannot express the notes" in err
    status, _, err = run(capsys, "convert", SAMPLES / "seed-3x3.txt", tmp_path / "b.pred.json", "-q")
    assert status == 0 and err == ""
    assert (tmp_path / "a.pred.json").read_text() == (tmp_path / "b.pred.json").read_text()
    status, out, err = run(capsys, "analyze", SAMPLES / "seed-3x3.txt", "-v")
    assert status == 0 and "# solutions: 2" in out
    assert f"mineconv: read {SAMPLES / 'seed-3x3.txt'} as native (detected from the content)" in err
    assert "mineconv: analyze took " in err
    status, out, err = run(capsys, "analyze", SAMPLES / "seed-3x3.txt")
    assert status == 0 and err == ""


def test_verbose_names_the_solver(capsys):
    status, _, err = run(capsys, "solve", SAMPLES / "dusautoy-6x6.txt", "-v")
    assert status == 0 and "mineconv: solver pysat\n" in err and "mineconv: solve took " in err


def test_decode_answer_from_and_its_alias(tmp_path, capsys):
    answer = tmp_path / "seed.out"
    answer.write_text("SAT\n1 -2 3 -4 0\n")  # minisat's result: mines at (0, 1) and (1, 2)
    results = []
    for flag in ("--answer-from", "--from"):
        status, out, err = run(capsys, "decode", SAMPLES / "seed-3x3.txt", answer, flag, "minisat", "--json")
        assert status == 0, err
        results.append(out)
    assert results[0] == results[1] and '"mines": [[0, 1], [1, 2]]' in results[0]
    status, _, err = run(capsys, "decode", SAMPLES / "seed-3x3.txt", answer, "--answer-from", "nonesuch")
    assert status == 2 and "nonesuch" in err


def _names(kind=None, direction="read"):
    return [f.name for f in formats(kind) if (f.reader if direction == "read" else f.writer) is not None]


def test_bash_completion_script(tmp_path, capsys):
    status, script, _ = run(capsys, "completion", "bash")
    assert status == 0
    path = tmp_path / "mineconv.bash"
    path.write_text(script)
    check = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    subs = next(line for line in script.splitlines() if line.startswith("_shtab_mineconv_subparsers="))
    assert subs.split("=", 1)[1].strip("()").split() == SUBCOMMANDS
    words = set(script.replace('"', " ").split())
    assert set(_names("puzzle")) <= words and set(_names(None, "write")) <= words and set(_names("solution")) <= words
    assert "kmtotalizer" in words and "--answer-from" in words and "--card-encoding" in words
    # completing in a real bash: the options and the formats a user would see after TAB
    probe = (f"source {path}\n"
             "try() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE=\"$*\";"
             " COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _shtab_mineconv mineconv \"${COMP_WORDS[-1]}\";"
             " echo \"${COMPREPLY[*]}\"; }\n"
             "try mineconv conv\ntry mineconv convert x.txt --to fixed-\ntry mineconv decode a b --answer-from glpsol-r\n")
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["convert", "fixed-mps", "glpsol-raw glpsol-report"]


def test_zsh_completion_script(tmp_path, capsys):
    status, script, _ = run(capsys, "completion", "zsh")
    assert status == 0 and script.startswith("#compdef mineconv")
    assert "native" in script and "convert" in script and "kmtotalizer" in script
    require_tool("zsh")  # skipped locally without zsh, a failure under CI=true (.ci/run installs it)
    path = tmp_path / "_mineconv"
    path.write_text(script)
    check = subprocess.run(["zsh", "-n", str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_completion_refuses_other_shells(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["completion", "fish"])
    assert exc.value.code == 2 and "invalid choice" in capsys.readouterr().err


# counts and their nouns: one helper words every message ("1 certain mine", "1 input") ----------------------
def test_plural_helper():
    from mineconv.core.wording import plural
    assert [plural(n, "cell") for n in (0, 1, 2)] == ["0 cells", "1 cell", "2 cells"]
    assert plural(1, "certain mine") == "1 certain mine" and plural(3, "entry", "entries") == "3 entries"


def test_messages_with_a_count_of_one(tmp_path, capsys):
    one = tmp_path / "one.txt"
    one.write_text("1?\n")  # 1 x 2: the unknown cell is a certain mine
    status, out, _ = run(capsys, "analyze", one)
    assert status == 0 and "# level full: 0 safe, 1 certain mine, 0 undetermined (of 1 unknown cell)" in out
    status, out, _ = run(capsys, "info", one)
    assert "size:        1 x 2 (2 cells)" in out
    single = tmp_path / "single.txt"
    single.write_text("?\n")
    assert "size:        1 x 1 (1 cell)\n" in run(capsys, "info", single)[1]
    bad = tmp_path / "bad.txt"
    bad.write_text("?8\n")
    status, _, err = run(capsys, "info", bad)
    assert status == 2 and "has only 1 neighbour" in err and "neighbours" not in err
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("1?\n")
    status, _, err = run(capsys, "batch", tmp_path / "in", "-o", tmp_path / "out", "-t", "cnf", "-q")
    assert status == 0 and "1 converted, 0 skipped, 0 failed (1 input, 1 file written)" in err


def test_version_into_a_closed_pipe_is_quiet():
    import subprocess
    import sys
    # the reading end is closed before the child starts writing (its start-up takes far longer)
    proc = subprocess.Popen([sys.executable, "-m", "mineconv", "-V"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0 and "Traceback" not in err, err
