"""The `mineconv` command line: each subcommand is one module of this package with register(subparsers).

Only the module of the command being run is imported (COMMANDS lists the others for `--help`), and this
module imports nothing heavy itself: `mineconv --version` starts in a few times `python -c pass`.
"""
from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import importlib
import math
import os
import signal
import sys
import threading
import time
import warnings

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing at run time (`mineconv --version`)
from ..core.about import installed_version, version
from ..core.bounds import gc_paused
from ..core.errors import MineconvError, Terminated, wrapped_stop
from ..core.fileio import DEFAULT_MAX_BYTES, DEFAULT_MAX_CELLS, guard_inputs, set_limits, source_name

if TYPE_CHECKING:
    from typing import Any, Callable, Collection, Dict, Iterator, List, Optional, Sequence, Tuple, Union

    from ..core.puzzle import Puzzle
    from ..formats.reading import Reading, ReadSettings

MAX_TIMEOUT = 365 * 24 * 3600.0   # seconds; past this, threading.Timer and solver flags overflow

EXAMPLES = """examples:
  mineconv solve samples/dusautoy-6x6.txt
  mineconv convert samples/seed-3x3.txt seed.cnf
  mineconv convert board.mine -o board.lp --strict
  mineconv info samples/dusautoy-6x6.txt
  mineconv formats
  mineconv -V
  mineconv completion bash > ~/.local/share/bash-completion/completions/mineconv
"""

# the libraries whose versions decide what mineconv does, as -V reports them: (shown name, distribution)
LIBRARIES = (("pysat", "python-sat"), ("PuLP", "pulp"), ("numpy", "numpy"), ("lark", "lark"))

# -v of the running command: load_reading and main say on stderr what was chosen and how long it took
_verbose = False


def say(message: str) -> None:
    """Print 'mineconv: MESSAGE' on stderr when the command runs with -v (what was chosen, timings)."""
    if _verbose:
        print(f"mineconv: {message}", file=sys.stderr)


def version_text() -> str:
    """mineconv's version, then the version of each library it builds on and of Python."""
    lines = [f"mineconv {version()}"]
    for shown, dist in LIBRARIES:
        found = installed_version(dist)
        lines.append(f"{shown} {found}" if found is not None else f"{shown} not installed")
    lines.append(f"Python {sys.version.split()[0]}")
    return "\n".join(lines)


class _VersionAction(argparse.Action):
    """-V/--version: looks the library versions up only when asked (they cost a metadata scan)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: Optional[str] = None) -> None:
        print_version()
        parser.exit()


def print_version() -> None:
    """Print version_text() to stdout."""
    try:
        print(version_text(), flush=True)
    except BrokenPipeError:   # `mineconv -V | head -1`: the reader went away, which is no error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def timeout_seconds(text: str) -> float:
    """argparse type of every --timeout: a finite number of seconds above 0 (nan, inf, 0 and -5 refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    # one meaning for every solver and command: 0 or a negative limit would mean "no limit" to some
    # solvers and "fail at once" to others, and nan/inf reach int() in solver command lines
    if not math.isfinite(value) or value <= 0 or value > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"{text!r}: give a finite number of seconds above 0 and at most "
                                         f"{MAX_TIMEOUT:g} (one year)")
    return value


class _ReaderOption(argparse._StoreAction):
    """A reader option's flag, whose help (naming each notation that takes it) is looked up when help is shown:
    building it means importing every notation, which parsing a command line does not need."""

    @property
    def help(self) -> str:
        from ..formats.registry import read_option_names

        users = read_option_names()[self.dest[len(_READ_PREFIX):]]
        return "; ".join(f"{name}: {text}" if text else name for name, text in users)

    @help.setter
    def help(self, value: Optional[str]) -> None:
        pass   # argparse sets it from add_argument's help=, which this flag does not take


def add_input_options(p: argparse.ArgumentParser, *, short: bool = False,
                      notation: Optional[str] = "input notation (see `mineconv formats`)",
                      mines: Optional[str] = "total number of mines on the board (overrides the puzzle's)") -> None:
    """Add --from (-f too when `short`) and --mines, their one home (`notation`, `mines`: their help; None: not taken),
    a --flag per reader option that some puzzle notation declares (--codes, --blank...) and the input limits."""
    from ..formats.registry import read_option_flags

    if notation is not None:
        p.add_argument(*("-f", "--from")[not short:], dest="from_", metavar="NAME", help=notation)
    if mines is not None:
        p.add_argument("--mines", type=int, metavar="N", help=mines)
    g = p.add_argument_group("notation options (each applies to the notations named in its help)")
    for opt in read_option_flags():
        g.add_argument("--" + opt.replace("_", "-"), dest=_READ_PREFIX + opt, metavar="VALUE", action=_ReaderOption)
    lim = p.add_argument_group("input limits")
    lim.add_argument("--max-bytes", dest="limit_bytes", type=_positive_int, metavar="N",
                     help=f"refuse an input longer than N bytes, read no further (default {DEFAULT_MAX_BYTES})")
    lim.add_argument("--max-cells", dest="limit_cells", type=_positive_int, metavar="N",
                     help=f"refuse a board of more than N cells, before building it (default {DEFAULT_MAX_CELLS})")


def number_in(what: str, low: float, high: float, whole: bool = True) -> Callable[[str], Any]:
    """An argparse type: a number (whole, in ASCII digits, unless whole=False) from low to high inclusive.

    number_in("a cell", 2, 200)("24") == 24; "1", "x", "nan" and "1e999" are refused with a message naming
    `what` and the range.
    """
    def parse(text: str) -> Any:
        if whole:
            body = text[1:] if text[:1] in "+-" else text
            if not (body.isascii() and body.isdigit()) or len(body) > 30:
                raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
            value: Any = int(text)
        else:
            try:
                value = float(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not low <= value <= high:  # also refuses nan and inf
            span = f"{int(low)} to {int(high)}" if whole else f"{low:g} to {high:g}"
            raise argparse.ArgumentTypeError(f"{what} is from {span}, got {text}")
        return value
    return parse


_positive_int = number_in("a limit", 1, 10 ** 18)

# the argparse dest of each notation option: --reveal-from is args.read_reveal_from
_READ_PREFIX = "read_"


def input_options(args: argparse.Namespace) -> Dict[str, Any]:
    """The notation options given on the command line, as keyword arguments for reading.read()."""
    return {k[len(_READ_PREFIX):]: v for k, v in vars(args).items() if k.startswith(_READ_PREFIX) and v is not None}


def input_settings(args: argparse.Namespace) -> ReadSettings:
    """How a command reads its puzzle, built once from its command line: --from, the notation options, --mines."""
    from ..formats.reading import ReadSettings

    return ReadSettings.of(getattr(args, "from_", None), input_options(args), getattr(args, "mines", None))


def load_reading(path: str, fmt: Union[str, ReadSettings, None] = None, mines: Optional[int] = None,
                 options: Optional[Dict[str, Any]] = None) -> Reading:
    """Read a puzzle for a command as the settings say (or --from's name, `mines`, `options`), saying how with -v."""
    from ..formats.reading import ReadSettings, read_with

    settings = fmt if isinstance(fmt, ReadSettings) else ReadSettings.of(fmt, options, mines)
    reading = read_with(path, settings)
    say(f"read {source_name(path)} as {describe_reading(reading)}")
    return reading


def load_puzzle(path: str, fmt: Union[str, ReadSettings, None] = None, mines: Optional[int] = None,
                options: Optional[Dict[str, Any]] = None) -> Puzzle:
    """Read a puzzle for a command; --mines overrides its total mine count."""
    return load_reading(path, fmt, mines, options).puzzle


def describe_reading(reading: Reading) -> str:
    """'dots (detected from the content)': which notation read the input and why that one."""
    why = {"named": "named with --from", "content": "detected from the content",
           "extension": "chosen by the file name"}.get(reading.how, reading.how)
    return f"{reading.format.name} ({why})"


# every subcommand (the module cli/NAME.py registers it) with its line in `mineconv --help`, the lines' one home:
# register() reads COMMANDS[NAME], so `--help` needs no command module imported (tests/cli/test_startup.py holds
# this table to the modules of this folder, and every module to it)
COMMANDS = {
    "advise": "the best move in a position: a safe cell, or the best guess, and why",
    "analyze": "safe cells, certain mines, solution count, mine probabilities",
    "audit": "replay a recorded game: each opening's P(mine), guesses, luck",
    "batch": "convert many puzzles into several formats, in parallel",
    "completion": "print a bash or zsh completion script",
    "convert": "convert a puzzle to another notation or a solver file",
    "decode": "read a solver's answer back onto the puzzle and verify it",
    "design": "unique, minimal puzzles of an exact grade (gac, 2rc, 3rc, full)",
    "explain": "solve a board step by step, each step justified by its counts",
    "formats": "list every reader and writer with its extensions",
    "generate": "random boards: fully revealed or a game in progress",
    "grade": "how hard a puzzle is by reasoning (gac, 2rc, 3rc, full) and if it is unique",
    "info": "size, cell counts and notation of a puzzle",
    "play": "play games (the player never sees the layout): win rate and speed",
    "reduce": "turn a CNF formula into a board whose solutions are its models",
    "render": "draw a board (and its analysis) as an SVG, PNG or PDF picture",
    "serve": "the assistant page in a browser: levels, steps, probabilities, games",
    "solve": "solve a puzzle (embedded pysat, or an installed solver) and verify the answer",
    "solvers": "list the solvers, whether each is installed, its version and how to install it",
    "verdict": "must I guess here? a proof, or a certificate that a guess is forced",
}


def build_parser(commands: Optional[Collection[str]] = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand module registered (or only those named in `commands`).

    A command left out is a placeholder with its help line: `mineconv --help` and an invalid choice read the
    same, and parsing its arguments is never asked of it.
    """
    ap = argparse.ArgumentParser(
        prog="mineconv", description="Convert Minesweeper puzzles to solver files and read the answers back.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-V", "--version", action=_VersionAction,
                    help="print the versions of mineconv, pysat, PuLP, numpy, lark and Python, and exit")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    for name, line in COMMANDS.items():
        if commands is None or name in commands:
            importlib.import_module(f"{__name__}.{name}").register(sub)
        else:
            sub.add_parser(name, help=line)
    for p in sub.choices.values():
        add_verbosity(p)
    return ap


def command_of(argv: Sequence[str]) -> Optional[str]:
    """The subcommand an argument list runs: its first word that is not an option (None if not a command)."""
    for word in argv:
        if word == "--" or (word.startswith("-") and word != "-"):
            continue   # the top level's options (-h, -V) take no value
        return word if word in COMMANDS else None
    return None


def add_verbosity(p: argparse.ArgumentParser) -> None:
    """Give a subcommand -v and -q unless it defines its own (convert's -v, batch's -q keep their help)."""
    taken = p._option_string_actions
    if "-v" not in taken:
        p.add_argument("-v", "--verbose", action="store_true",
                       help="also say on stderr what was chosen (notation, solver) and how long it took")
    if "-q" not in taken:
        p.add_argument("-q", "--quiet", action="store_true",
                       help="no warnings and no progress on stderr (errors are still printed)")


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"mineconv: warning: {message}", file=sys.stderr)


# the stop signals a command treats like Ctrl-C (SIGHUP: the terminal went away); not every platform has both
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise errors.Terminated where they land, as Ctrl-C raises
    KeyboardInterrupt; the previous handlers are back afterwards (main also runs in-process, in tests)."""
    if threading.current_thread() is not threading.main_thread():
        yield   # only the main thread may set handlers (main called from a library thread)
        return
    raised: List[int] = []

    def handler(signum: int, frame: Any) -> None:
        # one exception per run: a second signal landing in the cleanup the first one started (an
        # atomic_output removing its temp file, a solver group being killed) must not cut that cleanup short
        if raised:
            return
        raised.append(signum)
        raise Terminated(signum)

    old = {}
    try:
        for sig in STOP_SIGNALS:
            old[sig] = signal.signal(sig, handler)
        yield
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous if previous is not None else signal.SIG_DFL)


class StopHold:
    """`with hold:` a stretch that a stop signal (Ctrl-C, SIGTERM, SIGHUP) does not cut: one landing inside
    waits, and acts as it would have (raises) when the stretch ends. Made by held_stops()."""

    def __init__(self) -> None:
        self.on = False
        self.pending: Optional[Tuple[Callable[[int, Any], Any], int, Any]] = None

    def __enter__(self) -> "StopHold":
        self.on = True
        return self

    def __exit__(self, *exc: Any) -> None:
        self.on = False
        pending, self.pending = self.pending, None
        if pending is not None and exc[0] is None:
            handler, signum, frame = pending
            handler(signum, frame)


@contextlib.contextmanager
def held_stops() -> Iterator[StopHold]:
    """While inside, stop signals landing in a `with hold:` stretch wait for its end (see StopHold).

    A flag, not pthread_sigmask: Python runs every handler in the main thread whichever thread the kernel
    picked, so masking the signal in the main thread would not keep the handler out of the stretch.
    """
    hold = StopHold()
    if threading.current_thread() is not threading.main_thread():
        yield hold
        return
    old: Dict[int, Callable[[int, Any], Any]] = {}

    def handler(signum: int, frame: Any) -> None:
        if hold.on:
            if hold.pending is None:
                hold.pending = (old[signum], signum, frame)
            return
        old[signum](signum, frame)

    try:
        for sig in (signal.SIGINT, *STOP_SIGNALS):
            previous = signal.getsignal(sig)
            if callable(previous):   # SIG_DFL / SIG_IGN stay as they are
                old[sig] = previous
                signal.signal(sig, handler)
        yield hold
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


# errors of a write that cannot go on (a full disk, /dev/full, a vanished device): reported, not a traceback
WRITE_ERRNOS = frozenset(getattr(errno, n) for n in ("ENOSPC", "EDQUOT", "EFBIG", "EIO") if hasattr(errno, n))


def _silence_stdout() -> None:
    """Point stdout at /dev/null: what is still buffered for a stdout that failed must not fail again (and
    print 'Exception ignored') when the interpreter flushes it at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


@contextlib.contextmanager
def _translations_remembered() -> Iterator[None]:
    """While the parser is built and reads the command line, each argparse message is translated once.

    argparse asks gettext for every message it makes (57 times for `solve`: three for each command's
    placeholder parser), and gettext looks for catalogue files on every call: ~5 ms of a small solve. Within one
    command line the answer to a message cannot change, so it is the same text, translated or not.
    """
    import gettext

    saved = gettext.dgettext, gettext.dngettext
    gettext.dgettext = functools.lru_cache(maxsize=None)(saved[0])
    gettext.dngettext = functools.lru_cache(maxsize=None)(saved[1])
    try:
        yield
    finally:
        gettext.dgettext, gettext.dngettext = saved


_program = False   # main() runs as the program (its arguments from sys.argv), not called by other Python code


def collector_frozen_after() -> bool:
    """Whether what a bounded piece of the command leaves may be frozen out of the collector's sight (gc.freeze):
    only in a process that is this program. Code calling main() with its own arguments lives on, and its objects
    would never be collected once frozen, if they became cyclic garbage later."""
    return _program


def one_blas_thread() -> None:
    """Ask OpenBLAS for one thread, unless the user chose a number or numpy is already loaded.

    numpy's OpenBLAS starts a thread per core when numpy is imported, and the threads spin a while: ~80 ms
    of CPU on this project's 2-core machine (import numpy: 0.275 -> 0.196 s of CPU; a 1000x1000 board to
    .lp: 0.69 -> 0.51 s), for a program whose arrays never reach BLAS (two dot products of vectors in
    marginals). Solvers mineconv starts inherit it; none of them reads OpenBLAS's setting.
    """
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv: Optional[List[str]] = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 infeasible/failed items, 2 bad input, 3 wrong answer)."""
    one_blas_thread()
    words = sys.argv[1:] if argv is None else argv
    if list(words) in (["--version"], ["-V"]):
        # the same lines as the parser's -V, without building a parser: argparse's help formatter, which
        # any add_argument makes, imports shutil (and with it bz2, lzma and zlib), ~15% of this command
        print_version()
        raise SystemExit(0)   # as the parser's action exits
    command = command_of(words)
    global _program
    _program = argv is None
    # start-up (the command's imports, its parser) is bounded work that makes no cyclic garbage worth a
    # collection: the collector ran ~25 times in it
    with gc_paused(freeze=_program), _translations_remembered():
        ap = build_parser([command] if command else [])
        args, extra = ap.parse_known_args(argv)
    # argparse fills every positional from the first run of them, so in `convert - -f json - -t lp` the
    # second '-' is left over: a command naming its late positional (set_defaults) takes it here
    late = getattr(args, "late_positional", None)
    if late and len(extra) == 1 and getattr(args, late) is None and (extra[0] == "-" or extra[0][:1] != "-"):
        setattr(args, late, extra.pop())
    if extra:
        ap.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "func", None):
        ap.print_help(sys.stderr)
        return 2
    set_limits(getattr(args, "limit_bytes", None), getattr(args, "limit_cells", None))
    global _verbose
    old, old_verbose = warnings.showwarning, _verbose
    warnings.showwarning = _show_warning
    _verbose = bool(getattr(args, "verbose", False))
    started = time.perf_counter()
    try:
        with stop_signals(), warnings.catch_warnings(), guard_inputs():  # no output may overwrite an input
            if getattr(args, "quiet", False):
                warnings.simplefilter("ignore")
            if getattr(args, "solver", None):
                say(f"solver {args.solver}")
            status = int(args.func(args) or 0)
            say(f"{args.command} took {time.perf_counter() - started:.3f} s")
            sys.stdout.flush()  # a full stdout fails here, inside the handlers, not at interpreter exit
            return status
    except MineconvError as exc:
        print(f"mineconv: {exc}", file=sys.stderr)
        return exc.exit_status
    except BrokenPipeError:
        # the reader of our stdout went away (e.g. `| head`): not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as exc:
        if exc.errno not in WRITE_ERRNOS or exc.filename is not None:
            raise
        # a print to `> /dev/full` or to a full disk (files named with -o are reported by atomic_output)
        with contextlib.suppress(OSError, ValueError):
            _silence_stdout()
        why = "no space left on the device" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
        print(f"mineconv: cannot write the output: {why}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, RuntimeError) as exc:
        # SIGTERM and SIGHUP (Terminated) unwind like Ctrl-C, so temp files and solvers are gone; a stop that
        # Python wrapped in a RuntimeError (errors.wrapped_stop) is the same stop
        stop = exc if isinstance(exc, KeyboardInterrupt) else wrapped_stop(exc)
        if stop is None:
            raise
        if isinstance(stop, Terminated):
            print(f"mineconv: terminated ({stop.signal_name})", file=sys.stderr)
            return stop.exit_status
        print("mineconv: interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        # the machine's or `ulimit -v`'s limit came before --memory-budget's estimate did: exit 1, as a
        # command stopped by its budget or its timeout does, with one line instead of a traceback
        print("mineconv: out of memory: the process reached its memory limit (lower --memory-budget, "
              "or raise the limit)", file=sys.stderr)
        return 1
    finally:
        warnings.showwarning = old
        _verbose = old_verbose


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
