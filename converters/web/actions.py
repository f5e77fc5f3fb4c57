"""What the assistant page can ask for, as plain functions from a request (a dict) to an answer (a dict).

The page keeps the board and its history itself and sends the board with every request, in the canonical
text form (README, "The puzzle model"), so the server holds no state between requests. Cheap actions
(load, export, samples) run in the server's request thread; the ones whose cost grows with the board
(levels, one step, probabilities, the best move, new games) run in worker processes (`jobs.py`) under a
time limit and a memory budget. Every answer is what the command line says on the same board: `analyze --level L` for the
levels, `analyze --json` for probabilities and the count, `explain --level L` for one step, `advise --json`
for the best move, `convert` for exports.
"""
from __future__ import annotations

import base64
import io
import tempfile
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from ..analysis import analyze, unlimited_int_digits
from ..analysis.advice import advise
from ..analysis.explain import explain
from ..analysis.propagation import LEVELS as PROPAGATION_LEVELS
from ..core.bounds import Bounds
from ..core.errors import FormatError, InputError, MineconvError, PuzzleSyntaxError
from ..core.fileio import max_bytes, too_many_cells
from ..core.layout import mine_counts
from ..core.puzzle import Puzzle
from ..formats.notations.native import canonical_text
from ..formats.reading import parse_reading, read_reading
from ..formats.registry import format_names, get_format
from ..formats.writing import dump
from ..make.generate import place_mines
from ..make.noguess import no_guess_layout, start_block
from ..present.picture import render_svg

LEVELS = tuple(PROPAGATION_LEVELS) + ("full",)

Request = Dict[str, Any]
Answer = Dict[str, Any]


def board_of(request: Request) -> Puzzle:
    """The board a request carries (canonical text under "board"), read strictly as the native notation."""
    text = request.get("board")
    if not isinstance(text, str) or not text.strip():
        raise PuzzleSyntaxError("the request carries no board", source="<page>")
    return parse_reading(text, "native", source="<board>").puzzle


def board_answer(puzzle: Puzzle) -> Answer:
    """A board as the page draws it: rows, cols, the grid rows, the total, the first click."""
    return {"rows": puzzle.rows, "cols": puzzle.cols, "grid": list(puzzle.grid_lines), "mines": puzzle.mines,
            "start": list(puzzle.start) if puzzle.start is not None else None, "name": puzzle.name,
            "board": canonical_text(puzzle.replace(notes=()))}


def load(request: Request) -> Answer:
    """Read pasted text (or an opened file's bytes) in any notation mineconv reads (detected by content)."""
    if isinstance(request.get("data"), str):
        return load_bytes(request)
    text = request.get("text")
    if not isinstance(text, str):
        raise PuzzleSyntaxError("nothing was pasted", source="<paste>")
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes():
        raise PuzzleSyntaxError(f"the pasted text is larger than {max_bytes()} bytes (the --max-bytes limit)",
                                source="<paste>")
    name = request.get("source") or "<paste>"
    fmt = request.get("format") or None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reading = parse_reading(text, fmt, source=str(name))
    answer = board_answer(reading.puzzle)
    answer["notation"] = reading.format.name
    answer["warnings"] = [str(w.message) for w in caught]
    return answer


def load_bytes(request: Request) -> Answer:
    """Read an opened file's bytes (base64 under "data"): binary notations such as .mbf need them."""
    name = Path(str(request.get("source") or "upload")).name or "upload"
    try:
        data = base64.b64decode(str(request["data"]), validate=True)
    except ValueError:
        raise PuzzleSyntaxError("the file's bytes did not arrive intact (bad base64)", source=name) from None
    if len(data) > max_bytes():
        raise PuzzleSyntaxError(f"the file is larger than {max_bytes()} bytes (the --max-bytes limit)", source=name)
    with tempfile.TemporaryDirectory(prefix="mineconv-page-") as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                reading = read_reading(path, request.get("format") or None)
        except MineconvError as exc:
            exc.source = name   # the user's file name, not the temporary copy's
            raise
    answer = board_answer(reading.puzzle)
    answer["notation"] = reading.format.name
    answer["warnings"] = [str(w.message).replace(str(path), name) for w in caught]
    return answer


def render(request: Request) -> Answer:
    """The board's picture as `mineconv render` draws it (SVG text; the page rasterises PNG itself)."""
    return {"svg": render_svg(board_of(request))}


def samples(request: Request) -> Answer:
    """The shipped samples' names, or one sample's text."""
    folder = samples_folder()
    names = sorted(p.name for p in folder.iterdir() if p.is_file() and p.suffix not in (".md", ".py"))
    wanted = request.get("name")
    if wanted is None:
        return {"samples": names}
    if wanted not in names:
        raise FormatError(f"no sample named {wanted!r}")
    return {"name": wanted, "text": (folder / wanted).read_text("utf-8", errors="replace")}


def samples_folder() -> Path:
    """The shipped samples: inside the installed package (mineconv/samples), or the source tree's samples/."""
    package = Path(__file__).resolve().parents[1]
    for folder in (package / "samples", package.parent / "samples"):
        if folder.is_dir():
            return folder
    raise FormatError("the samples are not installed with this copy of mineconv")


def export_formats() -> List[str]:
    """Every format the page can export a board to: mineconv's writers (puzzle notations and solver files)."""
    return format_names(direction="write")


def export(request: Request) -> Answer:
    """The board in another format, as `mineconv convert` writes it (bytes in base64, and a file name)."""
    puzzle = board_of(request)
    name = request.get("format")
    if not isinstance(name, str):
        raise FormatError("name a format to export to")
    fmt = get_format(name, direction="write")
    buffer = io.BytesIO() if fmt.binary else io.StringIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dump(puzzle, buffer, name)
    value = buffer.getvalue()
    data = value if isinstance(value, bytes) else value.encode("utf-8")
    stem = (puzzle.name or "board").replace("/", "_").replace(" ", "_")[:40] or "board"
    extension = fmt.extensions[0] if fmt.extensions else ".txt"
    return {"filename": stem + extension, "data": base64.b64encode(data).decode("ascii"),
            "warnings": [str(w.message) for w in caught]}


def cells_json(cells: Any) -> List[List[int]]:
    """[[row, col], ...] from a sequence of (row, col) pairs."""
    return [[int(r), int(c)] for r, c in cells]


def level(request: Request) -> Answer:
    """What one level decides (as `analyze --level L`): safe cells, certain mines, the count."""
    puzzle = board_of(request)
    name = request.get("level", "full")
    if name not in LEVELS:
        raise FormatError(f"no level {name!r}: choose one of {', '.join(LEVELS)}")
    a = analyze(puzzle, level=name, memory_budget=request.get("memory_budget"), timeout=request.get("timeout"))
    with unlimited_int_digits():
        report = a.to_json()
    return {"level": name, "feasible": a.feasible, "status": a.status, "safe": cells_json(a.safe_cells),
            "mines": cells_json(a.mine_cells), "solutions_str": report.get("solutions_str"),
            "solutions_log10": report.get("solutions_log10")}


def probabilities(request: Request) -> Answer:
    """Every unknown cell's mine probability and the exact count (as `analyze --json`)."""
    puzzle = board_of(request)
    a = analyze(puzzle, memory_budget=request.get("memory_budget"), timeout=request.get("timeout"))
    with unlimited_int_digits():
        report = a.to_json()
    report["feasible"] = a.feasible
    return report


def step(request: Request) -> Answer:
    """The next deduction at a level (as the first step of `explain --level L`), with its reason."""
    puzzle = board_of(request)
    name = request.get("level", "full")
    if name not in LEVELS:
        raise FormatError(f"no level {name!r}: choose one of {', '.join(LEVELS)}")
    bounds = Bounds(timeout=request.get("timeout"))
    explanation = explain(puzzle, level=name, bounds=bounds)
    if not explanation.steps:
        return {"level": name, "step": None, "solved": explanation.to_json().get("solved"),
                "text": f"no deduction at level {name}: every remaining cell needs a higher level or a guess"}
    first = explanation.steps[0].to_json(1)
    return {"level": name, "step": first, "text": first["text"]}


def advise_move(request: Request) -> Answer:
    """The best move on the board and why (as `advise --json`); "budget" (seconds) caps the search."""
    budget = request.get("budget")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, (int, float)) or budget < 0):
        raise InputError(f"budget must be a number of seconds, not {budget!r}")
    return advise(board_of(request), budget=budget).to_json()


def new_game(request: Request) -> Answer:
    """A fresh game: a mine layout with the first click's block kept free, and that click opened."""
    rows, cols = whole(request, "rows", 9, 1), whole(request, "cols", 9, 1)
    mines = whole(request, "mines", 10, 0)
    refused = too_many_cells(rows, cols)
    if refused is not None:
        raise FormatError(refused)
    start = (rows // 2, cols // 2)
    seed = None if request.get("seed") is None else whole(request, "seed", 0, 0)
    if request.get("no_guess"):
        grid = no_guess_layout(rows, cols, mines, start, seed=seed, timeout=request.get("timeout")).mines
    else:
        grid = place_free_of(rows, cols, mines, start, seed)
    return {"rows": rows, "cols": cols, "mines": int(grid.sum()), "start": list(start),
            "layout": ["".join("*" if m else "." for m in row) for row in grid.tolist()],
            "counts": ["".join(str(int(n)) for n in row) for row in mine_counts(grid).tolist()]}


def whole(request: Request, key: str, default: int, least: int) -> int:
    """request[key] as a whole number of at least `least` (default when absent); InputError otherwise.

    int() of what a page posts turned -1 rows into numpy's "negative dimensions are not allowed" and
    "x" into "invalid literal for int()" (issue 25's adversarial pass).
    """
    value = request.get(key, default)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise InputError(f"{key} must be a whole number of at least {least}, not {value!r}")
    return value


def place_free_of(rows: int, cols: int, mines: int, start: Any, seed: Optional[int]) -> np.ndarray:
    """A random layout with `mines` mines, the first click and its neighbours kept free when they fit."""
    block = start_block(rows, cols, tuple(start))
    if mines > rows * cols - int(block.sum()):
        return place_mines(rows, cols, mines=mines, seed=seed)
    rng = np.random.default_rng(seed)
    allowed = np.flatnonzero(~block.ravel())
    flat = np.zeros(rows * cols, dtype=bool)
    flat[rng.choice(allowed, size=mines, replace=False)] = True
    return flat.reshape(rows, cols)


# the actions a worker process runs (their cost grows with the board), and the ones a request thread runs
HEAVY: Dict[str, Callable[[Request], Answer]] = {"level": level, "probabilities": probabilities, "step": step,
                                                 "new_game": new_game, "advise": advise_move}
LIGHT: Dict[str, Callable[[Request], Answer]] = {"load": load, "export": export, "samples": samples,
                                                 "render": render}
