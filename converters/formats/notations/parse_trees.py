"""Typed access to the Lark parse trees of the notation grammars.

Lark types every child of a tree as `Token | Tree` and a token's position as Optional (a token made by
hand has none). Each grammar fixes which children of a rule are rules and which are terminals, and the
lexer always sets positions, so the readers state that here once instead of at every use.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, List, Tuple, cast

if TYPE_CHECKING:   # types only: Lark is imported when a grammar is first used, not with every notation
    from lark import Token, Tree
    Node = Tree[Token]


def rules(tree: Node) -> List[Node]:
    """The children of a node whose grammar rule holds only rules."""
    return cast("List[Node]", tree.children)


def terminals(tree: Node) -> List[Token]:
    """The children of a node whose grammar rule holds only terminals."""
    return cast("List[Token]", tree.children)


def rule(tree: Node, index: int) -> Node:
    """The child at `index`, which the grammar makes a rule."""
    return cast("Node", tree.children[index])


def terminal(tree: Node, index: int) -> Token:
    """The child at `index`, which the grammar makes a terminal."""
    return cast("Token", tree.children[index])


def line_column(tok: Token) -> Tuple[int, int]:
    """A lexed token's 1-based line and column."""
    line, column = tok.line, tok.column
    assert line is not None and column is not None  # the lexer sets both on every token
    return line, column


def offset(tok: Token) -> int:
    """A lexed token's 0-based offset in the text it was lexed from."""
    pos = tok.start_pos
    assert pos is not None  # the lexer sets it on every token
    return pos
