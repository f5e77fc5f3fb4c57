; mineconv 0.1.0 SMT-LIB 2
; mines: 1
; grid 1*
; grid 11
; vars: 0 cell variables, ids 1..0 in row-major order over the unknown cells; name x<row>_<col>, 0-based
; cell variables are Int x<row>_<col> in 0..1; one assertion per revealed cell with an unknown neighbour (or whose count cannot be met), in row-major order: the sum of its unknown neighbours = its count minus its known-mine neighbours
; last assertion: the 0 cell variables sum to 0 (mines left to place)
(set-logic QF_LIA)
(assert (= 0 0))
(check-sat)
(get-model)
(exit)
