"""mineconv serve: the assistant page (Bayer's consistency applet, reborn) in any browser."""
from __future__ import annotations

import argparse
import errno
import ipaddress
import sys

from ..core.fileio import DEFAULT_MAX_BYTES, DEFAULT_MAX_CELLS
from ..web.jobs import DEFAULT_TIMEOUT, DEFAULT_WORKER_MEMORY, JobPool
from . import COMMANDS, number_in, timeout_seconds
from .analyze import memory_budget

IDLE_TIMEOUT = 30.0   # the server's own default (web.server.IDLE_TIMEOUT; that module loads only when serving)

EPILOG = """The first line on stdout is the page's address. The page reads any notation mineconv reads,
runs the consistency levels (gac, 2rc, 3rc, full) to a fixed point or one step at a time with the reason in
words, shows every cell's mine probability and the exact solution count, plays games (also no-guess ones),
and exports to every format mineconv writes. Heavy work runs in worker processes, each stopped after
--job-timeout seconds and held to --worker-memory; Ctrl-C (or SIGTERM) stops the server and its workers.

Only the page at the printed address can use the server: the address carries a secret made for this run
(?token=...) that the page sends with every request, and requests naming another host, coming from another
site's page, or not JSON are refused (the defences of Jupyter's server).

examples:
  mineconv serve                 # http://127.0.0.1:8765/?token=...
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


def cannot_bind(host: str, port: int, exc: OSError) -> str:
    """Why the server could not start, and what to do: a taken port names the server that may hold it."""
    shown = f"[{host}]" if ":" in host else host
    message = f"cannot serve on {shown}:{port}: {exc.strerror or exc}"
    if exc.errno == errno.EADDRINUSE:
        message += (f"; another server (another `mineconv serve`?) may be running at http://{shown}:{port}/ "
                    "- `--port 0` picks a free port")
    return message


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
            server = serve(args.host, args.port, pool=pool, idle_timeout=args.idle_timeout)
        except OSError as exc:
            print(f"mineconv: {cannot_bind(args.host, args.port, exc)}", file=sys.stderr)
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
    p = sub.add_parser("serve", help=COMMANDS["serve"],
                       description="Serve the assistant page: load a board in any notation, run consistency "
                                   "levels or one step at a time, see probabilities and the exact count, play, "
                                   "export.", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=number_in("a port", 0, 65535), default=8765,
                   help="port, 0 to 65535 (default 8765; 0 picks a free one)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument("--workers", type=number_in("a number of workers", 1, 256), default=6, metavar="N",
                   help="worker processes for heavy work at once, at least 1 (default 6; with 2 or more, one "
                        "is kept for jobs on small boards)")
    p.add_argument("--job-timeout", type=timeout_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"stop a job after this many seconds (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--worker-memory", type=memory_budget, default=DEFAULT_WORKER_MEMORY, metavar="SIZE",
                   help="address space each worker may map, e.g. 2G (default 4G)")
    p.add_argument("--idle-timeout", type=timeout_seconds, default=IDLE_TIMEOUT, metavar="SECONDS",
                   help=f"close a connection silent this long (default {IDLE_TIMEOUT:g})")
    lim = p.add_argument_group("input limits (also the largest request the server reads: 2 bytes a cell + 1 MiB)")
    lim.add_argument("--max-bytes", dest="limit_bytes", type=number_in("a limit", 1, 10 ** 18), metavar="N",
                     help=f"refuse an input longer than N bytes (default {DEFAULT_MAX_BYTES})")
    lim.add_argument("--max-cells", dest="limit_cells", type=number_in("a limit", 1, 10 ** 18), metavar="N",
                     help=f"refuse a board of more than N cells (default {DEFAULT_MAX_CELLS})")
    p.set_defaults(func=run)
