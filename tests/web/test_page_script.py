"""The page's script without a browser: its pure functions under Node, two of them against their Python homes.

The page keeps the board itself and writes it as text for every request, and a game opens cells on the
page: a click answers at once, with no request (benchmarks/bench_page_click.py: the page's flood fill takes
under 0.1 ms on an expert board and 5 ms for 10,000 cells, where a request's round trip alone takes 4-25
ms, and the page's tests read the board right after a click). So `static/board.mjs` holds its own
`boardText` and `floodOpen`. Each fact keeps one home in Python, and these
tests prove the page's copy equal to it on many random boards:
- the board's text: `mineconv.formats.notations.native.canonical_text` (what the server reads back);
- the cells a click on a closed board opens: `mineconv.core.layout.opened_state`.
`tests/web/js/*.test.mjs` (cell cycling, the text, flood fill, chords, the counters, the overlay's colours,
sizes, permalinks ...) run under `node --test`: locally skipped when Node is missing, a failure under CI=true.
"""
from __future__ import annotations

import fnmatch
import http.client
import json
import re
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from helpers import require_tool
from mineconv import Puzzle
from mineconv.core.errors import PuzzleError
from mineconv.core.layout import mine_counts, opened_state
from mineconv.formats.notations.native import canonical_text
from mineconv.web.actions import board_answer
import web_helpers
from web_helpers import Server

server = web_helpers.server      # the fixture: a `mineconv serve` child process
JS = Path(__file__).resolve().parent / "js"
ROOT = JS.parents[2]
NAME_LETTERS = list("ab Z9 _-.:#'’é✹") + ["\t", "  ", "\u00a0"]


def run_node(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    """`node ARGS` in the repository, its output kept."""
    node = require_tool("node")
    return subprocess.run([node, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=timeout)


def page_side(answers: List[Dict[str, Any]], opens: List[Dict[str, Any]]) -> Dict[str, Any]:
    """What the page's board functions make of boards (tests/web/js/page_board.mjs), in one Node process."""
    done = run_node(str(JS / "page_board.mjs"), stdin=json.dumps({"answers": answers, "opens": opens}))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def random_puzzle(rng: np.random.Generator) -> Puzzle:
    """A board the page may hold: any symbols (counts within their neighbours), a name, total and start or not."""
    while True:
        rows, cols = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        symbols = rng.choice(list("0123456789*.??"), size=rows * cols)
        cells = []
        for i, ch in enumerate(symbols):
            r, c = divmod(i, cols)
            room = (min(r + 2, rows) - max(r - 1, 0)) * (min(c + 2, cols) - max(c - 1, 0)) - 1
            cells.append(str(min(int(ch), room)) if ch.isdigit() else ch)
        name: Optional[str] = None
        if rng.random() < 0.6:
            name = "".join(rng.choice(NAME_LETTERS, size=int(rng.integers(0, 12))))
        mines = int(rng.integers(0, rows * cols + 1)) if rng.random() < 0.7 else None
        start: Optional[Tuple[int, int]] = None
        if rng.random() < 0.3:
            start = (int(rng.integers(0, rows)), int(rng.integers(0, cols)))
        try:
            return Puzzle(rows, cols, "".join(cells), mines=mines, name=name, start=start)
        except PuzzleError:     # a start the model refuses (on a decided cell, say): draw again
            continue


def test_pure_functions_pass_under_node():
    # TAP named: Node 23 made its spec reporter the default everywhere
    done = run_node("--test", "--test-reporter=tap", *sorted(str(p) for p in JS.glob("*.test.mjs")))
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = re.search(r"^# pass (\d+)$", done.stdout, re.MULTILINE)
    assert "\n# fail 0\n" in done.stdout and passed is not None and int(passed.group(1)) >= 17


def test_board_text_is_canonical_text_on_random_boards():
    rng = np.random.default_rng(39)
    puzzles = [random_puzzle(rng) for _ in range(400)]
    answers = [board_answer(p) for p in puzzles]
    texts = page_side(answers, [])["texts"]
    for puzzle, answer, text in zip(puzzles, answers, texts):
        assert text == canonical_text(puzzle) == answer["board"], puzzle
    assert sum(p.name is not None for p in puzzles) > 100 and sum(p.start is not None for p in puzzles) > 50


def test_a_click_opens_what_opened_state_opens():
    rng = np.random.default_rng(27)
    opens, expected = [], []
    for _ in range(400):
        rows, cols = int(rng.integers(1, 17)), int(rng.integers(1, 31))
        grid = rng.random((rows, cols)) < rng.choice([0.0, 0.05, 0.12, 0.2, 0.35])
        if grid.all():
            continue
        safe = np.argwhere(~grid)
        r, c = (int(v) for v in safe[rng.integers(len(safe))])
        opens.append({"rows": rows, "cols": cols, "row": r, "col": c,
                      "counts": ["".join(str(int(n)) for n in row) for row in mine_counts(grid).tolist()]})
        expected.append(list(opened_state(grid, r, c, with_total=False).grid_lines))
    got = page_side([], opens)["opens"]
    assert got == expected
    assert sum(sum(row.count("?") == 0 for row in rows_) for rows_ in expected) > 0    # some open whole rows
    assert sum(len(rows_) * len(rows_[0]) - sum(row.count("?") for row in rows_) > 20 for rows_ in expected) > 50


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
        if name != "contract.mjs":     # the data-* names are found through contract.mjs alone
            assert "[data-" not in (STATIC / name).read_text(encoding="utf-8"), f"{name} names a data-* selector"
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
