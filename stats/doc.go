// Package stats holds the statistics evalkit reports and gates on: pass^k
// and pass@k, the Wilson interval, agreement between raters (Cohen's kappa,
// Krippendorff's alpha) and the tests that say whether two runs differ
// (McNemar's exact test for paired outcomes, Fisher's exact test for
// unpaired ones). Every function is pure, over counts and tables, and
// needs only the standard library; each is tested against a published
// worked example, named in its test.
//
//	lo, hi, _ := stats.Wilson(8, 10, 0.95)     // 8 of 10 attempts passed: [0.49, 0.94]
//	p, _ := stats.McNemarExact(5, 0, stats.Greater) // 5 checks went from pass to fail, none back: p = 0.031
package stats
