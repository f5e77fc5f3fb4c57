; mineconv 0.1.0 SMT-LIB 2
; mines: 8
; grid ??????
; grid ?2222?
; grid ?2002?
; grid ?2002?
; grid ?2222?
; grid ??????
; vars: 20 cell variables, ids 1..20 in row-major order over the unknown cells; name x<row>_<col>, 0-based
; cell variables are Int x<row>_<col> in 0..1; one assertion per revealed cell with an unknown neighbour (or whose count cannot be met), in row-major order: the sum of its unknown neighbours = its count minus its known-mine neighbours
; last assertion: the 20 cell variables sum to 8 (mines left to place)
; var 1 0 0 x0_0
; var 2 0 1 x0_1
; var 3 0 2 x0_2
; var 4 0 3 x0_3
; var 5 0 4 x0_4
; var 6 0 5 x0_5
; var 7 1 0 x1_0
; var 8 1 5 x1_5
; var 9 2 0 x2_0
; var 10 2 5 x2_5
; var 11 3 0 x3_0
; var 12 3 5 x3_5
; var 13 4 0 x4_0
; var 14 4 5 x4_5
; var 15 5 0 x5_0
; var 16 5 1 x5_1
; var 17 5 2 x5_2
; var 18 5 3 x5_3
; var 19 5 4 x5_4
; var 20 5 5 x5_5
(set-logic QF_LIA)
(declare-fun x0_0 () Int)
(declare-fun x0_1 () Int)
(declare-fun x0_2 () Int)
(declare-fun x0_3 () Int)
(declare-fun x0_4 () Int)
(declare-fun x0_5 () Int)
(declare-fun x1_0 () Int)
(declare-fun x1_5 () Int)
(declare-fun x2_0 () Int)
(declare-fun x2_5 () Int)
(declare-fun x3_0 () Int)
(declare-fun x3_5 () Int)
(declare-fun x4_0 () Int)
(declare-fun x4_5 () Int)
(declare-fun x5_0 () Int)
(declare-fun x5_1 () Int)
(declare-fun x5_2 () Int)
(declare-fun x5_3 () Int)
(declare-fun x5_4 () Int)
(declare-fun x5_5 () Int)
(assert (<= 0 x0_0 1))
(assert (<= 0 x0_1 1))
(assert (<= 0 x0_2 1))
(assert (<= 0 x0_3 1))
(assert (<= 0 x0_4 1))
(assert (<= 0 x0_5 1))
(assert (<= 0 x1_0 1))
(assert (<= 0 x1_5 1))
(assert (<= 0 x2_0 1))
(assert (<= 0 x2_5 1))
(assert (<= 0 x3_0 1))
(assert (<= 0 x3_5 1))
(assert (<= 0 x4_0 1))
(assert (<= 0 x4_5 1))
(assert (<= 0 x5_0 1))
(assert (<= 0 x5_1 1))
(assert (<= 0 x5_2 1))
(assert (<= 0 x5_3 1))
(assert (<= 0 x5_4 1))
(assert (<= 0 x5_5 1))
(assert (= (+ x0_0 x0_1 x0_2 x1_0 x2_0) 2))
(assert (= (+ x0_1 x0_2 x0_3) 2))
(assert (= (+ x0_2 x0_3 x0_4) 2))
(assert (= (+ x0_3 x0_4 x0_5 x1_5 x2_5) 2))
(assert (= (+ x1_0 x2_0 x3_0) 2))
(assert (= (+ x1_5 x2_5 x3_5) 2))
(assert (= (+ x2_0 x3_0 x4_0) 2))
(assert (= (+ x2_5 x3_5 x4_5) 2))
(assert (= (+ x3_0 x4_0 x5_0 x5_1 x5_2) 2))
(assert (= (+ x5_1 x5_2 x5_3) 2))
(assert (= (+ x5_2 x5_3 x5_4) 2))
(assert (= (+ x3_5 x4_5 x5_3 x5_4 x5_5) 2))
(assert (= (+ x0_0 x0_1 x0_2 x0_3 x0_4 x0_5 x1_0 x1_5 x2_0 x2_5
  x3_0 x3_5 x4_0 x4_5 x5_0 x5_1 x5_2 x5_3 x5_4 x5_5)
 8))
(check-sat)
(get-model)
(exit)
