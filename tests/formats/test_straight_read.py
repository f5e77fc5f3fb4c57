"""convert's read runs one way down (issue 39): reading builds the input once (a Source) -> detection ranks
it, reads it with the notation it fits and hands back one Reading -> hints words the error when none reads it.
Traced as the code runs: once the read has entered a later stage, no function of an earlier one is called."""
from __future__ import annotations

import sys
import warnings

import pytest

from mineconv.core.errors import MineconvError
from mineconv.formats.reading import ReadSettings, collection_with, parse_reading, read_reading
from tests.conftest import FIXTURES, SAMPLES

STAGES = ("mineconv.formats.reading", "mineconv.formats.detection", "mineconv.formats.hints")


def stages_entered(read):
    """The stages whose functions the read calls, in order, each run of calls into one stage counted once (a
    comprehension or lambda runs inside the function that holds it: no stage is entered by it)."""
    entered = []

    def profile(frame, event, arg):
        module = frame.f_globals.get("__name__")
        if event != "call" or module not in STAGES or frame.f_code.co_name.startswith("<"):
            return
        if not entered or entered[-1] != module:
            entered.append(module)
    sys.setprofile(profile)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            read()
    except MineconvError:
        pass
    finally:
        sys.setprofile(None)
    return [m.rsplit(".", 1)[-1] for m in entered]


def garbage(tmp_path):
    path = tmp_path / "garbage.xyz"
    path.write_text("these words are no puzzle\nnor is this line\n")
    return path


def solver_answer(tmp_path):
    path = tmp_path / "answer.puz"
    path.write_text("SAT\n1 -2 3 0\n")
    return path


def empty(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("\n\n")
    return path


READS = {
    "detected": lambda tmp: read_reading(SAMPLES / "dusautoy-6x6.dots"),
    "named": lambda tmp: read_reading(SAMPLES / "dusautoy-6x6.txt", "native", mines=10),
    "named, wrong": lambda tmp: read_reading(SAMPLES / "dusautoy-6x6.dzn", "native"),
    "ambiguous": lambda tmp: read_reading(SAMPLES / "gecode-0.txt"),
    "a collection": lambda tmp: collection_with(SAMPLES / "leetcode-529-testcases.leetcode", ReadSettings.of(mines=3)),
    "a binary replay": lambda tmp: read_reading(FIXTURES / "replays" / "tiny_3x3.evf"),
    "parsed": lambda tmp: parse_reading("1?\n??\n"),
    "cannot tell": lambda tmp: read_reading(garbage(tmp)),
    "a solver answer": lambda tmp: read_reading(solver_answer(tmp)),
    "empty": lambda tmp: read_reading(empty(tmp)),
}


@pytest.mark.parametrize("case", sorted(READS))
def test_the_read_enters_each_stage_once_on_the_way_down(tmp_path, case):
    got = stages_entered(lambda: READS[case](tmp_path))
    assert got[:2] == ["reading", "detection"], got
    assert got == sorted(got, key=lambda m: [s.rsplit(".", 1)[-1] for s in STAGES].index(m)) and \
        len(got) == len(set(got)), f"{case}: the read went back to a stage it had left: {' -> '.join(got)}"


def test_a_failed_read_ends_in_hints(tmp_path):
    assert stages_entered(lambda: read_reading(garbage(tmp_path))) == ["reading", "detection", "hints"]
    assert stages_entered(lambda: read_reading(SAMPLES / "dusautoy-6x6.dzn", "native"))[-1] == "hints"
