"""--from and --mines have one home, cli/__init__.py's add_input_options: no command adds them by hand (issue 39),
and every command that reads a puzzle takes them alike (the same flag, destination, type and value name)."""
from __future__ import annotations

import argparse
import ast

import pytest

from mineconv.cli import build_parser
from tests.conftest import ROOT

CLI = ROOT / "converters" / "cli"
HOME = "cli/__init__.py's add_input_options"
# a --from or --mines that means something else than the puzzle's notation or its total mine count
OTHER_MEANINGS = {
    ("decode.py", "--answer-from"): "the solver answer's format (--from its older name)",
    ("design.py", "--mines"): "the mine count of the boards designed",
    ("generate.py", "--mines"): "the mine count of the boards generated",
}


def hand_added():
    """(file, first flag) of every add_argument call naming --from or --mines outside add_input_options."""
    found = []
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        home = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "add_input_options"]
        inside = {id(c) for h in home for c in ast.walk(h)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "add_argument") or id(node) in inside:
                continue
            flags = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if {"--from", "--mines"} & set(flags):
                found.append((path.name, flags[0]))
    return found


def test_no_command_adds_from_or_mines_by_hand():
    found = hand_added()
    assert set(found) == set(OTHER_MEANINGS), \
        f"--from and --mines have one home, {HOME}: pass it their help instead of adding them ({found})"


def subcommands():
    ap = build_parser()
    return next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction)).choices


def option(parser, flag):
    return next((a for a in parser._actions if flag in a.option_strings), None)


READERS = ["advise", "analyze", "batch", "convert", "explain", "grade", "info", "render", "solve", "verdict"]


@pytest.mark.parametrize("name", READERS)
def test_every_command_reading_a_puzzle_takes_from_alike(name):
    got = option(subcommands()[name], "--from")
    assert got is not None and (got.dest, got.metavar, got.type) == ("from_", "NAME", None)
    assert "notation" in got.help
    assert ("-f" in got.option_strings) == (name in ("convert", "info"))


@pytest.mark.parametrize("name", ["advise", "analyze", "convert", "decode", "explain", "grade", "render", "solve",
                                  "verdict"])
def test_every_command_overriding_the_mine_count_takes_mines_alike(name):
    got = option(subcommands()[name], "--mines")
    assert got is not None and (got.dest, got.metavar, got.type) == ("mines", "N", int)
    assert got.help.startswith("total number of mines")
    assert got.help.endswith(("(overrides the puzzle's)", "(overrides the position's)"))


def test_commands_without_the_options_do_not_take_them():
    subs = subcommands()
    assert option(subs["info"], "--mines") is None and option(subs["batch"], "--mines") is None
    assert option(subs["decode"], "--from").dest == "from_" and "answer" in option(subs["decode"], "--from").help
