"""mineconv solvers: every solver listed once, with its install state, a version when installed, and how
to install it."""
from __future__ import annotations

import json
from importlib import metadata

import pytest

from mineconv.cli import main
from mineconv.cli.solvers import VERSION_PROBES, program_version
from mineconv.solvers.table import SOLVERS
from tests.conftest import require_tool


def listing(capsys):
    assert main(["solvers", "--json"]) == 0
    return {i["name"]: i for i in json.loads(capsys.readouterr().out)}


def test_every_solver_once_embedded_first(capsys):
    infos = listing(capsys)
    assert list(infos) == list(SOLVERS) and list(infos)[0] == "pysat"
    pysat = infos["pysat"]
    assert pysat["installed"] and pysat["version"] == metadata.version("python-sat")
    assert pysat["install"] == "pip install python-sat"


@pytest.mark.parametrize("name", [s.name for s in SOLVERS.values() if s.program])
def test_installed_programs_report_a_version(capsys, name):
    spec = SOLVERS[name]
    require_tool(spec.program)
    info = listing(capsys)[name]
    assert info["installed"] and info["version"], info
    assert info["install"] == f"apt-get install {spec.package}"


def test_text_table_names_each_solver(capsys):
    assert main(["solvers"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split()[0] for ln in lines] == list(SOLVERS)


@pytest.mark.parametrize("program", sorted(VERSION_PROBES))
def test_each_version_probe_reads_the_program_itself(program):
    require_tool(program)
    assert program_version(program, None), f"{program}'s own version output no longer matches its probe"
