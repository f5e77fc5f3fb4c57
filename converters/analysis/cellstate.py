"""What the analysis knows of one cell: UNDECIDED, SAFE or MINE, the values of every decided-cells vector.

The ground of analysis/: propagation decides cells with these values, counting reads them back, and so do
the backbone, the report, explain and the verdicts; here they stand below all of them.
"""
UNDECIDED, SAFE, MINE = -1, 0, 1
