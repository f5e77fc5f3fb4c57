"""Big components counted over a tree decomposition of their counts, where its bags are narrower than a sweep.

`decompose` finds the tree (counts eliminated one at a time into bags), `dp` runs the dynamic programme
up the tree (a table per bag, rows per state of the bag's counts), `join` pairs a child's table with its
parent's, and `weigh` carries the rest of the board's weights down the tree for each cell's number under a
total mine count (`TreeComponent`). `decompose()` stays `tree.decompose.decompose`: here its name would
hide its module.
"""
from .dp import count_by_tree, tree_bags
from .weigh import TreeComponent

__all__ = ["TreeComponent", "count_by_tree", "tree_bags"]
