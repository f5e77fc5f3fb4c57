"""README's tables and one plot per benchmark, generated from the JSON lines in benchmarks/results/.

    python benchmarks/report.py            # rewrite the generated parts of benchmarks/README.md and plots/
    python benchmarks/report.py --check    # exit 1, naming what differs, when they are not what the lines give
    python benchmarks/report.py --adopt    # first take tables typed into the pages by hand into the JSON lines

README.md (and ANALYZE_RESULTS.md) hold three kinds of generated block; everything between a block's
markers is rewritten, the prose around them is kept as written:

    <!-- table bench_small:4 -->  ...  <!-- /table -->   a dated table: the lines of kind "row" of that table
    <!-- runs bench_small -->  ...  <!-- /runs -->       the runs recorded through the harness (figures, peers
                                                         side by side) and the benchmark's plot
    <!-- run bench_analyze 2026-11-22 13:38 size=300 -->  ...  <!-- /run -->   one run's figures (those of
                                                         its cases with the values given), extras as columns

A plot (plots/<bench>.svg) draws the benchmark's headline figure over the dated runs, ours beside the peer's.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from adopt import adopt, adopt_play_rows
from harness import HERE, RESULTS, US, read
from svgplot import Series, line_plot

README = HERE / "README.md"
PAGES = (README, HERE / "ANALYZE_RESULTS.md")
PLOTS = HERE / "plots"
BLOCK = re.compile(r"<!-- (table|runs|run) ([^>]*?) -->\n.*?<!-- /\1 -->", re.S)
MOST_LINES = 6   # lines in one plot
RUNS_SHOWN = 3   # the newest runs in README's table; the JSON lines keep them all

# the headline of each benchmark's plot, read from the dated tables: (series, row pattern, column pattern[,
# which number of the cell: 0 the first, the default; -2 the last but one, the seconds of "status, digits, s,
# MB"]). A row pattern is searched in "TABLE | cell | cell ...", so "^bench_noguess:3 " picks a table and
# "\| lp \|" a first cell; "." draws a line per row (named by its first cell). Ours are named "mineconv ...",
# a peer's anything else. Runs through the harness add their figure named in HEADLINE.
LEGACY: Dict[str, List[Tuple[Any, ...]]] = {
    "bench_small": [("mineconv ms, expert", r"\| (30x16|16x30)(/|, )99", r"^mineconv ms"),
                    ("ms-toollib ms, expert", r"\| (30x16|16x30)(/|, )99", r"^ms-toollib ms")],
    "bench_startup": [("mineconv --version, CPU s", r"\| `?mineconv --version`? \|", r"^(after|this)"),
                      ("python -c pass, CPU s", r"\| `?python -c pass`? \|", r"^(after|this)")],
    "bench_formats": [("mineconv .lp, CPU s", r"\| `?\.?lp`? \|", r"^(CPU s after|`mineconv convert` CPU s|CPU s$)"),
                      ("mineconv .mps, CPU s", r"\| `?\.?mps`? \|", r"^(CPU s after|`mineconv convert` CPU s|CPU s$)")],
    "bench_batch": [("mineconv boards/s, native to cnf, -j 1", r"\| native \| cnf \| 1 \|", r"^boards/s")],
    "bench_scale": [("mineconv 1000² CPU s", r".", r"^1000² CPU s")],
    "bench_solvers": [("mineconv via pysat, s", r".", r"^pysat( after)?$"), ("mineconv via minisat, s", r".", r"^minisat$")],
    "bench_analyze": [("mineconv full level, after", r".", r"^after: full level")],
    "bench_noguess": [("mineconv (repaired), expert 99", r"^bench_noguess:(1 \| 16x30/99|3) \| mineconv", r"^boards"),
                      ("ms-toollib, expert 99", r"^bench_noguess:(1 \| 16x30/99|3) \| ms-toollib[^|]*max_times=100000",
                       r"^boards")],
    "bench_design": [("mineconv puzzles/s", r".", r"^puzzles/s")],
    "bench_reduce": [("mineconv analyze s", r".", r"^analyze s")],
    "bench_hardcount": [("mineconv, no total: s", r".", r"^no total: status, (digits, )?s, MB", -2),
                        ("d4 (no total): s", r".", r"^d4 \(no total\)", -2)],
    "bench_serve": [("mineconv small job behind the heavy ones, s", r".", r"^small job behind"),
                    ("mineconv small job alone, s", r".", r"^small job alone")],
    "bench_download": [("mineconv seconds", r".", r"^seconds")],
    "bench_memory": [("mineconv wall s", r".", r"^wall s")],
    "bench_play": [],
    "engine_trials": [("mineconv engine, expert games per CPU-second", r".", r"^expert games per CPU-second")],
}
# the harness figure each plot follows, and the case it is drawn for (one series per side and case)
HEADLINE: Dict[str, Tuple[str, Dict[str, Any]]] = {
    "bench_play": ("win rate", {"config": "expert-snr"}),
    "bench_small": ("ms per call", {"board": "30x16/99"}),
    "bench_startup": ("CPU seconds", {"task": "mineconv --version"}),
    "bench_formats": ("convert CPU seconds", {"format": "lp"}),
    "bench_hardcount": ("seconds", {"board": "checker-60x60-0.3", "total": False}),
    "bench_solvers": ("seconds to solution", {"board": "expert-1"}),
    "bench_analyze": ("seconds", {"size": 100, "density": 0.16, "seed": 0, "level": "full"}),
    "engine_trials": ("games per CPU-second", {"board": "16x30/99"}),
}
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def first_number(cell: str, pick: int = 0) -> Optional[float]:
    """The first number written in a cell ("**50.55%** (2,000)" -> 50.55), or the one `pick` says (an index
    into the cell's numbers); None when there is none."""
    found = [float(n.replace(",", "")) for n in NUMBER.findall(cell.replace("\u2009", ""))]
    return found[pick] if -len(found) <= pick < len(found) else None


def markdown_table(columns: Sequence[str], align: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table: header, alignment row, rows, one cell separator style."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return "\n".join(lines)


def table_block(table: str, rows: List[Dict[str, Any]]) -> str:
    """The body of a <!-- table --> block from its rows."""
    mine = sorted((r for r in rows if r["table"] == table), key=lambda r: r["row"])
    if not mine:
        raise KeyError(f"README names table {table}, which no results line holds")
    return "\n" + markdown_table(mine[0]["columns"], mine[0]["align"], [r["cells"] for r in mine]) + "\n\n"


def run_key(line: Dict[str, Any]) -> Tuple[str, str, str]:
    """What tells a run apart: its date, time and commit."""
    st = line["stamp"]
    return st.get("date") or "", st.get("time") or "", st.get("commit") or ""


def run_text(key: Tuple[str, str, str]) -> str:
    """A run as README names it: date, time to the minute, commit (what is known of them)."""
    return " ".join(part for part in (key[0], key[1][:5], key[2]) if part)


def value_text(line: Dict[str, Any]) -> str:
    """A figure as README shows it: 4 significant digits, the spread's min-max when measured repeatedly."""
    value = line["value"]
    if value is None:
        return "-"
    text = number_text(value)
    sp = line.get("spread")
    if sp and sp.get("n", 1) > 1:
        text += f" ({number_text(sp['min'])}-{number_text(sp['max'])})"
    return text


def number_text(value: float) -> str:
    """4 significant digits, or the whole number from 1,000 on (no exponent)."""
    return f"{value:.0f}" if abs(value) >= 1000 else f"{value:.4g}"


def case_text(case: Dict[str, Any]) -> str:
    """A case as one short cell."""
    return ", ".join(f"{k} {v}" for k, v in case.items()) or "-"


def runs_block(bench: str, figures: List[Dict[str, Any]]) -> str:
    """The body of a <!-- runs --> block: the newest runs' figures, every side in a column of its own."""
    plot = f"![{bench}: the headline figure over the dated runs, ours beside the peer's](plots/{bench}.svg)\n"
    keys = sorted({run_key(f) for f in figures})[-RUNS_SHOWN:]
    if not keys:
        return (f"\nNo run recorded through the harness yet: `python benchmarks/{bench}.py` appends its figures to "
                f"`benchmarks/results/{bench}.jsonl`.\n\n{plot}\n")
    shown = [f for f in figures if run_key(f) in keys]
    sides = sorted({f["side"] for f in shown}, key=lambda s: (not s.startswith(US), s))
    cells: Dict[Tuple[Any, ...], Dict[str, str]] = {}
    for f in shown:
        key = (run_key(f), case_text(f["case"]), f"{f['figure']} ({f['unit']})", 0)
        while f["side"] in cells.get(key, {}):   # a second figure of one side in one run: a row of its own
            key = key[:3] + (key[3] + 1,)
        cells.setdefault(key, {})[f["side"]] = value_text(f)
    rows = [[run_text(k[0]), k[1], k[2]] + [v.get(s, "") for s in sides]
            for k, v in cells.items()]
    table = markdown_table(["run (UTC, commit)", "case", "figure"] + sides, ["---"] * 3 + ["---:"] * len(sides), rows)
    machines = []
    for key in keys:
        st = next(f["stamp"] for f in shown if run_key(f) == key)
        machines.append(f"- {run_text(key)}{' (uncommitted changes)' if st.get('dirty') else ''}: "
                        + machine_text(st))
    return "\n" + table + "\n\n" + "\n".join(machines) + "\n\n" + plot + "\n"


def machine_text(st: Dict[str, Any]) -> str:
    """What a run's stamp says of its machine and versions, leaving out what it does not say."""
    m = st.get("machine", {})
    parts = [m.get("cpu"), m.get("cores") and f"{m['cores']} cores", m.get("ram_gib") and f"{m['ram_gib']} GiB",
             m.get("python") and f"Python {m['python']}", m.get("load") is not None and f"load {m['load']}"]
    parts += [f"{k} {v}" for k, v in st.get("versions", {}).items() if v]
    said = ", ".join(str(p) for p in parts if p)
    return said + (f" ({st['source']})" if st.get("source") else "")


def run_block(spec: str, lines: Dict[str, List[Dict[str, Any]]]) -> str:
    """The body of a <!-- run BENCH DATE TIME [KEY=VALUE ...] --> block: that run's figures as a table, a
    row per case and figure, the sides side by side, the figures' scalar extras as the last columns."""
    bench, date, hhmm, *filters = spec.split()
    wanted = dict(f.split("=", 1) for f in filters)
    shown = [f for f in lines.get(bench, []) if f.get("kind") == "figure" and f["stamp"].get("date") == date
             and (f["stamp"].get("time") or "")[:5] == hhmm
             and all(str(f["case"].get(k)) == v for k, v in wanted.items())]
    if not shown:
        raise KeyError(f"no figure of {bench} was recorded at {date} {hhmm} with {wanted}")
    keys = [k for k in shown[0]["case"] if k not in wanted]
    sides = sorted({f["side"] for f in shown}, key=lambda s: (not s.startswith(US), s))
    extras = [k for k, v in shown[0].get("extra", {}).items() if isinstance(v, (int, float, str))]
    rows: Dict[Tuple[Any, ...], List[str]] = {}
    for f in shown:
        key = tuple(str(f["case"][k]) for k in keys) + (f"{f['figure']} ({f['unit']})",)
        row = rows.setdefault(key, list(key) + [""] * len(sides) + [str(f.get("extra", {}).get(k, "")) for k in extras])
        row[len(key) + sides.index(f["side"])] = value_text(f)
    columns = keys + ["figure"] + sides + extras
    align = ["---"] * (len(keys) + 1) + ["---:"] * (len(sides) + len(extras))
    return "\n" + markdown_table(columns, align, list(rows.values())) + "\n\n"


def legacy_points(bench: str, rows: List[Dict[str, Any]]) -> Dict[str, List[Tuple[str, float]]]:
    """The plot's points from the dated tables: series -> [(x label, value)], in date order."""
    points: Dict[str, List[Tuple[str, float]]] = {}
    for name, row_pat, col_pat, *pick in LEGACY.get(bench, []):
        for r in rows:
            if not re.search(row_pat, " | ".join([r["table"], *r["cells"]])):
                continue
            col = next((i for i, c in enumerate(r["columns"]) if i and re.search(col_pat, c)), None)
            value = None if col is None else first_number(r["cells"][col], *pick)
            if value is not None:   # a pattern for every row draws a line per row (a board, a task ...)
                series = name if row_pat != "." else f"{name}: {r['cells'][0].strip('*` ')}"
                points.setdefault(series, []).append((x_label(r["stamp"]), value))
    return points


def x_label(st: Dict[str, Any]) -> str:
    """A point's place on the x axis: date, time, commit."""
    return " ".join(p for p in (st.get("date") or "undated", (st.get("time") or "")[:5], st.get("commit") or "") if p)


def figure_points(bench: str, figures: List[Dict[str, Any]]) -> Dict[str, List[Tuple[str, float]]]:
    """The plot's points from the harness's figures: one series per side and case."""
    wanted, case = HEADLINE.get(bench) or (figures[0]["figure"] if figures else None, {})
    points: Dict[str, List[Tuple[str, float]]] = {}
    for f in figures:
        if f["figure"] == wanted and f["value"] is not None and case.items() <= f["case"].items():
            name = f"{f['side']}: {wanted}" + (f", {case_text(f['case'])}" if f["case"] else "")
            points.setdefault(name, []).append((x_label(f["stamp"]), float(f["value"])))
    return points


def plot(bench: str, rows: List[Dict[str, Any]], figures: List[Dict[str, Any]]) -> str:
    """The benchmark's SVG plot."""
    points = {**legacy_points(bench, rows), **figure_points(bench, figures)}
    series = [Series(name, pts, peer=not name.startswith(("mineconv", US, "baseline", "engine")))
              for name, pts in points.items()]
    # the lines with the most dated points (the cases measured most often), half of them the peers' when
    # there are peers, in their first order
    ours = sorted((s for s in series if not s.peer), key=lambda s: -len(s.points))
    peers = sorted((s for s in series if s.peer), key=lambda s: -len(s.points))
    room = MOST_LINES - min(len(peers), MOST_LINES // 2)
    kept = sorted(ours[:room] + peers[:MOST_LINES - min(len(ours), room)], key=series.index)
    return line_plot(f"{bench}: headline figures over the dated runs", kept)


def render(page: str, lines: Dict[str, List[Dict[str, Any]]]) -> str:
    """A page's text with every generated block rewritten from the JSON lines (bench -> its lines)."""
    rows = [r for ls in lines.values() for r in ls if r.get("kind") == "row"]

    def body(match: "re.Match[str]") -> str:
        kind, name = match.group(1), match.group(2)
        if kind == "table":
            inner = table_block(name, rows)
        elif kind == "run":
            inner = run_block(name, lines)
        else:
            inner = runs_block(name, [f for f in lines.get(name, []) if f.get("kind") == "figure"])
        return f"<!-- {kind} {name} -->\n{inner}<!-- /{kind} -->"

    return BLOCK.sub(body, page)


def load(results: Path = RESULTS) -> Dict[str, List[Dict[str, Any]]]:
    """Every results file's lines, by benchmark."""
    return {p.stem: read(p) for p in sorted(results.glob("*.jsonl"))}


def generate(readme: str, results: Path = RESULTS) -> Tuple[str, Dict[str, str]]:
    """README's text with every generated block rewritten, and the plots (file name -> SVG text)."""
    lines = load(results)
    text = render(readme, lines)
    benches = sorted({m.group(2) for m in BLOCK.finditer(readme) if m.group(1) == "runs"})
    plots = {}
    for bench in benches:
        own = lines.get(bench, [])
        plots[f"{bench}.svg"] = plot(bench, [r for r in own if r.get("kind") == "row"],
                                     [f for f in own if f.get("kind") == "figure"])
    return text, plots


def main(argv: Optional[List[str]] = None) -> int:
    """Rewrite README's generated blocks and the plots, or (--check) say whether they are up to date."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 when something differs")
    ap.add_argument("--adopt", action="store_true",
                    help="first move every table typed into the pages by hand into the JSON lines (adopt.py)")
    args = ap.parse_args(argv)
    if args.adopt and not args.check:
        print(f"report: {adopt_play_rows()} rows of bench_play.jsonl of before the harness turned into figures")
        for page in PAGES:
            if page.exists():
                text, taken = adopt(page.read_text(encoding="utf-8"))
                page.write_text(text, encoding="utf-8")
                print(f"report: {taken} hand-written tables of {page.name} taken into benchmarks/results/")
    _, plots = generate(README.read_text(encoding="utf-8"))
    pages = {page: render(page.read_text(encoding="utf-8"), load()) for page in PAGES if page.exists()}
    stale = [page.name for page, text in pages.items() if text != page.read_text(encoding="utf-8")] + [
        name for name, svg in plots.items()
        if not (PLOTS / name).exists() or (PLOTS / name).read_text(encoding="utf-8") != svg]
    if args.check:
        for name in stale:
            print(f"report: {name} is not what benchmarks/results/ gives (run python benchmarks/report.py)")
        return 1 if stale else 0
    for page, text in pages.items():
        page.write_text(text, encoding="utf-8")
    PLOTS.mkdir(exist_ok=True)
    for name, svg in plots.items():
        (PLOTS / name).write_text(svg, encoding="utf-8")
    print(f"report: {len(pages)} pages and {len(plots)} plots written ({len(stale)} changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
