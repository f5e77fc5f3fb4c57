"""The built-in formats' catalogue: what the registry knows of each puzzle notation and solver-file writer before
importing its module. NOTATIONS and MODELS are the one home of each format's name, aliases, extensions, kind,
binary-ness and reader options (sqlglot's one DIALECTS list): the module's register_format call names the format
and gives only what takes code, and SIGNATURES, MODEL_MODULES and MODEL_EXTENSIONS are derived below.

Importing every notation module to run its detector costs more than a small solve, so detection first asks
each notation's `could` here, and imports (and runs the real detector of) only the notations it lets through.
`could(content)` must say True whenever the notation's detector could answer more than NO (a necessary
condition, never a guess): a notation it wrongly turns away would change detection. None means "always ask
the detector" (the native notation, which nearly any text could be). The generic grids (blog text, dots, integer
matrices, kata maps, contest fields) each say no on their first line unless it fits, so theirs look there.

Adding a notation (or writer): its row below, then `register_format(NAME, reader=..., ...)` at the end of its module
(register_format refuses the facts given again; tests/formats/test_catalogue.py fails on a second copy, and
tests/cli/test_startup.py checks that the light pass ranks every sample and fixture as the full one does).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

from .grammar import normalise_newlines

Could = Callable[[Any], bool]   # content (text, or bytes for a binary notation) -> may the detector say yes


@dataclass(frozen=True)
class Signature:
    """One notation module's names (aliases included), extensions, whether it reads bytes, and its `could` (None:
    any content may be this notation): the light pass's view of the module, derived from its NOTATIONS rows."""

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



@dataclass(frozen=True)
class Builtin:
    """One built-in format's facts, known before its module is imported (this table is their one home: the
    module's register_format names the format and gives what takes code, the reader, writer and detector)."""

    name: str
    module: str                      # its module in formats/notations (NOTATIONS) or formats/models (MODELS)
    extensions: Tuple[str, ...] = ()
    aliases: Tuple[str, ...] = ()
    could: Optional[Could] = None    # the notation's light first pass (None: any content may be it)
    binary: bool = False             # its reader and detector take bytes
    read_options: Tuple[str, ...] = ()   # its reader's keyword options (the CLI's flags; their help is the module's)


# every built-in puzzle notation, by module, in the order the full load registers them
NOTATIONS: Tuple[Builtin, ...] = (
    Builtin("ascii-grid", "ascii_grid", (".grid",), ("boxed", "pipe-grid"), _any("|", upto=8000),
            read_options=("blank",)),
    Builtin("asp-facts", "asp_facts", (".facts",), ("clingo-facts", "gringo-facts"), _any("number"),
            read_options=("order",)),
    Builtin("avf", "avf", (".avf",), ("arbiter",), lambda raw: len(raw) >= 6 and 3 <= raw[5] <= 6, binary=True,
            read_options=_REVEAL),
    Builtin("blog-text", "blog_text", (".blog",), ("blog",), _blog_text),
    Builtin("contest-fields", "contest_fields", (".uva",), ("uva10189",), _contest, read_options=("puzzle", "layout_as")),
    Builtin("dots", "dots", (".dots",), ("gecode", "hakank"), _dots),
    Builtin("dzn", "dzn", (".dzn",), ("minizinc-data", "zinc"), _any("array2d", "[|"), read_options=_REVEAL),
    Builtin("essence", "essence", (".param", ".eprime-param", ".essence-param"), ("essence-param", "eprime", "savile-row"),
            _any("letting", "param")),
    Builtin("evf", "evf", (".evf",), ("metasweeper-replay",), lambda raw: len(raw) >= 2 and raw[0] <= 4, binary=True,
            read_options=_REVEAL),
    Builtin("exercism", "exercism", (".exercism.json",), ("exercism-minesweeper",),
            _any('"exercise"', '"cases"', upto=2000), read_options=("puzzle", "layout_as")),
    Builtin("int-matrix", "int_matrix", (".matrix.json", ".matrix"), ("matrix", "numpy"), _int_matrix,
            read_options=("codes",)),
    Builtin("int-csv", "int_matrix", (".csv",), (), _int_matrix, read_options=("codes",)),
    Builtin("mine", "jsmines", (".mine",), ("jsminesweeper",), lambda text: text[:20000].lstrip(" \t")[:1].isdigit()),
    Builtin("kata", "kata", (".kata",), ("codewars",), _kata),
    Builtin("leetcode", "leetcode", (".leetcode",), (), _leetcode, read_options=("puzzle",)),
    Builtin("level-xml", "level_xml", (".levels.xml",), ("app-levels", "levels-xml"),
            lambda text: "<level" in text[:1 << 16].casefold(), read_options=("puzzle",)),
    Builtin("dat", "mathprog_dat", (".dat",), ("mathprog-dat", "gmpl-dat"), _any("param")),
    Builtin("mbf", "mbf", (".mbf",), ("minesweeper-board-file",), _mbf, binary=True, read_options=_REVEAL),
    Builtin("json", "mineconv_json", (".json",), ("mineconv-json",), _json_object),
    Builtin("minesolver", "minesolver", (".minesolver",), (), _any("#", ".", upto=8000)),
    Builtin("minesweepr", "minesweepr", (".minesweepr",), (), lambda text: "x" in text[:8000] and "." in text[:8000]),
    Builtin("ms-board", "ms_board", (".board",), ("ms-toollib", "metasweeper"), _any("MINESWEEPER-BOARD", "columns")),
    Builtin("mvf", "mvf", (".mvf",), ("minesweeper-clone",), lambda raw: raw[:2] in (b"\x11M", b"\0\0") or (
        len(raw) >= 2 and (raw[0], raw[1]) in ((8, 8), (16, 16), (30, 16))), binary=True, read_options=_REVEAL),
    Builtin("native", "native", (".txt", ".mines"), ("text", "txt"), read_options=("reveal_from",)),
    Builtin("pred-json", "pred_json", (".pred.json", ".json"), ("problem-reductions",), _json_object),
    Builtin("puzzle-json", "puzzle_json", (".puzzle.json",), ("aspuzzle",), _json_object),
    Builtin("puzzle-page", "puzzle_page", (".html", ".htm"), ("puzzle-minesweeper", "puzzle-minesweeper.com"),
            lambda text: text[:4000].lstrip("\ufeff \t\n\r")[:1] == "<"),
    Builtin("puzzlink", "puzzlink", (".puzzlink",), ("puzz.link", "pzprjs-url", "pzv"), _any("/", upto=200)),
    Builtin("pzprv3", "pzprv3", (".pzprv3",), ("pzpr",), _any("pzprv3", upto=200)),
    Builtin("quoted-rows", "quoted_rows", (".rows",), ("rows",), _any("'", '"', upto=4000)),
    Builtin("rawvf", "rawvf", (".rawvf",), ("raw-video",), lambda text: "events" in text[:1 << 16].casefold(),
            read_options=_REVEAL),
    Builtin("rmv", "rmv", (".rmv",), ("viennasweeper",), lambda raw: raw[:4] == b"*rmv", binary=True,
            read_options=_REVEAL),
    Builtin("tatham-mines", "tatham_mines", (), ("sgt-mines", "mines-game-id"),
            lambda text: _SIZE_X_SIZE.search(text[:20000]) is not None, read_options=_REVEAL),
    Builtin("tatham-text", "tatham_text", (".mines-text",), ("mines-copy",), _any("-", upto=8000)),
)

# every built-in solver-file writer, by module, in the order the full load registers them
MODELS: Tuple[Builtin, ...] = (
    Builtin("asp", "asp", (".asp",), ("clingo", "gringo")),
    Builtin("lp", "cplex_lp", (".lp",), ("cplex-lp",)),
    Builtin("cnf", "dimacs", (".cnf",), ("dimacs",)),
    Builtin("mathprog", "mathprog_mod", (".mod",), ("gmpl", "mod")),
    Builtin("mps", "mps", (".mps", ".fmps"), ("free-mps",)),
    Builtin("fixed-mps", "mps", (".mps",)),
    Builtin("mzn", "mzn", (".mzn",), ("minizinc",)),
    Builtin("opb", "opb", (".opb",), ("pb",)),
    Builtin("smt2", "smtlib", (".smt2", ".smt"), ("smtlib", "smt-lib")),
    Builtin("xcsp", "xcsp", (".xml", ".xcsp"), ("xcsp3",)),
)

# the views derived from the two tables (nothing below is written by hand)
BUILTIN: Dict[str, Tuple[str, Builtin]] = {**{b.name: ("puzzle", b) for b in NOTATIONS},
                                           **{b.name: ("model", b) for b in MODELS}}


def _module_could(rows: List[Builtin]) -> Optional[Could]:
    coulds = list(dict.fromkeys(r.could for r in rows))
    return coulds[0] if len(coulds) == 1 else None


def _signatures() -> Dict[str, Signature]:
    by_module: Dict[str, List[Builtin]] = {}
    for b in NOTATIONS:
        by_module.setdefault(b.module, []).append(b)
    return {m: Signature(tuple(n for r in rows for n in (r.name, *r.aliases)),
                         tuple(dict.fromkeys(e for r in rows for e in r.extensions)), _module_could(rows),
                         rows[0].binary, tuple(dict.fromkeys(o for r in rows for o in r.read_options)))
            for m, rows in sorted(by_module.items())}


# notation module -> its signature, sorted by module (the order the full load registers them in)
SIGNATURES: Dict[str, Signature] = _signatures()
# every solver-file writer's names and aliases -> its module in models/: writing by format name imports that one
# module, not every answer reader and writer (~20 ms of imports)
MODEL_MODULES: Dict[str, str] = {n: b.module for b in MODELS for n in (b.name, *b.aliases)}
# and their file extensions -> those modules: an output named by its extension imports only its writer
MODEL_EXTENSIONS: Dict[str, Tuple[str, ...]] = {
    e: tuple(dict.fromkeys(b.module for b in MODELS if e in b.extensions)) for b0 in MODELS for e in b0.extensions}
