"""CPLEX's XML solution file (`.sol`): status in the header attributes, values in <variable> elements."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ...core.errors import SolutionSyntaxError
from ...core.fileio import locate
from ..answer import Answer, named_answer, parse_value
from ..located_errors import symbol_name
from ..registry import CERTAIN, register_format

# CPLEX solution status codes: 1 optimal (LP), 101 integer optimal, 102 optimal within tolerance;
# 3 and 103 infeasible; other codes are limits/aborts, which keep a solution when the file has values
_SOLVED = {1, 101, 102}
_INFEASIBLE = {3, 103}


def read_cplex(text: str, source: str = "<string>") -> Answer:
    """Parse the XML; a damaged or cut file is a SolutionSyntaxError at the parser's position."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line, col = exc.position
        raise SolutionSyntaxError(f"not well-formed XML ({str(exc).split(':')[0]}): truncated?", source=source,
                                  line=line, column=col + 1) from None
    if root.tag != "CPLEXSolution":
        raise SolutionSyntaxError(f"root element <{root.tag}>, expected <CPLEXSolution>", source=source)
    header = root.find("header")
    code_text = header.get("solutionStatusValue") if header is not None else None
    if header is None or code_text is None:
        raise SolutionSyntaxError("no solutionStatusValue in <header>", source=source)
    if not re.fullmatch(r"\s*-?[0-9]{1,18}\s*", code_text):
        at = text.find("solutionStatusValue")
        line, col, line_text = locate(text, max(at, 0))
        raise SolutionSyntaxError(f"solutionStatusValue {symbol_name(code_text)} is not a CPLEX status code",
                                  source=source, line=line, column=col, line_text=line_text)
    code = int(code_text)
    what = header.get("solutionStatusString", "")
    variables = root.findall("./variables/variable")
    if code in _INFEASIBLE:
        return Answer("infeasible", format="cplex", source=source, text=text)
    if code not in _SOLVED and not variables:
        return Answer("unknown", why=f"CPLEX status {code} {what!r}", format="cplex", source=source, text=text)
    starts = [text.count("\n", 0, m.start()) + 1 for m in re.finditer(r"<variable\b", text)]
    names, vals, where = [], [], []
    for i, var in enumerate(variables):
        var_line = starts[i] if len(starts) == len(variables) else None
        name, value = var.get("name"), var.get("value")
        if name is None or value is None:
            raise SolutionSyntaxError("a <variable> without name or value", source=source, line=var_line)
        names.append(name)
        vals.append(parse_value(value, source=source, line=var_line, line_text=None))
        where.append(var_line or 0)
    why = "" if code in _SOLVED else f"CPLEX status {code} {what!r}; the solution it kept is checked"
    return named_answer(names, vals, where, why=why, format="cplex", source=source, text=text)


def detect_cplex(text: str) -> bool:
    """The <CPLEXSolution> root element."""
    return "<CPLEXSolution" in text[:1024]


register_format("cplex", [], "solution", reader=read_cplex, detect=detect_cplex, detect_level=CERTAIN,
                aliases=("cplex-sol",),
                description="CPLEX .sol XML solution")
