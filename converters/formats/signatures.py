"""What the registry knows of each puzzle notation before importing it: its names, extensions and a cheap
necessary condition for its detector (the light first pass of content detection).

Importing every notation module to run its detector costs more than a small solve, so detection first asks
each notation's `could` here, and imports (and runs the real detector of) only the notations it lets through.
`could(content)` must say True whenever the notation's detector could answer more than NO (a necessary
condition, never a guess): a notation it wrongly turns away would change detection. None means "always ask
the detector" (the native notation, which nearly any text could be). The generic grids (blog text, dots, integer
matrices, kata maps, contest fields) each say no on their first line unless it fits, so theirs look there.

Adding a notation: add its module's line below (tests/test_startup.py fails until every registered puzzle
notation has one whose names, extensions and flags match its register_format calls, and checks that the light
pass ranks every sample and fixture as the full one does).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

from .grammar import normalise_newlines

Could = Callable[[Any], bool]   # content (text, or bytes for a binary notation) -> may the detector say yes


@dataclass(frozen=True)
class Signature:
    """One notation module's registered names (aliases included), extensions, whether it reads bytes, and its
    `could` (None: any content may be this notation)."""

    names: Tuple[str, ...]
    extensions: Tuple[str, ...]
    could: Optional[Could] = None
    binary: bool = False
    read_options: Tuple[str, ...] = ()   # the reader options its formats declare (the CLI's flags)


def _json_object(content: str) -> bool:
    return content[:4000].lstrip("\ufeff \t\r\n").startswith("{")


def _mbf(raw: bytes) -> bool:
    head = raw[:4 + 2 * 0xFFFF + 1]   # what detect_mbf looks at: the header, then exactly 2 bytes a mine
    return len(head) >= 4 and head[0] != 0 and head[1] != 0 and len(head) == 4 + 2 * ((head[2] << 8) | head[3])


def _any(*words: str, upto: int = 20000) -> Could:
    def could(content: str) -> bool:
        head = content[:upto]
        return any(w in head for w in words)
    return could


_LEETCODE_ROW = re.compile(r"[ \t]*[EMBX1-8](?:[ \t]*[EMBX1-8])*[ \t]*")


def _leetcode(text: str) -> bool:
    # a bracketed board holds quoted cells and may sit far down a solution's source (64 KiB looked at);
    # plain rows must all be E/M/B/X/1-8, the first non-blank one of them included
    if "'" in text[:1 << 16] or '"' in text[:1 << 16]:
        return True
    first = next((ln for ln in text[:4000].splitlines() if ln.strip()), "")
    return _LEETCODE_ROW.fullmatch(first) is not None


def _lines(content: str, upto: int) -> List[str]:
    """The lines of the content's first `upto` characters, split as the detectors split them."""
    return normalise_newlines(content[:upto]).split("\n")


def _first(lines: List[str], comments: Tuple[str, ...] = (), strip: Optional[str] = None) -> str:
    """The first line that is not blank (line.strip(strip) empty) nor a comment, stripped; "" when none."""
    for line in lines:
        s = line.strip(strip)
        if s and not (comments and line.lstrip().startswith(comments)):
            return s
    return ""


def _blog_text(text: str) -> bool:
    # the first non-blank line is a row of counts, '.', '*' and '#' (trailing blanks aside)
    first = next((ln for ln in _lines(text, 8000) if ln.strip()), "")
    return bool(first) and not first.rstrip(" \t").strip("012345678.*#")


def _contest(text: str) -> bool:
    # 'n m' (any Unicode digits, as \d) or 'Field #k:' (any case) first
    first = _first(_lines(text, 4000))
    return first[:1].isdecimal() or first[:1] in ("f", "F")


def _dots(text: str) -> bool:
    # a count or a row of '.' and counts first (or a quoted one)
    first = _first(_lines(text, 1 << 16), ("#", "%"), " \t")
    return bool(first) and (first[0] == '"' or not first.strip(".0123456789"))


def _int_matrix(text: str) -> bool:
    # a bracketed matrix, or a first line (comments aside) of numbers and separators
    head = text[:4000]
    if "[" in head or "{" in head:
        return True
    first = _first(_lines(text, 4000), ("#", "//", "%"))
    return bool(first) and not first.strip(" \t+-0123456789.,;")


_KATA_WORDS = ("map", "result", "board", "field", "solution")   # its labels (a row may follow one on its line)


def _kata_label(line: str) -> bool:
    # what kata's _LABEL matches at the start of a line: [const|let|var] <word> '=' or ':'
    t = line.lstrip(" \t")
    heads = [t] + [t[len(k):].lstrip(" \t") for k in ("const", "let", "var") if t.startswith(k)]
    return any(h.startswith(w) and h[len(w):].lstrip(" \t")[:1] in ("=", ":") for h in heads for w in _KATA_WORDS)


def _kata(text: str) -> bool:
    # a labelled line, or a row of cells with a space between two (quotes, backticks and ';' around)
    return any(_kata_label(ln) or (" " in ln.strip() and not ln.strip(" \t`\"';?xX012345678"))
               for ln in _lines(text, 8000))


_SIZE_X_SIZE = re.compile(r"[0-9]x[0-9]")
_REVEAL = ("reveal_from", "layout_as")   # every notation of a mine layout (--layout-as, --reveal-from)

# module (in formats/notations) -> its signature; sorted by module, the order the full load registers them in
SIGNATURES: Dict[str, Signature] = {
    "ascii_grid": Signature(("ascii-grid", "boxed", "pipe-grid"), (".grid",), _any("|", upto=8000),
                            read_options=("blank",)),
    "asp_facts": Signature(("asp-facts", "clingo-facts", "gringo-facts"), (".facts",), _any("number"),
                           read_options=("order",)),
    "avf": Signature(("avf", "arbiter"), (".avf",), lambda raw: len(raw) >= 6 and 3 <= raw[5] <= 6, binary=True,
                     read_options=_REVEAL),
    "blog_text": Signature(("blog-text", "blog"), (".blog",), _blog_text),
    "contest_fields": Signature(("contest-fields", "uva10189"), (".uva",), _contest,
                                read_options=("puzzle", "layout_as")),
    "dots": Signature(("dots", "gecode", "hakank"), (".dots",), _dots),
    "dzn": Signature(("dzn", "minizinc-data", "zinc"), (".dzn",), _any("array2d", "[|"), read_options=_REVEAL),
    "essence": Signature(("essence", "essence-param", "eprime", "savile-row"),
                         (".param", ".eprime-param", ".essence-param"), _any("letting", "param")),
    "evf": Signature(("evf", "metasweeper-replay"), (".evf",), lambda raw: len(raw) >= 2 and raw[0] <= 4, binary=True,
                     read_options=_REVEAL),
    "exercism": Signature(("exercism", "exercism-minesweeper"), (".exercism.json",),
                          _any('"exercise"', '"cases"', upto=2000),
                          read_options=("puzzle", "layout_as")),
    "int_matrix": Signature(("int-csv", "int-matrix", "matrix", "numpy"), (".csv", ".matrix.json", ".matrix"),
                            _int_matrix, read_options=("codes",)),
    "jsmines": Signature(("mine", "jsminesweeper"), (".mine",), lambda text: text[:20000].lstrip(" \t")[:1].isdigit()),
    "kata": Signature(("kata", "codewars"), (".kata",), _kata),
    "leetcode": Signature(("leetcode",), (".leetcode",), _leetcode, read_options=("puzzle",)),
    "level_xml": Signature(("level-xml", "app-levels", "levels-xml"), (".levels.xml",),
                           lambda text: "<level" in text[:1 << 16].casefold(), read_options=("puzzle",)),
    "mathprog_dat": Signature(("dat", "mathprog-dat", "gmpl-dat"), (".dat",), _any("param")),
    "mbf": Signature(("mbf", "minesweeper-board-file"), (".mbf",), _mbf, binary=True, read_options=_REVEAL),
    "mineconv_json": Signature(("json", "mineconv-json"), (".json",), _json_object),
    "minesolver": Signature(("minesolver",), (".minesolver",), _any("#", ".", upto=8000)),
    "minesweepr": Signature(("minesweepr",), (".minesweepr",), lambda text: "x" in text[:8000] and "." in text[:8000]),
    "ms_board": Signature(("ms-board", "ms-toollib", "metasweeper"), (".board",),
                          _any("MINESWEEPER-BOARD", "columns")),
    "mvf": Signature(("mvf", "minesweeper-clone"), (".mvf",), lambda raw: raw[:2] in (b"\x11M", b"\0\0") or (
        len(raw) >= 2 and (raw[0], raw[1]) in ((8, 8), (16, 16), (30, 16))), binary=True, read_options=_REVEAL),
    "native": Signature(("native", "text", "txt"), (".txt", ".mines"), read_options=("reveal_from",)),
    "pred_json": Signature(("pred-json", "problem-reductions"), (".pred.json", ".json"), _json_object),
    "puzzle_json": Signature(("puzzle-json", "aspuzzle"), (".puzzle.json",), _json_object),
    "puzzle_page": Signature(("puzzle-page", "puzzle-minesweeper", "puzzle-minesweeper.com"), (".html", ".htm"),
                             lambda text: text[:4000].lstrip("\ufeff \t\n\r")[:1] == "<"),
    "puzzlink": Signature(("puzzlink", "puzz.link", "pzprjs-url", "pzv"), (".puzzlink",), _any("/", upto=200)),
    "pzprv3": Signature(("pzprv3", "pzpr"), (".pzprv3",), _any("pzprv3", upto=200)),
    "quoted_rows": Signature(("quoted-rows", "rows"), (".rows",), _any("'", '"', upto=4000)),
    "rawvf": Signature(("rawvf", "raw-video"), (".rawvf",), lambda text: "events" in text[:1 << 16].casefold(),
                       read_options=_REVEAL),
    "rmv": Signature(("rmv", "viennasweeper"), (".rmv",), lambda raw: raw[:4] == b"*rmv", binary=True,
                     read_options=_REVEAL),
    "tatham_mines": Signature(("tatham-mines", "sgt-mines", "mines-game-id"), (),
                              lambda text: _SIZE_X_SIZE.search(text[:20000]) is not None,
                              read_options=_REVEAL),
    "tatham_text": Signature(("tatham-text", "mines-copy"), (".mines-text",), _any("-", upto=8000)),
}
