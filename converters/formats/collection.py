"""Files that hold several puzzles (contest inputs, exercise data, level packs): picking one of them.

A reader of such a file finds every puzzle with its label and where it starts, then `pick` returns the
one the `puzzle` read option names (1-based, in the file's own order). Without the option the first is
read, and a CollectionWarning says how many the file holds and how to choose another.

Every entry of the file is numbered, also one that holds no board (exercism's "no rows" case): it keeps
its place in the numbering as an `Empty`, `info` lists it as empty, and asking for it is an error that
says so. The default reading takes the first entry that holds a board.
"""
from __future__ import annotations

import contextlib
import warnings
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple, TypeVar

from ..core.errors import FormatError, MineconvError
from ..core.wording import plural
from .located_errors import error_at

PUZZLE_HELP = "which puzzle of a file that holds several (1-based, in the file's order; default: the first)"

T = TypeVar("T")


class CollectionWarning(UserWarning):
    """The input holds several puzzles and only one was read (the first, unless --puzzle names another)."""


@dataclass(frozen=True)
class Empty:
    """An entry of a collection that holds no board ("no rows"): numbered in the file's order, not a puzzle."""

    why: str      # what the file gives instead of a board, e.g. 'no rows'
    offset: int   # where the entry starts in the text, for the error that asks for it


def puzzle_index(value: Any) -> Optional[int]:
    """The 1-based index a `puzzle` option names (None when not given); FormatError for anything else."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise FormatError(f"--puzzle takes a whole number from 1 up, not {value!r}")
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 9:
            raise FormatError(f"--puzzle takes a whole number from 1 up, not {text!r}")
        number = int(text)
    if number < 1:
        raise FormatError(f"--puzzle counts from 1, not {number}")
    return number


def pick(items: Sequence[T], labels: Sequence[str], value: Any, *, text: str, source: Optional[str],
         what: str = "puzzle", empty: Callable[[T], Optional[Empty]] = lambda item: None) -> Tuple[int, T]:
    """(0-based index, item) of the puzzle the option names, warning when the choice was left to us.

    Without the option the first item with a board is read. An index past the end is an error located at
    the end of the text, naming how many there are; an item `empty` calls Empty is an error located there.
    """
    number = puzzle_index(value)
    blank = [empty(item) for item in items]
    if not items or all(blank):
        raise error_at(f"no {what} with a board found in the file", text, len(text), source)
    if number is None:
        first = next(i for i, b in enumerate(blank) if b is None)
        if len(items) > 1:
            shown = ", ".join(f"{i + 1}: {lab}" + (" (empty)" if blank[i] else "")
                              for i, lab in enumerate(labels[:5]))
            more = ", ..." if len(labels) > 5 else ""
            which = "the first" if first == 0 else f"{what} {first + 1}, the first with a board,"
            warnings.warn(CollectionWarning(
                f"{source or '<string>'}: the file holds {plural(len(items), what)} ({shown}{more}); {which} "
                f"was read: --puzzle N reads another"), stacklevel=4)
        return first, items[first]
    if number > len(items):
        raise error_at(f"--puzzle {number} asks for {what} {number}, but the file holds only "
                       f"{plural(len(items), what)}", text, len(text), source)
    hole = blank[number - 1]
    if hole is not None:
        raise error_at(f"--puzzle {number} asks for {what} {number} ({labels[number - 1]}), which is empty "
                       f"({hole.why}): it holds no board (`mineconv info` lists the {what}s)", text, hole.offset,
                       source)
    return number - 1, items[number - 1]


# Set by failures_kept(): build_all then puts a puzzle's error in its place instead of raising it.
_KEEP_FAILURES: ContextVar[bool] = ContextVar("keep_failures", default=False)


@contextlib.contextmanager
def failures_kept() -> Iterator[None]:
    """Within it, a puzzle of a collection that cannot be built is (label, its MineconvError), not a raise.

    `batch` converts the other puzzles of such a file and reports the bad one on its own, as it reports a
    bad file; `read_all` and `info`, outside it, stop at the first bad puzzle.
    """
    token = _KEEP_FAILURES.set(True)
    try:
        yield
    finally:
        _KEEP_FAILURES.reset(token)


def build_all(found: Sequence[T], label_of: Callable[[T], str], build: Callable[[T], Any]) -> List[Tuple[str, Any]]:
    """(label, puzzle) for every item: what the collection modules' puzzles() return."""
    out: List[Tuple[str, Any]] = []
    for item in found:
        label = label_of(item)
        try:
            out.append((label, build(item)))
        except MineconvError as exc:
            if not _KEEP_FAILURES.get():
                raise
            out.append((label, exc))
    return out
