"""The toolkit's version, read from the installed package's metadata (meshio's `__about__` habit).

A leaf module: anything may import it, and it imports nothing of mineconv, so the solver files' header
and the command line's `--version` can name the version without reaching up to the package root. The
metadata is read on first use, not on import, and without `importlib.metadata` where the installed layout
is the plain one (one `NAME-VERSION.dist-info` folder): that module imports the email package, which cost
more than the rest of `mineconv --version` and a tenth of converting a 1000 x 1000 board (every solver
file's header names the version).
"""
from __future__ import annotations

import os
import re
import sys
from functools import lru_cache

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing at run time (`mineconv --version`)
if TYPE_CHECKING:
    from typing import Any, List, Optional


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _metadata_files(folder: str, name: str) -> Optional[List[str]]:
    """The metadata files of the distributions called `name` in one sys.path folder; None for a zip or the like."""
    try:
        entries = os.listdir(folder or ".")
    except OSError:
        return [] if not os.path.exists(folder or ".") else None
    found = []
    for entry in entries:
        stem, dot, suffix = entry.rpartition(".")
        if dot and suffix in ("dist-info", "egg-info") and _normal(stem.split("-", 1)[0]) == name:
            found.append(os.path.join(folder or ".", entry, "METADATA" if suffix == "dist-info" else "PKG-INFO"))
    return found


def _from_importlib(distribution: str) -> Optional[str]:
    from importlib import metadata
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


@lru_cache(maxsize=None)
def installed_version(distribution: str) -> Optional[str]:
    """The installed version of a distribution, as importlib.metadata.version gives it; None when not installed.

    The first sys.path folder holding the distribution's metadata decides, as for importlib.metadata; its
    'Version:' line is read directly. Anything less plain (several candidates in one folder, a zip on the
    path, a metadata file without the line) is left to importlib.metadata.
    """
    name = _normal(distribution)
    for folder in sys.path:
        files = _metadata_files(folder, name)
        if files == []:
            continue
        if files is not None and len(files) == 1:
            try:
                with open(files[0], encoding="utf-8") as fh:
                    for line in fh:
                        if line.startswith("Version:"):
                            return line[len("Version:"):].strip()
                        if not line.strip():
                            break   # the headers end at the first blank line
            except OSError:
                pass
        return _from_importlib(distribution)
    return None   # no folder on the path holds it, and none was a zip


@lru_cache(maxsize=None)
def version() -> str:
    """mineconv's version, as installed ('0+unknown' for a source tree that was never installed)."""
    return installed_version("mineconv") or "0+unknown"


def __getattr__(name: str) -> Any:
    # `mineconv.core.about.__version__` still works, looked up when asked for
    if name == "__version__":
        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
