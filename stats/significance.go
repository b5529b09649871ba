package stats

import (
	"fmt"
	"math"
	"math/big"
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
// Fagerland, Lydersen and Laake, 2013). No changed pair gives p = 1. Up to
// ExactN changed pairs p is the float64 nearest the exact rational, so a
// p equal to a level (1/32 and -alpha 0.03125) is never below it. It
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

// ExactN is the largest count of changed pairs (McNemarExact) or of
// items (FisherExact) whose p-value is summed in exact integer arithmetic
// and rounded once; above it the terms are summed in float64 from
// log-gamma, to a relative error near 1e-12.
const ExactN = 4096

// binomialHalfTail is P(from ≤ X ≤ to) for X binomial(n, ½).
func binomialHalfTail(n, from, to int) float64 {
	if n == 0 {
		return 1
	}
	if n <= ExactN {
		sum, c := new(big.Int), big.NewInt(1) // c is C(n, k)
		for k := 0; k <= to; k++ {
			if k > 0 {
				c.Mul(c, big.NewInt(int64(n-k+1)))
				c.Quo(c, big.NewInt(int64(k)))
			}
			if k >= from {
				sum.Add(sum, c)
			}
		}
		return ratio(sum, new(big.Int).Lsh(big.NewInt(1), uint(n)))
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
// (relative tolerance 1e-7), as R's fisher.test computes it. Up to ExactN
// items p is the float64 nearest the exact rational (see McNemarExact).
// It returns an error for a negative count or an unknown alternative.
func FisherExact(a, b, c, d int, alt Alternative) (float64, error) {
	if a < 0 || b < 0 || c < 0 || d < 0 {
		return 0, fmt.Errorf("stats: Fisher's exact test: table [[%d %d] [%d %d]], want counts of at least 0", a, b, c, d)
	}
	row1, col1, n := a+b, a+c, a+b+c+d
	lo, hi := max(0, col1-(n-row1)), min(row1, col1)
	if n <= ExactN {
		return fisherExact(a, row1, col1, n, lo, hi, alt)
	}
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

// fisherExact is FisherExact in integers: the hypergeometric terms
// C(row1, x)·C(n−row1, col1−x) over their sum C(n, col1), rounded once.
func fisherExact(a, row1, col1, n, lo, hi int, alt Alternative) (float64, error) {
	m := n - row1
	terms := make([]*big.Int, hi-lo+1)
	left := new(big.Int).Binomial(int64(row1), int64(lo))    // C(row1, x)
	right := new(big.Int).Binomial(int64(m), int64(col1-lo)) // C(m, col1−x)
	for x := lo; x <= hi; x++ {
		if x > lo {
			left.Mul(left, big.NewInt(int64(row1-x+1)))
			left.Quo(left, big.NewInt(int64(x)))
			j := col1 - x + 1 // C(m, j−1) = C(m, j)·j/(m−j+1)
			right.Mul(right, big.NewInt(int64(j)))
			right.Quo(right, big.NewInt(int64(m-j+1)))
		}
		terms[x-lo] = new(big.Int).Mul(left, right)
	}
	var keep func(x int) bool
	switch alt {
	case Greater:
		keep = func(x int) bool { return x >= a }
	case Less:
		keep = func(x int) bool { return x <= a }
	case TwoSided:
		// T(x) ≤ T(a)·(1 + 1e-7), as R's relErr, in integers.
		bound := new(big.Int).Mul(terms[a-lo], big.NewInt(10_000_001))
		keep = func(x int) bool {
			return new(big.Int).Mul(terms[x-lo], big.NewInt(10_000_000)).Cmp(bound) <= 0
		}
	default:
		return 0, fmt.Errorf("stats: Fisher's exact test: unknown alternative %v", alt)
	}
	sum := new(big.Int)
	for x := lo; x <= hi; x++ {
		if keep(x) {
			sum.Add(sum, terms[x-lo])
		}
	}
	return ratio(sum, new(big.Int).Binomial(int64(n), int64(col1))), nil
}

// ratio is num/den as the nearest float64, at most 1.
func ratio(num, den *big.Int) float64 {
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return math.Min(1, f)
}

// logChoose is ln C(n, k).
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
