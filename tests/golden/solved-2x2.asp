%*
* mineconv 0.1.0 ASP (clingo)
* mines: 1
* grid 1*
* grid 11
* vars: 0 cell variables, ids 1..0 in row-major order over the unknown cells; name x<row>_<col>, 0-based
* facts 1-based, row first (as the asp-facts notation): number(R,C,N) per revealed cell, mine(R,C) per known mine, excluded(R,C) per known-safe cell, unknown(R,C) per unknown cell; variable x<row>_<col> is the atom mine(row + 1, col + 1)
* encoding: a choice rule per unknown cell, a #count per revealed cell, the total (mine_count, known mines included); #show mine/2 prints every mine
* run: clingo FILE.asp (or gringo FILE.asp | clasp)
*%
#const r = 2.
#const c = 2.
#const mine_count = 1.
number(1,1,1).
mine(1,2).
number(2,1,1).
number(2,2,1).
#defined number/3.
#defined unknown/2.
% every unknown cell may hold a mine
{ mine(R,C) } :- unknown(R,C).
% a revealed cell sees exactly its count of mines among its eight neighbours
:- number(R,C,N), #count{ DR,DC : mine(R+DR,C+DC), DR = -1..1, DC = -1..1, (DR,DC) != (0,0) } != N.
% the board holds mine_count mines in all, known mines included
:- #count{ R,C : mine(R,C) } != mine_count.
#show mine/2.
