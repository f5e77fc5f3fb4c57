* mineconv 0.1.0 free MPS
* grid 1..
* grid ..?
* vars: 1 cell variables, ids 1..1 in row-major order over the unknown cells; name x<row>_<col>, 0-based
* minimise the zero row obj; one E row per revealed cell with an unknown neighbour (or whose count cannot be met), named c<row>_<col>: the sum of its unknown neighbours = its count minus its known-mine neighbours; columns in id order, integer markers, BV bounds
* var 1 1 2 x1_2
NAME MINES FREE
ROWS
 N obj
 E c0_0
COLUMNS
 MARKER 'MARKER' 'INTORG'
 x1_2 obj 0
 MARKER 'MARKER' 'INTEND'
RHS
 RHS c0_0 1
BOUNDS
 BV BND x1_2
ENDATA
