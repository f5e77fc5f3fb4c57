"""Minesweeper Arbiter replays (.avf): the mine layout of one game and its mouse events, in bytes.

The layout, as Arbiter writes it (all integers big-endian; learnt from the public readers in ms-toollib
and flop-player, themselves after Maksim Bashov's and Damien Moore's avf-to-RAWVF converter):

    byte 0        Arbiter's minor version (52 for 0.52.x)
    bytes 1-4     not used here
    byte 5        level: 3 beginner (8 x 8, 10 mines), 4 intermediate (16 x 16, 40), 5 expert (30 x 16, 99),
                  6 custom, followed by width - 1, height - 1 (one byte each) and the mine count (uint16)
    then          one (row, col) byte pair per mine, 1-based
    then          bytes not read here, up to a text header  <flag> <any> [L|...|B<3bv>T<time>]  where flag is
                  0x11 (question marks on) or 0x7F (off); a custom game's header starts [3|W8H11M7|
    then          a few bytes, then the mouse events, 8 bytes each: kind, x high, seconds + 1 low, x low,
                  hundredths, y high, seconds + 1 high, y low; an event whose seconds field is 0 ends them
    then          a trailer: 'cs=' and 17 bytes, 'Key: value' lines ended by CR (RealTime, Skin), the player's
                  name, then the program ('Minesweeper Arbiter 0.52.3. Copyright ...')

The first event starts where a kind byte is followed by an x-high byte of 0 or 1 and a seconds byte of 1
(the game's clock starts at 1), as every public reader finds it.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple, Union

import numpy as np

from ...core.replay import (
    LEFT_PRESS,
    LEFT_RELEASE,
    MIDDLE_PRESS,
    MIDDLE_RELEASE,
    MOVE,
    RIGHT_PRESS,
    RIGHT_RELEASE,
    SHIFT_LEFT_PRESS,
    Replay,
    ReplayEvent,
    cells_of,
)
from ..mine_layouts import LAYOUT_HELP
from ..registry import CERTAIN, NO, register_format
from ._replay_files import (
    REPLAY_REVEAL_HELP,
    ByteCursor,
    as_bytes,
    check_board,
    decode_name,
    mine_grid,
    puzzle_of,
)

SQUARE = 16
LEVELS = {3: (8, 8, 10), 4: (16, 16, 40), 5: (16, 30, 99)}   # level byte -> rows, cols, mines
CUSTOM = 6
KINDS = {1: MOVE, 3: LEFT_PRESS, 5: LEFT_RELEASE, 9: RIGHT_PRESS, 17: RIGHT_RELEASE, 33: MIDDLE_PRESS,
         65: MIDDLE_RELEASE, 145: RIGHT_RELEASE, 193: MIDDLE_RELEASE, 11: SHIFT_LEFT_PRESS, 21: LEFT_RELEASE}
# the text header: the question-mark flag, one byte, '[', the level digit, '|'
_HEADER = re.compile(rb"[\x11\x7f][\x00-\xff]\[([0-3])\|")
_HEADER_TEXT = 400           # the header's text is far shorter; a ']' further away is not its end
_FIRST_EVENT = re.compile(rb"[\x00\x01]\x01")
_SCORE = re.compile(r"B(\d+)T(\d+[.,]?\d*)")
_PROGRAM = re.compile(r"^(.*?)\s*(\d+\.\d+(?:\.\d+)?)")


def _layout(cur: ByteCursor) -> Tuple[int, int, int, List[Tuple[int, int, int]]]:
    """rows, cols, mines and the (row, col, offset) of each mine, from the start of the file."""
    cur.u8("the version byte")
    cur.skip(4, "the file header")
    level_at = cur.pos
    level = cur.u8("the level byte")
    if level in LEVELS:
        rows, cols, mines = LEVELS[level]
    elif level == CUSTOM:
        cols = cur.u8("the board width") + 1
        rows = cur.u8("the board height") + 1
        mines = cur.u16("the mine count")
        check_board(rows, cols, mines, level_at + 1, cur.source)
    else:
        cur.fail(f"the level byte is {level}; Arbiter writes 3 (beginner), 4 (intermediate), 5 (expert) or "
                 "6 (custom)", level_at)
    cur.need(2 * mines, f"the {mines} mine positions")
    cells = [(cur.data[cur.pos + 2 * i] - 1, cur.data[cur.pos + 2 * i + 1] - 1, cur.pos + 2 * i)
             for i in range(mines)]
    cur.pos += 2 * mines
    return rows, cols, mines, cells


def _header(cur: ByteCursor) -> Dict[str, str]:
    """The text header [L|...|B<3bv>T<time>]: its items, the cursor left after the ']'."""
    m = _HEADER.search(cur.data, cur.pos)
    if m is None:
        cur.fail("no game header ('[0|...]', the text after the mine layout) follows the mine layout")
    opened = m.start() + 2
    close = cur.data.find(b"]", opened, opened + _HEADER_TEXT)
    if close < 0:
        cur.fail("the game header '[...' has no closing ']'", opened)
    text = cur.data[opened + 1:close].decode("latin-1")
    info = {"marks": "on" if cur.data[m.start()] == 0x11 else "off"}
    parts = text.split("|")
    rest = parts[1:]
    if rest and re.fullmatch(r"W\d+H\d+M\d+", rest[0]):
        rest = rest[1:]
    if rest:
        info["start"] = rest[0]
    if len(rest) > 1:
        info["end"] = rest[1].split("B")[0]
    score = _SCORE.search(text)
    if score:
        info["3bv"], info["time"] = score.group(1), score.group(2).replace(",", ".")
    cur.pos = close + 1
    return info


def _events(cur: ByteCursor, rows: int, cols: int) -> List[ReplayEvent]:
    """The mouse events, 8 bytes each, up to the one whose seconds field is 0 (read as one numpy block)."""
    m = _FIRST_EVENT.search(cur.data, cur.pos + 1)
    if m is None:
        cur.fail("no mouse event follows the game header")
    start = m.start() - 1
    block = np.frombuffer(cur.data, dtype=np.uint8, count=(len(cur.data) - start) // 8 * 8, offset=start)
    rec = block.reshape(-1, 8).astype(np.int64)
    ends = np.flatnonzero((rec[1:, 2] == 0) & (rec[1:, 6] == 0))
    if not ends.size:
        cur.pos = start + rec.shape[0] * 8
        cur.need(8, "the mouse event that ends the events")
    rec = rec[:int(ends[0]) + 1]
    codes = rec[:, 0].tolist()
    unknown = next((i for i, code in enumerate(codes) if code not in KINDS), None)
    if unknown is not None:
        cur.fail(f"mouse event {unknown + 1} has the kind byte {codes[unknown]}, which Arbiter does not write",
                 start + 8 * unknown)
    xs = ((rec[:, 1] << 8) | rec[:, 3]).tolist()
    ys = ((rec[:, 5] << 8) | rec[:, 7]).tolist()
    hundredths = (100 * (((rec[:, 6] << 8) | rec[:, 2]) - 1) + rec[:, 4]).tolist()
    cells = cells_of(xs, ys, rows, cols, SQUARE)
    cur.pos = start + 8 * (len(codes) + 1)
    return [ReplayEvent(t / 100, KINDS[k], r, c, x, y)
            for t, k, r, c, x, y in zip(hundredths, codes, cells[0], cells[1], xs, ys)]


def _trailer(data: bytes, pos: int) -> Tuple[Optional[str], Optional[str], Optional[str], Dict[str, str]]:
    """player, program, version and the 'Key: value' items of the text after the events (None: missing)."""
    mark = data.find(b"cs=", pos)
    if mark < 0:
        return None, None, None, {}
    lines = data[mark + 3 + 17:].split(b"\r")
    items: Dict[str, str] = {}
    for i, raw in enumerate(lines):
        line = decode_name(raw)
        if ":" in line:
            key, _, value = line.partition(":")
            items[key.strip()] = value.strip()
            continue
        player = line.strip() or None
        program = version = None
        if i + 1 < len(lines):
            m = _PROGRAM.match(decode_name(lines[i + 1]))
            if m:
                program, version = m.group(1) or None, m.group(2)
        return player, program, version, items
    return None, None, None, items


def parse_avf(data: Union[bytes, str], source: str = "<bytes>") -> Replay:
    """The whole replay of an Arbiter .avf file: layout, mouse events and metadata."""
    cur = ByteCursor(as_bytes(data), source, "an AVF replay")
    rows, cols, mines, cells = _layout(cur)
    grid = mine_grid(rows, cols, cells, mines, source)
    info = _header(cur)
    events = _events(cur, rows, cols)
    player, program, version, items = _trailer(cur.data, cur.pos)
    info.update(items)
    return Replay(rows, cols, grid, mines, tuple(events), "avf", player=player,
                  program=program or "Minesweeper Arbiter", version=version or f"0.{cur.data[0]}",
                  square_size=SQUARE, details=tuple(sorted(info.items())))


def read_avf(data: Union[bytes, str], source: str = "<bytes>", reveal_from: Optional[str] = None,
             layout_as: Optional[str] = None):
    """Parse an .avf replay into its mine layout (or the state after opening reveal_from)."""
    return puzzle_of(parse_avf, data, source, reveal_from, layout_as, "avf")


def detect_avf(data: Union[bytes, str]) -> float:
    """CERTAIN when the level byte, the mine layout and the '[L|' game header all fit."""
    raw = as_bytes(data)
    if len(raw) < 6 or not (3 <= raw[5] <= 6):
        return NO
    try:
        cur = ByteCursor(raw, "<detect>", "an AVF replay")
        rows, cols, mines, cells = _layout(cur)
        mine_grid(rows, cols, cells, mines, "<detect>")
        m = _HEADER.search(raw, cur.pos)
    except (ValueError, IndexError):
        return NO
    if m is None or m.start() - cur.pos > 1024:
        return NO
    return CERTAIN


register_format("avf", reader=read_avf, detect=detect_avf,
                read_options={"reveal_from": REPLAY_REVEAL_HELP, "layout_as": LAYOUT_HELP},
                description="Minesweeper Arbiter replay (binary): the game's mine layout (and its mouse events, "
                            "read by read_replay); --reveal-from R,C or start")
