%*
* mineconv 0.1.0 ASP (clingo)
* mines: 8
* grid ??????
* grid ?2222?
* grid ?2002?
* grid ?2002?
* grid ?2222?
* grid ??????
* vars: 20 cell variables, ids 1..20 in row-major order over the unknown cells; name x<row>_<col>, 0-based
* facts 1-based, row first (as the asp-facts notation): number(R,C,N) per revealed cell, mine(R,C) per known mine, excluded(R,C) per known-safe cell, unknown(R,C) per unknown cell; variable x<row>_<col> is the atom mine(row + 1, col + 1)
* encoding: a choice rule per unknown cell, a #count per revealed cell, the total (mine_count, known mines included); #show mine/2 prints every mine
* run: clingo FILE.asp (or gringo FILE.asp | clasp)
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
*%
#const r = 6.
#const c = 6.
#const mine_count = 8.
number(2,2,2).
number(2,3,2).
number(2,4,2).
number(2,5,2).
number(3,2,2).
number(3,3,0).
number(3,4,0).
number(3,5,2).
number(4,2,2).
number(4,3,0).
number(4,4,0).
number(4,5,2).
number(5,2,2).
number(5,3,2).
number(5,4,2).
number(5,5,2).
unknown(1,1).
unknown(1,2).
unknown(1,3).
unknown(1,4).
unknown(1,5).
unknown(1,6).
unknown(2,1).
unknown(2,6).
unknown(3,1).
unknown(3,6).
unknown(4,1).
unknown(4,6).
unknown(5,1).
unknown(5,6).
unknown(6,1).
unknown(6,2).
unknown(6,3).
unknown(6,4).
unknown(6,5).
unknown(6,6).
#defined number/3.
#defined unknown/2.
% every unknown cell may hold a mine
{ mine(R,C) } :- unknown(R,C).
% a revealed cell sees exactly its count of mines among its eight neighbours
:- number(R,C,N), #count{ DR,DC : mine(R+DR,C+DC), DR = -1..1, DC = -1..1, (DR,DC) != (0,0) } != N.
% the board holds mine_count mines in all, known mines included
:- #count{ R,C : mine(R,C) } != mine_count.
#show mine/2.
