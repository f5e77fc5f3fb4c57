"""Big exports as files: written by a worker into the server's own temporary folder, fetched once by ticket.

A 200x200 board's CNF (247 MB) crashed the browser tab when it came as base64 in a JSON answer (issue 38).
A link the browser follows (`<a download>`) cannot carry the token header every /api/ request needs, so
the page asks, with its token, for the file (`POST /api/downloads`): the server names a path in its
folder, a worker writes the export there exactly as `mineconv convert -o` does, and the answer carries a
ticket: 32 random bytes, good for one `GET /download/<ticket>`, and only until LIFETIME seconds after the
file was written. The file is streamed in chunks and deleted once sent; an unused one is deleted when its
ticket expires, and the folder when the server stops.
"""
from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any, BinaryIO, Dict, Optional, Tuple

from .guard import Refused
from .jobs import Busy, Job

FOLDER_PREFIX = "mineconv-downloads-"   # the worker writes only into a folder named so (actions.export_file)
LIFETIME = 300.0         # seconds a ticket stays good once its file is written
MAX_FILES = 8            # downloads prepared or waiting at once, per server (each may be hundreds of MB)
CHUNK = 1 << 20          # bytes sent at a time
SWEEP_EVERY = 5.0        # seconds between looks for expired files
GONE = "no such download: the link is unknown or expired (export again)"
USED = "this download was fetched already: each link serves its file once (export again)"
_TICKET = re.compile(r"[A-Za-z0-9_-]{43}")


@dataclass
class Entry:
    """One prepared download: its file, the job writing it, and whether its ticket was used."""

    path: Path
    job: Job
    used: bool = False

    def expired(self, now: float, lifetime: float) -> bool:
        """True once the job ended without a file, or its file has waited longer than `lifetime`."""
        if not self.job.finished.is_set():
            return False
        return self.job.state != "done" or now > (self.job.ended or now) + lifetime


def safe_filename(name: Any) -> str:
    """A name for Content-Disposition: letters, digits, `._-` only (no quote, no path), never empty."""
    text = re.sub(r"[^A-Za-z0-9._-]+", "_", str(name or "")).strip("._")[:100]
    return text or "export"


class Downloads:
    """The tickets of one server and the folder their files wait in."""

    def __init__(self, lifetime: float = LIFETIME, max_files: int = MAX_FILES) -> None:
        self.lifetime = lifetime
        self.max_files = max_files
        self.folder: Optional[Path] = None        # made on the first download: a server never asked leaves none
        self._lock = threading.Lock()
        self._entries: Dict[str, Entry] = {}      # by the ticket's digest, never the ticket itself
        self._stop = threading.Event()
        threading.Thread(target=self._sweeper, daemon=True, name="downloads-sweep").start()

    def reserve(self) -> Tuple[str, Path]:
        """A new ticket and the path its file goes to (Busy when MAX_FILES downloads are waiting)."""
        self.sweep()
        with self._lock:
            if sum(not e.used for e in self._entries.values()) >= self.max_files:
                raise Busy(f"{self.max_files} downloads are being prepared or waiting to be fetched; fetch "
                           "or let them expire first")
            if self.folder is None:
                self.folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))
            folder = self.folder
        return secrets.token_urlsafe(32), folder / secrets.token_hex(16)

    def add(self, ticket: str, path: Path, job: Job) -> None:
        """Remember the ticket of a job that writes `path`."""
        with self._lock:
            self._entries[digest(ticket)] = Entry(path, job)

    def redeem(self, ticket: str) -> Tuple[BinaryIO, str, int]:
        """The file of a ticket, opened, with its name and size; the ticket is used up (404, 409 otherwise)."""
        self.sweep()
        with self._lock:
            entry = self._entries.get(digest(ticket)) if _TICKET.fullmatch(ticket) else None
            if entry is None:
                raise Refused(GONE, HTTPStatus.NOT_FOUND)
            if entry.used:
                raise Refused(USED, HTTPStatus.NOT_FOUND)
            if not entry.job.finished.is_set():
                raise Refused("the file is still being written; ask again when its job is done", HTTPStatus.CONFLICT)
            entry.used = True
            answer = entry.job.answer or {}
        handle = entry.path.open("rb")        # a missing file here is a fault of the server's (500)
        entry.path.unlink()                   # gone from the folder now; the open handle still reads it
        return handle, safe_filename(answer.get("filename")), os.fstat(handle.fileno()).st_size

    def sweep(self) -> None:
        """Delete the files of expired or failed downloads and forget their tickets (a used one is kept until
        then, so a second fetch hears that it was used)."""
        now = time.monotonic()
        with self._lock:
            old = [k for k, e in self._entries.items() if e.expired(now, self.lifetime)]
            dropped = [self._entries.pop(k) for k in old]
        for entry in dropped:
            remove(entry.path)

    def pending(self) -> int:
        """Files waiting in the folder (tests check none is left behind)."""
        return sum(1 for _ in self.folder.iterdir()) if self.folder is not None and self.folder.is_dir() else 0

    def close(self) -> None:
        """Stop sweeping and delete the folder with whatever it holds (the server is stopping)."""
        self._stop.set()
        with self._lock:
            folder, self._entries = self.folder, {}
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def _sweeper(self) -> None:
        while not self._stop.wait(min(SWEEP_EVERY, max(0.05, self.lifetime / 2))):
            self.sweep()


def digest(ticket: str) -> str:
    """The key a ticket is stored under (a lookup by hash compares no secret byte by byte)."""
    return hashlib.sha256(ticket.encode("utf-8", "surrogateescape")).hexdigest()


def remove(path: Path) -> None:
    """Delete a download's file and a half-written part a killed worker may have left beside it."""
    for stray in [path, *path.parent.glob(f".{path.name}.*.part")]:
        try:
            stray.unlink()
        except OSError:
            pass


def send_chunks(handle: BinaryIO, write: Any, chunk: int = CHUNK) -> int:
    """Copy an open file to a writer chunk by chunk (never whole in memory); the bytes sent."""
    sent = 0
    while True:
        block = handle.read(chunk)
        if not block:
            return sent
        write(block)
        sent += len(block)


def ticket_of(path: str) -> Optional[str]:
    """The ticket in a `/download/<ticket>` path, or None for any other path."""
    prefix = "/download/"
    return path[len(prefix):] if path.startswith(prefix) else None
