* mineconv 0.1.0 free MPS
* mines: 1
* grid 1*
* grid 11
* vars: 0 cell variables, ids 1..0 in row-major order over the unknown cells; name x<row>_<col>, 0-based
* minimise the zero row obj; one E row per revealed cell with an unknown neighbour (or whose count cannot be met), named c<row>_<col>: the sum of its unknown neighbours = its count minus its known-mine neighbours; columns in id order, integer markers, BV bounds
* row total: the 0 cell variables sum to 0
* no unknown cell: the column zero, fixed at 0, only keeps the file valid
NAME MINES FREE
ROWS
 N obj
 E total
COLUMNS
 MARKER 'MARKER' 'INTORG'
 zero obj 0
 MARKER 'MARKER' 'INTEND'
RHS
BOUNDS
 FX BND zero 0
ENDATA
