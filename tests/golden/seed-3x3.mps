* mineconv 0.1.0 free MPS
* name: seed 3x3
* grid 1??
* grid 12?
* grid 01?
* vars: 4 cell variables, ids 1..4 in row-major order over the unknown cells; name x<row>_<col>, 0-based
* minimise the zero row obj; one E row per revealed cell with an unknown neighbour (or whose count cannot be met), named c<row>_<col>: the sum of its unknown neighbours = its count minus its known-mine neighbours; columns in id order, integer markers, BV bounds
* var 1 0 1 x0_1
* var 2 0 2 x0_2
* var 3 1 2 x1_2
* var 4 2 2 x2_2
NAME MINES FREE
ROWS
 N obj
 E c0_0
 E c1_0
 E c1_1
 E c2_1
COLUMNS
 MARKER 'MARKER' 'INTORG'
 x0_1 obj 0 c0_0 1
 x0_1 c1_0 1 c1_1 1
 x0_2 obj 0 c1_1 1
 x1_2 obj 0 c1_1 1
 x1_2 c2_1 1
 x2_2 obj 0 c1_1 1
 x2_2 c2_1 1
 MARKER 'MARKER' 'INTEND'
RHS
 RHS c0_0 1 c1_0 1
 RHS c1_1 2 c2_1 1
BOUNDS
 BV BND x0_1
 BV BND x0_2
 BV BND x1_2
 BV BND x2_2
ENDATA
