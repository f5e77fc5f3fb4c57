"""The assistant page (`mineconv serve`): its server and API without a browser, then the page in Chromium.

The browser tests drive Debian's Chromium through Playwright (`executable_path=/usr/bin/chromium`, no
download); locally they skip with the reason when either is missing, under CI=true that is a failure.
What the page shows is compared with what the command line says on the same board.
"""
from __future__ import annotations

import base64
import contextlib
import io
import json
import math
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Iterator, Optional, Tuple

import pytest

from helpers import SAMPLES, require_module, require_tool

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(os.environ.get("MINECONV_SHOTS", "")) if os.environ.get("MINECONV_SHOTS") else None


class Server:
    """A `mineconv serve --port 0` child process, its address (with the run's token, for the page) and token."""

    def __init__(self, *extra: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "mineconv", "serve", "--port", "0", *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), self.proc.stderr.read() if self.proc.stderr else ""
        self.base, _, query = self.url.partition("?")          # http://127.0.0.1:PORT/ and token=...
        self.token = query.partition("token=")[2]
        self.port = int(self.base.rstrip("/").rsplit(":", 1)[1])

    def call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Any:
        """One API request, carrying the token; returns (status, decoded JSON)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base.rstrip("/") + path, data=data, method=method,
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": f"token {self.token}"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def job(self, body: Dict[str, Any], limit: float = 60) -> Dict[str, Any]:
        """Submit heavy work and wait for its end."""
        status, job = self.call("POST", "/api/jobs", body)
        assert status == 200, job
        deadline = time.monotonic() + limit
        while job["state"] in ("queued", "running") and time.monotonic() < deadline:
            _, job = self.call("GET", f"/api/jobs/{job['id']}?wait=1")
        return job

    def stop(self, sig: int = signal.SIGINT) -> int:
        """Send a signal and return the exit status."""
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=20)
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.stop()


def board(name: str) -> str:
    """A sample in the canonical text form (read through the library, as the page's load does)."""
    from mineconv.formats.notations.native import canonical_text
    import mineconv
    return canonical_text(mineconv.read(SAMPLES / name).replace(notes=()))


def run_cli(*args: str) -> Tuple[int, str, str]:
    """`mineconv ARGS` in this process: (exit status, stdout, stderr)."""
    from mineconv.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in args])
    return status, out.getvalue(), err.getvalue()


def cli_json(*args: str) -> Dict[str, Any]:
    status, out, err = run_cli(*args)
    assert status == 0, err
    return json.loads(out)


# the server and its API ------------------------------------------------------------------------------
def test_serve_prints_its_address_first_and_stops_on_sigint_and_sigterm():
    for sig, expected in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        s = Server()
        status, info = s.call("GET", "/api/info")
        assert status == 200 and "native" in info["formats"] and info["levels"] == ["gac", "2rc", "3rc", "full"]
        s.job({"action": "level", "level": "gac", "board": board("seed-3x3.txt")})  # a worker is running
        workers = subprocess.run(["pgrep", "-P", str(s.proc.pid)], capture_output=True, text=True).stdout.split()
        assert workers, "heavy work runs in a worker process"
        assert s.stop(sig) == expected
        time.sleep(0.3)
        assert [pid for pid in workers if alive(int(pid))] == [], "a worker outlived the server"


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_non_loopback_host_warns(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "mineconv", "serve", "--host", "0.0.0.0", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout.readline().startswith("http://0.0.0.0:")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    assert "warning: serving on 0.0.0.0" in err


def test_load_detects_the_notation_and_reports_located_errors(server):
    status, answer = server.call("POST", "/api/load", {"text": (SAMPLES / "dusautoy-6x6.dots").read_text()})
    assert status == 200 and answer["notation"] == "dots" and answer["rows"] == 6
    status, answer = server.call("POST", "/api/load", {"text": "mines: 2\n1??\n1x?\n", "format": "native"})
    assert status == 400
    assert answer["error"].startswith("<paste>:3:2:")   # file, line, column, as the command line says
    status, answer = server.call("POST", "/api/load", {"text": "\x00" * 50})
    assert status == 400 and "error" in answer
    status, answer = server.call("POST", "/api/nothing", {})
    assert status == 404


def test_binary_files_load_from_their_bytes(server):
    data = base64.b64encode((SAMPLES / "tatham-9x9n10.mbf").read_bytes()).decode()
    status, answer = server.call("POST", "/api/load", {"data": data, "source": "t.mbf"})
    assert status == 200 and answer["notation"] == "mbf" and answer["mines"] == 10
    status, answer = server.call("POST", "/api/load", {"data": base64.b64encode(b"\x09\x09\x00").decode(),
                                                       "source": "bad.mbf"})
    assert status == 400 and answer["error"].startswith("bad.mbf")


def test_a_huge_request_is_refused_before_it_is_read(server):
    request = urllib.request.Request(server.url + "api/load", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json", "Content-Length": str(10**12)})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 413


@pytest.mark.parametrize("level", ["gac", "2rc", "3rc", "full"])
def test_levels_decide_what_analyze_decides(server, level, tmp_path):
    text = board("dusautoy-6x6.txt")
    job = server.job({"action": "level", "level": level, "board": text})
    assert job["state"] == "done", job
    expected = cli_json("analyze", str(SAMPLES / "dusautoy-6x6.txt"), "--level", level, "--json")
    assert sorted(job["answer"]["safe"]) == sorted(expected["safe"])
    assert sorted(job["answer"]["mines"]) == sorted(expected["mines"])
    assert job["answer"]["solutions_str"] == expected["solutions_str"]


def test_probabilities_and_count_equal_analyze_json(server):
    text = board("kaye-splitter.txt")
    job = server.job({"action": "probabilities", "board": text})
    expected = cli_json("analyze", str(SAMPLES / "kaye-splitter.txt"), "--json")
    assert job["answer"]["solutions_str"] == expected["solutions_str"]
    assert job["answer"]["probabilities"] == expected["probabilities"]


def test_advise_equals_advise_json(server):
    text = board("seed-3x3.txt")
    job = server.job({"action": "advise", "board": text})
    assert job["state"] == "done", job
    assert job["answer"].pop("feasible") is True     # the page's word that a layout fits, beside advise's JSON
    assert job["answer"] == cli_json("advise", str(SAMPLES / "seed-3x3.txt"), "--json")
    assert job["answer"]["move"] == [0, 2]
    none = server.job({"action": "advise", "board": "mines: 1\n0*?\n???\n???\n"})
    assert none["state"] == "done" and none["answer"]["feasible"] is False, none
    assert none["answer"]["text"].startswith("no solution: the 0 at (0, 0)")
    bad = server.job({"action": "advise", "board": text, "budget": "soon"})
    assert bad["state"] == "failed" and "budget" in bad["error"]


def test_export_is_byte_identical_to_convert(server, tmp_path):
    text = board("dusautoy-6x6.txt")
    for fmt, ext in (("cnf", ".cnf"), ("lp", ".lp"), ("mbf", ".mbf"), ("json", ".json")):
        status, answer = server.call("POST", "/api/export", {"board": text, "format": fmt})
        src = tmp_path / "b.txt"
        src.write_text(text)
        out = tmp_path / f"b{ext}"
        code, _, err = run_cli("convert", str(src), "-o", str(out), "--to", fmt)
        if fmt == "mbf":
            assert status == 400 or code != 0 or base64.b64decode(answer["data"]) == out.read_bytes()
            continue
        assert status == 200 and code == 0, (answer, err)
        assert base64.b64decode(answer["data"]) == out.read_bytes()
        assert answer["filename"].endswith(ext)


def test_hostile_job_requests_are_clean_errors(server):
    # issue 25's adversarial pass: an unhashable action dropped the connection with a traceback, and
    # new_game's int() let numpy's "negative dimensions" and int()'s "invalid literal" through
    status, answer = server.call("POST", "/api/jobs", {"action": ["level"]})
    assert status == 400 and "no action" in answer["error"]
    for field, value in (("rows", -1), ("cols", "x"), ("mines", 2.5), ("rows", True), ("seed", -3)):
        job = server.job({"action": "new_game", "rows": 5, "cols": 5, "mines": 3, field: value})
        assert job["state"] == "failed" and job["error"].startswith(f"{field} must be a whole number"), job
    assert server.job({"action": "new_game", "rows": 5.0, "cols": 5, "mines": 3, "seed": 1})["state"] == "done"


def test_cancel_stops_a_running_job_at_once(server):
    from mineconv.make.generate import lattice_text
    status, job = server.call("POST", "/api/jobs", {"action": "probabilities",
                                                    "board": lattice_text(60, 60, 0.4, total=True, seed=3)})
    time.sleep(1.0)
    started = time.monotonic()
    _, cancelled = server.call("DELETE", f"/api/jobs/{job['id']}")
    assert cancelled["state"] == "cancelled"
    assert time.monotonic() - started < 2


# the page in a browser ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    require_tool("chromium")
    require_module("playwright")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def open_page(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page.goto(server.url)
    page.wait_for_selector("body[data-ready=true]")
    return page


def shot(page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))


def paste(page, text: str) -> None:
    page.fill('[data-input="paste"]', text)
    page.click('[data-action="load"]')
    page.wait_for_function("document.querySelector('[data-output=message]').textContent.startsWith('read')")


def cells(page) -> Dict[tuple, Dict[str, Optional[str]]]:
    return {(int(r), int(c)): {"state": s, "p": p} for r, c, s, p in page.eval_on_selector_all(
        "[data-row]", "els => els.map(e => [e.dataset.row, e.dataset.col, e.dataset.state, e.dataset.p ?? null])")}


def wait_message(page, start: str, timeout: float = 60000) -> str:
    page.wait_for_function(f"document.querySelector('[data-output=message]').textContent.startsWith({start!r})",
                           timeout=timeout)
    return page.text_content('[data-output="message"]')


def test_page_load_levels_step_undo_overlay(browser, server):
    page = open_page(browser, server)
    text = board("dusautoy-6x6.txt")
    paste(page, text)
    shot(page, "1-loaded")
    grid = cells(page)
    assert len(grid) == 36 and grid[(1, 1)]["state"] == "number" and grid[(0, 0)]["state"] == "unknown"
    # one step at 3rc decides what explain's first step decides, and outlines its counts
    page.click('[data-action="step-3rc"]')
    reason = wait_message(page, "step")
    first = cli_json("explain", str(SAMPLES / "dusautoy-6x6.txt"), "--level", "3rc", "--json")["steps"][0]
    grid = cells(page)
    for cell in first["cells"]:
        assert grid[(cell["row"], cell["col"])]["state"] == cell["value"]
    assert first["text"] in reason
    outlined = page.eval_on_selector_all(".cell.because", "els => els.map(e => [+e.dataset.row, +e.dataset.col])")
    assert sorted(map(tuple, outlined)) == sorted((b["row"], b["col"]) for b in first["because"])
    shot(page, "2-step")
    # undo brings the board back, redo the step again
    page.click('[data-action="undo"]')
    assert all(v["state"] in ("unknown", "number") for v in cells(page).values())
    page.click('[data-action="redo"]')
    assert cells(page)[(first["cells"][0]["row"], first["cells"][0]["col"])]["state"] == first["cells"][0]["value"]
    page.click('[data-action="undo"]')
    # each level to a fixed point decides exactly what analyze --level does
    for level in ("gac", "2rc", "3rc", "full"):
        page.click(f'[data-action="{level}"]')
        wait_message(page, level.upper())
        expected = cli_json("analyze", str(SAMPLES / "dusautoy-6x6.txt"), "--level", level, "--json")
        grid = cells(page)
        assert sorted([r, c] for (r, c), v in grid.items() if v["state"] == "safe") == sorted(expected["safe"])
        assert sorted([r, c] for (r, c), v in grid.items() if v["state"] == "mine") == sorted(expected["mines"])
        page.click('[data-action="undo"]')
    shot(page, "3-levels")
    page.close()


def test_page_overlay_equals_analyze_json(browser, server):
    page = open_page(browser, server)
    paste(page, (SAMPLES / "kaye-splitter.txt").read_text())
    page.click('[data-action="probabilities"]')
    page.wait_for_selector("[data-p]")
    expected = cli_json("analyze", str(SAMPLES / "kaye-splitter.txt"), "--json")
    shown = cells(page)
    for r, row in enumerate(expected["probabilities"]):
        for c, p in enumerate(row):
            if p is None:
                assert shown[(r, c)]["p"] is None
            else:
                assert math.isclose(float(shown[(r, c)]["p"]), p, abs_tol=1e-9)
    assert page.get_attribute('[data-output="solutions"]', "data-value") == expected["solutions_str"]
    assert page.is_visible('[data-output="legend"]')
    shot(page, "4-probabilities")
    page.close()


def test_page_export_is_solved_by_minisat_and_decoded(browser, server, tmp_path):
    minisat = require_tool("minisat")
    page = open_page(browser, server)
    paste(page, (SAMPLES / "dusautoy-6x6.txt").read_text())
    page.select_option('[data-input="format"]', "cnf")
    with page.expect_download() as caught:
        page.click('[data-action="export"]')
    path = tmp_path / caught.value.suggested_filename
    caught.value.save_as(str(path))
    assert path.suffix == ".cnf"
    src = tmp_path / "b.txt"
    src.write_text(board("dusautoy-6x6.txt"))
    run_cli("convert", str(src), "-o", str(tmp_path / "ref.cnf"))
    assert path.read_bytes() == (tmp_path / "ref.cnf").read_bytes()
    subprocess.run([minisat, str(path), str(tmp_path / "out")], capture_output=True)
    status, out, err = run_cli("decode", str(path), str(tmp_path / "out"), "--json")
    assert status == 0, err
    assert json.loads(out)["status"] == "solved"
    page.close()


def test_page_bad_paste_is_a_message_and_the_server_lives_on(browser, server):
    page = open_page(browser, server)
    page.fill('[data-input="paste"]', "this is not a board at all {{{")
    page.click('[data-action="load"]')
    page.wait_for_selector('[data-output="message"].error')
    message = page.text_content('[data-output="message"]')
    assert "<paste>" in message and "Traceback" not in message
    shot(page, "5-bad-paste")
    paste(page, "1??\n12?\n01?\n")   # the same page and server go on working
    page.close()


def test_page_game_and_editing(browser, server):
    page = open_page(browser, server)
    page.fill('[data-input="rows"]', "9")
    page.fill('[data-input="cols"]', "9")
    page.fill('[data-input="game-mines"]', "10")
    page.click('[data-action="new-noguess"]')
    wait_message(page, "no-guess game")
    grid = cells(page)
    assert grid[(4, 4)]["state"] == "number"       # the first click is open
    # in a no-guess game, full reasoning from the first opening always decides a cell
    page.click('[data-action="step-full"]')
    wait_message(page, "step")
    assert any(v["state"] in ("safe", "mine") for v in cells(page).values())
    shot(page, "6-game")
    # a puzzle's cell cycles unknown -> 0 -> 1 on clicks; undo returns it
    paste(page, "???\n???\n???\n")
    page.click('[data-row="1"][data-col="1"]')
    page.click('[data-row="1"][data-col="1"]')
    assert cells(page)[(1, 1)]["state"] == "number" and page.text_content('[data-row="1"][data-col="1"]') == "1"
    page.click('[data-row="0"][data-col="0"]', button="right")
    assert cells(page)[(0, 0)]["state"] == "flag"
    page.click('[data-action="undo"]')
    assert cells(page)[(0, 0)]["state"] == "unknown"
    # the permalink reloads the same board
    page.click('[data-action="permalink"]')
    link = page.url
    other = open_page(browser, server)
    other.goto(link)
    other.reload()
    other.wait_for_selector("body[data-ready=true]")
    assert cells(other)[(1, 1)]["state"] == "number"
    other.close()
    page.close()


def test_five_hard_analyses_while_a_sixth_page_answers(browser, server):
    from mineconv.make.generate import lattice_text
    hard = lattice_text(60, 60, 0.4, total=True, seed=5)
    pages = []
    for _ in range(5):
        page = open_page(browser, server)
        paste(page, hard)
        page.click('[data-action="probabilities"]')
        pages.append(page)
    time.sleep(1.5)
    sixth = open_page(browser, server)
    started = time.monotonic()
    paste(sixth, "1??\n12?\n01?\n")
    assert time.monotonic() - started < 1.5
    for page in pages:   # cancel from the page: each job ends and its button is free again
        page.click('[data-action="cancel"]')
        page.wait_for_selector('[data-action="cancel"]:disabled')
        page.close()
    sixth.close()
