"""Across the puzzle notations: line ends and BOM through files, two JSON notations told apart, the samples
agreeing. Each notation's own tests are in tests/formats/notations/test_<module>.py."""
from __future__ import annotations

from mineconv import Puzzle, dumps, read
from helpers import SAMPLES

SEED = Puzzle.from_rows(["1??", "12?", "01?"])


def grid(p: Puzzle) -> list:
    return p.grid_lines


def test_bom_and_crlf_through_files(tmp_path):
    for name, fmt, text in [("a.txt", None, "1??\r\n12?\r\n01?\r\n"),
                            ("a.mine", None, "3x3x2\r\n1HH\r\n12H\r\n01H\r\n"),
                            ("a.dat", None, "param n := 3;\r\nparam R : 1 2 3 :=\r\n1 1 -1 -1\r\n2 1 2 -1\r\n"
                                            "3 0 1 -1;\r\n"),
                            ("a.dots", "dots", "3\r\n3\r\n1..\r\n12.\r\n01.\r\n")]:
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + text.encode())
        assert grid(read(path, fmt)) == grid(SEED), name


def test_json_detection_tells_the_two_apart(tmp_path):
    a = tmp_path / "a.json"
    a.write_text(dumps(SEED, "json"))
    b = tmp_path / "b.json"
    b.write_text(dumps(SEED, "pred-json"))
    assert read(a) == SEED == read(b)


def test_samples_agree_across_notations():
    fmt = {".dots": "dots"}
    groups = {}
    for path in sorted(SAMPLES.iterdir()):
        if path.suffix in (".md",):
            continue
        stem = path.name.split(".")[0]
        groups.setdefault(stem, []).append(read(path, fmt.get(path.suffix)))
    assert {"dusautoy-6x6", "seed-3x3", "dusautoy-6x6-flagged", "gecode-0", "kaye-config3"} <= set(groups)
    for stem, puzzles in groups.items():
        assert len({p.cells for p in puzzles}) == 1, stem
