package evaltest

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// The judge budget bounds what the live judges of one test binary (one
// package's tests: go test ./... runs a binary per package) may spend,
// from two environment variables:
//
//	EVALKIT_MAX_JUDGE_CALLS=200   # HTTP calls to judges, retries included
//	EVALKIT_MAX_COST_USD=0.50     # US dollars, as the judges price replies
//
// A call is one HTTP attempt of a judge built on evalkit's judge client
// (openaijudge, anthropicjudge, and panels of them) asked by a judged step
// of a T — Judge, JudgeSession, JudgeToolCalls, a judged Eval, a case
// file's judged eval, each attempt of a Repeat: a call retried after a 429
// counts twice. The attempt past EVALKIT_MAX_JUDGE_CALLS is not sent. Cost
// is counted as replies arrive, so the reply that passes
// EVALKIT_MAX_COST_USD is the last one: its step is an error too. Under a
// cost limit, a reply whose model the judge has no price for also exceeds
// the budget, since its cost cannot be known (give the judge its price:
// openaijudge.WithPrices, anthropicjudge.WithPrices).
//
// Once the budget is exceeded, the run fails loudly: every later judged
// step is an error wrapping ErrJudgeBudget that names the limit and how
// it was spent — calls, retries, refusals, dollars, and the calls of each
// top-level test. Replayed verdicts cost nothing and are not counted, nor
// are fakes (package judgefake's judges) or a judge of the user's own that
// does not use evalkit's client; but after the budget is exceeded even a
// replayed step is an error, so no run passes with its budget exceeded.
// Unset or empty, a variable sets no limit; a value that is not a number
// >= 0 makes every judged step an error naming the variable.
var ErrJudgeBudget = errors.New("judge budget exceeded")

// Budget variables.
const (
	envMaxCalls = "EVALKIT_MAX_JUDGE_CALLS"
	envMaxCost  = "EVALKIT_MAX_COST_USD"
)

// judgeBudget is the process's judge budget, counting through the Meter
// every judged step puts in its judge's context.
type judgeBudget struct {
	setting  error   // a bad variable: every judged step is this error
	maxCalls int64   // -1: no limit
	maxUSD   float64 // -1: no limit

	mu      sync.Mutex
	calls   int64 // attempts sent
	retries int64 // of which retries
	refused int64 // attempts not sent
	usd     float64
	byTest  map[string]int64
	over    string // why the budget is exceeded; "" while it is not
}

// budgetOverride, when set (by tests), replaces the budget the
// environment gives.
var budgetOverride atomic.Pointer[judgeBudget]

// envBudget is the budget of EVALKIT_MAX_JUDGE_CALLS and
// EVALKIT_MAX_COST_USD, read once: nil when neither is set.
var envBudget = sync.OnceValue(func() *judgeBudget {
	return newBudget(os.Getenv(envMaxCalls), os.Getenv(envMaxCost))
})

func currentBudget() *judgeBudget {
	if b := budgetOverride.Load(); b != nil {
		return b
	}
	return envBudget()
}

// newBudget reads the two variables' values; nil when both are empty.
func newBudget(calls, usd string) *judgeBudget {
	calls, usd = strings.TrimSpace(calls), strings.TrimSpace(usd)
	if calls == "" && usd == "" {
		return nil
	}
	b := &judgeBudget{maxCalls: -1, maxUSD: -1, byTest: map[string]int64{}}
	if calls != "" {
		n, err := strconv.ParseInt(calls, 10, 64)
		if err != nil || n < 0 || !wholeNumber.MatchString(calls) {
			b.setting = fmt.Errorf("evaltest: %s=%q: want a whole number >= 0, the most HTTP calls this test binary's live judges may make", envMaxCalls, judgehttp.Bound(calls, 40))
			return b
		}
		b.maxCalls = n
	}
	if usd != "" {
		f, err := strconv.ParseFloat(usd, 64)
		if err != nil || !dollars.MatchString(usd) {
			b.setting = fmt.Errorf("evaltest: %s=%q: want a number of US dollars >= 0, such as 0.50, the most this test binary's live judges may spend", envMaxCost, judgehttp.Bound(usd, 40))
			return b
		}
		b.maxUSD = f
	}
	return b
}

var (
	wholeNumber = regexp.MustCompile(`^[0-9]{1,18}$`)
	dollars     = regexp.MustCompile(`^[0-9]{1,15}(\.[0-9]{1,15})?$`)
)

// check returns the budget's error when a judged step may not run: a bad
// setting, or the budget exceeded. A nil budget never refuses.
func (b *judgeBudget) check() error {
	if b == nil {
		return nil
	}
	if b.setting != nil {
		return b.setting
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.over == "" {
		return nil
	}
	return b.errLocked()
}

// meter returns a Meter that counts test's calls, for one judged step.
func (b *judgeBudget) meter(test string) *budgetMeter {
	return &budgetMeter{b: b, test: test}
}

// budgetMeter is a judged step's view of the budget.
type budgetMeter struct {
	b    *judgeBudget
	test string
	// tripped is set when the step's own call exceeded the budget: an
	// attempt refused, or a reply that passed the cost limit. The step is
	// then an error even if a verdict came back (a panel's other member's,
	// or the reply that passed the limit).
	tripped atomic.Bool
}

// err returns the budget's error when the step tripped it.
func (m *budgetMeter) err() error {
	if m == nil || !m.tripped.Load() {
		return nil
	}
	m.b.mu.Lock()
	defer m.b.mu.Unlock()
	return m.b.errLocked()
}

func (m *budgetMeter) Attempt(client string, n int) error {
	b := m.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.over == "" && b.maxCalls >= 0 && b.calls >= b.maxCalls {
		b.over = fmt.Sprintf("%s=%d allows %d HTTP %s to judges", envMaxCalls, b.maxCalls, b.maxCalls, plural(b.maxCalls, "call", "calls"))
	}
	if b.over != "" {
		b.refused++
		m.tripped.Store(true)
		return b.errLocked()
	}
	b.calls++
	if n > 1 {
		b.retries++
	}
	b.byTest[m.test]++
	return nil
}

func (m *budgetMeter) Spend(c judgehttp.Cost) {
	b := m.b
	b.mu.Lock()
	defer b.mu.Unlock()
	b.usd += c.USD
	if b.over != "" || b.maxUSD < 0 {
		return
	}
	switch {
	case !c.Priced:
		b.over = fmt.Sprintf("%s=%s cannot be kept: %s has no price for model %q, so its cost is unknown (give the judge the model's price with WithPrices)",
			envMaxCost, strconv.FormatFloat(b.maxUSD, 'f', -1, 64), c.Client, judgehttp.Bound(c.Model, 100))
	case b.usd > b.maxUSD:
		b.over = fmt.Sprintf("%s=%s allows $%.6f", envMaxCost, strconv.FormatFloat(b.maxUSD, 'f', -1, 64), b.maxUSD)
	default:
		return
	}
	m.tripped.Store(true)
}

// maxBudgetTests bounds the tests a budget error lists.
const maxBudgetTests = 5

// errLocked says that the budget is exceeded and how it was spent.
func (b *judgeBudget) errLocked() error {
	var spent strings.Builder
	fmt.Fprintf(&spent, "%d HTTP %s made (%d %s), $%.6f spent", b.calls, plural(b.calls, "call", "calls"), b.retries, plural(b.retries, "retry", "retries"), b.usd)
	if b.refused > 0 {
		fmt.Fprintf(&spent, ", %d more refused", b.refused)
	}
	tests := slices.SortedFunc(maps.Keys(b.byTest), func(x, y string) int {
		if c := b.byTest[y] - b.byTest[x]; c != 0 {
			return int(max(min(c, 1), -1))
		}
		return strings.Compare(x, y)
	})
	if len(tests) > 0 {
		spent.WriteString("; calls by test:")
		for i, name := range tests {
			if i == maxBudgetTests {
				fmt.Fprintf(&spent, " … and %d more", len(tests)-maxBudgetTests)
				break
			}
			if i > 0 {
				spent.WriteByte(',')
			}
			fmt.Fprintf(&spent, " %s %d", judgehttp.Bound(name, 100), b.byTest[name])
		}
	}
	return fmt.Errorf("evaltest: %w: %s; %s; every later judged step is an error (replayed verdicts are not counted)", ErrJudgeBudget, b.over, spent.String())
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
