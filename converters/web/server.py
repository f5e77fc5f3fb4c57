"""The assistant page's HTTP server: the page's files, and a small JSON API over `actions.py`.

Why the standard library's ThreadingHTTPServer and not Starlette with uvicorn: the page is served to one
person on their own machine, a request thread per connection is plenty, and the heavy work happens in
worker processes anyway (`jobs.py`); the standard library adds no dependency and nothing to start up. The
server binds 127.0.0.1 unless told otherwise.

Only the page the server printed can use it (`guard.py`): Host and Origin name this server, every /api/
request carries the per-run token (`Authorization: token T`), and bodies are declared JSON. What a
request may hold is bounded before it is read or parsed (its length, its nesting, its fields' types:
`fields.py`), connections are capped and time out when idle, and jobs queue in bounded lanes.

API (every body is JSON):
    GET  /                       the page (static/index.html); /static/NAME its other files (no token needed)
    GET  /api/info               formats to export to, levels, samples, limits
    POST /api/load               {"text", "format"?}            -> the board read from pasted text
    POST /api/sample             {"name"}                       -> the sample's text
    POST /api/export             {"board", "format"}            -> {"filename", "data" (base64)}
    POST /api/render             {"board"}                      -> {"svg"}
    POST /api/jobs               {"action", "board"?, ...}      -> {"id", "state"}: heavy work, queued
    GET  /api/jobs/ID?wait=S     the job, waiting up to S seconds (at most 1) for it to finish
    DELETE /api/jobs/ID          cancel the job
    POST /api/downloads          {"board", "format"}            -> {"id", "state", "ticket"}: a big export,
                                 written to a file by a worker (a job like the others, polled at /api/jobs/ID)
    GET  /download/TICKET        that file, once, streamed as an attachment (no token: a link cannot send one;
                                 the ticket is the secret, single-use and short-lived: `downloads.py`)
Every answer is JSON, errors too: {"error": "..."} with status 400 (bad input, with the text the command
line prints), 403 (foreign Host or Origin, no token), 404, 411, 413, 415, 429 (too many jobs waiting),
500 (a fault of the server's, logged to stderr) or 503 (too many connections).
"""
from __future__ import annotations

import mimetypes
import secrets
import socket
import sys
import threading
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

from ..core.errors import MineconvError
from ..core.fileio import max_bytes
from ..core.jsonout import json_text
from .actions import HEAVY, LEVELS, export, export_formats, load, notations, render, samples
from .downloads import Downloads, send_chunks, ticket_of
from .fields import check_fields, wait_seconds
from .guard import Gate, Refused, body_length, check_json_type, parse_body, pending_body
from .jobs import Busy, JobPool

STATIC = Path(__file__).resolve().parent / "static"
LONGEST_WAIT = 1.0           # seconds a poll may wait, so the page always hears back within a second
IDLE_TIMEOUT = 30.0          # seconds a connection may stay silent before the server closes it
MAX_CONNECTIONS = 100        # connections served at once (a browser keeps about six per page)
DRAIN_LIMIT = 1 << 16        # bytes of an unread body read before a refusal, so the client sees the answer
REPORT_FIRST, REPORT_EVERY = 10, 100   # unexpected errors logged in full, then one in this many
_BUSY_BODY = b'{"error": "the server is serving too many connections at once; try again in a moment"}'
TOO_MANY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(_BUSY_BODY), _BUSY_BODY))
# the page's own file types, named here rather than guessed: a module script (.mjs) is refused by the browser
# unless served as JavaScript, and `mimetypes` reads the machine's tables (a Windows registry may say text/plain)
PAGE_TYPES = {".html": "text/html", ".mjs": "text/javascript", ".js": "text/javascript", ".css": "text/css",
              ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon"}
PAGE_HEADERS = (("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
                ("Content-Security-Policy", "frame-ancestors 'none'"), ("X-Frame-Options", "DENY"))


class Handler(BaseHTTPRequestHandler):
    """One connection of the page: its requests, each answered in JSON (or with one of the page's files)."""

    server: "AssistantServer"
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY: the headers and the body leave in two writes, and Nagle's algorithm held the second until
    # the client's delayed ACK: 40 ms more on every answer (benchmarks/bench_page_click.py: 48-51 ms -> 4-25 ms)
    disable_nagle_algorithm = True
    unread = 0                   # bytes of the request's body not read yet

    def setup(self) -> None:
        """Time out a silent connection (the socket's timeout, set before the streams are made)."""
        self.request.settimeout(self.server.idle_timeout)
        super().setup()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """Quiet: a page polls several times a second."""

    def do_GET(self) -> None:  # noqa: N802 - the base class's naming
        """The page, its files, info, and job polls."""
        self._guarded(self._get)

    def do_POST(self) -> None:  # noqa: N802
        """Load, sample, export (answered at once) and heavy jobs (queued)."""
        self._guarded(self._post)

    def do_DELETE(self) -> None:  # noqa: N802
        """Cancel a job."""
        self._guarded(self._delete)

    def send_error(self, code: int, message: Optional[str] = None, explain: Optional[str] = None) -> None:
        """The base class's own refusals (a malformed request line, an unknown method) in JSON too."""
        self.close_connection = True
        self._json({"error": message or HTTPStatus(code).phrase}, HTTPStatus(code))

    def _guarded(self, work: Callable[[], None]) -> None:
        self.unread = pending_body(self.headers)
        try:
            work()
        except Refused as exc:
            self._refuse({"error": str(exc)}, exc.status)
        except Busy as exc:
            self._refuse({"error": str(exc)}, HTTPStatus.TOO_MANY_REQUESTS, (("Retry-After", "2"),))
        except MineconvError as exc:
            self._json({"error": str(exc)}, HTTPStatus.BAD_REQUEST)
        except (ConnectionError, TimeoutError):
            self.close_connection = True      # the client went away: nobody to answer
        except Exception as exc:  # noqa: BLE001 - every request gets an answer, a fault of ours too
            self.server.report(exc, f"{self.command} {urlsplit(self.path).path[:80]}")
            self._refuse({"error": f"the server failed on this request ({type(exc).__name__}); it goes on "
                                   "serving, and the details are on its terminal"}, HTTPStatus.INTERNAL_SERVER_ERROR)
        if self.unread:       # a body nobody read (a GET's, say) must not be taken for the next request
            self.close_connection = True

    def _get(self) -> None:
        path, query = self._route()
        self.server.gate.check(self.headers, api=path.startswith("/api/"))
        if path in ("/", "/index.html"):
            self._file(STATIC / "index.html")
        elif path.startswith("/static/"):
            self._file(STATIC / path[len("/static/"):])
        elif path == "/api/info":
            self._json({"formats": export_formats(), "levels": list(LEVELS), "notations": notations(),
                        "samples": samples({})["samples"], "max_bytes": max_bytes()})
        elif ticket_of(path) is not None:
            self._download(str(ticket_of(path)))
        elif path.startswith("/api/jobs/"):
            wait = wait_seconds(query, LONGEST_WAIT)
            job = self.server.pool.get(path.rsplit("/", 1)[1])
            if job is None:
                return self._json({"error": "no such job"}, HTTPStatus.NOT_FOUND)
            job.finished.wait(wait)
            self._json(job.to_json())
        else:
            self._json({"error": f"nothing at {path[:80]}"}, HTTPStatus.NOT_FOUND)

    def _post(self) -> None:
        path, _ = self._route()
        body_length(self.headers, required=True)     # 411, 413: before a byte is read
        self.server.gate.check(self.headers, api=path.startswith("/api/"))
        check_json_type(self.headers.get("Content-Type"))
        body = check_fields(parse_body(self._read()))
        if path == "/api/load":
            return self._json(load(body))
        if path == "/api/sample":
            return self._json(samples(body))
        if path == "/api/export":
            return self._json(export(body))
        if path == "/api/render":
            return self._json(render(body))
        if path == "/api/jobs":
            action = body.get("action")
            if not isinstance(action, str) or action not in HEAVY:   # a list is unhashable: TypeError
                return self._json({"error": f"no action {action!r}"}, HTTPStatus.BAD_REQUEST)
            return self._json(self.server.pool.submit(body).to_json())
        if path == "/api/downloads":
            return self._json(self._prepare_download(body))
        self._json({"error": f"nothing at {path[:80]}"}, HTTPStatus.NOT_FOUND)

    def _delete(self) -> None:
        path, _ = self._route()
        body_length(self.headers, required=False)
        self.server.gate.check(self.headers, api=path.startswith("/api/"))
        if self.unread:
            check_json_type(self.headers.get("Content-Type"))
            self._read()
        job = self.server.pool.cancel(path.rsplit("/", 1)[1]) if path.startswith("/api/jobs/") else None
        if job is None:
            return self._json({"error": "no such job"}, HTTPStatus.NOT_FOUND)
        self._json(job.to_json())

    def _prepare_download(self, body: Dict[str, Any]) -> Dict[str, Any]:
        # the path is the server's: whatever the page sent under "path" or "action" is replaced
        downloads = self.server.downloads
        ticket, path = downloads.reserve()
        job = self.server.pool.submit({"board": body.get("board"), "format": body.get("format"),
                                       "action": "export_file", "path": str(path)})
        downloads.add(ticket, path, job)
        return dict(job.to_json(), ticket=ticket)

    def _download(self, ticket: str) -> None:
        handle, filename, size = self.server.downloads.redeem(ticket)
        with handle:
            self.send_response(HTTPStatus.OK)
            for name, text in (("Content-Type", "application/octet-stream"), ("Content-Length", str(size)),
                               ("Content-Disposition", f'attachment; filename="{filename}"'),
                               ("Cache-Control", "no-store"), *PAGE_HEADERS):
                self.send_header(name, text)
            self.end_headers()
            send_chunks(handle, self.wfile.write)

    def _route(self) -> Tuple[str, Dict[str, List[str]]]:
        parts = urlsplit(self.path)
        return parts.path, parse_qs(parts.query)

    def _read(self) -> bytes:
        data = self.rfile.read(self.unread)
        self.unread = 0
        return data

    def _refuse(self, value: Dict[str, Any], status: HTTPStatus, headers: Tuple[Tuple[str, str], ...] = ()) -> None:
        # a body left unread would be taken for the next request: read a small one, else close the connection
        if 0 < self.unread <= DRAIN_LIMIT:
            try:
                self._read()
            except OSError:
                self.close_connection = True
        elif self.unread:                 # too long to read, or of unknown length
            self.close_connection = True
        try:
            self._json(value, status, headers)
        except OSError:
            self.close_connection = True

    def _json(self, value: Any, status: HTTPStatus = HTTPStatus.OK, headers: Tuple[Tuple[str, str], ...] = ()) -> None:
        data = json_text(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, text in headers:
            self.send_header(name, text)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _file(self, path: Path) -> None:
        try:
            resolved = path.resolve()
            resolved.relative_to(STATIC)   # nothing outside the page's folder
            data = resolved.read_bytes()
        except (ValueError, OSError):
            return self._json({"error": "not found"}, HTTPStatus.NOT_FOUND)
        kind = PAGE_TYPES.get(resolved.suffix.lower()) or mimetypes.guess_type(resolved.name)[0] or "application/octet-stream"
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind + ("; charset=utf-8" if kind.startswith("text/") or
                                                 kind.endswith("javascript") else ""))
        self.send_header("Content-Length", str(len(data)))
        for name, text in PAGE_HEADERS:
            self.send_header(name, text)
        self.end_headers()
        self.wfile.write(data)


class AssistantServer(ThreadingHTTPServer):
    """The HTTP server with its pool of worker processes, its gate, and its cap on connections."""

    daemon_threads = True
    request_queue_size = 128     # connections the kernel holds until accepted (the base class's 5 stalls a page's burst)

    def __init__(self, host: str, port: int, pool: JobPool, *, idle_timeout: float = IDLE_TIMEOUT,
                 max_connections: int = MAX_CONNECTIONS) -> None:
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.downloads = Downloads()     # before binding: a failed bind calls server_close, which deletes its folder
        super().__init__((host, port), Handler)
        self.pool = pool
        self.idle_timeout = idle_timeout
        self.gate = Gate(host, int(self.server_address[1]), secrets.token_urlsafe(32))
        self._connections = threading.BoundedSemaphore(max_connections)
        self._reported = 0
        self._report_lock = threading.Lock()

    @property
    def url(self) -> str:
        """The page's address, with the token the page needs (the first line `mineconv serve` prints)."""
        host, port = str(self.server_address[0]), int(self.server_address[1])
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/?token={self.gate.token}"

    def server_close(self) -> None:
        """Stop serving, and delete the downloads nobody fetched."""
        super().server_close()
        self.downloads.close()

    def process_request(self, request: Any, client_address: Any) -> None:
        """A thread for the connection, or a 503 when MAX_CONNECTIONS are being served already."""
        if not self._connections.acquire(blocking=False):
            try:
                request.settimeout(1.0)
                request.sendall(TOO_MANY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except RuntimeError:      # no thread could be started: its place is free again
            self._connections.release()
            raise
        # (a KeyboardInterrupt here comes after the thread started, and that thread frees the place itself;
        # freeing it here too raised ValueError, which the base class logged, swallowing the Ctrl-C)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        """Serve the connection, then free its place."""
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._connections.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away is no error; anything else is one line on stderr, not a traceback."""
        exc = sys.exc_info()[1]
        if exc is not None and not isinstance(exc, (ConnectionError, TimeoutError)):
            self.report(exc, "a connection")

    def report(self, exc: BaseException, where: str) -> None:
        """Log an unexpected error in one line: the first few, then one in REPORT_EVERY (no flooding)."""
        with self._report_lock:
            self._reported += 1
            count = self._reported
        if count > REPORT_FIRST and count % REPORT_EVERY:
            return
        frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
        at = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
        sys.stderr.write(f"mineconv serve: unexpected {type(exc).__name__} on {where}{at}: {str(exc)[:200]} "
                         f"({count} so far)\n")
        sys.stderr.flush()


def serve(host: str = "127.0.0.1", port: int = 0, *, pool: Optional[JobPool] = None,
          ready: Optional[threading.Event] = None, idle_timeout: float = IDLE_TIMEOUT) -> AssistantServer:
    """A started-up server (not yet serving: call serve_forever); port 0 picks a free port."""
    server = AssistantServer(host, port, pool or JobPool(), idle_timeout=idle_timeout)
    if ready is not None:
        ready.set()
    return server
