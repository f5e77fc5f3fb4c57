"""The page's script without a browser: its pure functions under Node, its modules as the server serves them.

`tests/js/*.test.mjs` (cell cycling, the text, flood fill, chords, the counters, the overlay's colours,
sizes, permalinks ...) run under `node --test`: locally skipped when Node is missing, a failure under CI=true.
"""
from __future__ import annotations

import fnmatch
import http.client
import json
import re
import subprocess
from pathlib import Path
from typing import Dict, List, Tuple

from helpers import require_tool
import web_helpers
from web_helpers import Server

server = web_helpers.server      # the fixture: a `mineconv serve` child process
JS = Path(__file__).resolve().parent / "js"
ROOT = JS.parent.parent


def run_node(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    """`node ARGS` in the repository, its output kept."""
    node = require_tool("node")
    return subprocess.run([node, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=timeout)


def test_pure_functions_pass_under_node():
    done = run_node("--test", *sorted(str(p) for p in JS.glob("*.test.mjs")))
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# pass " in done.stdout


# the modules as files: served as JavaScript behind the server's gate, all reached from app.mjs, shipped
STATIC = ROOT / "converters" / "web" / "static"
IMPORT = re.compile(r'^import\s[^;]*?from\s+"([^"]+)";', re.MULTILINE | re.DOTALL)


def imports_of(path: Path) -> List[str]:
    """The files a module imports (all relative: the page loads nothing from elsewhere)."""
    return IMPORT.findall(path.read_text(encoding="utf-8"))


def test_modules_form_one_tree_from_app_with_no_mutable_globals():
    modules = {p.name for p in STATIC.glob("*.mjs")}
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="/static/app.mjs">']
    reached, todo = set(), ["app.mjs"]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        for target in imports_of(STATIC / name):
            assert target.startswith("./") and target[2:] in modules, f"{name} imports {target}"
            todo.append(target[2:])
    assert reached == modules, f"modules app.mjs never reaches: {sorted(modules - reached)}"
    for name in sorted(modules):
        top = [line for line in (STATIC / name).read_text(encoding="utf-8").splitlines()
               if re.match(r"(export\s+)?(let|var)\s", line)]
        assert top == [], f"{name} holds a mutable global: {top}"   # state lives in state.mjs's one object
    assert not list(STATIC.glob("*.js")), "the page's scripts are modules (.mjs), loaded by app.mjs"


def test_every_page_file_is_shipped_in_the_wheel():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    patterns = json.loads(re.search(r'^"mineconv\.web"\s*=\s*(\[.*\])$', text, re.MULTILINE).group(1))
    for path in STATIC.rglob("*"):
        if path.is_file():
            name = path.relative_to(STATIC.parent).as_posix()
            assert any(fnmatch.fnmatch(name, p) and name.count("/") == p.count("/") for p in patterns), name


def get(s: Server, path: str, **headers: str) -> Tuple[int, Dict[str, str], bytes]:
    """A GET exactly as given (Host the server's own unless told), with no token."""
    connection = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
    try:
        connection.putrequest("GET", path, skip_host=True)
        for name, value in dict({"Host": f"127.0.0.1:{s.port}"}, **headers).items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_modules_are_served_as_javascript_behind_the_same_gate(server):
    for path in sorted(STATIC.glob("*.mjs")):
        status, headers, data = get(server, f"/static/{path.name}")     # the page's files need no token
        assert status == 200 and data == path.read_bytes(), path.name
        assert headers["Content-Type"] == "text/javascript; charset=utf-8", path.name   # else no module runs
        assert headers["X-Content-Type-Options"] == "nosniff"
        status, _, _ = get(server, f"/static/{path.name}", Host="attacker.example")      # a rebound name
        assert status == 403
        status, _, _ = get(server, f"/static/{path.name}", Origin="http://attacker.example")
        assert status == 403
    status, _, _ = get(server, "/static/../guard.py")
    assert status == 404
