package stats

import (
	"fmt"
	"math"
)

// Alternative is the difference a test looks for, as R's tests name it.
type Alternative int

const (
	// TwoSided looks for a difference either way.
	TwoSided Alternative = iota
	// Greater looks for the first count being larger than chance makes
	// it: McNemarExact's b above c, FisherExact's odds ratio above 1.
	Greater
	// Less looks for it being smaller.
	Less
)

// String returns "two-sided", "greater" or "less".
func (a Alternative) String() string {
	switch a {
	case TwoSided:
		return "two-sided"
	case Greater:
		return "greater"
	case Less:
		return "less"
	}
	return fmt.Sprintf("Alternative(%d)", int(a))
}

// McNemarExact is McNemar's test for paired binary outcomes in its exact
// (conditional, binomial) form: of the pairs that changed, b changed one
// way (pass then fail) and c the other (fail then pass); unchanged pairs
// carry no information. Under no difference b is binomial(b + c, ½), and the
// p-value is P(X ≥ b) for Greater, P(X ≤ b) for Less, and for TwoSided
// twice the smaller tail, at most 1 (McNemar, 1947; the exact form as in
// Fagerland, Lydersen and Laake, 2013). No changed pair gives p = 1. It
// returns an error for a negative count or an unknown alternative.
func McNemarExact(b, c int, alt Alternative) (float64, error) {
	if b < 0 || c < 0 {
		return 0, fmt.Errorf("stats: McNemar's test: discordant pairs %d and %d, want counts of at least 0", b, c)
	}
	n := b + c
	switch alt {
	case Greater:
		return binomialHalfTail(n, b, n), nil
	case Less:
		return binomialHalfTail(n, 0, b), nil
	case TwoSided:
		lo := binomialHalfTail(n, 0, min(b, c))
		return math.Min(1, 2*lo), nil
	}
	return 0, fmt.Errorf("stats: McNemar's test: unknown alternative %v", alt)
}

// binomialHalfTail is P(from ≤ X ≤ to) for X binomial(n, ½).
func binomialHalfTail(n, from, to int) float64 {
	if n == 0 {
		return 1
	}
	p := 0.0
	for k := from; k <= to; k++ {
		p += math.Exp(logChoose(n, k) - float64(n)*math.Ln2)
	}
	return math.Min(1, p)
}

// FisherExact is Fisher's exact test of independence in the 2×2 table
// [[a, b], [c, d]] — for two runs' outcomes, a and b the first run's
// passes and failures, c and d the second's. With the margins fixed, a is
// hypergeometric; the p-value is P(X ≥ a) for Greater (odds ratio above 1:
// the first run passes more), P(X ≤ a) for Less, and for TwoSided the sum
// of the probabilities of every table no more likely than the one seen
// (relative tolerance 1e-7), as R's fisher.test computes it. It returns an
// error for a negative count or an unknown alternative.
func FisherExact(a, b, c, d int, alt Alternative) (float64, error) {
	if a < 0 || b < 0 || c < 0 || d < 0 {
		return 0, fmt.Errorf("stats: Fisher's exact test: table [[%d %d] [%d %d]], want counts of at least 0", a, b, c, d)
	}
	row1, col1, n := a+b, a+c, a+b+c+d
	lo, hi := max(0, col1-(n-row1)), min(row1, col1)
	logP := func(x int) float64 {
		return logChoose(row1, x) + logChoose(n-row1, col1-x) - logChoose(n, col1)
	}
	sum := func(keep func(x int) bool) float64 {
		p := 0.0
		for x := lo; x <= hi; x++ {
			if keep(x) {
				p += math.Exp(logP(x))
			}
		}
		return math.Min(1, p)
	}
	switch alt {
	case Greater:
		return sum(func(x int) bool { return x >= a }), nil
	case Less:
		return sum(func(x int) bool { return x <= a }), nil
	case TwoSided:
		seen := logP(a) + math.Log1p(1e-7)
		return sum(func(x int) bool { return logP(x) <= seen }), nil
	}
	return 0, fmt.Errorf("stats: Fisher's exact test: unknown alternative %v", alt)
}

// logChoose is ln C(n, k).
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
