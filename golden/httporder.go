package golden

import (
	"cmp"
	"slices"
	"strings"
)

// An HTTP recording lists its interactions test by test (by name), and
// each test's in the order the test made them, so a reviewer reads a
// re-record's diff as the agent's conversation, top to bottom, as
// go-vcr's cassettes read. The keys still index them: replay looks an
// interaction up by key and occurrence, wherever it is written. A test's
// calls made again alike are written in the same place, so re-recording
// them writes the same bytes; parallel subtests each keep their own order.

// WithTest names the test a Transport's requests belong to
// ("TestAgent", "TestAgent/refund"): its requests are keyed with it
// (Interaction.Test), and the Transports of one test count identical
// requests together until every one of them is closed, so sibling tests
// and repeated attempts sending one request each replay their own answers
// in order; its interactions are written in the order it made them, after
// those of the tests whose names sort before it (evaltest.HTTPClient gives
// the test's name). Without it, the Transport's requests belong to the
// test "", count on their own, and are written by key: Transports without
// a name have no order between them that a rerun keeps.
func WithTest(name string) Option { return func(s *store) { s.test = name } }

// callPos is where a request came in a run: its test, and its place
// among that test's requests, from 1.
type callPos struct {
	test string
	seq  int
}

// noteCall records that the Transport's test made the request id as its
// seq-th request. A test's latest Transport says where its requests go (a
// rerun, go test -count=2, may call otherwise); of two tests making one
// identical request, the one that sorts first keeps it, and a request
// written under a test moves only to one that sorts before it, so the
// order parallel tests ran in never moves it. st.mu is held.
func (st *httpStore) noteCall(id, test string, seq int) {
	if st.pos == nil {
		st.pos = map[string]callPos{}
	}
	if old, ok := st.pos[id]; ok && old.test < test {
		return
	}
	st.pos[id] = callPos{test: test, seq: seq}
	if in, have := st.entries[id]; have && in.Test != "" && test < in.Test {
		st.dirty = true // written under a test that sorts after this one
	}
}

// ordered sorts list as it is written: by test, then the interactions
// this run's test made in the order it made them, then the others in
// their order in the file (as read), then any more (another process's)
// by key; the test "" by key. An interaction belongs to the first test
// by name that made it, this run or when it was written. st.mu is held.
func (st *httpStore) ordered(list []Interaction) []Interaction {
	type rank struct {
		class, n int
	}
	ranks := make(map[string]rank, len(list))
	for i := range list {
		in := &list[i]
		id := in.ID()
		p, made := st.pos[id]
		if made && p.test != "" && (in.Test == "" || p.test < in.Test) {
			in.Test = p.test // of the tests that made it, the first by name, whichever asked first
		}
		switch idx, read := st.fileIdx[id]; {
		case in.Test == "":
			ranks[id] = rank{2, 0} // no test to order by: by key, whatever the run's order
		case made && p.test == in.Test:
			ranks[id] = rank{0, p.seq}
		case read:
			ranks[id] = rank{1, idx}
		default:
			ranks[id] = rank{2, 0}
		}
	}
	slices.SortFunc(list, func(a, b Interaction) int {
		ra, rb := ranks[a.ID()], ranks[b.ID()]
		return cmp.Or(strings.Compare(a.Test, b.Test), cmp.Compare(ra.class, rb.class), cmp.Compare(ra.n, rb.n),
			strings.Compare(a.Key, b.Key), cmp.Compare(a.Occurrence, b.Occurrence))
	})
	return list
}

// byTest groups interactions by test name, keeping each test's in the
// order given: how Marshal writes them.
func byTest(list []Interaction) {
	slices.SortStableFunc(list, func(a, b Interaction) int { return strings.Compare(a.Test, b.Test) })
}
