"""Game IDs of Mines from Simon Tatham's Portable Puzzle Collection: a mine layout in one line of text.

    9x9:4,1,mdb8399dba1ff380ebaa18        what `mines --generate` prints, and the game's "Game ID" dialog
    16x16n40:2,3,u...                     PARAMS ':' [X ',' Y ','] ('m' | 'u') HEX
    https://.../js/mines.html#9x9:4,4,m00b7d48a3e0231c419200     the web version's address (as pasted)

PARAMS is WIDTHxHEIGHT, optionally n<mines> and 'a' (mines.c decode_params); X,Y is the square the game
opens first (column, row, 0-based). HEX is the mine bitmap, one bit per cell in row-major order, the
first cell in the high bit, (W*H+3)/4 hex digits. 'u' means plain; 'm' means masked by mines.c's
obfuscate_bitmap (misc.c in newer versions): the bytes are split in half, the first half is XORed with
SHA-1(second half + "0"), SHA-1(second half + "1"), ..., then the second half with the same stream made
from the (new) first half; decoding runs the two steps the other way round. Unlike mines.c, which takes
a non-hex digit as 0, this reader reports it, and the hex length is checked against the size before any
grid is allocated (so '100000x100000:...' is refused at once). IDs that hold a random seed instead of a
layout ('9x9#12345', or an 'r...' description made before the first click) are refused with advice.

A layout has no numbers: it reads as the full-reveal puzzle (every safe cell shows its count, the total
is known), or with reveal_from (--reveal-from R,C, or 'start' for the ID's own first square) as the game
state after opening that cell, a zero flood-filling as in the game. '#' comment lines become notes.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, List, Optional, Tuple

from ...core.errors import FormatError, PuzzleSyntaxError
from ...core.lazy import LazyModule
from ...core.puzzle import Puzzle
from ..grammar import normalise_newlines, parser, syntax_error
from ..mine_layouts import LAYOUT_HELP, layout_reading, parse_reveal_from
from ..registry import CERTAIN, LIKELY, NO, register_format
from .parse_trees import line_column, rules, terminal, terminals

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")

if TYPE_CHECKING:   # types only: Lark is imported when the grammar is first used
    from lark import Token

    from .parse_trees import Node

_PARAMS = re.compile(r"([0-9]+)(?:x([0-9]+))?(?:n([0-9]+))?(.*)")
_DESC = re.compile(r"(?:([0-9]+),([0-9]+),)?([mu]?)(.*)")
_SEED_ID = re.compile(r"\s*[0-9]+(?:x[0-9]+)?[^:#\s]*#\S*\s*")
_DETECT = re.compile(r"\s*[0-9]+x[0-9]+[^:\s#]*:(?:[0-9]+,[0-9]+,)?[mu]?([0-9a-fA-F]+)\s*")
# the web version's address carries the ID after '#': .../puzzles/js/mines.html#9x9:4,4,m00b7...
_URL = re.compile(r"[ \t]*https?://[^\s#]*#(?=[0-9])")


def _unwrap_urls(lines: List[str]) -> List[str]:
    """Game IDs pasted as the web game's address: the address up to '#' is blanked (columns stay put)."""
    return [(" " * m.end() + line[m.end():]) if (m := _URL.match(line)) else line for line in lines]


def _mask_stream(seed: bytes, length: int) -> bytes:
    """mines.c's masking function: SHA-1(seed + "0") + SHA-1(seed + "1") + ..., cut to length."""
    import hashlib  # here: only an obfuscated game ID needs it, and it costs every detection run 5 ms
    out = bytearray()
    counter = 0
    while len(out) < length:
        out += hashlib.sha1(seed + str(counter).encode("ascii")).digest()
        counter += 1
    return bytes(out[:length])


def obfuscate_bitmap(bmp: bytes, bits: int, decode: bool) -> bytes:
    """Tatham's obfuscate_bitmap: mask (decode=False) or unmask (decode=True) a bitmap of `bits` bits."""
    buf = bytearray(bmp)
    nbytes = (bits + 7) // 8
    first = nbytes // 2
    halves = [(slice(first, nbytes), slice(0, first)), (slice(0, first), slice(first, nbytes))]
    for seed_part, target in (reversed(halves) if decode else halves):
        seed = bytes(buf[seed_part])
        span = buf[target]
        mask = _mask_stream(seed, len(span))
        buf[target] = bytes(a ^ b for a, b in zip(span, mask))
        if bits % 8:  # the pad bits of the last byte stay zero after each step
            buf[bits // 8] &= 0xFF & (0xFF00 >> (bits % 8))
    return bytes(buf)


def read_tatham_mines(text: str, source: str = "<string>", reveal_from: Optional[str] = None,
                layout_as: Optional[str] = None) -> Puzzle:
    """Parse a Mines game ID into the full-reveal puzzle, or the state after opening reveal_from."""
    text = normalise_newlines(text)
    body = text if text.endswith("\n") else text + "\n"
    lines = body.split("\n")
    body = "\n".join(_unwrap_urls(lines))
    for i, line in enumerate(body.split("\n")):
        if _SEED_ID.fullmatch(line):
            raise PuzzleSyntaxError("this is a random-seed ID ('PARAMS#SEED'), not a mine layout: mineconv cannot "
                                    "run Tatham's generator; start the game and copy its 'Game ID' (PARAMS:DESC)",
                                    source=source, line=i + 1, column=line.index("#") + 1, line_text=line)
    from lark.exceptions import UnexpectedInput
    try:
        tree = parser("tatham_mines").parse(body)
    except UnexpectedInput as exc:
        raise syntax_error(exc, body, source, "a Mines game ID (WxH:X,Y,m<hex>)") from None

    def fail(msg: str, line: int, col: int) -> PuzzleSyntaxError:
        return PuzzleSyntaxError(msg, source=source, line=line, column=col, line_text=lines[line - 1])

    ptok, dtok, notes = _game_id(tree)
    p_line, p_col = line_column(ptok)
    d_line, d_col = line_column(dtok)
    pm = _PARAMS.fullmatch(str(ptok))
    if pm is None:  # PARAMS always starts with digits, so this cannot fail; kept as a guard
        raise fail("the parameters must start WIDTHxHEIGHT", p_line, p_col)
    width = int(pm.group(1))
    height = int(pm.group(2)) if pm.group(2) is not None else width
    if width < 1 or height < 1:
        raise fail(f"the board must be at least 1 x 1, the ID says {width} x {height}", p_line, p_col)
    desc = str(dtok)
    if desc.startswith("r"):
        raise fail("this description holds the random state of a game not yet started ('r...'), not a mine "
                   "layout: open the first square in the game, then copy its Game ID", d_line, d_col)
    dm = _DESC.fullmatch(desc)
    assert dm is not None  # every part of _DESC is optional
    hexpart = dm.group(4)
    hex_col = d_col + dm.start(4)
    cells = width * height
    want = (cells + 3) // 4
    if len(hexpart) != want:  # checked before anything sized by the claim is allocated
        raise fail(f"a {width} x {height} board takes {want} hex digits of mine bitmap, this ID has "
                   f"{len(hexpart)}", d_line, hex_col)
    bad = re.search(r"[^0-9a-fA-F]", hexpart)
    if bad:
        raise fail(f"{bad.group()!r} is not a hex digit of the mine bitmap", d_line, hex_col + bad.start())
    start: Optional[Tuple[int, int]] = None
    if dm.group(1) is not None:
        x, y = int(dm.group(1)), int(dm.group(2))
        if x >= width or y >= height:
            raise fail(f"the first square x={x}, y={y} is off the {width} x {height} board", d_line, d_col)
        start = (y, x)
    nibbles = hexpart + ("0" if want % 2 else "")
    bmp = bytes.fromhex(nibbles)[: (cells + 7) // 8]
    if dm.group(3) == "m":
        bmp = obfuscate_bitmap(bmp, cells, decode=True)
    bits = np.unpackbits(np.frombuffer(bmp, dtype=np.uint8))[:cells].astype(bool)
    grid = bits.reshape(height, width)
    count = int(grid.sum())
    if pm.group(3) is not None and int(pm.group(3)) != count:
        raise fail(f"the parameters say n{pm.group(3)} but the layout holds {count} mine(s)", p_line,
                   p_col + pm.start(3) - 1)
    where = f", first square row {start[0]}, col {start[1]}" if start else ""
    notes.append(f"Mines game ID {ptok}:{desc[:24]}{'...' if len(desc) > 24 else ''} ({width} x {height}{where})")
    try:
        puzzle = layout_reading(grid, layout_as, parse_reveal_from(reveal_from, start), notes=tuple(notes))
    except FormatError as exc:
        exc.source = exc.source or source
        raise
    if start is not None and not grid[start]:
        # the game's own first click travels with the board (native and mineconv JSON keep it);
        # mines.c never puts a mine there, an ID that does is read, but without a start
        puzzle = puzzle.replace(start=start)
    return puzzle


def _game_id(tree: Node) -> Tuple[Token, Token, List[str]]:
    """The game ID's PARAMS and DESC tokens, and the '#' comment lines as notes."""
    notes: List[str] = []
    game: Optional[Node] = None
    for item in rules(tree):
        if item.data == "comment":
            s = str(terminal(item, 0))[1:]
            notes.append(s[1:] if s.startswith(" ") else s)
        else:
            game = item
    assert game is not None  # the grammar requires exactly one
    ptok, dtok = terminals(game)
    return ptok, dtok, notes


def detect_tatham_mines(text: str) -> float:
    """CERTAIN for a line WxH...:[X,Y,][m|u]HEX whose hex length fits the size; LIKELY when only the shape fits."""
    for line in _unwrap_urls(normalise_newlines(text[:20000]).split("\n")):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _DETECT.fullmatch(line)
        if m is None:
            return NO
        size = re.match(r"\s*([0-9]+)x([0-9]+)", line)
        w, h = int(size.group(1)), int(size.group(2))  # type: ignore[union-attr]
        return CERTAIN if len(m.group(1)) == (w * h + 3) // 4 else LIKELY
    return NO


register_format("tatham-mines", reader=read_tatham_mines, detect=detect_tatham_mines,
                read_options={"reveal_from": "as for mbf, or 'start': the ID's own first square",
                              "layout_as": LAYOUT_HELP},
                description="Simon Tatham's Mines game ID (WxH:X,Y,m<hex>, masked or not): read fully revealed "
                            "or --reveal-from R,C|start")
