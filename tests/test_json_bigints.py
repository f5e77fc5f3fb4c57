"""Every JSON mineconv writes loads whole in Python's json (default limits) and JavaScript's JSON.parse.

Issue 38, 6: a count past 4300 digits made `analyze --json` write a bare integer Python's json refuses, and
the page's probabilities failed. The rule (core/jsonout.py, README "Huge counts in JSON"): below 2**53 a
plain number; above, `K_str` beside K with the exact digits, K itself the number up to 4300 digits and the
same string past them; in a list, the string. Counts are checked against exact Python integers.
"""
from __future__ import annotations

import contextlib
import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator, List

import pytest

from helpers import ROOT, require_tool, run_cli
from mineconv.core.jsonout import SAFE_INTEGER, decimal_text, json_text

# numbers at every edge of the rule, up to the biggest a 1000 x 1000 board's count reaches (301,030 digits)
EDGES = [0, 1, -1, SAFE_INTEGER - 1, SAFE_INTEGER, -SAFE_INTEGER, 2 ** 64, 10 ** 4299, 10 ** 4300 - 1, 10 ** 4300,
         -(10 ** 4300), 3 ** 20_000, 2 ** 1_000_000]


@contextlib.contextmanager
def python_default_limit() -> Iterator[None]:
    """Python's own default int-string limit (4300 digits), whatever an earlier test left."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def node_values(texts: List[str], script: str) -> List[Any]:
    """Each JSON text parsed by node's JSON.parse, then `script` (a JS expression of `d`) per document."""
    node = require_tool("node")
    program = ("const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
               f"console.log(JSON.stringify(texts.map(t => {{ const d = JSON.parse(t); return {script}; }})));")
    done = subprocess.run([node, "-e", program], input=json.dumps(texts), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def holds(doc: Any, key: str, n: int) -> bool:
    """The value under key is n exactly: the JSON number n, or (past 4300 digits) n's decimal digits."""
    value = doc[key]
    return value == n if type(value) is int else value == decimal_text(n)


def test_the_rule_on_every_edge():
    texts = [json_text({"n": n, "inner": {"n": n}, "list": [n, 1], "p": 0.5}) for n in EDGES]
    with python_default_limit():
        docs = [json.loads(t) for t in texts]
    for n, d in zip(EDGES, docs):
        text = decimal_text(n)
        for doc in (d, d["inner"]):
            assert holds(doc, "n", n)
            if abs(n) < SAFE_INTEGER:
                assert type(doc["n"]) is int and "n_str" not in doc     # unchanged where JavaScript was exact
            else:
                assert doc["n_str"] == text
                # the number itself stays a number while Python's json reads it (its meaning where it worked)
                assert type(doc["n"]) is (int if len(text.lstrip("-")) <= 4300 else str)
        assert d["list"] == [n if abs(n) < SAFE_INTEGER else text, 1]
    # JavaScript: BigInt of the companion (or of the safe number) is exact
    got = node_values(texts, "[BigInt(d.n_str ?? d.n).toString(), BigInt(d.inner.n_str ?? d.inner.n).toString(), "
                             "BigInt(d.list[0]).toString()]")
    assert got == [[decimal_text(n)] * 3 for n in EDGES]


def test_a_written_companion_is_kept_and_nan_refused():
    n = 7 ** 9000
    text = json_text({"solutions": n, "solutions_str": decimal_text(n), "solutions_log10": math.log10(n)})
    assert text.count('"solutions_str"') == 1
    with python_default_limit():
        d = json.loads(text)
    assert d["solutions"] == d["solutions_str"] == decimal_text(n)
    for bad in (float("nan"), float("inf"), {"p": [float("-inf")]}):
        with pytest.raises(ValueError):
            json_text(bad)


def big_board(tmp_path: Path) -> Path:
    """The issue's board: 200 x 200 unknown cells but one count, 1, and a total of 8,000 mines."""
    rows = ["?" * 200] * 200
    rows[100] = "?" * 99 + "1" + "?" * 100
    path = tmp_path / "big.txt"
    path.write_text("mines: 8000\n" + "\n".join(rows) + "\n")
    return path


BIG_COUNT = 8 * math.comb(200 * 200 - 9, 7999)   # the 1's mine among its 8 cells, the rest anywhere else


@pytest.mark.parametrize("argv, key", [(["analyze", "--json"], "solutions"), (["grade", "--json"], "solutions"),
                                       (["verdict", "--json"], "count"),
                                       (["solve", "--all", "--force", "--limit", "1", "--json"], "total_solutions")])
def test_the_biggest_counts_of_each_command_load_whole(argv, key, tmp_path, capsys):
    board, count = big_board(tmp_path), BIG_COUNT
    assert len(decimal_text(BIG_COUNT)) == 8691
    if argv[0] == "verdict":   # its guess certificate with a total of 8,000 is a long SAT search: no total here
        board.write_text(("?" * 120 + "\n") * 120)
        count = 2 ** 14400    # 4,335 digits
    status, out, err = run_cli(capsys, argv[0], board, *argv[1:])
    assert status == 0, err
    with python_default_limit():
        doc = json.loads(out)
    assert holds(doc, key, count)
    js = node_values([out], f"BigInt(d.{key}_str ?? d.{key}).toString()")
    assert js == [decimal_text(count)]


def test_the_pages_worker_answers_the_big_probabilities(tmp_path):
    """The page's path: the worker process's reply line (then the server's JSON, the same rule) loads whole."""
    board = big_board(tmp_path).read_text()
    request = json.dumps({"action": "probabilities", "board": board}) + "\n"
    done = subprocess.run([sys.executable, "-m", "mineconv.web.worker_process"], input=request, capture_output=True,
                          text=True, timeout=120)
    with python_default_limit():
        reply = json.loads(done.stdout.splitlines()[0])
    assert reply["ok"], reply
    assert holds(reply["answer"], "solutions", BIG_COUNT)
    assert reply["answer"]["solutions_str"] == decimal_text(BIG_COUNT)
    assert node_values([done.stdout.splitlines()[0]], "d.answer.solutions_str") == [decimal_text(BIG_COUNT)]


def test_every_json_writer_goes_through_the_one_rule():
    """json.dumps of a whole document only in core/jsonout.py; the notations' and answers' readers and
    writers use it for short pieces (an error message's excerpt, a puzzle file's small numbers)."""
    allowed = ("core/jsonout.py", "formats/")
    found = []
    for path in sorted((ROOT / "converters").rglob("*.py")):
        rel = path.relative_to(ROOT / "converters").as_posix()
        if rel.startswith(allowed):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\bjson\.dumps?\(", line):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_lists_of_small_lists_pass_whole_and_big_numbers_in_them_are_still_written_as_text():
    # a certificate's million [row, col] cells skip the walk one list at a time (1.5 s at 1000x1000)
    from mineconv.core.jsonout import json_text
    cells = [[[0, 1], [2, 3]], [[4, 5]]]
    assert json_text(cells) == "[[[0, 1], [2, 3]], [[4, 5]]]"
    assert json_text([[1, 2 ** 60]]) == '[[1, "1152921504606846976"]]'
    assert json_text([[-(2 ** 60), 1]]) == '[["-1152921504606846976", 1]]'
    assert json_text([[-(2 ** 53), 1], [2 ** 53 - 1]]) == '[["-9007199254740992", 1], [9007199254740991]]'
    assert json_text([[0.5, 2 ** 53], [True, None]]) == '[[0.5, "9007199254740992"], [true, null]]'
    assert json_text([[0.5, 3], ["a", False]]) == '[[0.5, 3], ["a", false]]'
