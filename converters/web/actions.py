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
import re
import tempfile
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from ..analysis import analyze, unlimited_int_digits
from ..analysis.advice import advise
from ..analysis.explain import explain
from ..analysis.levels.propagation import LEVELS as PROPAGATION_LEVELS
from ..core.bounds import Bounds
from ..core.errors import FormatError, InputError, MineconvError, PuzzleError, PuzzleSyntaxError
from ..core.fileio import max_bytes, too_many_cells
from ..core.layout import mine_counts
from ..core.puzzle import Puzzle
from ..formats.notations.native import canonical_text
from ..formats.reading import parse_reading, read_reading
from ..formats.registry import format_names, get_format
from ..formats.writing import dump, write
from ..make.noguess import no_guess_layout, start_block
from ..present.picture import render_svg
from .downloads import FOLDER_PREFIX
from .playback import replay

LEVELS = tuple(PROPAGATION_LEVELS) + ("full",)

Request = Dict[str, Any]
Answer = Dict[str, Any]


def board_of(request: Request) -> Puzzle:
    """The board a request carries (canonical text under "board"), read strictly as the native notation."""
    text = request.get("board")
    if not isinstance(text, str) or not text.strip():
        raise PuzzleSyntaxError("the request carries no board", source="<page>")
    try:
        return parse_reading(text, "native", source="<board>").puzzle
    except MineconvError as exc:
        raise board_error(exc, text) from None


def board_error(exc: MineconvError, text: str) -> MineconvError:
    """An error in the board the page sent, named by its cell ("cell (0, 1) shows 8 ..."), not by a line
    of a text the user never sees; the cell rides along (exc.cell) for the page to highlight."""
    if exc.line is None:
        return exc
    lines = text.splitlines()
    header = next((i for i, line in enumerate(lines) if not re.match(r"^[a-z]+:", line)), len(lines))
    row, col = exc.line - 1 - header, (exc.column or 1) - 1
    if row < 0:
        return PuzzleSyntaxError(f"the board's {lines[exc.line - 1].split(':')[0]}: {exc.message}")
    message = exc.message if exc.message.startswith("cell (") else f"cell ({row}, {col}): {exc.message}"
    return PuzzleSyntaxError(message, cell=(row, col))


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
        try:
            reading = parse_reading(text, fmt, source=str(name))
        except MineconvError as exc:
            if not request.get("located"):
                raise
            return {"failed": page_error(exc, text, str(name))}
    answer = board_answer(reading.puzzle)
    answer["notation"] = reading.format.name
    answer["warnings"] = [str(w.message) for w in caught]
    return answer


def page_error(exc: MineconvError, text: str, source: str) -> Answer:
    """A reading error as the page shows it: its words (no command-line options), the line and column
    of the pasted text and the cell it is about, when known.

    When the notation could not be told apart, the one the text looks most like reads it again, so the
    first line it stumbles on is named (the command line leaves that to `--from`).
    """
    notation = None
    like = re.search(r"looks (?:most|more) like ([\w-]+)", exc.message)
    if exc.line is None and like is not None:
        try:
            parse_reading(text, like.group(1), source=source)
        except MineconvError as again:
            if again.line is not None:
                exc, notation = again, like.group(1)
    message = page_words(exc.message)
    if notation is not None:
        message = f"read as {notation}, the notation it looks most like: {message}"
    return {"message": message, "source": source, "line": exc.line, "column": exc.column, "line_text": exc.line_text,
            "cell": list(exc.cell) if exc.cell is not None else None, "notation": notation}


def page_words(message: str) -> str:
    """A command-line message in the page's words: the notation chooser where the command line says --from."""
    message = re.sub(r" \(one of: [^)]*\)", "", message)
    message = re.sub(r"name it with --from", "choose one under Notation", message)
    message = re.sub(r"--from names another( notation)?", "the Notation chooser names another", message)
    message = re.sub(r"try --from ([\w-]+)", r"choose \1 under Notation", message)
    return message.replace("--from", "the Notation chooser")


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
    puzzle = board_of(request)
    return {"svg": render_svg(puzzle), "filename": file_stem(puzzle)}


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


def notations() -> List[str]:
    """Every puzzle notation the page can read a paste or a file in (the chooser's names, the CLI's --from)."""
    return format_names("puzzle", "read")


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
    answer = {"filename": export_name(puzzle, fmt.extensions), "bytes": len(data),
              "warnings": [str(w.message) for w in caught]}
    if not request.get("measure"):   # measure: the size first, so the page can say it before the download
        answer["data"] = base64.b64encode(data).decode("ascii")
    return answer


def export_size(request: Request) -> Answer:
    """An export's file name and size in bytes, without its bytes: measured in a worker (a 200x200 board's
    CNF is 290 MB and takes a minute), so the page can say it before it asks for the file."""
    return export(dict(request, measure=True))


def export_file(request: Request) -> Answer:
    """The board in another format written to a file, as `mineconv convert -o` writes it (the same bytes):
    a big export the page fetches by ticket (`downloads.py`). The path is the server's, never the page's:
    this action is not in HEAVY, so the page cannot ask for it, and it writes only into a download folder."""
    puzzle = board_of(request)
    name = request.get("format")
    if not isinstance(name, str):
        raise FormatError("name a format to export to")
    path = Path(str(request.get("path") or ""))
    if not path.parent.name.startswith(FOLDER_PREFIX) or path.exists():
        raise InputError(f"an export is written only as a new file of the server's download folder, not {path}")
    fmt = get_format(name, direction="write")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        write(puzzle, path, name)
    return {"filename": export_name(puzzle, fmt.extensions), "bytes": path.stat().st_size,
            "warnings": [str(w.message) for w in caught]}


def export_name(puzzle: Puzzle, extensions: Any) -> str:
    """An export's file name: the puzzle's name made safe, and the format's first extension (or .txt)."""
    return file_stem(puzzle) + (extensions[0] if extensions else ".txt")


def file_stem(puzzle: Puzzle) -> str:
    """A file name for a board's exports and pictures: the puzzle's name, made safe, or "board"."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", puzzle.name or "board").strip("._")[:40] or "board"


def picture(request: Request) -> Answer:
    """The board's picture with its probabilities (as `mineconv render --analysis --percent` draws it): the overlay
    the page shows, for the SVG and PNG buttons while it is on."""
    puzzle = board_of(request)
    a = analyze(puzzle, memory_budget=request.get("memory_budget"), timeout=request.get("timeout"))
    return {"svg": render_svg(puzzle, a, percent=True), "filename": file_stem(puzzle)}


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
    answer = {"level": name, "feasible": a.feasible, "status": a.status, "safe": cells_json(a.safe_cells),
              "mines": cells_json(a.mine_cells), "solutions_str": report.get("solutions_str"),
              "solutions_log10": report.get("solutions_log10")}
    if not a.feasible:
        answer["conflict"] = no_solution(puzzle, request.get("timeout"))
    return answer


def probabilities(request: Request) -> Answer:
    """Every unknown cell's mine probability and the exact count (as `analyze --json`)."""
    puzzle = board_of(request)
    a = analyze(puzzle, memory_budget=request.get("memory_budget"), timeout=request.get("timeout"))
    with unlimited_int_digits():
        report = a.to_json()
    report["feasible"] = a.feasible
    if not a.feasible:
        report["conflict"] = no_solution(puzzle, request.get("timeout"))
    return report


def no_solution(puzzle: Puzzle, timeout: Optional[float] = None) -> Answer:
    """Why a board has no solution, in the words of `explain` on the command line ("no solution: the 0 at
    (0, 0) has 1 mine around it, too many"), with the counts that contradict each other."""
    e = explain(puzzle, level="full", bounds=Bounds(timeout=timeout))
    if e.consistent:   # explain ran out of time before it met the contradiction the count proved
        return {"text": "no solution: the counts contradict each other"
                        + (" or the total mine count" if puzzle.mines is not None else ""), "because": []}
    return {"text": f"no solution: {e.conflict}" if e.conflict else "no solution: the counts contradict each other",
            "because": [[b.row, b.col] for b in e.conflict_because], "total": e.conflict_total}


def step(request: Request) -> Answer:
    """The next deduction at a level (as the first step of `explain --level L`), with its reason."""
    puzzle = board_of(request)
    name = request.get("level", "full")
    if name not in LEVELS:
        raise FormatError(f"no level {name!r}: choose one of {', '.join(LEVELS)}")
    bounds = Bounds(timeout=request.get("timeout"))
    explanation = explain(puzzle, level=name, bounds=bounds)
    if not explanation.consistent or not feasible(puzzle, request.get("timeout")):
        # a step on a board with no solution would place mines no arrangement allows: say why instead
        conflict = no_solution(puzzle, request.get("timeout"))
        return {"level": name, "step": None, "solved": False, "conflict": conflict, "text": conflict["text"]}
    if not explanation.steps:
        return {"level": name, "step": None, "solved": explanation.to_json().get("solved"),
                "text": f"no deduction at level {name}: every remaining cell needs a higher level or a guess"}
    first = explanation.steps[0].to_json(1)
    return {"level": name, "step": first, "text": first["text"]}


def feasible(puzzle: Puzzle, timeout: Optional[float] = None) -> bool:
    """False only when the board is proven to have no solution (its exact count is 0); a timeout says True."""
    a = analyze(puzzle, level="gac", timeout=timeout)
    return a.feasible or a.status == "timeout"


FIRST_CLICK_RULES = ("snr", "sfar")   # as `mineconv play` names them: a zero opening, or only the cell safe


def advise_move(request: Request) -> Answer:
    """The best move on the board and why (as `advise --json`); "budget" (seconds) caps the search."""
    budget = request.get("budget")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, (int, float)) or budget < 0):
        raise InputError(f"budget must be a number of seconds, not {budget!r}")
    puzzle = board_of(request)
    try:
        # the page writes a player's flags as '?', so its '*' cells are mines it knows (as the Puzzle says)
        answer = advise(puzzle, budget=budget, known_mines=True).to_json()
    except PuzzleError:
        if feasible(puzzle, request.get("timeout")):
            raise
        conflict = no_solution(puzzle, request.get("timeout"))
        return {"feasible": False, "conflict": conflict, "move": None, "text": conflict["text"]}
    answer["feasible"] = True
    return answer


def new_game(request: Request) -> Answer:
    """A fresh game: a mine layout with the first click kept free (its block too under "snr" or no-guess).

    `start` is the first click, [row, col] (default the centre), or "any" when the player has not chosen
    it yet: then only the mine count is checked (against the largest block a click can have) and the answer
    carries no layout. `first_click` is "snr" (the click opens a zero: it and its neighbours are free) or
    "sfar" (only the clicked cell is safe).
    """
    rows, cols = whole(request, "rows", 9, 1), whole(request, "cols", 9, 1)
    mines = whole(request, "mines", 10, 0)
    refused = too_many_cells(rows, cols)
    if refused is not None:
        raise FormatError(refused)
    rule = request.get("first_click") or "snr"
    if rule not in FIRST_CLICK_RULES:
        raise InputError(f"first_click must be one of {', '.join(FIRST_CLICK_RULES)}, not {rule!r}")
    no_guess = bool(request.get("no_guess"))
    rule = "snr" if no_guess else rule   # a no-guess layout keeps the first click's block free: a zero opening
    wanted = request.get("start")
    pending = wanted == "any"
    start = (min(rows - 1, 1), min(cols - 1, 1)) if pending else game_start(wanted, rows, cols)
    block = start_block(rows, cols, start) if rule == "snr" else None
    check_room(rows, cols, mines, 1 if block is None else int(block.sum()), block is not None)
    seed = None if request.get("seed") is None else whole(request, "seed", 0, 0)
    if pending:
        return {"rows": rows, "cols": cols, "mines": mines, "start": None, "first_click": rule, "pending": True}
    if no_guess:
        grid = no_guess_layout(rows, cols, mines, start, seed=seed, timeout=request.get("timeout")).mines
    else:
        grid = place_free_of(rows, cols, mines, start, seed, block)
    return {"rows": rows, "cols": cols, "mines": int(grid.sum()), "start": list(start), "first_click": rule,
            "layout": ["".join("*" if m else "." for m in row) for row in grid.tolist()],
            "counts": ["".join(str(int(n)) for n in row) for row in mine_counts(grid).tolist()]}


def game_start(wanted: Any, rows: int, cols: int) -> Tuple[int, int]:
    """The first click a request names ([row, col] on the board), or the centre when it names none."""
    if wanted is None:
        return (rows // 2, cols // 2)
    if (not isinstance(wanted, (list, tuple)) or len(wanted) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in wanted)
            or not (0 <= wanted[0] < rows and 0 <= wanted[1] < cols)):
        raise InputError(f"start must be a cell [row, col] of the {rows} x {cols} board, not {wanted!r}")
    return (int(wanted[0]), int(wanted[1]))


def check_room(rows: int, cols: int, mines: int, kept: int, block: bool) -> None:
    """Refuse a mine count that leaves the first click (and, `block`, its neighbours: `kept` cells) no room."""
    room = rows * cols - kept
    if mines > room:
        what = ("the first click and its neighbours" if block else "the first click")
        why = "no-guess or snr games open a zero there" if block else "sfar keeps only the clicked cell safe"
        raise InputError(f"{mines} mines do not fit a {rows} x {cols} board with {what} kept free ({why}): "
                         f"at most {room} mines")


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


def place_free_of(rows: int, cols: int, mines: int, start: Any, seed: Optional[int],
                  block: Optional[np.ndarray] = None) -> np.ndarray:
    """A random layout with `mines` mines off the first click and, when given, off its whole block."""
    if block is None:
        block = np.zeros((rows, cols), dtype=bool)
        block[tuple(start)] = True
    rng = np.random.default_rng(seed)
    allowed = np.flatnonzero(~block.ravel())
    flat = np.zeros(rows * cols, dtype=bool)
    flat[rng.choice(allowed, size=mines, replace=False)] = True
    return flat.reshape(rows, cols)


# the actions a worker process runs (their cost grows with the board), and the ones a request thread runs
HEAVY: Dict[str, Callable[[Request], Answer]] = {"level": level, "probabilities": probabilities, "step": step,
                                                 "new_game": new_game, "picture": picture, "replay": replay,
                                                 "export_size": export_size, "advise": advise_move}
LIGHT: Dict[str, Callable[[Request], Answer]] = {"load": load, "export": export, "samples": samples,
                                                 "render": render}
# what a worker process runs: the page's heavy actions, and the server's own (the page cannot name these)
WORKER_ACTIONS: Dict[str, Callable[[Request], Answer]] = dict(HEAVY, export_file=export_file)
