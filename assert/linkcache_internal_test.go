package assert

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/evalkit-go/evalkit"
)

// randomRun is a transcript of calls and results with ids reused, missing
// and unknown, as linking meets them in real runs.
func randomRun(r *rand.Rand) []evalkit.Message {
	var msgs []evalkit.Message
	for range 1 + r.IntN(12) {
		switch r.IntN(4) {
		case 0:
			msgs = append(msgs, evalkit.Message{Role: evalkit.RoleUser, Content: "hi"})
		case 1, 2:
			m := evalkit.Message{Role: evalkit.RoleAssistant}
			for range r.IntN(3) {
				m.ToolCalls = append(m.ToolCalls, evalkit.ToolCall{ID: fmt.Sprint("c", r.IntN(3)), Name: fmt.Sprint("t", r.IntN(3)), Args: []byte(`{"a":1}`)})
			}
			msgs = append(msgs, m)
		default:
			msgs = append(msgs, evalkit.Message{Role: evalkit.RoleTool, ToolCallID: fmt.Sprint("c", r.IntN(4)), Content: "ok"})
		}
	}
	return msgs
}

// mutate changes one thing linking reads, in place, and returns the
// messages (a new slice header when their number changed).
func mutate(r *rand.Rand, msgs []evalkit.Message) []evalkit.Message {
	k := r.IntN(len(msgs))
	m := &msgs[k]
	switch r.IntN(11) {
	case 0:
		m.Role = []evalkit.Role{evalkit.RoleUser, evalkit.RoleAssistant, evalkit.RoleTool}[r.IntN(3)]
	case 1:
		m.ToolCallID = fmt.Sprint("c", r.IntN(4))
	case 2:
		m.Name = fmt.Sprint("n", r.IntN(2))
	case 3:
		m.Content = fmt.Sprint("Error: ", r.IntN(2))
	case 4:
		m.IsError = !m.IsError
	case 5:
		m.Parts = append(m.Parts, evalkit.Part{Type: "image", URL: "u"})
	case 6:
		if len(m.ToolCalls) > 0 {
			m.ToolCalls[0].Name = fmt.Sprint("t", r.IntN(4))
		}
	case 7:
		if len(m.ToolCalls) > 0 {
			m.ToolCalls[0].ID = fmt.Sprint("c", r.IntN(4))
		}
	case 8:
		if len(m.ToolCalls) > 0 && len(m.ToolCalls[0].Args) > 0 {
			m.ToolCalls[0].Args[len(m.ToolCalls[0].Args)-2] = byte('0' + r.IntN(10)) // in place
		} else if len(m.ToolCalls) > 0 {
			m.ToolCalls[0].Args = []byte(`{}`)
		}
	case 9:
		return append(msgs, evalkit.Message{Role: evalkit.RoleTool, ToolCallID: "c1", Content: "late"})
	default:
		if len(msgs) > 1 {
			msgs[0], msgs[len(msgs)-1] = msgs[len(msgs)-1], msgs[0]
		}
	}
	return msgs
}

// TestLinkCacheAsLinking: whatever is changed in a transcript between two
// checks, the calls and orphans the tool checks read are what linking the
// messages afresh gives.
func TestLinkCacheAsLinking(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		msgs := randomRun(r)
		for range 8 {
			for _, offset := range []int{0, 3} {
				fresh := evalkit.Turn{Start: offset, Messages: msgs}
				l := linked(msgs, offset)
				if got, want := l.calls, fresh.ToolCalls(); !reflect.DeepEqual(got, want) {
					t.Fatalf("calls:\n%#v\nlinked afresh:\n%#v\nmessages: %#v", got, want, msgs)
				}
				if got, want := l.orphanResults(), fresh.OrphanResults(); !reflect.DeepEqual(got, want) {
					t.Fatalf("orphans:\n%#v\nlinked afresh:\n%#v\nmessages: %#v", got, want, msgs)
				}
			}
			msgs = mutate(r, msgs)
		}
	}
}

// TestLinkCacheShared: the checks of one unchanged transcript link it once.
func TestLinkCacheShared(t *testing.T) {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "f", Args: []byte(`{"a":1}`)}}},
		{Role: evalkit.RoleTool, ToolCallID: "1", Content: "Error: no"},
	}}
	first := linked(tr.Messages, 0)
	if again := linked(tr.Messages, 0); again != first {
		t.Fatal("the same messages were linked again")
	}
	tr.Messages[1].Content = "fine"
	changed := linked(tr.Messages, 0)
	if changed == first || changed.calls[0].Result.Content != "fine" {
		t.Fatalf("a changed result was not linked again: %+v", changed.calls[0].Result)
	}
	res, err := NoToolErrors{ErrorPattern: "^Error"}.Check(context.Background(), tr)
	if err != nil || !res.Passed {
		t.Fatalf("no_tool_errors on the changed transcript: %+v %v", res, err)
	}
	tr.Messages[1].Content = "Error: again"
	if res, err := (NoToolErrors{ErrorPattern: "^Error"}).Check(context.Background(), tr); err != nil || res.Passed {
		t.Fatalf("no_tool_errors after the result changed back: %+v %v", res, err)
	}
}

// TestLinkCacheConcurrent: checks of shared and separate transcripts in
// parallel (run under -race by make race).
func TestLinkCacheConcurrent(t *testing.T) {
	shared := &evalkit.Transcript{Messages: randomRun(rand.New(rand.NewPCG(3, 4)))}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 9))
			for range 200 {
				own := &evalkit.Transcript{Messages: randomRun(r)}
				for _, tr := range []*evalkit.Transcript{shared, own} {
					if got, want := linked(tr.Messages, 0).calls, tr.ToolCalls(); !reflect.DeepEqual(got, want) {
						t.Errorf("calls differ from linking afresh")
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
