"""The one cardinality primitive (mineconv.encode.cardinality): its doctests, and its edges against pysat."""
import doctest
import threading

import pytest
from pysat.card import CardEnc, EncType

from mineconv.core.errors import FormatError
from mineconv.encode import cardinality
from mineconv.encode.cardinality import CARD_ENCODINGS, exactly


def test_doctests():
    failed, tried = doctest.testmod(cardinality)
    assert tried >= 7 and failed == 0


@pytest.mark.parametrize("encoding", CARD_ENCODINGS)
@pytest.mark.parametrize("lits, bound", [([1, 2, 3], 0), ([1, 2, 3], 3), ([4], 0), ([4], 1), ([], 0),
                                         ([2, 5, 7, 8], 1), ([2, 5, 7, 8], 3)])
def test_the_clauses_are_pysats(encoding, lits, bound):
    """Edges are answered without pysat: the clauses (and the top) must be the ones pysat gives."""
    top = 9
    enc = CardEnc.equals(lits=lits, bound=bound, top_id=top, encoding=getattr(EncType, encoding))
    assert exactly(lits, bound, top=top, encoding=encoding) == (enc.clauses, max(top, enc.nv))


def test_out_of_range_is_one_empty_clause():
    assert exactly([1, 2], -1, top=2, encoding="seqcounter") == ([[]], 2)
    assert exactly([1, 2], 3, top=2, encoding="seqcounter") == ([[]], 2)


def test_an_encoding_that_cannot_express_the_bound_says_which_can():
    with pytest.raises(FormatError, match="pairwise cardinality encoding cannot express 'exactly 2 of 5'"):
        exactly([1, 2, 3, 4, 5], 2, top=5, encoding="pairwise")


def test_pysat_runs_off_the_main_thread(monkeypatch):
    """pysat's C encoders catch SIGINT themselves on the main thread (a Ctrl-C there crashed a batch)."""
    seen = []
    real = cardinality._pysat_equals

    def spy(*args):
        seen.append(threading.current_thread() is threading.main_thread())
        return real(*args)

    monkeypatch.setattr(cardinality, "_pysat_equals", spy)
    clauses, top = exactly([1, 2, 3, 4], 2, top=4, encoding="seqcounter")
    cardinality.off_main_thread(lambda: exactly([1, 2, 3, 4], 2, top=4, encoding="seqcounter"))
    assert seen == [False, False] and top > 4 and clauses


@pytest.mark.parametrize("k, total", [(5, 0), (5, 5), (1, 1), (1, 0)])
def test_the_bulk_units_of_the_cnf_writer_are_the_primitives_clauses(k, total):
    from mineconv.core.puzzle import Puzzle
    from mineconv.core.system import build_system
    from mineconv.encode.cardinality import exactly
    from mineconv.encode.cnf import card_clauses
    system = build_system(Puzzle(1, k, "?" * k, mines=total))
    arrays, top, name = card_clauses(system)
    clauses, nv = exactly(list(range(1, k + 1)), total, top=k, encoding="kmtotalizer")
    as_lists = [[int(x) for x in row[:n]] for row, n in zip(arrays.lits, arrays.lens)]
    assert as_lists == clauses and top == nv == k and name is None
