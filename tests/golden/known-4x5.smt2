; mineconv 0.1.0 SMT-LIB 2
; mines: 5
; grid 1*2??
; grid ?2.?1
; grid ?1?11
; grid ???.?
; vars: 10 cell variables, ids 1..10 in row-major order over the unknown cells; name x<row>_<col>, 0-based
; cell variables are Int x<row>_<col> in 0..1; one assertion per revealed cell with an unknown neighbour (or whose count cannot be met), in row-major order: the sum of its unknown neighbours = its count minus its known-mine neighbours
; last assertion: the 10 cell variables sum to 4 (mines left to place)
; var 1 0 3 x0_3
; var 2 0 4 x0_4
; var 3 1 0 x1_0
; var 4 1 3 x1_3
; var 5 2 0 x2_0
; var 6 2 2 x2_2
; var 7 3 0 x3_0
; var 8 3 1 x3_1
; var 9 3 2 x3_2
; var 10 3 4 x3_4
(set-logic QF_LIA)
(declare-fun x0_3 () Int)
(declare-fun x0_4 () Int)
(declare-fun x1_0 () Int)
(declare-fun x1_3 () Int)
(declare-fun x2_0 () Int)
(declare-fun x2_2 () Int)
(declare-fun x3_0 () Int)
(declare-fun x3_1 () Int)
(declare-fun x3_2 () Int)
(declare-fun x3_4 () Int)
(assert (<= 0 x0_3 1))
(assert (<= 0 x0_4 1))
(assert (<= 0 x1_0 1))
(assert (<= 0 x1_3 1))
(assert (<= 0 x2_0 1))
(assert (<= 0 x2_2 1))
(assert (<= 0 x3_0 1))
(assert (<= 0 x3_1 1))
(assert (<= 0 x3_2 1))
(assert (<= 0 x3_4 1))
(assert (= x1_0 0))
(assert (= (+ x0_3 x1_3) 1))
(assert (= (+ x1_0 x2_0 x2_2) 1))
(assert (= (+ x0_3 x0_4 x1_3) 1))
(assert (= (+ x1_0 x2_0 x2_2 x3_0 x3_1 x3_2) 1))
(assert (= (+ x1_3 x2_2 x3_2 x3_4) 1))
(assert (= (+ x1_3 x3_4) 1))
(assert (= (+ x0_3 x0_4 x1_0 x1_3 x2_0 x2_2 x3_0 x3_1 x3_2 x3_4)
 4))
(check-sat)
(get-model)
(exit)
