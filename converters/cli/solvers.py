"""mineconv solvers: every solver `solve --solver` knows, whether it is installed, its version, how to get it."""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from typing import Any, Dict, List, Optional, Tuple

from ..core.jsonout import json_text
from ..solvers.table import SOLVERS, SolverSpec, available
from . import COMMANDS

# How each program states its version: (arguments, pattern whose group 1 is the version). Programs that
# print none (minisat) fall back to the Debian package's version.
VERSION_PROBES: Dict[str, Tuple[List[str], str]] = {
    "picosat": (["--version"], r"^(\S+)"),
    "cadical": (["--version"], r"^(\S+)"),
    "glpsol": (["--version"], r"GLPK LP/MIP Solver,? (?:v)?(\S+)"),
    "cbc": (["-quit"], r"Version: (\S+)"),
    "lp_solve": (["-S4", "-p"], r"lp_solve version (\S+?):?\s"),
    "z3": (["--version"], r"Z3 version (\S+)"),
    "clasp": (["--version"], r"clasp version (\S+)"),
    "minisat+": (["--help"], r"MiniSat\+ (\S+?),"),
}
# the distribution on the package index behind each Python module a solver needs
DISTRIBUTIONS = {"pysat": "python-sat", "highspy": "highspy", "pulp": "pulp"}


def program_version(program: str, package: Optional[str]) -> Optional[str]:
    """The version the program prints of itself, else its Debian package's version, else None."""
    probe = VERSION_PROBES.get(program)
    if probe is not None:
        try:
            proc = subprocess.run([program, *probe[0]], stdin=subprocess.DEVNULL, capture_output=True,
                                  text=True, timeout=5)
            m = re.search(probe[1], proc.stdout + proc.stderr, re.M)
            if m:
                return m.group(1)
        except (OSError, subprocess.SubprocessError):
            pass
    if package and shutil.which("dpkg-query"):
        try:
            proc = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package], capture_output=True,
                                  text=True, timeout=5)
            if proc.returncode == 0 and proc.stdout.strip():
                return proc.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return None


def solver_info(spec: SolverSpec) -> Dict[str, Any]:
    """What a user needs to know about one solver: installed or not, version, how to install it."""
    from importlib import metadata  # here: it imports the email package, which start-up need not pay
    installed = available(spec.name)
    version: Optional[str] = None
    if spec.program:
        how = f"apt-get install {spec.package}"
        if installed:
            version = program_version(spec.program, spec.package)
    else:
        dist = DISTRIBUTIONS.get(spec.module or "", spec.module or "")
        how = f"pip install {dist}"
        if installed:
            try:
                version = metadata.version(dist)
            except metadata.PackageNotFoundError:
                version = None
    return {"name": spec.name, "installed": installed, "version": version, "install": how,
            "reads": spec.model_format, "program": spec.program, "module": spec.module,
            "description": spec.description}


def run(args: argparse.Namespace) -> int:
    """Print the solver table (or JSON)."""
    infos = [solver_info(spec) for spec in SOLVERS.values()]
    if args.json:
        print(json_text(infos, indent=2))
        return 0
    width = max(len(i["name"]) for i in infos)
    for i in infos:
        state = f"installed {i['version'] or '(version unknown)'}" if i["installed"] else "not installed"
        print(f"{i['name']:<{width}}  {state:<28}  {i['install']:<28}  {i['description']}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("solvers", help=COMMANDS["solvers"],
                       description="Every solver that `mineconv solve --solver NAME` can run: whether its "
                                   "program or Python module is installed here, its version, and the "
                                   "Debian package or pip distribution that provides it.",
                       epilog="examples:\n  mineconv solvers\n  mineconv solvers --json",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true",
                   help='print a list of {"name", "installed", "version", "install", ...} objects')
    p.set_defaults(func=run)
