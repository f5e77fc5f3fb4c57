"""The best-move engine: given a position as the player sees it, `advise` names the cells proven safe and
the proven mines, and the move to play (a proven-safe cell, else the best guess: among the cells close to
the lowest risk, the one likeliest to bring progress, and when few layouts remain the move an exhaustive
search of the game tree finds likeliest to win), with its exact chance of a mine and a line saying why. It
never sees a layout; `position` counts through analyze, `guess` weighs the candidates, `endgame` searches.
"""
from .engine import DEFAULT_BUDGET, Advice, Alternative, advise, describe

__all__ = ["DEFAULT_BUDGET", "Advice", "Alternative", "advise", "describe"]
