"""Loading the Lark grammars once, and turning Lark's errors into ours."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Type

from ..core.errors import MineconvError, PuzzleSyntaxError
from ..core.fileio import line_of

if TYPE_CHECKING:   # Lark is imported when a grammar is first used, not with every notation
    from lark import Lark
    from lark.exceptions import UnexpectedInput


def grammar_text(name: str) -> str:
    """The text of grammars/<name>.lark (from the wheel, or from the source tree)."""
    # imported here: importlib.resources brings tempfile and its neighbours (~3-8 ms), and most commands
    # read a notation that needs no grammar
    from importlib import resources

    try:
        return resources.files("mineconv.grammars").joinpath(f"{name}.lark").read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        here = Path(__file__).resolve().parents[2] / "grammars" / f"{name}.lark"
        return here.read_text("utf-8")


@lru_cache(maxsize=None)
def parser(name: str, start: str = "start") -> Lark:
    """The LALR parser of a grammar, built once per process."""
    from lark import Lark

    return Lark(grammar_text(name), parser="lalr", lexer="contextual", start=start,
                propagate_positions=True, maybe_placeholders=False)


def syntax_error(exc: UnexpectedInput, text: str, source: str, what: str,
                 cls: Type[MineconvError] = PuzzleSyntaxError) -> MineconvError:
    """Our error, with line, column and the offending line, for a Lark parse failure."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    line = getattr(exc, "line", None)
    col = getattr(exc, "column", None)
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
        ch = text[pos] if pos is not None and 0 <= pos < len(text) else ""
        msg = f"unexpected character {ch!r} in {what}"
    elif isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        msg = f"unexpected end of input in {what}"
        lines = text.split("\n")
        line = len(lines)
        col = len(lines[-1]) + 1
    elif isinstance(exc, UnexpectedToken):
        expected = ", ".join(sorted(exc.expected)[:6])
        token = exc.token if len(exc.token) <= 40 else exc.token.update(value=exc.token[:37] + "...")
        msg = f"unexpected {token!r} in {what}" + (f" (expected {expected})" if expected else "")
    else:
        msg = f"cannot parse {what}"
    if not isinstance(line, int) or line < 1:
        line, col = None, None
    return cls(msg, source=source, line=line, column=col,
               line_text=line_of(text, line) if line else None)


def normalise_newlines(text: str) -> str:
    """CRLF and lone CR become LF; a leading BOM is dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text
