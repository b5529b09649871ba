package judgefake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/evalkit-go/evalkit"
)

// Bounds TestJudge waits within.
const (
	// conformanceCallTimeout is the deadline of each call with a valid
	// request.
	conformanceCallTimeout = 10 * time.Second
	// conformanceCancelWait is how long a judge may take to return once
	// its context is cancelled, and the grace after a call's deadline.
	conformanceCancelWait = 2 * time.Second
	// conformanceGoroutines × conformanceCallsEach concurrent calls check
	// that the judge is safe for concurrent use.
	conformanceGoroutines = 8
	conformanceCallsEach  = 4
)

// TestJudge checks that j keeps the evalkit.Judge contract, as
// testing/fstest.TestFS checks a file system: it calls j with a set of
// requests and returns one error listing every problem found, or nil.
// Call it from a test:
//
//	if err := judgefake.TestJudge(myJudge); err != nil {
//		t.Fatal(err)
//	}
//
// The requests cover the content kinds (answer, transcript, tool calls),
// the zero scale and scales 1–10, 1–5, 0–1 and −5–5, with and without a
// rubric, reference, context documents and verdict schema. TestJudge
// reports:
//
//   - a verdict whose Score is outside [0,1] or not finite; a scored
//     verdict whose RawScore is outside the request's scale or disagrees
//     with Score (Score = (RawScore − Min)/(Max − Min)); an unscored one
//     with a nonzero Score or RawScore; a criterion score outside [0,1];
//   - an empty verdict with no error: no score, label, Passed, criteria
//     or fields — nothing a grader can read;
//   - a verdict returned together with an error. A verdict counts when
//     any field a grader reads is set: Score, RawScore, Scored, Label,
//     Passed, Criteria or Fields. Raw, Reasoning, Model and Usage may
//     accompany an error: they describe the failure and its cost;
//   - an invalid request — no criteria, an unknown content kind, a scale
//     with Min ≥ Max — answered without an error;
//   - a cancelled context (cancelled before the call, or just after it
//     starts) answered without an error that wraps context.Canceled, or
//     not answered within 2s;
//   - a call with a valid request that does not return within 2s of its
//     10s deadline;
//   - a change to the request's Context or VerdictSchema, which the
//     caller still owns;
//   - a panic, recovered, with its value;
//   - for a judge that implements evalkit.Identifier, an Identity with no
//     Provider, one that does not encode as JSON, or one that changes
//     between calls.
//
// It also calls j from 8 goroutines at once, 4 calls each, and checks each
// answer as above; run the test with -race and the race detector reports
// unsafe concurrent use. An error for a valid request is not a problem —
// judges fail — so TestJudge passes judgefake.Err and an exhausted
// Sequence; it checks them only where the contract speaks.
//
// The error is a *ConformanceError. TestJudge calls j 43 times. A judge that never returns leaves its
// goroutine behind after TestJudge has reported it. The same problem met
// by several calls is listed once, with a count.
func TestJudge(j evalkit.Judge) error {
	if j == nil {
		return fmt.Errorf("judgefake.TestJudge: the judge is nil")
	}
	c := &checker{j: j, counts: map[string]int{}}

	for _, req := range conformanceRequests() {
		ctx, cancel := context.WithTimeout(context.Background(), conformanceCallTimeout)
		c.checkValid(ctx, req, conformanceCallTimeout+conformanceCancelWait)
		cancel()
	}
	for _, bad := range invalidRequests() {
		c.checkInvalid(bad.req, bad.why)
	}
	c.checkCancelled()
	c.checkConcurrent()
	c.checkIdentity()
	return c.err()
}

// checker collects problems, each once, with a count.
type checker struct {
	j      evalkit.Judge
	mu     sync.Mutex
	order  []string
	counts map[string]int
}

// problem records a problem. A concurrent call's problem that a
// sequential call with the same request already met only adds to its
// count: the concurrent calls are there to find what only concurrency
// causes.
func (c *checker) problem(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	c.mu.Lock()
	defer c.mu.Unlock()
	if seq, ok := strings.CutPrefix(msg, concurrentPrefix); ok && c.counts[seq] > 0 {
		msg = seq
	}
	if c.counts[msg] == 0 {
		c.order = append(c.order, msg)
	}
	c.counts[msg]++
}

func (c *checker) err() error {
	if len(c.order) == 0 {
		return nil
	}
	// Concurrent calls find their problems in no fixed order; list them
	// last, sorted, so the same judge always gets the same message.
	var order, concurrent []string
	for _, msg := range c.order {
		if strings.HasPrefix(msg, concurrentPrefix) {
			concurrent = append(concurrent, msg)
		} else {
			order = append(order, msg)
		}
	}
	slices.Sort(concurrent)
	c.order = append(order, concurrent...)
	noun := "problems"
	if len(c.order) == 1 {
		noun = "problem"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "judgefake.TestJudge(%s): %d %s:", judgeName(c.j), len(c.order), noun)
	for _, msg := range c.order {
		b.WriteString("\n\t")
		b.WriteString(msg)
		if n := c.counts[msg]; n > 1 {
			fmt.Fprintf(&b, " (×%d)", n)
		}
	}
	return &ConformanceError{msg: b.String(), Problems: append([]string(nil), c.order...)}
}

// ConformanceError is the error TestJudge returns: every problem found,
// in the order found.
type ConformanceError struct {
	// Problems are the problems, one line each, without counts.
	Problems []string
	msg      string
}

func (e *ConformanceError) Error() string { return e.msg }

func judgeName(j evalkit.Judge) string {
	if s, ok := j.(fmt.Stringer); ok {
		var name string
		if safe(func() { name = s.String() }) == nil {
			return name
		}
	}
	return fmt.Sprintf("%T", j)
}

// safe runs f and returns the value it panicked with, or nil.
func safe(f func()) (panicked any) {
	defer func() { panicked = recover() }()
	f()
	return nil
}

// result is one call's answer.
type result struct {
	v        evalkit.Verdict
	err      error
	panicked any
	didPanic bool
}

// call calls the judge in its own goroutine and waits at most wait for it.
// ok is false when the judge did not return in time.
func (c *checker) call(ctx context.Context, req evalkit.JudgeRequest, wait time.Duration) (r result, ok bool) {
	done := make(chan result, 1)
	go func() {
		var r result
		func() {
			defer func() {
				if p := recover(); p != nil {
					r = result{panicked: p, didPanic: true}
				}
			}()
			r.v, r.err = c.j.Judge(ctx, req)
		}()
		done <- r
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case r := <-done:
		return r, true
	case <-t.C:
		return result{}, false
	}
}

// label names a request in problems, in call syntax: its kind, scale and
// the optional parts it has.
func label(req evalkit.JudgeRequest) string {
	kind := string(req.Kind)
	if kind == "" {
		kind = "answer"
	}
	s := req.Scale.OrDefault()
	var extras string
	if req.Rubric != "" {
		extras += ", rubric"
	}
	if req.Reference != "" {
		extras += ", reference"
	}
	if len(req.Context) > 0 {
		extras += ", context"
	}
	if len(req.VerdictSchema) > 0 {
		extras += ", verdict schema"
	}
	return fmt.Sprintf("Judge(%s, scale [%v, %v]%s)", kind, s.Min, s.Max, extras)
}

func (c *checker) checkValid(ctx context.Context, req evalkit.JudgeRequest, wait time.Duration) {
	before := cloneRequest(req)
	r, ok := c.call(ctx, req, wait)
	name := label(req)
	if !ok {
		c.problem("%s: no answer within %v of the call's %v deadline", name, conformanceCancelWait, conformanceCallTimeout)
		return
	}
	if r.didPanic {
		c.problem("%s panicked: %v", name, r.panicked)
		return
	}
	if !reflect.DeepEqual(before.Context, req.Context) || string(before.VerdictSchema) != string(req.VerdictSchema) {
		c.problem("%s changed the request's Context or VerdictSchema, which the caller owns", name)
	}
	if r.err != nil {
		c.checkNoVerdict(name, r)
		return
	}
	c.checkVerdict(name, req.Scale.OrDefault(), r.v)
}

// checkNoVerdict reports a verdict that came with an error.
func (c *checker) checkNoVerdict(name string, r result) {
	if set := gradedFields(r.v); len(set) > 0 {
		c.problem("%s returned a verdict (%s set) together with the error %q; a judge that fails returns no verdict", name, strings.Join(set, ", "), r.err)
	}
}

// gradedFields names the fields of v a grader reads that are set.
func gradedFields(v evalkit.Verdict) []string {
	var set []string
	if v.Score != 0 {
		set = append(set, "Score")
	}
	if v.RawScore != 0 {
		set = append(set, "RawScore")
	}
	if v.Scored {
		set = append(set, "Scored")
	}
	if v.Label != "" {
		set = append(set, "Label")
	}
	if v.Passed != nil {
		set = append(set, "Passed")
	}
	if len(v.Criteria) > 0 {
		set = append(set, "Criteria")
	}
	if len(v.Fields) > 0 {
		set = append(set, "Fields")
	}
	return set
}

// checkVerdict reports what is wrong with a verdict given with no error.
func (c *checker) checkVerdict(name string, scale evalkit.Scale, v evalkit.Verdict) {
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	if !finite(v.Score) || v.Score < 0 || v.Score > 1 {
		c.problem("%s: Score %v, want within [0, 1]", name, v.Score)
	}
	if v.Scored {
		switch {
		case !finite(v.RawScore) || v.RawScore < scale.Min || v.RawScore > scale.Max:
			c.problem("%s: RawScore %v, want within the request's scale [%v, %v]", name, v.RawScore, scale.Min, scale.Max)
		case finite(v.Score):
			want := (v.RawScore - scale.Min) / (scale.Max - scale.Min)
			if math.Abs(v.Score-want) > 1e-6 {
				c.problem("%s: Score %v disagrees with RawScore %v on [%v, %v], want Score %v", name, v.Score, v.RawScore, scale.Min, scale.Max, want)
			}
		}
	} else if v.Score != 0 || v.RawScore != 0 {
		c.problem("%s: Scored false with Score %v and RawScore %v, want both 0 or Scored true", name, v.Score, v.RawScore)
	}
	for _, cr := range v.Criteria {
		if !finite(cr.Score) || cr.Score < 0 || cr.Score > 1 {
			c.problem("%s: criterion %q Score %v, want within [0, 1]", name, cr.Name, cr.Score)
		}
	}
	if !v.Scored && v.Label == "" && v.Passed == nil && len(v.Criteria) == 0 && len(v.Fields) == 0 {
		c.problem("%s: empty verdict and no error: no score, label, Passed, criteria or fields; a judge that cannot judge returns an error", name)
	}
}

func (c *checker) checkInvalid(req evalkit.JudgeRequest, why string) {
	ctx, cancel := context.WithTimeout(context.Background(), conformanceCallTimeout)
	defer cancel()
	r, ok := c.call(ctx, req, conformanceCallTimeout+conformanceCancelWait)
	name := fmt.Sprintf("Judge(request with %s)", why)
	switch {
	case !ok:
		c.problem("%s: no answer within %v of the call's %v deadline", name, conformanceCancelWait, conformanceCallTimeout)
	case r.didPanic:
		c.problem("%s panicked: %v, want an error", name, r.panicked)
	case r.err == nil:
		c.problem("%s: no error, want one: the request is invalid (evalkit.JudgeRequest.Validate)", name)
	default:
		c.checkNoVerdict(name, r)
	}
}

// checkCancelled calls the judge with a context cancelled before the
// call, and with one cancelled as the call starts.
func (c *checker) checkCancelled() {
	req := conformanceRequests()[0]
	for _, when := range []string{"before", "during"} {
		ctx, cancel := context.WithCancel(context.Background())
		if when == "before" {
			cancel()
		}
		done := make(chan struct{})
		var r result
		var ok bool
		go func() {
			defer close(done)
			r, ok = c.call(ctx, req, conformanceCancelWait)
		}()
		cancel()
		<-done
		name := fmt.Sprintf("Judge(context cancelled %s the call)", when)
		switch {
		case !ok:
			c.problem("%s: no answer within %v of the cancellation", name, conformanceCancelWait)
		case r.didPanic:
			c.problem("%s panicked: %v", name, r.panicked)
		case r.err == nil && when == "before":
			c.problem("%s: a verdict and no error, want an error wrapping context.Canceled", name)
		case r.err == nil:
			// The judge may have answered before it saw the
			// cancellation; the verdict must still be sound.
			c.checkVerdict(name, req.Scale.OrDefault(), r.v)
		case !errors.Is(r.err, context.Canceled):
			c.problem("%s: error %q does not wrap context.Canceled", name, r.err)
			c.checkNoVerdict(name, r)
		default:
			c.checkNoVerdict(name, r)
		}
	}
}

// concurrentPrefix starts the problems of concurrent calls.
const concurrentPrefix = "concurrent "

// checkConcurrent calls the judge from many goroutines at once.
func (c *checker) checkConcurrent() {
	reqs := conformanceRequests()
	var wg sync.WaitGroup
	for g := range conformanceGoroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range conformanceCallsEach {
				// A request of its own, so a judge that changes its
				// request races with nobody.
				req := conformanceRequests()[(g*conformanceCallsEach+i)%len(reqs)]
				ctx, cancel := context.WithTimeout(context.Background(), conformanceCallTimeout)
				r, ok := c.call(ctx, req, conformanceCallTimeout+conformanceCancelWait)
				cancel()
				name := concurrentPrefix + label(req)
				switch {
				case !ok:
					c.problem("%s: no answer within %v of the call's %v deadline", name, conformanceCancelWait, conformanceCallTimeout)
				case r.didPanic:
					c.problem("%s panicked: %v", name, r.panicked)
				case r.err != nil:
					c.checkNoVerdict(name, r)
				default:
					c.checkVerdict(name, req.Scale.OrDefault(), r.v)
				}
			}
		}()
	}
	wg.Wait()
}

func (c *checker) checkIdentity() {
	idr, ok := c.j.(evalkit.Identifier)
	if !ok {
		return
	}
	var first, second evalkit.Identity
	if p := safe(func() { first = idr.Identity() }); p != nil {
		c.problem("Identity() panicked: %v", p)
		return
	}
	if p := safe(func() { second = idr.Identity() }); p != nil {
		c.problem("Identity() panicked: %v", p)
		return
	}
	if first.Provider == "" {
		c.problem("Identity(): Provider is empty, want the kind of judge (\"openai\", \"anthropic\", ...)")
	}
	a, errA := json.Marshal(first)
	b, errB := json.Marshal(second)
	switch {
	case errA != nil:
		c.problem("Identity(): does not encode as JSON, so recordings cannot key on it: %v", errA)
	case errB != nil:
		c.problem("Identity(): does not encode as JSON, so recordings cannot key on it: %v", errB)
	case string(a) != string(b):
		c.problem("Identity(): changes between calls (%s, then %s); recordings key on it", a, b)
	}
}

// conformanceRequests are the valid requests TestJudge asks about.
func conformanceRequests() []evalkit.JudgeRequest {
	return []evalkit.JudgeRequest{
		{Criteria: "Answers the question correctly", Input: "What is 2 + 2?", Content: "2 + 2 = 4."},
		{
			Criteria: "Rates the answer's helpfulness", Rubric: "10: complete and correct; 1: wrong or off-topic",
			Input: "Name a prime number.", Content: "7 is prime.", Scale: evalkit.Scale{Min: 1, Max: 10},
		},
		{
			Criteria: "Confirms the refund and states the amount", Kind: evalkit.ContentTranscript,
			Content: "user: I want a refund for order #W123\nassistant: [tool call get_order_details {\"order_id\": \"#W123\"}]\ntool: {\"total\": 42}\nassistant: Your refund of $42 is on its way.",
			Scale:   evalkit.Scale{Min: 1, Max: 5},
		},
		{
			Criteria: "Calls the lookup tool before refunding", Kind: evalkit.ContentToolCalls,
			Content: "get_order_details({\"order_id\": \"#W123\"}) -> {\"total\": 42}\nissue_refund({\"order_id\": \"#W123\"}) -> ok",
			Scale:   evalkit.Scale{Min: 0, Max: 1},
		},
		{
			Criteria: "Is faithful to the context", Input: "When does the store open?", Content: "It opens at 9.",
			Reference: "The store opens at 9am.", Context: []string{"Opening hours: 9am to 5pm.", "Closed on Sundays."},
			Scale: evalkit.Scale{Min: -5, Max: 5},
		},
		{
			Criteria: "Is polite", Content: "Thanks for waiting!",
			VerdictSchema: json.RawMessage(`{"type": "object", "required": ["score"], "properties": {"score": {"type": "number"}}}`),
		},
	}
}

type invalidRequest struct {
	req evalkit.JudgeRequest
	why string
}

// invalidRequests are requests every judge must refuse.
func invalidRequests() []invalidRequest {
	return []invalidRequest{
		{evalkit.JudgeRequest{Content: "2 + 2 = 4."}, "no criteria"},
		{evalkit.JudgeRequest{Criteria: "Is correct", Content: "4", Kind: "poem"}, `unknown kind "poem"`},
		{evalkit.JudgeRequest{Criteria: "Is correct", Content: "4", Scale: evalkit.Scale{Min: 5, Max: 1}}, "scale [5, 1]"},
	}
}
