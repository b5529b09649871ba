package evalkit

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLinkCallsWithoutTheMap checks that linking by looking back through
// the calls (few calls) pairs every result as the map of unanswered calls
// does, on random runs with reused, unknown and missing ids.
func TestLinkCallsWithoutTheMap(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	ids := []string{"", "", "a", "b", "c", "zz"}
	for range 20000 {
		var msgs []Message
		for range r.IntN(16) {
			switch r.IntN(3) {
			case 0:
				m := Message{Role: RoleAssistant}
				for range r.IntN(3) {
					m.ToolCalls = append(m.ToolCalls, ToolCall{ID: ids[r.IntN(len(ids))], Name: "t" + strconv.Itoa(r.IntN(3))})
				}
				msgs = append(msgs, m)
			case 1:
				msgs = append(msgs, Message{Role: RoleTool, ToolCallID: ids[r.IntN(len(ids))], Content: strconv.Itoa(len(msgs))})
			default:
				msgs = append(msgs, Message{Role: RoleUser, Content: "u"})
			}
		}
		wantCalls, wantOrphans := linkCalls(msgs, 3, -1) // always the map
		gotCalls, gotOrphans := linkCalls(msgs, 3, 1<<30)
		require.Equal(t, wantCalls, gotCalls, "%+v", msgs)
		require.Equal(t, wantOrphans, gotOrphans, "%+v", msgs)
	}
}
