; mineconv 0.1.0 SMT-LIB 2
; grid 1..
; grid ..?
; vars: 1 cell variables, ids 1..1 in row-major order over the unknown cells; name x<row>_<col>, 0-based
; cell variables are Int x<row>_<col> in 0..1; one assertion per revealed cell with an unknown neighbour (or whose count cannot be met), in row-major order: the sum of its unknown neighbours = its count minus its known-mine neighbours
; var 1 1 2 x1_2
(set-logic QF_LIA)
(declare-fun x1_2 () Int)
(assert (<= 0 x1_2 1))
(assert (= 0 1))
(check-sat)
(get-model)
(exit)
