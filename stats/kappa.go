package stats

import (
	"errors"
	"fmt"
	"math/big"
)

// CohenKappa measures how far two raters agree on nominal categories beyond
// chance: κ = (p_o − p_e)/(1 − p_e), with p_o the share of items they put in
// the same category and p_e the share expected if each rated at random with
// their own category rates (Cohen, 1960, "A Coefficient of Agreement for
// Nominal Scales"). 1 is perfect agreement, 0 no better than chance, below
// 0 worse; a common reading (Landis and Koch, 1977) calls 0.61–0.80
// substantial agreement.
//
// table[i][j] counts the items rater A put in category i and rater B in
// category j: a square table of counts, at least 1×1. It returns an error
// for a table that is not square, a negative count, no items, and when
// both raters put every item in one same category (p_e = 1: κ is 0/0).
func CohenKappa(table [][]int) (float64, error) {
	k := len(table)
	if k == 0 {
		return 0, errors.New("stats: Cohen's kappa: an empty table")
	}
	// In integers, κ = (n·agree − Σ rows·cols)/(n² − Σ rows·cols), divided
	// once: a κ equal to a bar (0.4 of [[1 0] [1 1]]) is not rounded below
	// it, as (p_o − p_e)/(1 − p_e) in float64 rounded 342 small tables.
	rows, cols := make([]*big.Int, k), make([]*big.Int, k)
	for i := range k {
		rows[i], cols[i] = new(big.Int), new(big.Int)
	}
	n, agree := new(big.Int), new(big.Int)
	for i, row := range table {
		if len(row) != k {
			return 0, fmt.Errorf("stats: Cohen's kappa: row %d has %d counts, want %d (a square table)", i, len(row), k)
		}
		for j, c := range row {
			if c < 0 {
				return 0, fmt.Errorf("stats: Cohen's kappa: count [%d][%d] is %d, want at least 0", i, j, c)
			}
			f := big.NewInt(int64(c))
			rows[i].Add(rows[i], f)
			cols[j].Add(cols[j], f)
			n.Add(n, f)
			if i == j {
				agree.Add(agree, f)
			}
		}
	}
	if n.Sign() == 0 {
		return 0, errors.New("stats: Cohen's kappa: no items rated")
	}
	chance := new(big.Int)
	for i := range k {
		chance.Add(chance, new(big.Int).Mul(rows[i], cols[i]))
	}
	den := new(big.Int).Sub(new(big.Int).Mul(n, n), chance)
	if den.Sign() <= 0 {
		return 0, errors.New("stats: Cohen's kappa: both raters put every item in one category, so agreement beyond chance is undefined")
	}
	num := new(big.Int).Sub(new(big.Int).Mul(n, agree), chance)
	kappa, _ := new(big.Rat).SetFrac(num, den).Float64()
	return kappa, nil
}

// Confusion is the 2×2 table of a pass/fail judge against a reference (the
// human label): TP both pass, FN the reference passes and the judge fails,
// FP the reference fails and the judge passes, TN both fail. Counts are at
// least 0.
type Confusion struct {
	TP, FN, FP, TN int
}

// N is the number of items: TP + FN + FP + TN.
func (c Confusion) N() int { return c.TP + c.FN + c.FP + c.TN }

// Accuracy is the share of items the judge labels as the reference does,
// (TP + TN)/N, in [0,1]; an error for no items.
func (c Confusion) Accuracy() (float64, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	if c.N() == 0 {
		return 0, errors.New("stats: accuracy: no items")
	}
	return float64(c.TP+c.TN) / float64(c.N()), nil
}

// TPR is the true-positive rate (sensitivity, recall): of the items the
// reference passes, the share the judge passes, TP/(TP + FN), in [0,1]; an
// error when the reference passes none.
func (c Confusion) TPR() (float64, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	if c.TP+c.FN == 0 {
		return 0, errors.New("stats: true-positive rate: the reference passes no item")
	}
	return float64(c.TP) / float64(c.TP+c.FN), nil
}

// TNR is the true-negative rate (specificity): of the items the reference
// fails, the share the judge fails, TN/(TN + FP), in [0,1]; an error when
// the reference fails none.
func (c Confusion) TNR() (float64, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	if c.TN+c.FP == 0 {
		return 0, errors.New("stats: true-negative rate: the reference fails no item")
	}
	return float64(c.TN) / float64(c.TN+c.FP), nil
}

// Kappa is CohenKappa of the table, the reference as rater A and the judge
// as rater B.
func (c Confusion) Kappa() (float64, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	return CohenKappa(c.Table())
}

// Table is the confusion as CohenKappa reads it: rows the reference (pass,
// fail), columns the judge (pass, fail).
func (c Confusion) Table() [][]int { return [][]int{{c.TP, c.FN}, {c.FP, c.TN}} }

func (c Confusion) check() error {
	if c.TP < 0 || c.FN < 0 || c.FP < 0 || c.TN < 0 {
		return fmt.Errorf("stats: confusion table %+v: counts must be at least 0", c)
	}
	return nil
}
