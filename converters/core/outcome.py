"""The JSON form of a solver's answer on a board, one for both of its makers: `formats.answer.Decoded` (the
full, numpy one) and `solvers.small_solve.SmallDecoded` (a small board's, built without numpy)."""
from __future__ import annotations

from typing import Any, List


class AnswerJson:
    """`to_json` for a class with `status`, `why` and `mines` (every mine [row, col], row-major)."""

    status: str
    why: str

    @property
    def mines(self) -> List[List[int]]:
        """Every mine cell [row, col], 0-based, row-major (the subclass says how it finds them)."""
        raise NotImplementedError

    def to_json(self, **extra: Any) -> dict:
        """The JSON contract: {"status", "mines"} (and "why" when there is one) plus extra keys."""
        out: dict = {"status": self.status, "mines": list(self.mines)}
        if self.why:
            out["why"] = self.why
        out.update(extra)
        return out
