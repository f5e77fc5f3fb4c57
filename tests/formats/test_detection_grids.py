"""The pasted-grid notations of issue 10 never take a file that another notation reads.

Every sample in samples/ that is not one of these notations' own samples must be detected as the same
notation as without them: none of their detectors may outrank the notation that reads it.
"""
from __future__ import annotations

import pytest

from mineconv.formats.reading import guess_format
from mineconv.formats.detection import rank_formats
from tests.conftest import SAMPLES

MINE = {"int-matrix", "int-csv", "puzzle-json", "blog-text", "quoted-rows", "leetcode", "kata", "ascii-grid"}
OWN = {"dusautoy-6x6.matrix": "int-matrix", "dusautoy-6x6.puzzle.json": "puzzle-json", "dusautoy-6x6.blog": "blog-text",
       "dusautoy-6x6.rows": "quoted-rows", "leetcode-529.leetcode": "leetcode", "codewars-6x6.kata": "kata",
       "dusautoy-6x6.grid": "ascii-grid", "dusautoy-6x6.csv": "int-matrix",
       "leetcode-529-testcases.leetcode": "leetcode"}
OTHERS = sorted(p for p in SAMPLES.iterdir() if p.is_file() and p.suffix != ".md" and p.name not in OWN)


def _text(path):
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


@pytest.mark.parametrize("path", OTHERS, ids=lambda p: p.name)
def test_other_samples_are_not_taken(path):
    text = _text(path)
    if text is None:
        return   # a binary notation: these readers only look at text
    ranked = rank_formats(text)
    others = [s for s, f in ranked if f.name not in MINE]
    ours = [(s, f.name) for s, f in ranked if f.name in MINE]
    best_other = max(others, default=0.0)
    assert all(s < best_other for s, _ in ours) or not ours, (path.name, ranked[:4])
    assert guess_format(path, text).name not in MINE


@pytest.mark.parametrize("name, fmt", sorted(OWN.items()))
def test_own_samples_are_detected(name, fmt):
    path = SAMPLES / name
    assert guess_format(path, path.read_text()).name == fmt
