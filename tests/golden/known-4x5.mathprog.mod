# mineconv 0.1.0 GLPK MathProg
# mines: 5
# grid 1*2??
# grid ?2.?1
# grid ?1?11
# grid ???.?
# vars: 10 cell variables, ids 1..10 in row-major order over the unknown cells; name x<row>_<col>, 0-based
# GLPK MathProg model after Chlond's minesweeper.mod, generalised to m rows x n columns; x[i,j] over every cell, 1-based (i = row + 1, j = col + 1): glpsol's columns are the m*n cells in row-major order; after solve it prints each solved row as 'grid: <row>'
# run: glpsol -m FILE.mod (or glpsol -m model.mod -d puzzle.dat with the model alone)
# var 1 0 3 x0_3
# var 2 0 4 x0_4
# var 3 1 0 x1_0
# var 4 1 3 x1_3
# var 5 2 0 x2_0
# var 6 2 2 x2_2
# var 7 3 0 x3_0
# var 8 3 1 x3_1
# var 9 3 2 x3_2
# var 10 3 4 x3_4

param n, integer, > 0;                 # columns
param m, integer, > 0, default n;      # rows
param R{i in 1..m, j in 1..n}, integer, >= -2, <= 8;
                                       # -1 unexposed, 0..8 count, -2 known safe without a count
param M{i in 1..m, j in 1..n}, binary, default 0;
                                       # 1 = known mine
param mines, integer, >= -1, default -1;
                                       # total mines on the board (known ones included); -1 = not given

var x{i in 1..m, j in 1..n}, binary;   # 1 = mine

# mentions every cell in row-major order first, so that glpsol's columns are the m*n cells in that order
# (it numbers columns by first use and leaves out variables no row uses)
s.t. cells: sum{i in 1..m, j in 1..n} x[i,j] >= 0;

s.t. count{i in 1..m, j in 1..n: R[i,j] >= 0}:
    sum{a in max(1, i - 1)..min(m, i + 1), b in max(1, j - 1)..min(n, j + 1): a != i or b != j} x[a,b]
        = R[i,j];

s.t. exposed{i in 1..m, j in 1..n: R[i,j] != -1}: x[i,j] = 0;

s.t. known{i in 1..m, j in 1..n: M[i,j] = 1}: x[i,j] >= M[i,j];

s.t. total{t in 1..1: mines >= 0}: sum{i in 1..m, j in 1..n} x[i,j] = mines;

solve;

# the solved grid: '*' mine, '.' safe, counts as given (glpsol prints nothing here when infeasible)
for {i in 1..m} {
    printf "%s", "grid: ";
    printf {j in 1..n} "%s",
        if R[i,j] >= 0 then substr("012345678", R[i,j] + 1, 1)
        else if R[i,j] = -2 then "."
        else if x[i,j] > 0.5 then "*" else ".";
    printf "\n";
}

data;
# mineconv 0.1.0: a Minesweeper puzzle in the data layout of Chlond's minesweeper.mod
# n = columns, m = rows (only when not square), mines = total mines on the board (known mines included)
# R[i,j]: -1 = unexposed cell (unknown, or a known mine listed in M), 0..8 = the count shown,
#         -2 = known safe cell without a count (mineconv's extension: not in Chlond's model)
# M[i,j]: 1 = known mine, 0 otherwise (only when the puzzle has known mines)
param n := 5;
param m := 4;
param mines := 5;
param R :
   1  2  3  4  5 :=
1  1 -1  2 -1 -1
2 -1  2 -2 -1  1
3 -1  1 -1  1  1
4 -1 -1 -1 -2 -1
;
param M :
   1  2  3  4  5 :=
1  0  1  0  0  0
2  0  0  0  0  0
3  0  0  0  0  0
4  0  0  0  0  0
;
end;
