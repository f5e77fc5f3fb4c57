"""Packages whose public names are imported on first use (PEP 562), so that importing one module of a package
does not import every module its __init__ names: start-up pays only for what a command uses (issue 24)."""
from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing at run time (`mineconv --version`)
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Mapping, Sequence, Tuple


def lazy_names(package: str, homes: Mapping[str, Sequence[str]]) -> Tuple[Callable[[str], Any], Callable[[], List[str]]]:
    """The module-level `__getattr__` and `__dir__` of a package whose names live in its modules.

    `homes` maps a module, named relative to the package as in a relative import (".cnf", "..formats.answer"),
    to the names the package shows from it, each "name", or "name:attribute" when the module calls it
    otherwise. A name is imported on first use and then kept in the package's namespace.
    """
    where: Dict[str, Tuple[str, str]] = {}
    for module, names in homes.items():
        for entry in names:
            name, _, attribute = entry.partition(":")
            where[name] = (module, attribute or name)

    def __getattr__(name: str) -> Any:
        home = where.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home[0], package), home[1])
        setattr(sys.modules[package], name, value)   # looked up once: later uses are plain attribute reads
        return value

    def __dir__() -> List[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__


class LazyModule:
    """A module's stand-in, imported on the first attribute looked up through it (issue 24: a small solve needs
    no numpy, and importing it is most of the start-up of every command that reads a puzzle).

    The first look-up also rebinds the owner's global to the real module, so later uses in the owner are
    plain global reads at no cost. Declare it as

        if TYPE_CHECKING:
            import numpy as np
        else:
            np = LazyModule("numpy", __name__, "np")
    """

    def __init__(self, name: str, owner: str, alias: str) -> None:
        self._name, self._owner, self._alias = name, owner, alias

    def __getattr__(self, attribute: str) -> Any:
        module = importlib.import_module(self._name)
        setattr(sys.modules[self._owner], self._alias, module)
        return getattr(module, attribute)

    def __repr__(self) -> str:
        return f"<{self._name}, imported on first use>"
