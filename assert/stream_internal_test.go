package assert

import (
	"strings"
	"testing"
)

// A stream keeps a bounded tail and bounded matcher state, however long
// the stream: chunks are read once, not re-scanned with the prefix.
func TestStreamStateIsBounded(t *testing.T) {
	text := strings.Repeat("Die Rückerstattung ist erfolgt, STRASSE e\u0301 \u200b\r\n", 20_000) // ~1 MB
	chunk := 7
	ex, err := ContentExcludes{Patterns: []string{"password", "straßenbahn"}, MatchWords: true}.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	re, err := Regex{Pattern: `(?i)pass\s*word|\b\d{3}-\d{2}-\d{4}\b`, NoMatch: true}.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	es, rs := ex.(*excludeStream), re.(*patternStream)
	maxWin, maxPend, maxThreads, maxTail := 0, 0, 0, 0
	for i := 0; i < len(text); i += chunk {
		c := text[i:min(i+chunk, len(text))]
		if ex.Feed(c) || re.Feed(c) {
			t.Fatalf("settled at %d", i)
		}
		maxWin = max(maxWin, len(es.win.b))
		maxPend = max(maxPend, len(es.pipe.raw.b)+len(es.pipe.lf.b)+len(es.pipe.canon.b), len(rs.pipe.raw.b)+len(rs.buf.b))
		maxThreads = max(maxThreads, len(rs.vm.arrived))
		maxTail = max(maxTail, len(es.tail.b), len(rs.tail.b))
	}
	if limit := len("straßenbahn") + 4 + 2*chunk; maxWin > limit {
		t.Errorf("window grew to %d bytes, want <= %d", maxWin, limit)
	}
	if maxPend > 16 {
		t.Errorf("pending input grew to %d bytes", maxPend)
	}
	if maxThreads > len(rs.vm.prog.Inst) {
		t.Errorf("%d threads for %d instructions", maxThreads, len(rs.vm.prog.Inst))
	}
	if maxTail > 2*tailKeep+chunk {
		t.Errorf("the kept tail grew to %d bytes", maxTail)
	}
	for _, s := range []Stream{ex, re} {
		if res, err := s.End(); err != nil || !res.Passed {
			t.Errorf("%+v %v", res, err)
		}
	}
}
