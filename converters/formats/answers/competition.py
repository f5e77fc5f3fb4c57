"""SAT/PB-competition solver output: `s STATUS` and `v literals` lines (cadical, kissat, picosat,
cryptominisat, glucose, clasp, z3 -dimacs, minisat+ and other PB solvers)."""
from __future__ import annotations

import re

from ...core.errors import SolutionSyntaxError
from ...core.fileio import line_of
from ..answer import Answer, literal_answer, parse_literals
from ..registry import register_format

# status word -> our status; PB solvers say OPTIMUM FOUND when they also optimised an objective
_STATUS = {
    "SATISFIABLE": "solved",
    "OPTIMUM FOUND": "solved",
    "UNSATISFIABLE": "infeasible",
    "UNKNOWN": "unknown",
    "INDETERMINATE": "unknown",   # cryptominisat's word for a limit hit
    "UNSUPPORTED": "unknown",
}
_DETECT = re.compile(r"^s (SATISFIABLE|UNSATISFIABLE|UNKNOWN|INDETERMINATE|OPTIMUM FOUND)[ \t]*$", re.M)


def read_competition(text: str, source: str = "<string>") -> Answer:
    """Read `s`/`v` solver output; comments (`c`) and objective (`o`) lines are skipped."""
    status = None
    status_word = ""
    status_line = 0
    groups: list = [[]]          # v-line pieces, one group per model
    models = 0
    unknown_comment = False      # cadical prints `c UNKNOWN` (no s line) when a limit stops it
    lines = text.splitlines()
    for ln, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        s = line.strip()
        if not s:
            continue
        key = s.split(None, 1)[0]
        if key == "c" or key.startswith("c\x1b") or (s.startswith("c") and len(key) == 1):
            if s[1:].strip() == "UNKNOWN":
                unknown_comment = True
            continue
        if key == "o":
            continue
        if key == "v":
            if status is not None and status != "solved":
                raise SolutionSyntaxError(f"a model after the status {status_word!r}", source=source, line=ln,
                                          line_text=line)
            body_at = line.index("v") + 1
            groups[-1].append((ln, line[body_at:], body_at))
            if re.search(r"(^|\s)0\s*$", line[body_at:]):
                groups.append([])
            continue
        if key == "s":
            word = s[1:].strip()
            if word.startswith("SOLUTIONS"):   # picosat --all trailer: `s SOLUTIONS <n>`
                continue
            if word not in _STATUS:
                raise SolutionSyntaxError(f"unknown status {word!r}", source=source, line=ln, line_text=line)
            new = _STATUS[word]
            if status is not None and new != status:
                raise SolutionSyntaxError(f"a second, different status {word!r} (the first was "
                                          f"{status_word!r} on line {status_line})", source=source, line=ln,
                                          line_text=line)
            if new == "solved":
                models += 1
            status, status_word, status_line = new, word, ln
            continue
        if s == "timeout" and status is None:   # z3 -T: on a DIMACS file
            status, status_word, status_line = "unknown", "timeout", ln
            continue
        raise SolutionSyntaxError("not a line of SAT solver output (expected c, s or v lines)", source=source,
                                  line=ln, line_text=line)
    if status is None:
        if unknown_comment:
            return Answer("unknown", why="the solver stopped before an answer (c UNKNOWN)", format="competition",
                          source=source, text=text)
        raise SolutionSyntaxError("no status line (s SATISFIABLE / s UNSATISFIABLE / s UNKNOWN): truncated or "
                                  "not solver output", source=source)
    if status != "solved":
        why = "" if status == "infeasible" else f"the solver answered {status_word}"
        return Answer(status, why=why, format="competition", source=source, text=text)
    groups = [g for g in groups if g]
    if not groups:
        raise SolutionSyntaxError(f"status {status_word} but no model (v lines): truncated?", source=source,
                                  line=status_line, line_text=line_of(text, status_line))
    proto = {"text": text, "source": source}
    # z3 -dimacs prints its single v line without the terminating 0; several models must each end in 0
    lits, where, _ = parse_literals(groups[0], proto, require_zero=len(groups) > 1)
    return literal_answer(lits, where, format="competition", source=source, text=text,
                          solutions=max(models, len(groups)))


def detect_competition(text: str) -> bool:
    """An `s` status line, cadical's lone `c UNKNOWN`, or z3's `timeout`."""
    head = text[:1 << 20]
    if _DETECT.search(head):
        return True
    body = [ln.strip() for ln in head.splitlines() if ln.strip()]
    return body == ["timeout"] or (bool(body) and all(ln.startswith("c") for ln in body)
                                   and "c UNKNOWN" in body)


register_format("competition", [], "solution", reader=read_competition, detect=detect_competition,
                aliases=("sat", "dimacs-sol", "pb-sol", "cadical", "picosat", "kissat", "clasp", "minisat+"),
                description="SAT/PB competition output: s status + v literals (cadical, picosat, kissat, "
                            "clasp, minisat+, z3 -dimacs)")
