"""Registry contracts: one meaning per name and alias, declared writer options, honest detector levels."""
from __future__ import annotations

import importlib
import inspect
import re
import warnings

import pytest

from helpers import ROOT, SAMPLES, run_cli
from mineconv import Puzzle, read
from mineconv.formats import detection, registry
from mineconv.core.errors import FormatError
from mineconv.formats.registry import CERTAIN, LIKELY, NO, POSSIBLE, confidence, formats, get_format, register_format, unregister_format
from mineconv.core.errors import AmbiguousInputWarning
from mineconv.formats.writing import dumps, write

SEED = Puzzle.from_rows(["1??", "12?", "01?"], mines=2)


def documented_names():
    """The `name` column of README's format table (the names users were told about)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^\| `([a-z0-9+\-]+)` \|", text, flags=re.M)


def test_every_documented_name_and_alias_resolves_to_its_own_format():
    names = documented_names()
    assert {"native", "dots", "cnf", "opb", "lp", "mps", "fixed-mps"} <= set(names)
    for name in names:
        assert get_format(name).name == name
    words = {}
    for f in formats():
        for word in (f.name, *f.aliases):
            assert word not in words, f"{word!r} means both {words[word]} and {f.name}"
            words[word] = f.name
            assert get_format(word) is f


def test_pb_writes_opb_and_the_competition_reader_keeps_its_own_alias(tmp_path, capsys):
    out = tmp_path / "s.opb"
    status, _, err = run_cli(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", out, "--to", "pb")
    assert status == 0, err
    assert out.read_text().startswith("* #variable= ")
    assert get_format("pb").name == "opb"
    assert get_format("pb-sol").name == "competition"


@pytest.fixture
def scratch():
    """Names registered by a test are removed afterwards, whatever happens."""
    made = []
    yield made
    for name in made:
        unregister_format(name)


def _writer(p, out, **o):
    out.write("x")


@pytest.mark.parametrize("name,aliases,taken", [
    ("native", (), "already registered"),                   # another module's name
    ("test-dup-a", ("txt",), "already an alias of format 'native'"),
    ("test-dup-b", ("dots",), "already the name of a format"),
    ("text", (), "already an alias of format 'native'"),    # a name that is another format's alias
    ("test-dup-c", ("x1", "x1"), "twice"),
    ("test-dup-d", ("test-dup-d",), "twice"),
])
def test_a_taken_name_or_alias_is_refused_at_registration(scratch, name, aliases, taken):
    before = {f.name: f for f in formats()}
    with pytest.raises(ValueError, match=taken):
        register_format(name, [], "puzzle", writer=_writer, aliases=aliases)
    scratch.extend(n for n in (name,) if n not in before)
    assert {f.name: f for f in formats()} == before     # the refused format left nothing behind
    assert get_format("txt").name == "native" and get_format("dots").name == "dots"


def test_a_module_reloaded_registers_again(scratch):
    mod = importlib.import_module("mineconv.formats.notations.dots")
    importlib.reload(mod)
    assert get_format("hakank").reader.__wrapped__ is mod.read_dots   # registered readers are guarded
    register_format("test-temp", [], "puzzle", writer=_writer, aliases=("test-temp-alias",))
    unregister_format("test-temp")
    register_format("test-temp", [], "puzzle", writer=_writer, aliases=("test-temp-alias",))  # free again
    scratch.append("test-temp")
    assert get_format("test-temp-alias").name == "test-temp"


def test_an_option_a_writer_does_not_declare_is_an_error(tmp_path):
    with pytest.raises(FormatError, match=r"'card_encodng'.*card_encoding"):
        dumps(SEED, "cnf", card_encodng="seqcounter")
    with pytest.raises(FormatError, match=r"native writer has no option 'mines'.*its options: none"):
        dumps(SEED, "native", mines=3)
    out = tmp_path / "s.lp"
    with pytest.raises(FormatError, match=r"lp writer has no option 'card_encoding'.*mines, system"):
        write(SEED, out, card_encoding="seqcounter")
    assert not out.exists()
    assert dumps(SEED, "cnf", card_encoding="seqcounter").startswith("c ")  # declared: accepted
    assert "end;" in dumps(SEED, "mathprog", with_data=False)


def test_card_encoding_for_a_writer_without_it_exits_2(tmp_path, capsys):
    out = tmp_path / "s.lp"
    status, _, err = run_cli(capsys, "convert", SAMPLES / "seed-3x3.txt", "-o", out, "--card-encoding", "totalizer")
    assert status == 2 and "--card-encoding" in err and "Traceback" not in err and not out.exists()


def test_declared_write_options_are_parameters_of_the_writer():
    for f in formats():
        if f.writer is None:
            assert not f.write_options, f.name
            continue
        params = inspect.signature(f.writer).parameters
        for opt in f.write_options:
            assert opt in params, f"{f.name} declares {opt!r} but its writer has no such parameter"


def test_a_yes_no_detector_stands_for_its_declared_level():
    yes = confidence(CERTAIN, lambda text: text.startswith("<X"))
    assert yes("<X>") == CERTAIN and yes("no") == NO
    assert get_format("cplex").detect('<?xml version="1.0"?>\n<CPLEXSolution version="1.2">') == CERTAIN
    assert get_format("pysat").detect("[1, -2, 3]") == POSSIBLE
    assert detection.detect_score(get_format("minisat"), "SAT\n1 -2 0\n") == LIKELY


def test_every_detector_answers_a_confidence_level():
    levels = {NO, registry.WEAK, POSSIBLE, LIKELY, CERTAIN}
    contents = [p.read_text(errors="replace") for p in sorted(SAMPLES.iterdir()) if p.is_file()]
    for f in formats():
        if f.detect is None or f.binary:
            continue
        for text in contents:
            assert detection.detect_score(f, text) in levels, f.name


def test_read_samples_by_content_alone(tmp_path):
    # without their extensions the samples still read as the same puzzles; only Gecode's bare dot grids
    # (also native text, with '.' known safe) are ambiguous, and they say so
    warned = set()
    for path in sorted(SAMPLES.glob("*")):
        if path.suffix in (".md", ".png", ".svg", ".pdf") or not path.is_file():
            continue
        bare = tmp_path / "input"
        bare.write_bytes(path.read_bytes())
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = read(bare)
        with warnings.catch_warnings():
            warnings.simplefilter("error", AmbiguousInputWarning)  # the extension says which notation
            assert got.cells == read(path).cells, path.name
        if any(issubclass(w.category, AmbiguousInputWarning) for w in seen):
            warned.add(path.name)
    assert "gecode-0.dots" in warned and all(name.endswith(".dots") for name in warned)


def test_read_settings_are_one_frozen_value_built_from_the_keywords():
    import dataclasses
    from mineconv.formats.reading import ReadSettings, read_reading, read_with
    settings = ReadSettings.of("native", {"blank": None}, mines=1)
    assert settings == ReadSettings("native", (), 1)   # an option given as None is not given
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.mines = 2  # type: ignore[misc]
    path = SAMPLES / "seed-3x3.txt"
    assert read_with(path, settings).puzzle == read_reading(path, "native").puzzle.replace(mines=1)
