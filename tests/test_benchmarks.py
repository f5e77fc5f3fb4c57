"""The benchmarks' harness records what it claims, and README's tables and plots are what the JSON lines give.

Nothing here is timed: the measurements themselves live in benchmarks/ (run by hand, results in README).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys

import pytest
from helpers import ROOT

BENCH = ROOT / "benchmarks"
sys.path.insert(0, str(BENCH))

import adopt as adopt_module  # noqa: E402
import harness  # noqa: E402
import report  # noqa: E402

SCRIPTS = sorted(p.name for p in BENCH.glob("*.py") if p.name.startswith("bench_") or p.name == "engine_trials.py")


def recorder_to(path, argv=("--record",)):
    ap = argparse.ArgumentParser()
    harness.add_options(ap)
    return harness.recorder(ap.parse_args([*argv, str(path)] if argv else []), "trivial", peers=["pytest"])


def test_a_trivial_benchmark_appends_one_stamped_line(tmp_path):
    path = tmp_path / "trivial.jsonl"
    path.write_text('{"kind": "figure", "bench": "trivial", "earlier": true}\n')
    rec = recorder_to(path)
    spread = harness.time_call(lambda: sum(range(1000)), repeat=3, number=2)
    rec.record("seconds per call", spread.median, "s", case={"n": 1000}, spread=spread, note="x")
    lines = harness.read(path)
    assert len(lines) == 2 and lines[0]["earlier"]   # appended, the earlier line kept
    line = lines[1]
    assert (line["kind"], line["bench"], line["figure"], line["unit"], line["side"]) == (
        "figure", "trivial", "seconds per call", "s", harness.US)
    assert line["case"] == {"n": 1000} and line["extra"] == {"note": "x"} and line["value"] == spread.median
    assert line["spread"]["n"] == 3 and line["spread"]["min"] <= line["spread"]["median"] <= line["spread"]["max"]
    st = line["stamp"]
    assert st["date"] == datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    assert st["commit"] == (head.stdout.strip() or None)
    assert st["machine"]["cores"] == os.cpu_count() and st["machine"]["python"] == platform.python_version()
    assert st["machine"]["cpu"] and st["machine"]["ram_gib"] > 0
    assert st["versions"]["mineconv"] and "pytest" in st["versions"]


def test_no_record_writes_nothing(tmp_path):
    ap = argparse.ArgumentParser()
    harness.add_options(ap)
    rec = harness.recorder(ap.parse_args(["--no-record"]), "trivial")
    rec.record("x", 1.0, "s")
    assert rec.path is None and rec.lines[0]["value"] == 1.0
    assert harness.recorder(ap.parse_args([]), "trivial").path == harness.RESULTS / "trivial.jsonl"


def test_whole_process_timing_and_a_failing_process():
    got = harness.time_process([sys.executable, "-c", "pass"], repeat=2)
    assert len(got.runs) == 2 and got.min > 0
    with pytest.raises(RuntimeError, match="exited 3"):
        harness.time_process([sys.executable, "-c", "raise SystemExit(3)"], repeat=1)


def test_pairing_measures_every_side_on_the_same_inputs_alternately():
    order = []

    def side(name, value):
        def measure(case):
            order.append((name, case))
            return value + case
        return measure

    paired = harness.pair([1, 2, 3], {"mineconv": side("mineconv", 0.0), "peer": side("peer", 10.0)}, rounds=2)
    assert [p.case for p in paired] == [1, 2, 3]
    assert [c for n, c in order if n == "mineconv"] == [c for n, c in order if n == "peer"] == [1, 1, 2, 2, 3, 3]
    assert [n for n, _ in order[:4]] == ["mineconv", "peer", "mineconv", "peer"]   # rounds alternate
    assert paired[1].sides["peer"].runs == (12.0, 12.0) and paired[1].sides["mineconv"].median == 2.0


def test_readme_and_plots_are_what_the_json_lines_give():
    readme = report.README.read_text(encoding="utf-8")
    text, plots = report.generate(readme)
    assert text == readme, "benchmarks/README.md differs from the JSON lines: run python benchmarks/report.py"
    assert plots and all((report.PLOTS / name).read_text(encoding="utf-8") == svg for name, svg in plots.items())
    assert report.main(["--check"]) == 0


def test_a_hand_edited_table_is_caught_and_put_back():
    readme = report.README.read_text(encoding="utf-8")
    edited = readme.replace("| expert 16x30/99 SNR | **50.55%**", "| expert 16x30/99 SNR | **51.55%**", 1)
    assert edited != readme
    text, _ = report.generate(edited)
    assert text == readme


def test_runs_show_the_peer_beside_us(tmp_path):
    rec = recorder_to(tmp_path / "bench_x.jsonl")
    rec.record("ms per call", 1.5, "ms", case={"board": "9x9/10"})
    rec.record("ms per call", 4.25, "ms", side="ms-toollib", case={"board": "9x9/10"})
    text, plots = report.generate("a\n<!-- runs bench_x -->\nold\n<!-- /runs -->\nb\n", tmp_path)
    row = next(line for line in text.splitlines() if "board 9x9/10" in line)
    assert row.endswith("| ms per call (ms) | 1.5 | 4.25 |") and "| mineconv | ms-toollib |" in text
    assert "old" not in text and text.startswith("a\n") and text.endswith("b\n")
    assert plots["bench_x.svg"].count("<polyline") == 2 and "(peer)" in plots["bench_x.svg"]


def test_first_number_of_a_cell():
    assert report.first_number("**50.55%** (2,000)") == 50.55
    assert report.first_number("19,158/s") == 19158.0
    assert report.first_number("complete, 21 digits, 4.2, 43", -2) == 4.2
    assert report.first_number("-") is None and report.first_number("-", -2) is None


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_benchmark_runs_its_help_and_records_through_the_harness(script):
    done = subprocess.run([sys.executable, str(BENCH / script), "--help"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--record" in done.stdout and "--no-record" in done.stdout


def test_results_are_json_lines_of_known_kinds():
    for path in sorted(harness.RESULTS.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            data = json.loads(line)
            assert data.get("kind") in ("figure", "row") and data["bench"] == path.stem, (
                f"{path.name}:{number}: not a harness line (python benchmarks/report.py --adopt turns bench_play's "
                "rows of before the harness into figures)")
            assert data["stamp"].get("date") or data["kind"] == "row", f"{path.name}:{number}: undated figure"


def test_a_run_block_shows_one_runs_cases_with_their_extras(tmp_path):
    rec = recorder_to(tmp_path / "bench_y.jsonl")
    rec.stamp = {**rec.stamp, "date": "2026-01-02", "time": "03:04:05"}
    for size, seconds in ((10, 0.5), (20, 2.0)):
        rec.record("seconds", seconds, "s", case={"size": size, "level": "full"}, unknown=size * size)
    rec.record("seconds", 9.0, "s", side="peer", case={"size": 20, "level": "full"})
    text = report.render("<!-- run bench_y 2026-01-02 03:04 size=20 -->\n<!-- /run -->\n",
                         report.load(tmp_path))
    assert "| level | figure | mineconv | peer | unknown |" in text
    assert "| full | seconds (s) | 2 | 9 | 400 |" in text and "0.5" not in text
    with pytest.raises(KeyError, match="no figure of bench_y"):
        report.render("<!-- run bench_y 2026-01-02 03:05 -->\n<!-- /run -->\n", report.load(tmp_path))


def test_a_hand_written_table_is_adopted_into_the_json_lines(tmp_path):
    page = ("# B\n\n## bench_z.py — z\n\n### 2026-03-04 05:06, main at abc1234: a run\n\nSome prose.\n\n"
            "| board | mineconv s |  peer s |\n|---|---:|---:|\n| 9x9 | 0.10 | 0.20 |\n| 30x16 | 1.5 | 3 |\n\nMore.\n")
    text, taken = adopt_module.adopt(page, tmp_path)
    assert taken == 1 and "<!-- table bench_z:1 -->\n<!-- /table -->" in text and "| 9x9 |" not in text
    rows = harness.read(tmp_path / "bench_z.jsonl")
    assert [r["cells"] for r in rows] == [["9x9", "0.10", "0.20"], ["30x16", "1.5", "3"]]
    assert rows[0]["stamp"]["date"] == "2026-03-04" and rows[0]["stamp"]["time"] == "05:06"
    assert rows[0]["stamp"]["commit"] == "abc1234"
    back = report.render(text, report.load(tmp_path))
    assert back == page.replace("|  peer s |", "| peer s |").replace(
        "| board", "<!-- table bench_z:1 -->\n\n| board").replace("| 3 |\n", "| 3 |\n\n<!-- /table -->\n")
    again, none = adopt_module.adopt(back, tmp_path)   # a generated table is left alone
    assert none == 0 and again == back


def test_no_table_is_typed_into_the_pages_by_hand(tmp_path):
    for page in report.PAGES:
        _, taken = adopt_module.adopt(page.read_text(encoding="utf-8"), tmp_path)
        assert taken == 0, f"{page.name} holds {taken} hand-written tables: run python benchmarks/report.py --adopt"


def test_a_bench_play_row_of_before_the_harness_is_turned_into_figures(tmp_path):
    old = {"date": "2026-11-27", "config": "expert-snr", "player": "engine", "games": 10, "wins": 6,
           "win_rate": 0.6, "interval": [0.3, 0.8], "cpu_seconds": 2.0, "games_per_cpu_second": 5.0,
           "paired": True, "seed": 1}
    kept = {"kind": "figure", "bench": "bench_play", "figure": "x", "value": 1, "stamp": {"date": "2026-11-26"}}
    (tmp_path / "bench_play.jsonl").write_text(json.dumps(kept) + "\n" + json.dumps(old) + "\n")
    assert adopt_module.adopt_play_rows(tmp_path) == 1
    lines = harness.read(tmp_path / "bench_play.jsonl")
    assert lines[0] == kept and [(f["figure"], f["value"], f["side"]) for f in lines[1:]] == [
        ("win rate", 0.6, "mineconv engine"), ("games per CPU-second", 5.0, "mineconv engine")]
    assert lines[1]["stamp"]["date"] == "2026-11-27" and lines[1]["case"] == {"config": "expert-snr"}
    assert adopt_module.adopt_play_rows(tmp_path) == 0


def test_a_child_peer_answers_and_is_restarted_after_a_question_kills_it():
    echo = ("import json, sys\nfor line in sys.stdin:\n    q = json.loads(line)\n    if q == 'die':\n"
            "        sys.exit(1)\n    print(json.dumps([q, q]), flush=True)\n")
    peer = harness.ChildPeer([sys.executable, "-c", echo])
    try:
        assert peer.ask(3) == [3, 3]
        first = peer.proc
        assert peer.ask("die") is None and peer.proc is None
        assert peer.ask({"a": 1}) == [{"a": 1}, {"a": 1}] and peer.proc is not first
    finally:
        peer.close()
    assert peer.proc is None


def test_two_figures_of_one_side_in_one_run_are_two_rows_not_one_overwritten():
    stamp = {"date": "2026-11-27", "time": "18:04", "commit": "abc1234"}
    figures = [{"kind": "figure", "bench": "b", "figure": "win rate", "value": v, "unit": "share",
                "side": "mineconv engine", "case": {"config": "expert-snr"}, "extra": {}, "stamp": stamp}
               for v in (0.25, 0.75)]
    block = report.runs_block("b", figures)
    rows = [line for line in block.splitlines() if line.startswith("| 2026-11-27 18:04 abc1234")]
    assert len(rows) == 2 and "0.25" in rows[0] and "0.75" in rows[1]
