%*
* mineconv 0.1.0 ASP (clingo)
* name: seed 3x3
* grid 1??
* grid 12?
* grid 01?
* vars: 4 cell variables, ids 1..4 in row-major order over the unknown cells; name x<row>_<col>, 0-based
* facts 1-based, row first (as the asp-facts notation): number(R,C,N) per revealed cell, mine(R,C) per known mine, excluded(R,C) per known-safe cell, unknown(R,C) per unknown cell; variable x<row>_<col> is the atom mine(row + 1, col + 1)
* encoding: a choice rule per unknown cell, a #count per revealed cell; #show mine/2 prints every mine
* run: clingo FILE.asp (or gringo FILE.asp | clasp)
* var 1 0 1 x0_1
* var 2 0 2 x0_2
* var 3 1 2 x1_2
* var 4 2 2 x2_2
*%
#const r = 3.
#const c = 3.
number(1,1,1).
number(2,1,1).
number(2,2,2).
number(3,1,0).
number(3,2,1).
unknown(1,2).
unknown(1,3).
unknown(2,3).
unknown(3,3).
#defined number/3.
#defined unknown/2.
% every unknown cell may hold a mine
{ mine(R,C) } :- unknown(R,C).
% a revealed cell sees exactly its count of mines among its eight neighbours
:- number(R,C,N), #count{ DR,DC : mine(R+DR,C+DC), DR = -1..1, DC = -1..1, (DR,DC) != (0,0) } != N.
#show mine/2.
