"""Encoders: a Puzzle as CNF clauses (cnf), a 0-1 linear model (linear) or a CP-SAT model (cpsat); writers only add syntax."""
from .cardinality import CARD_ENCODINGS, exactly
from .cnf import (
                  DEFAULT_CARD_ENCODING,
                  ClauseArrays,
                  CnfEncoding,
                  card_clauses,
                  check_card_encoding,
                  clause_arrays,
                  cnf_clauses,
                  encode_cnf,
                  to_cnf,
)
from .cpsat import to_cpsat
from .linear import LinearModel, constraint_rows, linear_model, pulp_solution, to_pulp

__all__ = ["CARD_ENCODINGS", "DEFAULT_CARD_ENCODING", "ClauseArrays", "CnfEncoding", "card_clauses",
           "check_card_encoding", "clause_arrays", "cnf_clauses", "encode_cnf", "to_cnf", "exactly",
           "LinearModel", "constraint_rows", "linear_model", "pulp_solution", "to_pulp", "to_cpsat"]
