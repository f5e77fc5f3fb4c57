"""Property tests: any text given to a puzzle reader either parses or raises the toolkit's own error."""
from __future__ import annotations

import warnings

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mineconv import LossyConversionWarning, MineconvError, Puzzle, dumps
from mineconv.formats.registry import format_names, get_format
from helpers import SAMPLES

READERS = format_names("puzzle", "read")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# characters each notation is made of, so mutations produce near-misses rather than only noise
ALPHABET = "?012345678*.HFMOI-+x:;=,#%/\"[]{} \t\n\r\ufeffparmRnedtu"
SEEDS = {
    "native": SAMPLES / "dusautoy-6x6-flagged.txt",
    "dat": SAMPLES / "dusautoy-6x6-flagged.dat",
    "json": SAMPLES / "dusautoy-6x6-flagged.json",
    "pred-json": SAMPLES / "seed-3x3.pred.json",
    "mine": SAMPLES / "dusautoy-6x6-flagged.mine",
    "dots": SAMPLES / "kaye-config3.dots",
    "dzn": SAMPLES / "german-lakshtanov.hakank.mzn",
    "essence": SAMPLES / "kaye-wire.hakank.param",
    "asp-facts": SAMPLES / "dusautoy-6x6.facts",
    "int-matrix": SAMPLES / "dusautoy-6x6.matrix",
    "int-csv": SAMPLES / "dusautoy-6x6.csv",
    "puzzle-json": SAMPLES / "dusautoy-6x6.puzzle.json",
    "blog-text": SAMPLES / "dusautoy-6x6.blog",
    "quoted-rows": SAMPLES / "dusautoy-6x6.rows",
    "leetcode": SAMPLES / "leetcode-529.leetcode",
    "kata": SAMPLES / "codewars-6x6.kata",
    "ascii-grid": SAMPLES / "dusautoy-6x6.grid",
    "ms-board": SAMPLES / "dusautoy-6x6.board",
    "tatham-mines": SAMPLES / "tatham-9x9n10.txt",
    "mbf": SAMPLES / "tatham-9x9n10.mbf",  # binary, but its bytes are ASCII: read_text works
    "rawvf": Path(__file__).resolve().parent / "fixtures" / "replays" / "tiny_3x3.rawvf",
    "puzzle-page": SAMPLES / "pzpage-6x6.html",
    "level-xml": SAMPLES / "app-levels.levels.xml",
    "puzzlink": SAMPLES / "pzprjs-5x5.puzzlink",
    "pzprv3": SAMPLES / "pzprjs-5x5.pzprv3",
    "contest-fields": SAMPLES / "pc110102-fields.in",
    "exercism": SAMPLES / "exercism-minesweeper.exercism.json",
    "minesolver": SAMPLES / "minesolver-5x5.minesolver",
    "minesweepr": SAMPLES / "minesweepr-5x5.minesweepr",
    "tatham-text": SAMPLES / "tatham-9x9n10-opened.mines-text",
}
# binary replays take bytes, not text: tests/formats/test_replays.py cuts and flips their bytes instead
BYTES_FUZZED_ELSEWHERE = {"avf", "rmv", "mvf", "evf"}


def check(fmt: str, text: str) -> None:
    """The reader returns a Puzzle or raises MineconvError with a sane position; nothing else escapes."""
    try:
        p = get_format(fmt).reader(text, "<hypothesis>")
    except MineconvError as exc:
        str(exc)  # formatting the message must not fail either
        if exc.line is not None:
            assert 1 <= exc.line <= text.count("\n") + text.count("\r") + 2, (exc.line, text)
        return
    assert isinstance(p, Puzzle)
    # whatever parsed can be written again in its own notation and reads back with the same grid
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LossyConversionWarning)
        try:
            again = dumps(p, fmt)
        except MineconvError:  # e.g. .mine needs a total; the reader guarantees one, others may not
            return
    assert get_format(fmt).reader(again, "<again>").codes.shape == p.codes.shape


def test_every_reader_has_a_seed():
    assert set(READERS) - BYTES_FUZZED_ELSEWHERE <= set(SEEDS), set(READERS) - BYTES_FUZZED_ELSEWHERE - set(SEEDS)


@pytest.mark.parametrize("fmt", sorted(SEEDS))
@SETTINGS
@given(text=st.text(max_size=200))
def test_arbitrary_text(fmt, text):
    check(fmt, text)


@pytest.mark.parametrize("fmt", sorted(SEEDS))
@SETTINGS
@given(text=st.text(alphabet=ALPHABET, max_size=120))
def test_text_from_the_notations_alphabet(fmt, text):
    check(fmt, text)


@st.composite
def mutated(draw, fmt):
    """A valid file of the notation with a few random edits: delete, insert, replace, duplicate, cut."""
    text = SEEDS[fmt].read_text()
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "insert", "replace", "duplicate", "truncate", "swap"]))
        i = draw(st.integers(0, max(0, len(text) - 1)))
        j = draw(st.integers(i, min(len(text), i + 12)))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.text(alphabet=ALPHABET, min_size=1, max_size=4)) + text[i:]
        elif op == "replace" and text:
            text = text[:i] + draw(st.sampled_from(ALPHABET)) + text[i + 1:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif op == "truncate":
            text = text[:i]
        elif op == "swap" and j < len(text):
            text = text[:i] + text[j] + text[i + 1:j] + text[i] + text[j + 1:]
    return text


@pytest.mark.parametrize("fmt", sorted(SEEDS))
@settings(SETTINGS, max_examples=150)
@given(data=st.data())
def test_mutated_valid_inputs(fmt, data):
    check(fmt, data.draw(mutated(fmt)))


@pytest.mark.parametrize("fmt", sorted(SEEDS))
def test_seeds_parse(fmt):
    assert isinstance(get_format(fmt).reader(SEEDS[fmt].read_text(), str(SEEDS[fmt])), Puzzle)


def _first_over_plain(rows: int, cols: int, cells: str):
    """The first count (row-major) above its cell's neighbours, counted one by one (the reference)."""
    for i, ch in enumerate(cells):
        if ch in "012345678":
            r, c = divmod(i, cols)
            limit = sum(1 for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                        if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols)
            if int(ch) > limit:
                return (r, c)
    return None


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_count_limit_checked_on_the_border_only(rows, cols, data):
    """The bulk check (only border cells can show more mines than they have neighbours) names the same first
    cell as counting each cell's neighbours, on every shape down to 1 x 1."""
    cells = data.draw(st.text("?*.012345678", min_size=rows * cols, max_size=rows * cols))
    want = _first_over_plain(rows, cols, cells)
    if want is None:
        assert Puzzle(rows, cols, cells).cells == cells
    else:
        with pytest.raises(MineconvError, match=rf"cell \({want[0]}, {want[1]}\) shows"):
            Puzzle(rows, cols, cells)


# the generic grids' signatures look at the first line only: random near-misses of each notation (its own
# symbols, separators, labels, comments, quotes, Unicode digits and blanks) never pass a text the signature turns away
GRID_ALPHABET = "?012345678*.#%xX \t\r\n\ufeff\f[]{},;:+-\"'`/Field=mapn\u0663\u0130"
GENERIC = {"blog_text": "blog-text", "contest_fields": "contest-fields", "dots": "dots", "int_matrix": "int-matrix",
           "kata": "kata"}


@pytest.mark.parametrize("module", sorted(GENERIC))
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(GRID_ALPHABET, max_size=60),
                      st.lists(st.sampled_from(["1 2", "...", "? ? 0", "x 1 ?", "*.*", "Field #1:", "# c", "// c",
                                                "[[1, -1]]", "1,2,-1", "map =", "n = 3", "\"..\",", "12", "", " ",
                                                "0 0", "mine_count = 2", "`? 1`;", "*1", "board: ? 1", "let map:"]),
                               max_size=4).map("\n".join)))
def test_a_generic_grid_signature_turns_away_only_what_its_detector_refuses(module, text):
    from mineconv.formats.detection import detect_score
    from mineconv.formats.signatures import SIGNATURES
    could = SIGNATURES[module].could
    assert could is not None
    if not could(text):
        assert detect_score(get_format(GENERIC[module]), text) == 0, (module, text)
