"""The assistant server hardened (issue 41, points 1-6; issue 40, point 7), through a real HTTP client.

Each test sends what the adversarial pass sent: foreign Host and Origin headers, no token, text bodies,
odd values, huge and deep bodies, half-open sockets, hundreds of jobs, a SIGKILL. Raw `http.client` (or
plain sockets) where urllib would correct the request.
"""
from __future__ import annotations

import base64
import http.client
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

import pytest

from helpers import require_module, require_tool
from test_web import CHROMIUM, Server, alive, board

HEAVY_BOARD = None


def heavy_board() -> str:
    """A board whose probabilities take seconds (the one test_web cancels), made once."""
    global HEAVY_BOARD
    if HEAVY_BOARD is None:
        from mineconv.make.generate import lattice_text
        HEAVY_BOARD = lattice_text(60, 60, 0.4, total=True, seed=3)
    return HEAVY_BOARD


def raw(server: Server, method: str, path: str, body: Optional[bytes] = None,
        headers: Optional[Dict[str, str]] = None, token: bool = True) -> Tuple[int, Dict[str, str], Any]:
    """One request exactly as given (no header added but Host, Content-Length and the token unless told)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        sent = {"Host": f"127.0.0.1:{server.port}"}
        if token:
            sent["Authorization"] = f"token {server.token}"
        sent.update(headers or {})
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in sent.items():
            if value is not None:
                connection.putheader(name, value)
        if body is not None and "Content-Length" not in sent:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        data = response.read()
        return response.status, dict(response.getheaders()), json.loads(data) if data[:1] == b"{" else data
    finally:
        connection.close()


def post(server: Server, path: str, value: Any, **headers: str) -> Tuple[int, Any]:
    """A JSON POST with the token, headers overridable (None leaves one out)."""
    sent = {"Content-Type": "application/json"}
    sent.update({k.replace("_", "-"): v for k, v in headers.items()})
    status, _, answer = raw(server, "POST", path, json.dumps(value).encode(), sent)
    return status, answer


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    s.stop()


# 1. no web page can drive the server --------------------------------------------------------------
def test_the_issues_attack_is_refused_and_starts_no_job():
    s = Server()
    try:
        request = {"action": "probabilities", "board": board("seed-3x3.txt")}
        attacks = [{"Host": "attacker.example", "Origin": "http://attacker.example", "Content-Type": "text/plain"},
                   {"Host": "attacker.example"},                              # DNS rebinding: token stolen or not
                   {"Origin": "http://attacker.example"},                     # a cross-site fetch
                   {"Origin": "null"},                                        # a sandboxed frame
                   {"Content-Type": "text/plain"}]                            # a form or a "simple" request
        for headers in attacks:
            status, _, answer = raw(s, "POST", "/api/jobs", json.dumps(request).encode(),
                                    dict({"Content-Type": "application/json"}, **headers))
            assert status in (403, 415) and "error" in answer, (headers, answer)
        status, _, answer = raw(s, "POST", "/api/jobs", json.dumps(request).encode(),
                                {"Content-Type": "application/json"}, token=False)
        assert status == 403 and "mineconv serve" in answer["error"] and "token" in answer["error"]
        assert s.call("GET", "/api/jobs/1")[0] == 404, "a refused request started a job"
        assert s.call("POST", "/api/jobs", request)[0] == 200   # the page's own request goes through
    finally:
        s.stop()


def test_host_must_name_this_server_and_its_port(server):
    port = server.port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", f"[::1]:{port}", f"127.0.0.2:{port}"):
        status, _, _ = raw(server, "GET", "/api/info", headers={"Host": host})
        assert status == 200, host
    for host in ("attacker.example", f"attacker.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1",
                 f"localhost.attacker.example:{port}", f"10.0.0.1:{port}", "", f"[::1]x:{port}"):
        status, _, answer = raw(server, "GET", "/api/info", headers={"Host": host})
        assert status == 403 and "its own address" in answer["error"], host
    # the page itself needs no token, but the same Host check
    status, headers, page = raw(server, "GET", "/", token=False)
    assert status == 200 and b"<html" in page.lower() and headers["X-Frame-Options"] == "DENY"
    assert raw(server, "GET", "/", headers={"Host": "attacker.example"}, token=False)[0] == 403


def test_origin_must_be_the_servers_own(server):
    own = f"http://127.0.0.1:{server.port}"
    assert raw(server, "GET", "/api/info", headers={"Origin": own})[0] == 200
    assert post(server, "/api/load", {"text": "1?\n"}, Origin=own)[0] == 200
    for origin in ("http://attacker.example", f"http://127.0.0.1:{server.port + 1}", "null",
                   f"https://127.0.0.1:{server.port}"):
        status, answer = post(server, "/api/load", {"text": "1?\n"}, Origin=origin)
        assert status == 403 and "another site" in answer["error"], origin


def test_bodies_must_be_declared_json(server):
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        status, answer = post(server, "/api/load", {"text": "1?\n"}, Content_Type=kind)
        assert status == 415 and "application/json" in answer["error"], kind
    assert post(server, "/api/load", {"text": "1?\n"}, Content_Type="application/json; charset=utf-8")[0] == 200
    status, _, answer = raw(server, "DELETE", "/api/jobs/1", b"{}", {"Content-Type": "text/plain"})
    assert status == 415


def test_every_api_request_needs_the_token(server):
    assert server.url.startswith(f"http://127.0.0.1:{server.port}/?token=") and len(server.token) >= 40
    for method, path in (("GET", "/api/info"), ("GET", "/api/jobs/1"), ("POST", "/api/load"),
                         ("POST", "/api/jobs"), ("DELETE", "/api/jobs/1")):
        body = b'{"text": "1?\\n"}' if method == "POST" else None
        headers = {"Content-Type": "application/json"}
        assert raw(server, method, path, body, headers, token=False)[0] == 403, path
        for wrong in ({"Authorization": "token " + server.token[:-1] + "x"}, {"Authorization": server.token},
                      {"X-Mineconv-Token": server.token.upper()}, {"Authorization": "token "}):
            status, _, answer = raw(server, method, path, body, dict(headers, **wrong), token=False)
            assert status == 403 and "error" in answer, (path, wrong)
    assert raw(server, "GET", "/api/info", headers={"X-Mineconv-Token": server.token}, token=False)[0] == 200
    # in the query it is the page's address, not a credential: the API wants it in a header
    assert raw(server, "GET", f"/api/info?token={server.token}", token=False)[0] == 403


def test_the_page_keeps_its_token_and_hides_it(tmp_path):
    require_tool("chromium")
    require_module("playwright")
    from playwright.sync_api import sync_playwright
    s = Server()
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = b.new_page()
            page.goto(s.url)
            page.wait_for_selector("body[data-ready=true]")
            assert "token" not in page.url and page.url.startswith(s.base)    # gone from the address bar
            assert page.eval_on_selector_all('[data-input="format"] option', "els => els.length") > 10
            page.reload()                                                     # kept for the tab
            page.wait_for_selector("body[data-ready=true]")
            assert page.eval_on_selector_all('[data-input="format"] option', "els => els.length") > 10
            # ... and needed: the same page's request without it is refused
            assert page.evaluate('fetch("/api/info").then(r => r.status)') == 403
            # a page of another origin that knows the address gets nothing (no token, no CORS)
            stranger = b.new_page()
            stranger.goto(f"http://localhost:{s.port}/static/style.css")
            result = stranger.evaluate(f"""fetch("http://127.0.0.1:{s.port}/api/info",
                {{headers: {{"Content-Type": "application/json"}}}}).then(r => r.status, e => "refused")""")
            assert result in (403, "refused")
            b.close()
    finally:
        s.stop()


# 2. every request gets a JSON answer, never a traceback ------------------------------------------
def test_odd_values_are_json_400s_in_the_pages_words(server):
    assert server.call("GET", "/api/jobs/1?wait=xyz") == (400, {"error": "wait must be a number of seconds, not 'xyz'"})
    assert server.call("GET", "/api/jobs/1?wait=nan")[0] == 400
    status, answer = server.call("POST", "/api/load", {"text": "??\n?1", "format": ["x"]})
    assert status == 400 and answer["error"] == "format must be text, not ['x']"
    for value in ("abc", -1, 0, 2.5, True, [1]):
        status, answer = server.call("POST", "/api/jobs", {"action": "probabilities", "board": board("seed-3x3.txt"),
                                                           "memory_budget": value})
        assert status == 400 and answer["error"].startswith("memory_budget must be a whole number of bytes"), value
    job = server.job({"action": "probabilities", "board": board("seed-3x3.txt"), "memory_budget": 1 << 30})
    assert job["state"] == "done" and job["answer"]["solutions_str"] is not None


def test_upload_names_never_leave_the_servers_folder(server, tmp_path):
    data = base64.b64encode(b"1??\n12?\n01?\n").decode()
    planted = tmp_path / "planted.txt"
    for name in ("..", ".", "a\u0000b", "/", str(planted), "../../planted.txt", "..\\..\\planted.txt", "\x7f",
                 "x" * 5000, "C:\\Users\\me\\board.txt"):
        status, answer = server.call("POST", "/api/load", {"data": data, "source": name})
        assert status == 200 and answer["rows"] == 3, (name, answer)
    assert not planted.exists()
    bad = base64.b64encode(b"1??\n1x?\n").decode()
    status, answer = server.call("POST", "/api/load", {"data": bad, "source": "../../evil.txt"})
    assert status == 400 and answer["error"].startswith("evil.txt:")


def test_deep_nesting_is_refused_before_parsing(server):
    for body in (b"[" * 200_000, b'{"a": ' + b"[" * 50 + b"]" * 50 + b"}", b'{"a": [' + b"{}," * 300_000 + b"{}]}"):
        status, _, answer = raw(server, "POST", "/api/load", body, {"Content-Type": "application/json"})
        assert status == 400 and ("nests deeper" in answer["error"] or "outside its strings" in answer["error"])
    # brackets inside strings are text, not nesting
    assert server.call("POST", "/api/load", {"text": "[" * 1000 + "\n"})[0] == 400   # not a board, but read


def test_clients_that_go_away_leave_no_traceback():
    s = Server()
    try:
        for path in ("/api/jobs/999?wait=1", "/api/info", "/"):
            sock = socket.create_connection(("127.0.0.1", s.port))
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{s.port}\r\n"
                         f"Authorization: token {s.token}\r\n\r\n".encode())
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()                                   # a reset, before the answer is written
        job = s.call("POST", "/api/jobs", {"action": "probabilities", "board": heavy_board()})[1]
        sock = socket.create_connection(("127.0.0.1", s.port))
        sock.sendall(f"GET /api/jobs/{job['id']}?wait=1 HTTP/1.1\r\nHost: 127.0.0.1:{s.port}\r\n"
                     f"Authorization: token {s.token}\r\n\r\n".encode())
        sock.close()
        time.sleep(1.5)
        s.call("DELETE", f"/api/jobs/{job['id']}")
        assert s.call("GET", "/api/info")[0] == 200
    finally:
        s.stop()
        err = s.proc.stderr.read()
    assert "Traceback" not in err and "BrokenPipe" not in err and "ConnectionReset" not in err, err


def test_an_unexpected_fault_is_a_500_and_one_line_on_stderr(monkeypatch, capsys):
    from mineconv.web import server as web
    from mineconv.web.jobs import JobPool

    def broken(request):
        raise KeyError("a fault of the server's own")
    monkeypatch.setattr(web, "render", broken)
    pool = JobPool(max_workers=1, warm=0)
    s = web.serve("127.0.0.1", 0, pool=pool)
    thread = threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{s.server_address[1]}/api/render"
        for _ in range(30):
            request = urllib.request.Request(base, data=b'{"board": "1?\\n"}', method="POST",
                                             headers={"Content-Type": "application/json",
                                                      "Authorization": f"token {s.gate.token}"})
            with pytest.raises(urllib.error.HTTPError) as caught:
                urllib.request.urlopen(request, timeout=10)
            assert caught.value.code == 500
            assert "KeyError" in json.loads(caught.value.read())["error"]
    finally:
        s.shutdown()
        s.server_close()
        pool.close()
    lines = capsys.readouterr().err.splitlines()
    assert 1 <= len(lines) <= web.REPORT_FIRST and all("unexpected KeyError on POST /api/render" in x for x in lines)


# 3. bodies capped before they are read -------------------------------------------------------------
def test_bodies_over_the_cap_are_refused_unread_and_lengthless_ones_too():
    s = Server("--max-cells", "10000")
    try:
        cap = 2 * 10000 + (1 << 20)
        sock = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        sock.sendall(f"POST /api/load HTTP/1.1\r\nHost: 127.0.0.1:{s.port}\r\nAuthorization: token {s.token}\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {cap + 1}\r\n\r\n".encode())
        answer = read_all(sock)                        # answered, and closed, with no byte of the body sent
        sock.close()
        assert answer.startswith(b"HTTP/1.1 413") and b"larger than the largest board" in answer
        text = "?" * 900 + "\n"
        status, answer = s.call("POST", "/api/load", {"text": text * 12})     # within the cap: read, refused
        assert status == 400 and "--max-cells" in answer["error"]
        status, _, _ = raw(s, "POST", "/api/load", None, {"Content-Type": "application/json"})
        assert status == 411
        status, _, _ = raw(s, "POST", "/api/load", b"", {"Content-Type": "application/json",
                                                          "Transfer-Encoding": "chunked"})
        assert status == 411
    finally:
        s.stop()


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    chunks = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_a_breadth_bomb_does_not_grow_the_server(server):
    before = peak_rss(server.proc.pid)
    body = b'{"a":[' + b"{}," * 3_000_000 + b"{}]}"                  # 9 MB: 3 million dicts, ~300 MB parsed
    status, _, answer = raw(server, "POST", "/api/load", body, {"Content-Type": "application/json"})
    assert status == 400 and "outside its strings" in answer["error"]
    assert peak_rss(server.proc.pid) - before < 60 << 20


def peak_rss(pid: int) -> int:
    """The process's peak resident set size in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


# 4. flags -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("flags", [["--port", "99999"], ["--port", "-1"], ["--workers", "0"], ["--workers", "-1"],
                                   ["--idle-timeout", "0"]])
def test_bad_flags_are_usage_errors(flags):
    result = subprocess.run([sys.executable, "-m", "mineconv", "serve", *flags], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr and "error: argument" in result.stderr


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.parametrize("host, shown", [("::1", "[::1]"), ("::", "[::]")])
def test_ipv6_hosts_serve_and_print_bracketed_urls(host, shown):
    if not ipv6_loopback():
        pytest.skip("this machine has no IPv6 loopback")
    proc = subprocess.Popen([sys.executable, "-m", "mineconv", "serve", "--host", host, "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith(f"http://{shown}:"), proc.stderr.read()
        port = int(url.split("]:")[1].split("/")[0])
        token = url.split("token=")[1]
        request = urllib.request.Request(f"http://[::1]:{port}/api/info", headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200 and "native" in json.loads(response.read())["formats"]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)


def test_a_taken_port_names_the_other_server_and_port_0(server):
    result = subprocess.run([sys.executable, "-m", "mineconv", "serve", "--port", str(server.port)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert f"another server (another `mineconv serve`?) may be running at http://127.0.0.1:{server.port}/" \
        in result.stderr and "`--port 0` picks a free port" in result.stderr


# 5. bounded queue and connections, a lane for light work -------------------------------------------
def test_the_queue_is_bounded_and_jobs_take_no_thread_each():
    from mineconv.web.jobs import MAX_QUEUED
    s = Server("--workers", "1", "--job-timeout", "20")
    try:
        statuses, ids = [], []
        for _ in range(200):
            status, answer = s.call("POST", "/api/jobs", {"action": "probabilities", "board": heavy_board()})
            statuses.append(status)
            if status == 200:
                ids.append(answer["id"])
            else:
                assert status == 429 and "already waiting" in answer["error"]
        assert MAX_QUEUED <= statuses.count(200) <= MAX_QUEUED + 1 and statuses.count(429) >= 200 - MAX_QUEUED - 1
        assert threads(s.proc.pid) < 20
        for job in ids:
            s.call("DELETE", f"/api/jobs/{job}")
        assert s.call("POST", "/api/jobs", {"action": "level", "level": "gac", "board": board("seed-3x3.txt")})[0] == 200
    finally:
        s.stop()


def threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise AssertionError("no Threads line")


def test_a_half_open_connection_is_closed_when_idle():
    s = Server("--idle-timeout", "1")
    try:
        sock = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        sock.sendall(f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{s.port}\r\n".encode())   # never finished
        started = time.monotonic()
        assert sock.recv(4096) == b""                  # the server hung up
        assert time.monotonic() - started < 5
        sock.close()
    finally:
        s.stop()


def test_connections_past_the_cap_get_a_503(server):
    from mineconv.web.server import MAX_CONNECTIONS
    held = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(MAX_CONNECTIONS)]
    try:
        time.sleep(0.5)
        extra = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        answer = read_all(extra)
        extra.close()
        assert answer.startswith(b"HTTP/1.1 503") and b"too many connections" in answer
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 10
    while server.call("GET", "/api/info")[0] != 200 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert server.call("GET", "/api/info")[0] == 200


def test_a_small_job_does_not_wait_behind_ten_heavy_ones():
    s = Server("--workers", "2", "--job-timeout", "40")
    try:
        heavy = [s.call("POST", "/api/jobs", {"action": "probabilities", "board": heavy_board()})[1]["id"]
                 for _ in range(10)]
        time.sleep(0.5)
        started = time.monotonic()
        job = s.job({"action": "level", "level": "full", "board": board("dusautoy-6x6.txt")}, limit=15)
        waited = time.monotonic() - started
        for job_id in heavy:
            s.call("DELETE", f"/api/jobs/{job_id}")
        assert job["state"] == "done" and waited < 10, (job, waited)
    finally:
        s.stop()


# 6. workers end with the server; a finished job's clock stops ---------------------------------------
def test_busy_workers_die_with_a_killed_server():
    s = Server("--workers", "2")
    job = s.call("POST", "/api/jobs", {"action": "probabilities", "board": heavy_board()})[1]
    deadline = time.monotonic() + 20
    while s.call("GET", f"/api/jobs/{job['id']}?wait=0.2")[1]["state"] != "running" and time.monotonic() < deadline:
        pass
    workers = [int(pid) for pid in subprocess.run(["pgrep", "-P", str(s.proc.pid)], capture_output=True,
                                                   text=True).stdout.split()]
    assert workers
    os.kill(s.proc.pid, signal.SIGKILL)
    s.proc.wait(timeout=10)
    deadline = time.monotonic() + 2.5
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], "a worker outlived its killed server"


def test_a_finished_jobs_seconds_stop_counting(server):
    job = server.job({"action": "level", "level": "gac", "board": board("seed-3x3.txt")})
    assert job["state"] == "done"
    time.sleep(1.2)
    assert server.call("GET", f"/api/jobs/{job['id']}")[1]["seconds"] == job["seconds"]



def test_ctrl_c_while_a_connection_thread_starts_is_not_swallowed(monkeypatch):
    # the connection's place was freed twice when Ctrl-C landed in Thread.start (the thread frees it too):
    # the ValueError that raised replaced the KeyboardInterrupt, the base class logged it, and the server
    # served on after Ctrl-C (seen as a server that ignored SIGINT once in a few runs)
    from http.server import ThreadingHTTPServer
    from mineconv.web import server as web
    from mineconv.web.jobs import JobPool

    def start_then_interrupt(self, request, client_address):
        threading.Thread(target=self.process_request_thread, args=(request, client_address)).start()
        raise KeyboardInterrupt
    pool = JobPool(max_workers=1, warm=0)
    s = web.serve("127.0.0.1", 0, pool=pool)
    try:
        monkeypatch.setattr(ThreadingHTTPServer, "process_request", start_then_interrupt)
        ours, theirs = socket.socketpair()
        theirs.close()
        with pytest.raises(KeyboardInterrupt):
            s.process_request(ours, ("127.0.0.1", 1))
        time.sleep(0.2)
        assert s._connections._value == web.MAX_CONNECTIONS      # its place freed once, by its thread
    finally:
        s.server_close()
        pool.close()
