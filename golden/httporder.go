package golden

import (
	"cmp"
	"slices"
	"strings"
)

// An HTTP recording lists its interactions test by test, in name order
// (the tests' names compared byte by byte: "" — Transports given no test
// — first, then "TestAgent", "TestAgent (attempt 2)", "TestAgent/refund"),
// and each test's in the order the test made them, counted across all its
// Transports, so a reviewer reads a re-record's diff as the agent's
// conversation, top to bottom, as go-vcr's cassettes read. The test is
// part of the key, so an interaction belongs to one test only; the keys
// still index them: replay looks an interaction up by key and occurrence,
// wherever it is written. A test's calls made again alike are written in
// the same place, so re-recording them writes the same bytes; parallel
// subtests each keep their own order. Interactions of no test have no
// call order a rerun keeps, and are written by key. DecodeHTTP reads any
// order; Verify asks for this grouping (see verifyHTTP).

// WithTest names the test a Transport's requests belong to
// ("TestAgent", "TestAgent/refund"): its requests are keyed with it
// (Interaction.Test), and the Transports of one test count its requests
// together until every one of them is closed, so sibling tests and
// repeated attempts sending one request each replay their own answers in
// order; its interactions are written in the order it made them, through
// any of its Transports, after those of the tests whose names sort before
// it (evaltest.HTTPClient gives the test's name, and a Repeat attempt's
// number: "TestAgent (attempt 2)"). Without it, the Transport's requests belong to the
// test "", count on their own, and are written by key: Transports without
// a name have no order between them that a rerun keeps.
func WithTest(name string) Option { return func(s *store) { s.test = name } }

// noteCall records that the request id was its test's seq-th request
// this run: where the file will list it. A test's latest Transport says
// where its requests go (a rerun, go test -count=2, may call otherwise).
// A place that changed makes a record run write the file again (when its
// bytes differ), because another test's Save may have written this test's
// interactions while it was still making its calls, in an order it had
// not finished. st.mu is held.
func (st *httpStore) noteCall(id string, seq int) {
	if st.pos == nil {
		st.pos = map[string]int{}
	}
	if old, ok := st.pos[id]; !ok || old != seq {
		st.pos[id] = seq
		if _, recorded := st.entries[id]; recorded { // a new one makes the file dirty when it is
			st.moved = true
		}
	}
}

// ordered sorts list as it is written: by test, then the interactions
// this run's test made in the order it made them, then the others in
// their order in the file (as read), then any more (another process's)
// by key; the test "" by key. st.mu is held.
func (st *httpStore) ordered(list []Interaction) []Interaction {
	type rank struct {
		class, n int
	}
	ranks := make(map[string]rank, len(list))
	for _, in := range list {
		id := in.ID()
		seq, made := st.pos[id]
		idx, read := st.fileIdx[id]
		switch {
		case in.Test == "":
			ranks[id] = rank{2, 0} // no test to order by: by key, whatever the run's order
		case made:
			ranks[id] = rank{0, seq}
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
