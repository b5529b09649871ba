package evaltest

// SetJudgeBudget replaces the judge budget the environment gives with one
// read from calls and usd, as EVALKIT_MAX_JUDGE_CALLS and
// EVALKIT_MAX_COST_USD would be, until restore is called. Empty values set
// no limit but still count. For tests that do not run in parallel.
func SetJudgeBudget(calls, usd string) (restore func()) {
	b := newBudget(calls, usd)
	if b == nil {
		b = &judgeBudget{maxCalls: -1, maxUSD: -1, byTest: map[string]int64{}}
	}
	budgetOverride.Store(b)
	return func() { budgetOverride.Store(nil) }
}
