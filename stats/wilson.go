package stats

import (
	"fmt"
	"math"
)

// WilsonLower returns the lower bound of the Wilson score interval for a
// success rate, given c successes in n attempts, at confidence level (in
// (0,1), such as 0.95): Wilson (1927), "Probable Inference, the Law of
// Succession, and Statistical Inference". With p̂ = c/n and z the standard
// normal quantile Φ⁻¹(1 − (1−level)/2) — 1.96 at 0.95 — it is
//
//	(p̂ + z²/2n − z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n)
//
// in [0,1]. Unlike p̂ − z·√(p̂(1−p̂)/n) it stays sensible at p̂ = 1 and for
// small n: 10 of 10 gives 0.72, not 1. The true rate lies below it with
// probability (1−level)/2 on average over rates — 2.5% at 0.95 — and at
// most about 6% for rates from 0.5 up and n ≥ 5; near 0 it dips further, as
// every binomial interval does (Brown, Cai and DasGupta, 2001). It returns
// an error for n < 1, c outside [0,n] or a level outside (0,1).
func WilsonLower(c, n int, level float64) (float64, error) {
	lo, _, err := Wilson(c, n, level)
	return lo, err
}

// WilsonUpper is the upper bound of WilsonLower's interval.
func WilsonUpper(c, n int, level float64) (float64, error) {
	_, hi, err := Wilson(c, n, level)
	return hi, err
}

// Wilson returns both bounds of the Wilson score interval of c successes
// in n attempts at confidence level (see WilsonLower): lo ≤ c/n ≤ hi, both
// in [0,1]. 8 of 10 at 0.95 is [0.490, 0.943]. Its errors are
// WilsonLower's.
func Wilson(c, n int, level float64) (lo, hi float64, err error) {
	switch {
	case n < 1:
		return 0, 0, fmt.Errorf("stats: Wilson interval: n is %d attempts, want at least 1", n)
	case c < 0 || c > n:
		return 0, 0, fmt.Errorf("stats: Wilson interval: c is %d successes, want 0 to n (%d)", c, n)
	case !(level > 0 && level < 1):
		return 0, 0, fmt.Errorf("stats: Wilson interval: confidence level %v, want a number between 0 and 1, such as 0.95", level)
	}
	z := ZScore(level)
	nf := float64(n)
	p := float64(c) / nf
	center := p + z*z/(2*nf)
	margin := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	den := 1 + z*z/nf
	lo, hi = (center-margin)/den, (center+margin)/den
	// Rounding must not move a bound past the rate it brackets.
	return math.Max(0, math.Min(lo, p)), math.Min(1, math.Max(hi, p)), nil
}

// ZScore returns the two-sided standard normal quantile for a confidence
// level in (0,1): Φ⁻¹(1 − (1−level)/2) = √2·erf⁻¹(level), 1.959964 for
// 0.95. It returns NaN for a level outside (0,1).
func ZScore(level float64) float64 {
	if !(level > 0 && level < 1) {
		return math.NaN()
	}
	return math.Sqrt2 * math.Erfinv(level)
}
