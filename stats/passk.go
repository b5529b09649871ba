package stats

import "fmt"

// PassHatK estimates pass^k, the probability that k independent attempts
// at a task all succeed, from n attempts of which c succeeded: C(c,k)/C(n,k),
// the unbiased estimator of τ-bench (Yao et al., 2024, "τ-bench: A
// Benchmark for Tool-Agent-User Interaction in Real-World Domains"). It
// falls as k grows: pass^1 is c/n, and pass^n is 1 only when every attempt
// passed. The result is in [0,1]; it returns an error for n < 1 or past
// MaxKAttempts, c outside [0,n] or k outside [1,n] (pass^k needs at least
// k attempts).
func PassHatK(n, c, k int) (float64, error) {
	if err := checkNCK(n, c, k); err != nil {
		return 0, fmt.Errorf("stats: pass^k: %w", err)
	}
	// C(c,k)/C(n,k) = Π_{i=0}^{k-1} (c−i)/(n−i), as a product so large n
	// never overflows.
	p := 1.0
	for i := range k {
		if c-i <= 0 {
			return 0, nil
		}
		p *= float64(c-i) / float64(n-i)
	}
	return p, nil
}

// PassAtK estimates pass@k, the probability that at least one of k
// independent attempts succeeds, from n attempts of which c succeeded:
// 1 − C(n−c,k)/C(n,k), the unbiased estimator of Chen et al. (2021,
// "Evaluating Large Language Models Trained on Code", HumanEval), which
// τ-bench sets beside pass^k. It rises with k. The result is in [0,1];
// the errors are PassHatK's.
func PassAtK(n, c, k int) (float64, error) {
	if err := checkNCK(n, c, k); err != nil {
		return 0, fmt.Errorf("stats: pass@k: %w", err)
	}
	// C(n−c,k)/C(n,k) = Π_{i=0}^{k-1} (n−c−i)/(n−i).
	q := 1.0
	for i := range k {
		if n-c-i <= 0 {
			return 1, nil
		}
		q *= float64(n-c-i) / float64(n-i)
	}
	return 1 - q, nil
}

// MaxKAttempts is the most attempts PassHatK and PassAtK take: each
// multiplies k factors, so a count no run makes (a results file's
// 9223372036854775807) must be an error, not a loop of that length.
const MaxKAttempts = 1 << 20

func checkNCK(n, c, k int) error {
	switch {
	case n < 1:
		return fmt.Errorf("n is %d attempts, want at least 1", n)
	case n > MaxKAttempts:
		return fmt.Errorf("n is %d attempts, want at most %d (MaxKAttempts)", n, MaxKAttempts)
	case c < 0 || c > n:
		return fmt.Errorf("c is %d successes, want 0 to n (%d)", c, n)
	case k < 1 || k > n:
		return fmt.Errorf("k is %d, want 1 to n (%d)", k, n)
	}
	return nil
}
