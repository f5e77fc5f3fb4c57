"""Big exports download as files (issue 38, point 8): written by a worker, fetched once by a short-lived ticket.

Through a real HTTP client against a server in this process (so a ticket's lifetime can be shortened), and
once in Chromium with the page's threshold lowered: the file arrives as a download with the puzzle's name
and the bytes `mineconv convert` writes, and never enters the page.
"""
from __future__ import annotations

import http.client
import json
import threading
import time
from pathlib import Path
from typing import Any, Dict, Iterator, Optional, Tuple

import pytest
import web_helpers
from web_helpers import SAMPLES, message, open_page, output, paste, run_cli, shot, wait_message

from mineconv.web.downloads import GONE, USED, Downloads
from mineconv.web.guard import Refused
from mineconv.web.jobs import Job, JobPool
from mineconv.web.server import AssistantServer, serve

server, browser = web_helpers.server, web_helpers.browser   # the fixtures of tests/web/test_web.py
SPLITTER = (SAMPLES / "kaye-splitter.txt").read_text()


@pytest.fixture(scope="module")
def live() -> Iterator[AssistantServer]:
    pool = JobPool(max_workers=1)
    s = serve("127.0.0.1", 0, pool=pool)
    thread = threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield s
    s.shutdown()
    s.server_close()
    pool.close()
    assert s.downloads.folder is not None and not s.downloads.folder.exists(), "the download folder outlives it"


def ask(s: AssistantServer, method: str, path: str, body: Optional[Dict[str, Any]] = None, *,
        token: bool = True, headers: Optional[Dict[str, str]] = None) -> Tuple[int, Any, bytes]:
    """One request: (status, the response's headers, its body)."""
    connection = http.client.HTTPConnection("127.0.0.1", s.server_address[1], timeout=60)
    sent = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        sent["Authorization"] = f"token {s.gate.token}"
    sent.update(headers or {})
    connection.request(method, path, None if body is None else json.dumps(body), sent)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, response.headers, data


def prepared(s: AssistantServer, board: str, fmt: str) -> Tuple[str, Dict[str, Any]]:
    """Ask for a download and wait for its file: (the ticket, the finished job)."""
    status, _, data = ask(s, "POST", "/api/downloads", {"board": board, "format": fmt})
    started = json.loads(data)
    assert status == 200 and len(started["ticket"]) == 43, started
    job = started
    deadline = time.monotonic() + 60
    while job["state"] in ("queued", "running") and time.monotonic() < deadline:
        job = json.loads(ask(s, "GET", f"/api/jobs/{started['id']}?wait=1")[2])
    return started["ticket"], job


def refused(status: int, data: bytes, expected: int) -> str:
    """A JSON refusal with the expected status: its message."""
    assert status == expected, data[:200]
    return str(json.loads(data)["error"])


def test_a_ticket_fetches_the_file_convert_writes_once_and_the_file_is_gone(live, tmp_path):
    board_file = tmp_path / "board.txt"
    board_file.write_text(SPLITTER)
    assert run_cli("convert", board_file, "--to", "cnf", "-o", tmp_path / "cli.cnf")[0] == 0
    ticket, job = prepared(live, SPLITTER, "cnf")
    assert job["state"] == "done" and job["answer"]["filename"] == "Kaye_splitter.cnf", job
    assert "path" not in json.dumps(job["answer"]), "the server's path stays on the server"
    assert live.downloads.pending() == 1
    status, headers, data = ask(live, "GET", f"/download/{ticket}", token=False)
    assert status == 200
    assert data == (tmp_path / "cli.cnf").read_bytes() and job["answer"]["bytes"] == len(data)
    assert headers["Content-Length"] == str(len(data))
    assert headers["Content-Type"] == "application/octet-stream"
    assert headers["Content-Disposition"] == 'attachment; filename="Kaye_splitter.cnf"'
    assert live.downloads.pending() == 0, "the file stays on disk after it was sent"
    assert refused(*ask(live, "GET", f"/download/{ticket}", token=False)[::2], 404) == USED


def test_a_ticket_expires_and_its_file_is_deleted_unfetched(live):
    live.downloads.lifetime = 0.3
    try:
        ticket, job = prepared(live, SPLITTER, "dimacs")
        assert job["state"] == "done", job
        deadline = time.monotonic() + 8       # the sweeper deletes it without being asked
        while live.downloads.pending() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert live.downloads.pending() == 0
        assert refused(*ask(live, "GET", f"/download/{ticket}", token=False)[::2], 404) == GONE
    finally:
        live.downloads.lifetime = 300.0


def test_refusals_are_json_and_leave_the_ticket_alone(live):
    ticket, _ = prepared(live, SPLITTER, "lp")
    port = live.server_address[1]
    wrong_host = ask(live, "GET", f"/download/{ticket}", token=False, headers={"Host": f"evil.example:{port}"})
    assert "own address" in refused(*wrong_host[::2], 403)
    other_site = ask(live, "GET", f"/download/{ticket}", token=False, headers={"Origin": "http://evil.example"})
    assert "another site" in refused(*other_site[::2], 403)
    assert refused(*ask(live, "GET", "/download/" + "A" * 43, token=False)[::2], 404) == GONE
    assert refused(*ask(live, "GET", "/download/..%2F..%2Fetc%2Fpasswd", token=False)[::2], 404) == GONE
    status, headers, data = ask(live, "GET", f"/download/{ticket}", token=False)   # refusals used nothing up
    assert status == 200 and data.startswith(b"\\") and headers["Content-Disposition"].endswith('.lp"')
    # asking for a download needs the token; the page cannot name the server's own action or a path
    assert refused(*ask(live, "POST", "/api/downloads", {"board": SPLITTER, "format": "cnf"}, token=False)[::2],
                   403)
    sneaky = {"action": "export_file", "board": SPLITTER, "format": "cnf", "path": "/tmp/mineconv-downloads-x/y"}
    assert "no action" in refused(*ask(live, "POST", "/api/jobs", sneaky)[::2], 400)
    # a failed export leaves no file and no ticket
    ticket, job = prepared(live, SPLITTER, "no-such-format")
    assert job["state"] == "failed" and "no-such-format" in job["error"]
    assert refused(*ask(live, "GET", f"/download/{ticket}", token=False)[::2], 404) == GONE
    assert live.downloads.pending() == 0


def test_a_ticket_is_refused_while_its_file_is_written(tmp_path):
    store = Downloads(lifetime=60)
    try:
        ticket, path = store.reserve()
        job = Job("1", {}, state="running")
        store.add(ticket, path, job)
        with pytest.raises(Refused) as caught:
            store.redeem(ticket)
        assert caught.value.status == 409
        path.write_bytes(b"p cnf 1 1\n1 0\n")
        job.state, job.answer = "done", {"filename": 'a"b/../c.cnf', "bytes": 14}
        job.end()
        handle, name, size = store.redeem(ticket)
        with handle:
            assert handle.read() == b"p cnf 1 1\n1 0\n" and size == 14
        assert name == "a_b_.._c.cnf" and not path.exists()   # no quote, no folder in the header's name
        with pytest.raises(Refused, match="fetched already"):
            store.redeem(ticket)
    finally:
        store.close()
    assert store.folder is not None and not store.folder.exists()


def test_the_page_downloads_a_big_export_as_a_file(browser, server, tmp_path):
    board_file = tmp_path / "board.txt"
    board_file.write_text(SPLITTER)
    assert run_cli("convert", board_file, "--to", "cnf", "-o", tmp_path / "cli.cnf")[0] == 0
    expected = (tmp_path / "cli.cnf").read_bytes()
    page = open_page(browser, server)
    paste(page, SPLITTER)
    page.evaluate("STREAM_FROM = 100")          # the 3.3 KB CNF counts as big
    page.select_option('[data-input="format"]', "cnf")
    with page.expect_download() as caught:
        page.click('[data-action="export"]')
    download = caught.value
    assert download.suggested_filename == "Kaye_splitter.cnf"
    assert download.url.startswith(server.base + "download/")
    saved = Path(tmp_path / download.suggested_filename)
    download.save_as(str(saved))
    assert saved.read_bytes() == expected
    assert output(page, "export-size") == "Kaye_splitter.cnf: 3.3 KB"
    wait_message(page, "exported as cnf: Kaye_splitter.cnf (3.3 KB), saved by the browser as a download")
    assert "p cnf" not in page.content() and "p cnf" not in message(page)   # the file never entered the page
    shot(page, "download-big-export")
    page.close()
