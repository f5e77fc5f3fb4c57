"""Notebook pictures without an upward import: the drawing floor registers its renderer here.

`Puzzle`, `Analysis` and `Decoded` have `_repr_svg_` so Jupyter shows them as pictures, but the code that
draws lives floors above them (`present/picture.py`). Instead of the model importing the picture, the
package root registers a renderer here when it is imported (it always is, before any module below it)
that imports the picture module on the first drawing, and the model asks `svg_picture` for it.
"""
from __future__ import annotations

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing at run time (`mineconv --version`)
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

_renderer: Optional[Callable[..., str]] = None


def register_svg_renderer(render: Callable[..., str]) -> None:
    """Make render(puzzle, analysis=None) the function notebooks use to draw boards."""
    global _renderer
    _renderer = render


def svg_picture(*args: Any) -> Optional[str]:
    """The SVG text of render(*args), or None while no renderer is registered (Jupyter then shows text)."""
    return None if _renderer is None else _renderer(*args)
