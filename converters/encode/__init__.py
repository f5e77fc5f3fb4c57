"""Encoders: a Puzzle as CNF clauses (cnf), a 0-1 linear model (linear) or a CP-SAT model (cpsat_model); writers only add syntax.

The names below are looked up in their modules on first use: importing one encoder (the answer readers
need `linear`'s placeholder) does not import the others.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_names

__all__ = ["CARD_ENCODINGS", "DEFAULT_CARD_ENCODING", "ClauseArrays", "CnfEncoding", "card_clauses",
           "check_card_encoding", "clause_arrays", "cnf_clauses", "encode_cnf", "to_cnf", "exactly",
           "LinearModel", "constraint_rows", "linear_model", "pulp_solution", "to_pulp", "to_cpsat"]

__getattr__, __dir__ = lazy_names(__name__, {
    ".cardinality": ["CARD_ENCODINGS", "DEFAULT_CARD_ENCODING", "check_card_encoding", "exactly"],
    ".cnf": ["ClauseArrays", "CnfEncoding", "card_clauses", "clause_arrays", "cnf_clauses", "encode_cnf", "to_cnf"],
    ".cpsat_model": ["to_cpsat"],
    ".linear": ["LinearModel", "constraint_rows", "linear_model", "pulp_solution", "to_pulp"],
})

if TYPE_CHECKING:
    from .cardinality import CARD_ENCODINGS, DEFAULT_CARD_ENCODING, check_card_encoding, exactly
    from .cnf import (
        ClauseArrays,
        CnfEncoding,
        card_clauses,
        clause_arrays,
        cnf_clauses,
        encode_cnf,
        to_cnf,
    )
    from .cpsat_model import to_cpsat
    from .linear import LinearModel, constraint_rows, linear_model, pulp_solution, to_pulp
