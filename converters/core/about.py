"""The toolkit's version, read from the installed package's metadata (meshio's `__about__` habit).

A leaf module: anything may import it, and it imports nothing of mineconv, so the solver files' header
and the command line's `--version` can name the version without reaching up to the package root. The
metadata is read on first use, not on import: `importlib.metadata` scans every installed distribution,
which costs more than the rest of a small command's start-up.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=None)
def version() -> str:
    """mineconv's version, as installed ('0+unknown' for a source tree that was never installed)."""
    from importlib import metadata
    try:
        return metadata.version("mineconv")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> Any:
    # `mineconv.core.about.__version__` still works, looked up when asked for
    if name == "__version__":
        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
