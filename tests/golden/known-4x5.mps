* mineconv 0.1.0 free MPS
* mines: 5
* grid 1*2??
* grid ?2.?1
* grid ?1?11
* grid ???.?
* vars: 10 cell variables, ids 1..10 in row-major order over the unknown cells; name x<row>_<col>, 0-based
* minimise the zero row obj; one E row per revealed cell with an unknown neighbour (or whose count cannot be met), named c<row>_<col>: the sum of its unknown neighbours = its count minus its known-mine neighbours; columns in id order, integer markers, BV bounds
* row total: the 10 cell variables sum to 4
* var 1 0 3 x0_3
* var 2 0 4 x0_4
* var 3 1 0 x1_0
* var 4 1 3 x1_3
* var 5 2 0 x2_0
* var 6 2 2 x2_2
* var 7 3 0 x3_0
* var 8 3 1 x3_1
* var 9 3 2 x3_2
* var 10 3 4 x3_4
NAME MINES FREE
ROWS
 N obj
 E c0_0
 E c0_2
 E c1_1
 E c1_4
 E c2_1
 E c2_3
 E c2_4
 E total
COLUMNS
 MARKER 'MARKER' 'INTORG'
 x0_3 obj 0 c0_2 1
 x0_3 c1_4 1 total 1
 x0_4 obj 0 c1_4 1
 x0_4 total 1
 x1_0 obj 0 c0_0 1
 x1_0 c1_1 1 c2_1 1
 x1_0 total 1
 x1_3 obj 0 c0_2 1
 x1_3 c1_4 1 c2_3 1
 x1_3 c2_4 1 total 1
 x2_0 obj 0 c1_1 1
 x2_0 c2_1 1 total 1
 x2_2 obj 0 c1_1 1
 x2_2 c2_1 1 c2_3 1
 x2_2 total 1
 x3_0 obj 0 c2_1 1
 x3_0 total 1
 x3_1 obj 0 c2_1 1
 x3_1 total 1
 x3_2 obj 0 c2_1 1
 x3_2 c2_3 1 total 1
 x3_4 obj 0 c2_3 1
 x3_4 c2_4 1 total 1
 MARKER 'MARKER' 'INTEND'
RHS
 RHS c0_2 1 c1_1 1
 RHS c1_4 1 c2_1 1
 RHS c2_3 1 c2_4 1
 RHS total 4
BOUNDS
 BV BND x0_3
 BV BND x0_4
 BV BND x1_0
 BV BND x1_3
 BV BND x2_0
 BV BND x2_2
 BV BND x3_0
 BV BND x3_1
 BV BND x3_2
 BV BND x3_4
ENDATA
