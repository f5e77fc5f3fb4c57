* mineconv 0.1.0 free MPS
* mines: 8
* grid ??????
* grid ?2222?
* grid ?2002?
* grid ?2002?
* grid ?2222?
* grid ??????
* vars: 20 cell variables, ids 1..20 in row-major order over the unknown cells; name x<row>_<col>, 0-based
* minimise the zero row obj; one E row per revealed cell with an unknown neighbour (or whose count cannot be met), named c<row>_<col>: the sum of its unknown neighbours = its count minus its known-mine neighbours; columns in id order, integer markers, BV bounds
* row total: the 20 cell variables sum to 8
* var 1 0 0 x0_0
* var 2 0 1 x0_1
* var 3 0 2 x0_2
* var 4 0 3 x0_3
* var 5 0 4 x0_4
* var 6 0 5 x0_5
* var 7 1 0 x1_0
* var 8 1 5 x1_5
* var 9 2 0 x2_0
* var 10 2 5 x2_5
* var 11 3 0 x3_0
* var 12 3 5 x3_5
* var 13 4 0 x4_0
* var 14 4 5 x4_5
* var 15 5 0 x5_0
* var 16 5 1 x5_1
* var 17 5 2 x5_2
* var 18 5 3 x5_3
* var 19 5 4 x5_4
* var 20 5 5 x5_5
NAME MINES FREE
ROWS
 N obj
 E c1_1
 E c1_2
 E c1_3
 E c1_4
 E c2_1
 E c2_4
 E c3_1
 E c3_4
 E c4_1
 E c4_2
 E c4_3
 E c4_4
 E total
COLUMNS
 MARKER 'MARKER' 'INTORG'
 x0_0 obj 0 c1_1 1
 x0_0 total 1
 x0_1 obj 0 c1_1 1
 x0_1 c1_2 1 total 1
 x0_2 obj 0 c1_1 1
 x0_2 c1_2 1 c1_3 1
 x0_2 total 1
 x0_3 obj 0 c1_2 1
 x0_3 c1_3 1 c1_4 1
 x0_3 total 1
 x0_4 obj 0 c1_3 1
 x0_4 c1_4 1 total 1
 x0_5 obj 0 c1_4 1
 x0_5 total 1
 x1_0 obj 0 c1_1 1
 x1_0 c2_1 1 total 1
 x1_5 obj 0 c1_4 1
 x1_5 c2_4 1 total 1
 x2_0 obj 0 c1_1 1
 x2_0 c2_1 1 c3_1 1
 x2_0 total 1
 x2_5 obj 0 c1_4 1
 x2_5 c2_4 1 c3_4 1
 x2_5 total 1
 x3_0 obj 0 c2_1 1
 x3_0 c3_1 1 c4_1 1
 x3_0 total 1
 x3_5 obj 0 c2_4 1
 x3_5 c3_4 1 c4_4 1
 x3_5 total 1
 x4_0 obj 0 c3_1 1
 x4_0 c4_1 1 total 1
 x4_5 obj 0 c3_4 1
 x4_5 c4_4 1 total 1
 x5_0 obj 0 c4_1 1
 x5_0 total 1
 x5_1 obj 0 c4_1 1
 x5_1 c4_2 1 total 1
 x5_2 obj 0 c4_1 1
 x5_2 c4_2 1 c4_3 1
 x5_2 total 1
 x5_3 obj 0 c4_2 1
 x5_3 c4_3 1 c4_4 1
 x5_3 total 1
 x5_4 obj 0 c4_3 1
 x5_4 c4_4 1 total 1
 x5_5 obj 0 c4_4 1
 x5_5 total 1
 MARKER 'MARKER' 'INTEND'
RHS
 RHS c1_1 2 c1_2 2
 RHS c1_3 2 c1_4 2
 RHS c2_1 2 c2_4 2
 RHS c3_1 2 c3_4 2
 RHS c4_1 2 c4_2 2
 RHS c4_3 2 c4_4 2
 RHS total 8
BOUNDS
 BV BND x0_0
 BV BND x0_1
 BV BND x0_2
 BV BND x0_3
 BV BND x0_4
 BV BND x0_5
 BV BND x1_0
 BV BND x1_5
 BV BND x2_0
 BV BND x2_5
 BV BND x3_0
 BV BND x3_5
 BV BND x4_0
 BV BND x4_5
 BV BND x5_0
 BV BND x5_1
 BV BND x5_2
 BV BND x5_3
 BV BND x5_4
 BV BND x5_5
ENDATA
