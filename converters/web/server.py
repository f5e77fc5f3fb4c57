"""The assistant page's HTTP server: the page's files, and a small JSON API over `actions.py`.

Why the standard library's ThreadingHTTPServer and not Starlette with uvicorn: the page is served to one
person on their own machine, a request thread per request is plenty, and the heavy work happens in worker
processes anyway (`jobs.py`); the standard library adds no dependency and nothing to start up. The
server binds 127.0.0.1 unless told otherwise.

API (every body is JSON):
    GET  /                       the page (static/index.html); /static/NAME its other files
    GET  /api/info               formats to export to, levels, samples, limits
    POST /api/load               {"text", "format"?}            -> the board read from pasted text
    POST /api/sample             {"name"}                       -> the sample's text
    POST /api/export             {"board", "format"}            -> {"filename", "data" (base64)}
    POST /api/render             {"board"}                      -> {"svg"}
    POST /api/jobs               {"action", "board"?, ...}      -> {"id", "state"}: heavy work, queued
    GET  /api/jobs/ID?wait=S     the job, waiting up to S seconds (at most 1) for it to finish
    DELETE /api/jobs/ID          cancel the job
Errors are {"error": "..."} with status 400 (bad input) or 404, with the text the command line prints.
"""
from __future__ import annotations

import json
import mimetypes
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

from ..core.errors import MineconvError
from ..core.fileio import max_bytes
from ..core.jsonout import json_text
from .actions import HEAVY, LEVELS, export, export_formats, load, render, samples
from .jobs import JobPool

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY_SLACK = 1 << 16     # JSON quoting and the other fields of a request, beyond the input limit
LONGEST_WAIT = 1.0           # seconds a poll may wait, so the page always hears back within a second


class Handler(BaseHTTPRequestHandler):
    """One request of the page."""

    server: "AssistantServer"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """Quiet: a page polls several times a second."""

    def do_GET(self) -> None:  # noqa: N802 - the base class's naming
        """The page, its files, info, and job polls."""
        path, query = self._route()
        if path in ("/", "/index.html"):
            self._file(STATIC / "index.html")
        elif path.startswith("/static/"):
            self._file(STATIC / path[len("/static/"):])
        elif path == "/api/info":
            self._json({"formats": export_formats(), "levels": list(LEVELS),
                        "samples": samples({})["samples"], "max_bytes": max_bytes()})
        elif path.startswith("/api/jobs/"):
            job = self.server.pool.get(path.rsplit("/", 1)[1])
            if job is None:
                return self._json({"error": "no such job"}, HTTPStatus.NOT_FOUND)
            wait = min(LONGEST_WAIT, float((query.get("wait") or ["0"])[0] or 0))
            job.finished.wait(max(0.0, wait))
            self._json(job.to_json())
        else:
            self._json({"error": f"nothing at {path}"}, HTTPStatus.NOT_FOUND)

    def do_POST(self) -> None:  # noqa: N802
        """Load, sample, export (answered at once) and heavy jobs (queued)."""
        path, _ = self._route()
        body = self._body()
        if body is None:
            return
        try:
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
                    return self._json({"error": f"no action {body.get('action')!r}"}, HTTPStatus.BAD_REQUEST)
                return self._json(self.server.pool.submit(body).to_json())
        except MineconvError as exc:
            return self._json({"error": str(exc)}, HTTPStatus.BAD_REQUEST)
        except RuntimeError as exc:
            return self._json({"error": str(exc)}, HTTPStatus.SERVICE_UNAVAILABLE)
        self._json({"error": f"nothing at {path}"}, HTTPStatus.NOT_FOUND)

    def do_DELETE(self) -> None:  # noqa: N802
        """Cancel a job."""
        path, _ = self._route()
        job = self.server.pool.cancel(path.rsplit("/", 1)[1]) if path.startswith("/api/jobs/") else None
        if job is None:
            return self._json({"error": "no such job"}, HTTPStatus.NOT_FOUND)
        self._json(job.to_json())

    def _route(self) -> Tuple[str, Dict[str, Any]]:
        parts = urlsplit(self.path)
        return parts.path, parse_qs(parts.query)

    def _body(self) -> Optional[Dict[str, Any]]:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= max_bytes() * 2 + MAX_BODY_SLACK:
            self._json({"error": f"the request is larger than the input limit ({max_bytes()} bytes)"},
                       HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
            return None
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict):
            self._json({"error": "the request body is not a JSON object"}, HTTPStatus.BAD_REQUEST)
            return None
        return body

    def _json(self, value: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
        data = json_text(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def _file(self, path: Path) -> None:
        try:
            resolved = path.resolve()
            resolved.relative_to(STATIC)   # nothing outside the page's folder
            data = resolved.read_bytes()
        except (ValueError, OSError):
            return self._json({"error": "not found"}, HTTPStatus.NOT_FOUND)
        kind = mimetypes.guess_type(resolved.name)[0] or "application/octet-stream"
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind + ("; charset=utf-8" if kind.startswith("text/") or
                                                 kind.endswith("javascript") else ""))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class AssistantServer(ThreadingHTTPServer):
    """The HTTP server with its pool of worker processes."""

    daemon_threads = True

    def __init__(self, host: str, port: int, pool: JobPool) -> None:
        super().__init__((host, port), Handler)
        self.pool = pool

    @property
    def url(self) -> str:
        """The page's address."""
        host, port = str(self.server_address[0]), int(self.server_address[1])
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"


def serve(host: str = "127.0.0.1", port: int = 0, *, pool: Optional[JobPool] = None,
          ready: Optional[threading.Event] = None) -> AssistantServer:
    """A started-up server (not yet serving: call serve_forever); port 0 picks a free port."""
    server = AssistantServer(host, port, pool or JobPool())
    if ready is not None:
        ready.set()
    return server
