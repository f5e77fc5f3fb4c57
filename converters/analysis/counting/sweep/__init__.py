"""Big components counted by a sweep: a table of states carried over an order of the cells, a layer per cell.

`rows` is the sweep on a table of residues (an int8 row per state, in numpy) with the backward pass that
gives each cell's polynomial, and the plain reference of the faster forms; `packed` is its forward pass on
states packed in 64-bit words; `total` weighs a swept component under a total mine count (`BigComponent`,
P now, each cell's number once the rest of the board's weights are known), `plan` choosing before any pass
which way runs first and which layers it keeps, `carry` running the second pass with the weights applied.
No tree here: "sweep" is the order.
"""
from .rows import BIG_COMPONENT, count_big_component, prepare
from .total import BigComponent, big_components

__all__ = ["BIG_COMPONENT", "BigComponent", "big_components", "count_big_component", "prepare"]
