"""The old call form of accessors that are attributes now (`d.mines()` for `d.mines`), kept working for a while.

Results follow one rule: data a result holds or derives cheaply without arguments is an attribute; what
takes arguments, searches, counts or builds another object is a method. Accessors that were methods
before the rule return their value wrapped in a subclass of its type whose call warns (DeprecationWarning,
naming the attribute spelling) and returns the value itself, so `a.safe_cells()` and `a.safe_cells` agree.
The wrappers are plain lists and arrays otherwise: equal to them, JSON-serialisable, picklable.
"""
from __future__ import annotations

import warnings
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Optional

from .lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")


def _warn(spelling: str) -> None:
    name = spelling.rsplit(".", 1)[-1]
    # stacklevel 3: the caller of __call__, i.e. the line that wrote the old spelling
    warnings.warn(f"{spelling}() is deprecated: {name} is an attribute now, write .{name} without the call",
                  DeprecationWarning, stacklevel=3)


class CallableList(list):
    """A list that, called with no arguments, warns that the call form is deprecated and returns itself."""

    def __init__(self, items: Iterable[Any] = (), spelling: str = "") -> None:
        super().__init__(items)
        self.spelling = spelling

    def __call__(self) -> "CallableList":
        _warn(self.spelling)
        return self

    def __reduce__(self) -> Any:
        # pickled as a plain list: a process that unpickles it needs no mineconv
        return (list, (list(self),))


@lru_cache(maxsize=None)
def _callable_array_class() -> type:
    # a subclass of numpy's array, so made on first use: importing this module imports no numpy
    class CallableArray(np.ndarray):
        """A numpy array that, called with no arguments, warns that the call form is deprecated and returns itself.

        Arithmetic, comparisons and reductions on it give plain arrays and scalars (only the accessor's own
        value carries the call), and it prints and pickles as a plain array.
        """

        spelling: str = ""

        def __call__(self) -> "CallableArray":
            _warn(self.spelling)
            return self

        def __array_wrap__(self, array: np.ndarray, context: Any = None, return_scalar: bool = False) -> Any:
            if return_scalar:
                return array[()]
            return array.view(np.ndarray)

        def __repr__(self) -> str:
            return repr(self.view(np.ndarray))

        def __reduce__(self) -> Any:
            return self.view(np.ndarray).__reduce__()

    return CallableArray


def callable_list(items: Iterable[Any], spelling: str) -> CallableList:
    """`items` as a list whose old call form `x()` still works, warning with `spelling` (e.g. "Decoded.mines")."""
    return CallableList(items, spelling)


def callable_optional_list(items: Optional[Iterable[Any]], spelling: str) -> Optional[CallableList]:
    """callable_list, or None when there is no value (None cannot carry the old call form)."""
    return None if items is None else CallableList(items, spelling)


def callable_array(array: np.ndarray, spelling: str) -> np.ndarray:
    """A view of `array` whose old call form `x()` still works, warning with `spelling` (e.g. "Puzzle.codes")."""
    view: Any = array.view(_callable_array_class())
    view.spelling = spelling
    return view
