"""Lark grammars of the text notations (shipped in the wheel as mineconv.grammars)."""
