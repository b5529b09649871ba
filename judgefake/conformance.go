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
	"sync/atomic"
	"time"

	"github.com/evalkit-go/evalkit"
)

// Bounds TestJudge waits within.
const (
	// conformanceCallTimeout is the deadline of each call.
	conformanceCallTimeout = 5 * time.Second
	// conformanceGrace is how long a judge may take to return once its
	// context is done (its deadline passed, or it was cancelled); once a
	// call has blocked past that, it is also all the checker waits for any
	// later call.
	conformanceGrace = time.Second
	// conformanceCancelDelay is how long after a call starts its context
	// is cancelled, for the check of a cancellation during the call.
	conformanceCancelDelay = 50 * time.Millisecond
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
//   - a verdict with a Label made only of invisible characters (white
//     space, zero-width and other format characters, combining marks,
//     fillers such as U+3164): a grader cannot tell it from no label;
//   - a verdict whose Fields break the request's VerdictSchema. judgefake
//     imports only the standard library, so this is a hand check, not a
//     JSON Schema validator: the schema's top-level type, its required
//     properties, and the type, enum and const of each top-level property.
//     A verdict without Fields (a fake's) is not checked: a grader that
//     reads fields finds none and fails closed;
//   - a cancelled context (cancelled before the call, or 50ms after it
//     starts) answered without an error that wraps context.Canceled — a
//     verdict returned after the cancellation included;
//   - a verdict returned with no error after the call's context was done:
//     each call has a 5s deadline, and a judge whose deadline passed
//     returns an error;
//   - a call that blocks past its deadline or its cancellation: it has not
//     returned 1s after it. The checker then knows the judge blocks, and
//     waits for every later call at most 1s, so a judge that never
//     returns is reported in about 20s rather than minutes;
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
// Sequence; it checks them only where the contract speaks. It is meant
// for judges behind fakes (NewServer, NewTransport) or a local model: a
// judge slower than the 5s deadline passes, with its calls ending in
// errors and its verdicts unchecked.
//
// The error is a *ConformanceError. TestJudge calls j 43 times. A judge
// that never returns leaves its goroutines behind after TestJudge has
// reported it. The same problem met by several calls is listed once, with
// a count.
func TestJudge(j evalkit.Judge) error {
	if j == nil {
		return fmt.Errorf("judgefake.TestJudge: the judge is nil")
	}
	c := &checker{j: j, counts: map[string]int{}}

	for _, req := range conformanceRequests() {
		c.checkValid("", req)
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
	// blocked is set once a call has blocked past its deadline or its
	// cancellation: later calls are waited for at most conformanceGrace.
	blocked atomic.Bool
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
	late     bool // the context was done when the judge returned
}

// waited says how waiting for a call ended.
type waited int

const (
	answered  waited = iota
	blocked          // no answer conformanceGrace after the context was done
	notWaited        // no answer within conformanceGrace, after an earlier call blocked
)

// call calls the judge in its own goroutine and waits for its answer until
// conformanceGrace after ctx is done, or, once an earlier call has
// blocked, at most conformanceGrace. It closes entered, when not nil, as
// the judge is called.
func (c *checker) call(ctx context.Context, req evalkit.JudgeRequest, entered chan<- struct{}) (result, waited) {
	done := make(chan result, 1)
	go func() {
		var r result
		func() {
			defer func() {
				if p := recover(); p != nil {
					r = result{panicked: p, didPanic: true}
				}
			}()
			if entered != nil {
				close(entered)
			}
			r.v, r.err = c.j.Judge(ctx, req)
		}()
		r.late = ctx.Err() != nil
		done <- r
	}()
	if c.blocked.Load() {
		t := time.NewTimer(conformanceGrace)
		defer t.Stop()
		select {
		case r := <-done:
			return r, answered
		case <-t.C:
			return result{}, notWaited
		}
	}
	select {
	case r := <-done:
		return r, answered
	case <-ctx.Done():
	}
	t := time.NewTimer(conformanceGrace)
	defer t.Stop()
	select {
	case r := <-done:
		return r, answered
	case <-t.C:
	}
	c.blocked.Store(true)
	return result{}, blocked
}

// unanswered reports a call that did not answer; past names what its
// context ended with ("its 5s deadline", "the cancellation").
func (c *checker) unanswered(name string, w waited, past string) {
	if w == blocked {
		c.problem("%s: blocked past %s: no answer %v after it", name, past, conformanceGrace)
		return
	}
	c.problem("%s: no answer within %v; not waited for longer, as the judge has blocked past a deadline", name, conformanceGrace)
}

// deadline is what a call's context ends with, for unanswered.
var deadline = fmt.Sprintf("its %v deadline", conformanceCallTimeout)

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

// checkValid calls the judge with a valid request, with its own deadline;
// prefix starts the problems' names.
func (c *checker) checkValid(prefix string, req evalkit.JudgeRequest) {
	ctx, cancel := context.WithTimeout(context.Background(), conformanceCallTimeout)
	defer cancel()
	before := cloneRequest(req)
	r, w := c.call(ctx, req, nil)
	name := prefix + label(req)
	switch {
	case w != answered:
		c.unanswered(name, w, deadline)
		return
	case r.didPanic:
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
	if r.late {
		c.problem("%s: a verdict and no error after the call's %v deadline passed; a judge whose context is done returns an error", name, conformanceCallTimeout)
	}
	c.checkVerdict(name, req, r.v)
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
func (c *checker) checkVerdict(name string, req evalkit.JudgeRequest, v evalkit.Verdict) {
	scale := req.Scale.OrDefault()
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
	if v.Label != "" && invisible(v.Label) {
		c.problem("%s: Label %+q has no visible character; a grader cannot tell it from no label", name, textExcerpt(v.Label))
	}
	if len(req.VerdictSchema) > 0 && len(v.Fields) > 0 {
		for _, p := range schemaProblems(req.VerdictSchema, v.Fields) {
			c.problem("%s: Fields break the request's VerdictSchema: %s", name, p)
		}
	}
	if !v.Scored && v.Label == "" && v.Passed == nil && len(v.Criteria) == 0 && len(v.Fields) == 0 {
		c.problem("%s: empty verdict and no error: no score, label, Passed, criteria or fields; a judge that cannot judge returns an error", name)
	}
}

func (c *checker) checkInvalid(req evalkit.JudgeRequest, why string) {
	ctx, cancel := context.WithTimeout(context.Background(), conformanceCallTimeout)
	defer cancel()
	r, w := c.call(ctx, req, nil)
	name := fmt.Sprintf("Judge(request with %s)", why)
	switch {
	case w != answered:
		c.unanswered(name, w, deadline)
	case r.didPanic:
		c.problem("%s panicked: %v, want an error", name, r.panicked)
	case r.err == nil:
		c.problem("%s: no error, want one: the request is invalid (evalkit.JudgeRequest.Validate)", name)
	default:
		c.checkNoVerdict(name, r)
	}
}

// checkCancelled calls the judge with a context cancelled before the
// call, and with one cancelled conformanceCancelDelay after it starts.
func (c *checker) checkCancelled() {
	req := conformanceRequests()[0]
	for _, when := range []string{"before", "during"} {
		ctx, cancel := context.WithCancel(context.Background())
		if when == "before" {
			cancel()
		}
		entered := make(chan struct{})
		done := make(chan struct{})
		var r result
		var w waited
		go func() {
			defer close(done)
			r, w = c.call(ctx, req, entered)
		}()
		select {
		case <-entered:
			t := time.NewTimer(conformanceCancelDelay)
			select {
			case <-t.C:
			case <-done:
			}
			t.Stop()
		case <-done:
		}
		cancel()
		<-done
		name := fmt.Sprintf("Judge(context cancelled %s the call)", when)
		switch {
		case w != answered:
			c.unanswered(name, w, "the cancellation")
		case r.didPanic:
			c.problem("%s panicked: %v", name, r.panicked)
		case !r.late:
			// The judge answered before the cancellation: an answer to
			// a valid request like any other.
			if r.err != nil {
				c.checkNoVerdict(label(req), r)
			} else {
				c.checkVerdict(label(req), req, r.v)
			}
		case r.err == nil:
			c.problem("%s: a verdict and no error, want an error wrapping context.Canceled", name)
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
				c.checkValid(concurrentPrefix, req)
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
			VerdictSchema: json.RawMessage(`{"type": "object", "required": ["score"], "properties": {"score": {"type": "number"}, "verdict": {"enum": ["pass", "fail"]}}}`),
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
