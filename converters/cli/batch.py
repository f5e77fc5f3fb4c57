"""mineconv batch: convert files, folders and globs into several formats at once, in parallel."""
from __future__ import annotations

import argparse
import signal
import sys
import time
from typing import Any, Dict

from ..batch import FAILED, default_jobs, run_batch, stderr_is_terminal
from ..core.errors import InputError
from ..encode.cardinality import DEFAULT_CARD_ENCODING
from . import COMMANDS, add_input_options, input_options


class Progress:
    """A tqdm bar on a terminal, plain progress lines otherwise; failures are always printed in full, warnings
    unless quiet (-q: failures and the summary only)."""

    def __init__(self, quiet: bool, bar: bool, every: float = 2.0) -> None:
        self.quiet = quiet
        self.bar: Any = None
        self.use_bar = bar and not quiet
        self.every = every
        self.total = 0
        self.done = 0
        self.failed = 0
        self.seen: set = set()  # inputs with a record: a file that holds several puzzles gives one per puzzle
        self.last = time.monotonic()

    def start(self, total: int) -> None:
        """Called once with the number of inputs."""
        self.total = total
        if self.use_bar:
            try:
                from tqdm import tqdm
            except ImportError:  # the progress extra is optional: fall back to plain lines
                self.use_bar = False
            else:
                self.bar = tqdm(total=total, unit="file", file=sys.stderr, dynamic_ncols=True)

    def record(self, rec: Dict[str, Any]) -> None:
        """Called once per finished input, or per puzzle of one that holds several."""
        key = rec.get("input")
        first = key is None or key not in self.seen
        self.seen.add(key)
        self.done += first
        for warning in () if self.quiet else rec.get("warnings", ()):
            self._print(f"mineconv: warning: {rec['input']}: {warning}")
        if rec["status"] == FAILED:
            self.failed += 1
            self._print(f"mineconv: {rec['error']}")
        if self.bar is not None:
            if first:
                self.bar.update(1)
        elif not self.quiet:
            now = time.monotonic()
            if now - self.last >= self.every:
                self.last = now
                print(f"mineconv batch: {self.done}/{self.total} done, {self.failed} failed",
                      file=sys.stderr, flush=True)

    def _print(self, text: str) -> None:
        if self.bar is not None:
            self.bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr, flush=True)

    def close(self, summary: str) -> None:
        """Finish the bar and print the summary line."""
        if self.bar is not None:
            self.bar.close()
        print(f"mineconv batch: {summary}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Run the batch; exit 0 when every input converted or was kept, 1 when any failed."""
    if args.jobs is not None and args.jobs < 1:
        raise InputError(f"-j must be at least 1, got {args.jobs}")
    options: Dict[str, Any] = {}
    if args.card_encoding:
        options["card_encoding"] = args.card_encoding
    progress = Progress(args.quiet, stderr_is_terminal())
    try:
        result = run_batch(args.inputs, args.output, args.to, jobs=args.jobs, from_=args.from_,
                           strict=args.strict, skip_existing=args.skip_existing, manifest=args.manifest,
                           fsync=args.fsync, options=options, executor=args.executor,
                           scheduler=args.scheduler, on_record=progress.record, on_start=progress.start,
                           read_options=input_options(args))
    finally:
        if progress.bar is not None:
            progress.bar.close()
    progress.close(result.summary())
    if result.interrupted:
        return 128 + int(result.signal or signal.SIGINT)
    return 1 if result.count(FAILED) else 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser(
        "batch", help=COMMANDS["batch"],
        description="Convert every input into each format named with -t.\n\n"
                    "An input is a file, a folder (recursed: files with a puzzle extension, or every file\n"
                    "with --from) or a glob. It gives OUTDIR/<path below the folder or the glob's fixed\n"
                    "part><format extension>; nothing is ever written outside OUTDIR (an input whose\n"
                    "output folder or file is a symbolic link leading out of OUTDIR fails, and no folder\n"
                    "is made out there). Each output is written to a temp file and renamed, so no run\n"
                    "leaves a truncated file, and an input gets all its outputs or none: after Ctrl-C,\n"
                    "SIGTERM or SIGHUP (exit 130, 143, 129) the summary and the manifest list exactly\n"
                    "the files on disk.\n"
                    "A file that holds several puzzles (contest fields, exercise cases; `mineconv info`\n"
                    "lists them) gives one output per puzzle, OUTDIR/<name>-<n><format extension> with n\n"
                    "its place in the file from 1, and one manifest line per puzzle (with puzzle, label\n"
                    "and puzzles: how many the file holds); --puzzle N converts only puzzle N of each\n"
                    "such file (same name), and a file of one puzzle as it is.\n"
                    "A bad input is reported as FILE:LINE:COL: message and the run goes on (a bad puzzle\n"
                    "of a collection too, the others converted); the exit status is 1 when any input\n"
                    "failed. With --executor dask the workers must see the inputs and OUTDIR under the\n"
                    "same paths (a shared file system).",
        epilog="examples:\n"
               "  mineconv batch puzzles/ -o out -t cnf,lp\n"
               "  mineconv batch 'boards/**/*.txt' -o out -t .cnf -j 2 --manifest out/manifest.jsonl\n"
               "  mineconv batch puzzles/ -o out -t cnf --skip-existing      # resume a stopped run\n"
               "  mineconv batch samples/pc110102-fields.in -o out -t cnf    # out/pc110102-fields.in-1.cnf, -2.cnf\n"
               "  mineconv batch puzzles/ -o out -t mps --executor dask   # a local cluster of -j processes\n"
               "  mineconv batch puzzles/ -o /shared/out -t mps --executor dask --scheduler tcp://head:8786",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="puzzle files, folders or glob patterns")
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="output folder (created if needed)")
    p.add_argument("-t", "--to", required=True, action="append", metavar="FORMAT[,FORMAT...]",
                   help="output formats by name or extension (cnf, .lp); repeat or separate with commas")
    p.add_argument("-j", "--jobs", type=int, metavar="N",
                   help=f"worker processes (default: all cores, here {default_jobs()})")
    p.add_argument("--skip-existing", action="store_true",
                   help="keep outputs newer than their input (resume an interrupted run)")
    p.add_argument("--manifest", metavar="FILE",
                   help="write JSON lines: input, status, outputs with size and sha256, error (its folder is "
                        "created if needed); a puzzle of a collection adds puzzle, label and puzzles")
    p.add_argument("--strict", action="store_true", help="fail an input whose conversion would drop information")
    p.add_argument("--card-encoding", metavar="NAME",
                   help=f"CNF cardinality encoding for the total mine count (default {DEFAULT_CARD_ENCODING}; "
                        "the others are listed by `mineconv formats`)")
    p.add_argument("--fsync", action="store_true",
                   help="flush every output to disk before renaming it (slow; survives power loss)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress and no warnings; failures and the summary only")
    add_executor_options(p)
    add_input_options(p, notation="input notation (default: by extension/content)", mines=None)
    p.set_defaults(func=run)


def add_executor_options(p: argparse.ArgumentParser) -> None:
    """--executor local|dask and --scheduler, as batch and play take them."""
    p.add_argument("--executor", choices=("local", "dask"), default="local",
                   help="local processes (default) or a Dask cluster (pip install 'mineconv[dask]')")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address, with --executor dask (default: a local cluster of -j processes)")
