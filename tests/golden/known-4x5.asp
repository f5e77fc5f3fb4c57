%*
* mineconv 0.1.0 ASP (clingo)
* mines: 5
* grid 1*2??
* grid ?2.?1
* grid ?1?11
* grid ???.?
* vars: 10 cell variables, ids 1..10 in row-major order over the unknown cells; name x<row>_<col>, 0-based
* facts 1-based, row first (as the asp-facts notation): number(R,C,N) per revealed cell, mine(R,C) per known mine, excluded(R,C) per known-safe cell, unknown(R,C) per unknown cell; variable x<row>_<col> is the atom mine(row + 1, col + 1)
* encoding: a choice rule per unknown cell, a #count per revealed cell, the total (mine_count, known mines included); #show mine/2 prints every mine
* run: clingo FILE.asp (or gringo FILE.asp | clasp)
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
*%
#const r = 4.
#const c = 5.
#const mine_count = 5.
number(1,1,1).
mine(1,2).
number(1,3,2).
number(2,2,2).
excluded(2,3).
number(2,5,1).
number(3,2,1).
number(3,4,1).
number(3,5,1).
excluded(4,4).
unknown(1,4).
unknown(1,5).
unknown(2,1).
unknown(2,4).
unknown(3,1).
unknown(3,3).
unknown(4,1).
unknown(4,2).
unknown(4,3).
unknown(4,5).
#defined number/3.
#defined unknown/2.
% every unknown cell may hold a mine
{ mine(R,C) } :- unknown(R,C).
% a revealed cell sees exactly its count of mines among its eight neighbours
:- number(R,C,N), #count{ DR,DC : mine(R+DR,C+DC), DR = -1..1, DC = -1..1, (DR,DC) != (0,0) } != N.
% the board holds mine_count mines in all, known mines included
:- #count{ R,C : mine(R,C) } != mine_count.
#show mine/2.
