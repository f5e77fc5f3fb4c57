"""From a solver's answer back to the grid: the Answer model and its verification (answer), reading answer
files and model headers (decoding), and running solvers, embedded or external (solvers)."""
from ..formats.answer import Answer, Decoded, decode_answer
from .bridge import EMBEDDED, SolutionStream, enumerate_solutions, solve, solver_names
from .decoding import decode, read_answer, read_puzzle_or_model

__all__ = ["EMBEDDED", "SolutionStream", "Answer", "Decoded", "decode", "decode_answer", "enumerate_solutions", "read_answer",
           "read_puzzle_or_model", "solve", "solver_names"]
