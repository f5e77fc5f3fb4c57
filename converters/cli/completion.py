"""mineconv completion: a bash or zsh completion script generated from the argument parser itself.

shtab writes the script from the argparse parser once, so pressing TAB costs the shell nothing (argcomplete
would start Python and import every format module on each TAB) and the script can never disagree with the
options: a new subcommand, flag or format appears in it by itself.
"""
from __future__ import annotations

import argparse
from typing import Any, Dict, List

from ..core.errors import InputError, ResourceError
from ..encode.cardinality import CARD_ENCODINGS
from ..formats.registry import formats
from . import COMMANDS

SHELLS = ("bash", "zsh")

EPILOG = """examples:
  mineconv completion bash > ~/.local/share/bash-completion/completions/mineconv
  mineconv completion zsh > "${fpath[1]}/_mineconv"
  eval "$(mineconv completion bash)"        # this shell only
The script completes subcommands, options, file names, solver names, format names (--from, --to, -t)
and the CNF cardinality encodings.
"""

# option destinations that name a format, and which formats they take: (kind, direction)
FORMAT_OPTIONS = {"from_": ("puzzle", "read"), "puzzle_from": ("puzzle", "read"), "to": (None, "write")}
# decode's --answer-from/--from names a solver answer's format, not a puzzle notation
ANSWER_COMMANDS = {"decode"}
FILE_DESTS = {"input", "inputs", "puzzle", "solution", "out", "output", "manifest"}


def format_words(kind: object, direction: str) -> List[str]:
    """Names and aliases of the formats of this kind that can be read (or written)."""
    words: List[str] = []
    for f in formats(kind if isinstance(kind, str) else None):
        if (f.reader if direction == "read" else f.writer) is not None:
            words += [f.name, *f.aliases]
    return words


def _function(group: str) -> str:
    return f"_mineconv_{group}_words"


def annotate(parser: argparse.ArgumentParser) -> Dict[str, List[str]]:
    """Mark each file and format option of every subcommand for shtab; returns the word lists used."""
    import shtab

    groups: Dict[str, List[str]] = {}
    subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for action in subparsers:
        for command, sub in action.choices.items():
            for arg in sub._actions:
                if arg.dest in FORMAT_OPTIONS and arg.option_strings:
                    kind, direction = FORMAT_OPTIONS[arg.dest]
                    if command in ANSWER_COMMANDS and arg.dest == "from_":
                        kind = "solution"
                    group = f"{kind or 'any'}_{direction}"
                    words = groups.setdefault(group, format_words(kind, direction))
                    arg.complete = {"bash": _function(group), "zsh": f"({' '.join(words)})"}
                elif arg.dest == "card_encoding":
                    words = groups.setdefault("card_encoding", list(CARD_ENCODINGS))
                    arg.complete = {"bash": _function("card_encoding"), "zsh": f"({' '.join(words)})"}
                elif arg.dest in FILE_DESTS:
                    arg.complete = shtab.FILE
    return groups


def script(shell: str) -> str:
    """The completion script for this shell ('bash' or 'zsh')."""
    if shell not in SHELLS:
        raise InputError(f"no completion for {shell!r}; shells: {', '.join(SHELLS)}")
    try:
        import shtab
    except ImportError:
        raise ResourceError("shell completion needs shtab: pip install shtab") from None
    from . import build_parser

    parser = build_parser()
    groups = annotate(parser)
    # bash calls each function with the word being completed and reads the candidates from its output
    bash = "\n".join(f'{_function(g)}() {{\n  compgen -W "{" ".join(words)}" -- "$1"\n}}'
                     for g, words in sorted(groups.items()))
    # shtab takes a preamble per shell as a dict too, though its annotation says str
    preamble: Any = {"bash": bash} if shell == "bash" else ""
    return shtab.complete(parser, shell=shell, preamble=preamble)


def run(args: argparse.Namespace) -> int:
    """Print the script."""
    print(script(args.shell), end="")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("completion", help=COMMANDS["completion"],
                       description="Print a shell completion script for mineconv, generated from its own "
                                   "options (with shtab): subcommands, options, files, solvers and format "
                                   "names complete with TAB.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("shell", choices=SHELLS, help="the shell: bash or zsh")
    p.set_defaults(func=run)
