"""The toolkit's version, read once from the installed package's metadata (meshio's `__about__` habit).

A leaf module: anything may import it, and it imports nothing of mineconv, so the solver files' header
and the command line's `--version` can name the version without reaching up to the package root.
"""
from __future__ import annotations

from importlib import metadata

try:
    __version__ = metadata.version("mineconv")
except metadata.PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
