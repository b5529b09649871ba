package evaltest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/secret"
)

// StateEquals checks that got, the state the agent left behind — the
// in-memory database its tools changed — equals want, the state a correct
// run leaves, as τ-bench scores a run by comparing database states. It
// reads nothing of the transcript. Values compare with go-cmp: cmp.Diff
// with opts (cmpopts.IgnoreFields for what a run may set freely, such as
// ids and times; cmpopts.EquateEmpty; cmp.AllowUnexported). A failure
// reads:
//
//	StateEquals(airline.DB): the state differs from the expected one in 2 lines
//	diff (-want +got):
//	  airline.DB{
//	  	Reservations: map[string]*airline.Reservation{
//	  		"FQ8APE": &{
//	- 			TotalBaggages: 3,
//	+ 			TotalBaggages: 0,
//	...
//
// Values go-cmp cannot compare (unexported fields without an option, say)
// are an error with go-cmp's reason, never a pass. The states are
// compared as they are; in the diff, a string holding a secret shows
// redacted, whole, as Inverse(redacted, string("… [redacted:jwt] …")):
// go-cmp cuts long strings into lines of 64 bytes, which would leave a
// key in pieces the redactor cannot tell from text.
func (e *Expectation) StateEquals(want, got any, opts ...cmp.Option) *Expectation {
	e.t.tb.Helper()
	label := fmt.Sprintf("StateEquals(%T)", want)
	if want == nil {
		label = "StateEquals(nil)"
	}
	e.report(label, assert.CheckFunc(func(context.Context, *evalkit.Transcript) (res assert.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				res, err = assert.Result{}, fmt.Errorf("go-cmp cannot compare the states: %v", p)
			}
		}()
		if cmp.Equal(want, got, opts...) {
			return assert.Result{Passed: true, Score: 1, Summary: "the state equals the expected one"}, nil
		}
		diff := cmp.Diff(want, got, append(slices.Clip(opts), redactedStrings())...)
		if diff == "" {
			return assert.Result{Summary: "the state differs from the expected one inside a secret, which a diff would show: no diff"}, nil
		}
		return assert.Result{Summary: fmt.Sprintf("the state differs from the expected one in %s", diffLines(diff)), Diff: diff}, nil
	}))
	return e
}

// diffLines counts the lines a go-cmp diff adds or removes: "2 lines".
func diffLines(diff string) string {
	n := 0
	for _, line := range strings.Split(diff, "\n") {
		if strings.HasPrefix(line, "-") || strings.HasPrefix(line, "+") {
			n++
		}
	}
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// redactedStrings is the go-cmp option that shows a string (or []byte)
// holding a secret redacted in a diff, whole: as the one redactor
// (internal/secret) cleans it. Other strings show as go-cmp shows them.
func redactedStrings() cmp.Option {
	text := func(v reflect.Value) (string, bool) {
		switch {
		case !v.IsValid():
			return "", false
		case v.Kind() == reflect.String:
			return v.String(), true
		case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8:
			return string(v.Bytes()), true
		}
		return "", false
	}
	secretIn := func(v reflect.Value) bool {
		s, ok := text(v)
		return ok && secret.Clean(s) != s
	}
	return cmp.FilterPath(func(p cmp.Path) bool {
		x, y := p.Last().Values()
		return secretIn(x) || secretIn(y)
	}, cmp.Transformer("redacted", func(v any) string {
		s, _ := text(reflect.ValueOf(v))
		return secret.Clean(s)
	}))
}
