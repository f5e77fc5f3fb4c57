"""The cardinality encoding: "exactly k of these literals are true" as clauses, the one caller of pysat.card.

Every cardinality constraint mineconv writes goes through `exactly`: the CNF file's total mine count
(encode/cnf.py), the counts and total behind explain's selectors (analysis/explain/proofs.py) and the total of
design's layout solver (make/design.py). Each caller chooses its encoding and where the auxiliary variables
start; the edge cases and the thread that pysat's C encoders need are handled here once.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar

from ..core.errors import FormatError
from ..core.wording import plural

T = TypeVar("T")

# pysat.card.EncType names usable here; pairwise, bitwise and ladder handle only bounds of 1 (and their
# complements), native needs a solver with cardinality support (no clauses)
CARD_ENCODINGS: Tuple[str, ...] = ("seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "mtotalizer",
                                   "kmtotalizer", "pairwise", "bitwise", "ladder")

# the k-modulo totalizer gave the fewest clauses and the fastest encoding of the candidates measured on
# boards of 1,000 to 10,000 unknowns (seqcounter and totalizer grow as unknowns x bound)
DEFAULT_CARD_ENCODING = "kmtotalizer"
# cells x min(mines, cells - mines) above which the total's CNF encoding is refused (see card_clauses)
CARD_WORK_LIMIT = 10**9


def check_card_encoding(name: Optional[str]) -> str:
    """The cardinality encoding name to use (the default for None); FormatError lists the valid ones."""
    if name is None:
        return DEFAULT_CARD_ENCODING
    key = str(name).strip().lower()
    if key not in CARD_ENCODINGS:
        raise FormatError(f"unknown cardinality encoding {name!r}; valid names: {', '.join(CARD_ENCODINGS)}")
    return key


def check_card_work(k: int, t: int) -> None:
    """Refuse (FormatError) a total of t more mines among k cells whose CNF encoding would exhaust the machine."""
    if 0 < t < k and k * min(t, k - t) > CARD_WORK_LIMIT:
        # pysat builds these clauses as Python lists: ~1e9 here is tens of millions of clauses and several
        # GB of memory, so refuse at once rather than exhaust the machine
        raise FormatError(f"the total mine count ({t} more mines among {plural(k, 'unknown cell')}) is "
                          "too large to encode "
                          "in CNF (its cardinality encoding would take tens of millions of clauses); write a "
                          "linear or pseudo-Boolean format instead (lp, mps, opb, smt2 state it as one "
                          "constraint), or leave the total out (convert --ignore-total)")


def off_main_thread(work: Callable[[], T]) -> T:
    """work() in a helper thread, its result or exception handed back; Ctrl-C still stops the caller.

    Called from the main thread, pysat's C encoders install a SIGINT handler of their own that longjmps
    out of the C++ code building the clauses; a batch stopped with Ctrl-C there died of SIGSEGV once in
    a few runs. Off the main thread pysat leaves signals to Python, whose KeyboardInterrupt lands in the
    main thread's join() as anywhere else (the helper thread is a daemon and is dropped with the run).
    A caller encoding many constraints may wrap the whole loop in one call, so `exactly` hops only once.
    """
    box: Dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # handed back to the caller, which raises it
            box["error"] = exc

    helper = threading.Thread(target=run, name="mineconv-cardenc", daemon=True)
    helper.start()
    helper.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def exactly(lits: Sequence[int], bound: int, *, top: int, encoding: str) -> Tuple[List[List[int]], int]:
    """Clauses true exactly when `bound` of `lits` are true: (clauses, new top variable).

    Auxiliary variables are numbered from top + 1 (top must be at least every literal's variable); the
    new top is top when none is used. `encoding` is one of CARD_ENCODINGS. Bounds that need no counter
    give the clauses pysat gives for them, without calling it: 0 makes every literal false, len(lits)
    every one true; a bound out of range gives one empty clause (no assignment satisfies it).

    >>> exactly([1, 2, 3], 0, top=3, encoding="seqcounter")
    ([[-1], [-2], [-3]], 3)
    >>> exactly([1, 2, 3], 3, top=5, encoding="kmtotalizer")
    ([[1], [2], [3]], 5)
    >>> exactly([1, 2, 3], 4, top=3, encoding="seqcounter")
    ([[]], 3)
    >>> exactly([], 0, top=7, encoding="seqcounter")
    ([], 7)
    >>> exactly([], 1, top=7, encoding="seqcounter")
    ([[]], 7)
    >>> exactly([1, 2, 3], 1, top=3, encoding="pairwise")
    ([[1, 2, 3], [-1, -2], [-1, -3], [-2, -3]], 3)
    >>> exactly([1, 2, 3], 2, top=9, encoding="seqcounter")
    ([[1, 10], [-10, 11], [2, -10], [2, 11], [3, -11], [-1, -2, -3]], 11)
    """
    size = len(lits)
    if bound < 0 or bound > size:
        return [[]], top
    if bound == 0:
        return [[-x] for x in lits], top
    if bound == size:
        return [[x] for x in lits], top
    if threading.current_thread() is threading.main_thread():
        return off_main_thread(lambda: _pysat_equals(lits, bound, top, encoding))
    return _pysat_equals(lits, bound, top, encoding)


def _pysat_equals(lits: Sequence[int], bound: int, top: int, encoding: str) -> Tuple[List[List[int]], int]:
    """pysat's clauses of 'exactly bound of lits' (0 < bound < len(lits)), auxiliaries after top."""
    from pysat.card import CardEnc, EncType, UnsupportedBound

    try:
        enc = CardEnc.equals(lits=list(lits), bound=bound, top_id=top, encoding=getattr(EncType, encoding))
    except UnsupportedBound:
        raise FormatError(f"the {encoding} cardinality encoding cannot express 'exactly {bound} of {len(lits)}' "
                          "(it handles only bounds of 1); use one of seqcounter, totalizer, kmtotalizer, "
                          "cardnetwrk, sortnetwrk, mtotalizer") from None
    return enc.clauses, max(top, int(enc.nv))
