"""Hand-written Markdown tables of a results page, taken into the JSON lines (`report.py --adopt`).

A dated table typed into README.md by hand (outside any generated block, outside code fences) becomes one
JSON line per row in `results/<bench>.jsonl` (kind "row": its columns, alignment and cells as written; the
date, time and commit its heading states, else the prose between the heading and the table), and the
table is replaced by a `<!-- table BENCH:N -->` block, which report.py then writes back. The benchmark is
the one of the nearest `## bench_NAME.py` heading above the table.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from harness import RESULTS, read

COMMIT = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}\b")
DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[ ,]+(\d{2}:\d{2})(?:-(\d{2}:\d{2}))?)?")
TIME = re.compile(r"\b([0-2]\d:[0-5]\d)(?:-([0-2]\d:[0-5]\d))?\b")
SEPARATOR = re.compile(r":?-+:?")


def cells(line: str) -> List[str]:
    """The cells of one Markdown table line."""
    return [c.strip() for c in line.strip()[1:-1].split("|")]


def dated(heading: str, prose: str) -> Dict[str, Any]:
    """The stamp a table's heading (else the prose under it) states: date, time, commit."""
    found = DATE.search(heading) or DATE.search(prose)
    date, start, until = (found.group(1), found.group(2), found.group(3)) if found else (None, None, None)
    if start is None:
        clock = TIME.search(prose)
        start, until = (clock.group(1), clock.group(2)) if clock else (None, None)
    commits = COMMIT.findall(heading) or COMMIT.findall(prose)
    stamp: Dict[str, Any] = {"date": date, "time": start, "commit": commits[0] if len(commits) == 1 else None,
                             "commits": commits, "heading": heading.lstrip("#").strip() or None,
                             "source": "benchmarks/README.md, adopted by report.py --adopt"}
    if until:
        stamp["until"] = until
    return stamp


def next_number(bench: str, results: Path) -> int:
    """The number the benchmark's next adopted table gets (after every table its lines hold)."""
    numbers = [int(r["table"].split(":")[1]) for r in read(results / f"{bench}.jsonl") if r.get("kind") == "row"]
    return max(numbers, default=0) + 1


def take(block: List[str], bench: str, stamp: Dict[str, Any], results: Path) -> Tuple[str, List[Dict[str, Any]]]:
    """A table's id and its rows as JSON lines (an error when it is not a well-formed table)."""
    columns, align = cells(block[0]), cells(block[1])
    rows = [cells(line) for line in block[2:]]
    if not all(SEPARATOR.fullmatch(a) for a in align) or any(len(r) != len(columns) for r in rows):
        raise ValueError(f"not a table of {len(columns)} columns: {block[0]}")
    table = f"{bench}:{next_number(bench, results)}"
    return table, [{"kind": "row", "bench": bench, "table": table, "row": k, "columns": columns, "align": align,
                    "cells": r, "stamp": stamp} for k, r in enumerate(rows)]


def adopt(page: str, results: Path = RESULTS) -> Tuple[str, int]:
    """The page with every hand-written table replaced by a table block (its rows appended to the JSON
    lines), and how many tables were taken."""
    lines, out = page.split("\n"), []
    bench: Optional[str] = None
    heading, prose, fence, inside, taken, i = "", [], False, False, 0, 0
    while i < len(lines):
        line = lines[i]
        fence ^= line.startswith("```")
        inside = (inside or line.startswith("<!-- table ") or line.startswith("<!-- run")) and not line.startswith(
            ("<!-- /table", "<!-- /run"))
        if not fence and not inside and line.startswith("|") and bench is not None:
            end = i
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            table, rows = take(lines[i:end], bench, dated(heading, " ".join(prose)), results)
            with open(results / f"{bench}.jsonl", "a", encoding="utf-8") as sink:
                sink.writelines(json.dumps(r) + "\n" for r in rows)
            out += [f"<!-- table {table} -->", "<!-- /table -->"]
            taken, i = taken + 1, end
            continue
        if not fence and line.startswith("## "):
            named = re.match(r"## (\w+)\.py", line)
            bench, heading, prose = (named.group(1) if named else None), "", []
        elif not fence and line.startswith("###"):
            heading, prose = line, []
        elif not line.startswith("<!--"):
            prose.append(line)
        out.append(line)
        i += 1
    return "\n".join(out), taken


def adopt_play_rows(results: Path = RESULTS) -> int:
    """Lines bench_play.py wrote before the harness ({"date", "config", "player", ...}, no "kind"), as a
    branch of that time may still append them, turned into its figures in place; how many were turned."""
    path = results / "bench_play.jsonl"
    lines = read(path)
    if all("kind" in line for line in lines):
        return 0
    import bench_play   # mineconv's simulator: imported only when there is a row to turn
    from harness import Recorder

    out: List[Dict[str, Any]] = []
    for line in lines:
        if "kind" in line:
            out.append(line)
            continue
        rec = Recorder("bench_play", None)
        rec.stamp = {"date": line.get("date"), "time": None, "commit": None, "dirty": False, "argv": None,
                     "machine": {}, "versions": {}, "source": "a bench_play.py row of before the harness, adopted"}
        bench_play.record(rec, [line])
        out += rec.lines
    path.write_text("".join(json.dumps(line) + "\n" for line in out), encoding="utf-8")
    return sum("kind" not in line for line in lines)
