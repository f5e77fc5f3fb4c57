"""mineconv serve: the assistant page (Bayer's consistency applet, reborn) in any browser."""
from __future__ import annotations

import argparse
import ipaddress
import sys

from ..web.jobs import DEFAULT_TIMEOUT, DEFAULT_WORKER_MEMORY, JobPool
from . import timeout_seconds
from .analyze import memory_budget

EPILOG = """The first line on stdout is the page's address. The page reads any notation mineconv reads,
runs the consistency levels (gac, 2rc, 3rc, full) to a fixed point or one step at a time with the reason in
words, shows every cell's mine probability and the exact solution count, plays games (also no-guess ones),
and exports to every format mineconv writes. Heavy work runs in worker processes, each stopped after
--job-timeout seconds and held to --worker-memory; Ctrl-C (or SIGTERM) stops the server and its workers.

examples:
  mineconv serve                 # http://127.0.0.1:8765/
  mineconv serve --port 0        # any free port
  mineconv serve --open          # and open it in the default browser
exit status: 130 after Ctrl-C, 143 after SIGTERM, 2 when the address cannot be bound
"""


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace) -> int:
    """Serve the page until interrupted."""
    if not is_loopback(args.host):
        print(f"mineconv: warning: serving on {args.host}: anyone who can reach this address can use the page "
              "and run analyses on this machine", file=sys.stderr)
    import webbrowser  # here, not at the top: `mineconv` builds every subcommand's parser on start-up

    from ..web.server import serve
    pool = JobPool(max_workers=args.workers, timeout=args.job_timeout, memory=args.worker_memory)
    try:
        try:
            server = serve(args.host, args.port, pool=pool)
        except OSError as exc:
            print(f"mineconv: cannot serve on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(server.url, flush=True)
        if args.open:
            webbrowser.open(server.url)
        try:
            server.serve_forever(poll_interval=0.2)
        finally:
            server.server_close()
    finally:
        pool.close()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("serve", help="the assistant page in a browser: levels, steps, probabilities, games",
                       description="Serve the assistant page: load a board in any notation, run consistency "
                                   "levels or one step at a time, see probabilities and the exact count, play, "
                                   "export.", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument("--workers", type=int, default=6, metavar="N",
                   help="worker processes for heavy work at once (default 6)")
    p.add_argument("--job-timeout", type=timeout_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"stop a job after this many seconds (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--worker-memory", type=memory_budget, default=DEFAULT_WORKER_MEMORY, metavar="SIZE",
                   help="address space each worker may map, e.g. 2G (default 4G)")
    p.set_defaults(func=run)
