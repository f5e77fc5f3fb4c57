; mineconv 0.1.0 SMT-LIB 2
; name: seed 3x3
; grid 1??
; grid 12?
; grid 01?
; vars: 4 cell variables, ids 1..4 in row-major order over the unknown cells; name x<row>_<col>, 0-based
; cell variables are Int x<row>_<col> in 0..1; one assertion per revealed cell with an unknown neighbour (or whose count cannot be met), in row-major order: the sum of its unknown neighbours = its count minus its known-mine neighbours
; var 1 0 1 x0_1
; var 2 0 2 x0_2
; var 3 1 2 x1_2
; var 4 2 2 x2_2
(set-logic QF_LIA)
(declare-fun x0_1 () Int)
(declare-fun x0_2 () Int)
(declare-fun x1_2 () Int)
(declare-fun x2_2 () Int)
(assert (<= 0 x0_1 1))
(assert (<= 0 x0_2 1))
(assert (<= 0 x1_2 1))
(assert (<= 0 x2_2 1))
(assert (= x0_1 1))
(assert (= x0_1 1))
(assert (= (+ x0_1 x0_2 x1_2 x2_2) 2))
(assert (= (+ x1_2 x2_2) 1))
(check-sat)
(get-model)
(exit)
