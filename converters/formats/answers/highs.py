"""HiGHS solution files (`highs --solution_file`, highspy writeSolution): raw, sparse and pretty styles."""
from __future__ import annotations

import re

from ...core.errors import SolutionSyntaxError
from ...core.wording import plural
from ..answer import Answer, named_answer, parse_value
from ..registry import register_format

# HiGHS modelStatusToString; "limit" statuses keep the best solution found, if any
_STATUS = {
    "Optimal": "solved",
    "Empty": "solved",
    "Infeasible": "infeasible",
    "Primal infeasible or unbounded": "infeasible",  # 0/1 variables cannot be unbounded
    "Time limit reached": "limit",
    "Iteration limit reached": "limit",
    "Solution limit reached": "limit",
    "Interrupted by user": "limit",
    "Objective bound": "limit",
    "Objective target": "limit",
    "Memory limit reached": "limit",
    "Unbounded": "unknown",
    "Unknown": "unknown",
    "Not Set": "unknown",
    "Load error": "unknown",
    "Model error": "unknown",
    "Presolve error": "unknown",
    "Solve error": "unknown",
    "Postsolve error": "unknown",
}


def _status(word: str, source: str, ln: int, line: str) -> str:
    if word not in _STATUS:
        raise SolutionSyntaxError(f"unknown model status {word!r}", source=source, line=ln, line_text=line)
    return _STATUS[word]


def _finish(status: str, word: str, names, vals, where, source: str, text: str, **extra) -> Answer:
    if status == "limit":
        status = "solved" if names else "unknown"
    if status != "solved":
        why = "" if status == "infeasible" else f"HiGHS reports {word!r}"
        return Answer(status, why=why, format="highs", source=source, text=text)
    why = "" if word in ("Optimal", "Empty") else f"HiGHS reports {word!r}; the solution it kept is checked"
    return named_answer(names, vals, where, why=why, format="highs", source=source, text=text, **extra)


def read_highs(text: str, source: str = "<string>") -> Answer:
    """Read a HiGHS solution file in the raw (style 0), sparse (4) or pretty (1) style."""
    lines = text.splitlines()
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None:
        raise SolutionSyntaxError("empty solution file", source=source)
    if lines[first].strip() == "Columns":
        return _read_pretty(lines, first, text, source)
    if lines[first].strip() != "Model status" or first + 1 >= len(lines):
        raise SolutionSyntaxError("expected 'Model status' (not a HiGHS solution file, or truncated)",
                                  source=source, line=first + 1, line_text=lines[first])
    word = lines[first + 1].strip()
    status = _status(word, source, first + 2, lines[first + 1])
    i = next((j for j in range(first + 2, len(lines)) if lines[j].strip() == "# Primal solution values"), None)
    if i is None:
        raise SolutionSyntaxError("no '# Primal solution values' section (truncated?)", source=source,
                                  line=len(lines))
    feas = lines[i + 1].strip() if i + 1 < len(lines) else ""
    if feas not in ("Feasible", "Infeasible", "None"):
        raise SolutionSyntaxError(f"unknown primal solution status {feas!r}", source=source, line=i + 2,
                                  line_text=lines[i + 1] if i + 1 < len(lines) else None)
    if feas != "Feasible":
        if status == "solved":
            raise SolutionSyntaxError(f"model status {word} but no feasible primal solution", source=source,
                                      line=i + 2, line_text=lines[i + 1])
        return _finish(status if status != "limit" else "unknown", word, [], [], [], source, text)
    j = i + 2
    # 'Objective 0', and since HiGHS 1.12 also 'Objective_bound' and 'MIP_rel_gap' lines for a MIP
    while j < len(lines) and re.match(r"(Objective|MIP_rel_gap)\w*\s", lines[j]):
        j += 1
    # the sparse style's count is negative; HiGHS 1.16 also says so in a word ('# Columns -2 sparse')
    m = re.match(r"# Columns (-?[0-9]+)(?:\s+sparse)?\s*$", lines[j]) if j < len(lines) else None
    if not m:
        raise SolutionSyntaxError("expected '# Columns N' (truncated?)", source=source, line=j + 1,
                                  line_text=lines[j] if j < len(lines) else None)
    count = int(m.group(1))
    sparse = count < 0
    names, vals, where = [], [], []
    j += 1
    while j < len(lines) and not lines[j].startswith("#") and lines[j].strip():
        tok = lines[j].split()
        if len(tok) != (3 if sparse else 2):
            raise SolutionSyntaxError("expected 'name value'" + (" index" if sparse else ""), source=source,
                                      line=j + 1, line_text=lines[j])
        names.append(tok[0])
        vals.append(parse_value(tok[1], source=source, line=j + 1, line_text=lines[j]))
        where.append(j + 1)
        j += 1
    if not sparse and len(names) != count:
        raise SolutionSyntaxError(f"'# Columns {count}' but {plural(len(names), 'value')} follow (truncated?)",
                                  source=source, line=j)
    if sparse and (j >= len(lines) or not lines[j].startswith("# Rows")) and j < len(lines):
        raise SolutionSyntaxError("bad line in the sparse column list", source=source, line=j + 1,
                                  line_text=lines[j])
    if not sparse and (j >= len(lines) or not lines[j].startswith("# Rows")):
        raise SolutionSyntaxError("expected '# Rows' after the columns (truncated?)", source=source, line=j + 1)
    return _finish(status, word, names, vals, where, source, text, sparse=sparse)


def _read_pretty(lines, first: int, text: str, source: str) -> Answer:
    header_at = first + 1
    header = lines[header_at] if header_at < len(lines) else ""
    fields = {m.group(): m for m in re.finditer(r"\S+", header)}
    if "Primal" not in fields or "Name" not in fields:
        raise SolutionSyntaxError("expected the column table header (Index ... Primal ... Name)", source=source,
                                  line=header_at + 1, line_text=header or None)
    # numbers are right-aligned under their header word; the name is the last field
    lo = fields["Upper"].end() if "Upper" in fields else fields["Primal"].start()
    hi = fields["Primal"].end()
    names, vals, where = [], [], []
    j = header_at + 1
    while j < len(lines) and lines[j].strip() and lines[j].strip() != "Rows":
        line = lines[j]
        tok = line.split()
        if not tok or not (tok[0].isascii() and tok[0].isdigit()):
            raise SolutionSyntaxError("bad line in the column table", source=source, line=j + 1, line_text=line)
        names.append(tok[-1])
        vals.append(line[lo:hi].strip())
        where.append(j + 1)
        j += 1
    m = None
    for k in range(j, len(lines)):
        m = re.match(r"Model status: (.*\S)\s*$", lines[k])
        if m:
            break
    if m is None:
        raise SolutionSyntaxError("no 'Model status:' line (truncated?)", source=source, line=len(lines))
    word = m.group(1)
    status = _status(word, source, k + 1, lines[k])
    if status in ("solved", "limit") and all(v for v in vals):
        nums = [parse_value(v, source=source, line=w, line_text=lines[w - 1]) for v, w in zip(vals, where)]
        return _finish(status, word, names, nums, where, source, text)
    if status == "solved":
        raise SolutionSyntaxError(f"model status {word} but the Primal column is empty", source=source,
                                  line=where[0] if where else None)
    return _finish(status if status != "limit" else "unknown", word, [], [], [], source, text)


def detect_highs(text: str) -> bool:
    """'Model status' on the first line (raw style), or the pretty style's 'Columns' table."""
    lines = text.lstrip().splitlines()[:2]
    if not lines:
        return False
    return lines[0].strip() == "Model status" or (
        lines[0].strip() == "Columns" and len(lines) > 1 and "Primal" in lines[1])


register_format("highs", [], "solution", reader=read_highs, detect=detect_highs, aliases=("highs-sol",),
                description="HiGHS solution file (raw, sparse or pretty style)")
