package evaltest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// EVALKIT_RECORD_WHOLE=1 records a long answer whole, so an audit can ask
// about it again; by default the recording holds an excerpt. A value that
// is neither is an error, never silently one or the other.
func TestRecordWholeRequests(t *testing.T) {
	isolate(t)
	long := strings.Repeat("Your refund of $42 is on its way. ", 30)
	judge := func(et *evaltest.T) {
		et.Expect(chat(long)).Judge("Confirms the refund")
	}
	record := func(test, whole string) *testTB {
		t.Setenv("EVALKIT_RECORD_WHOLE", whole)
		return run(test, []evaltest.Option{evaltest.WithJudge(&liveJudge{fake: judgefake.Pass()}), evaltest.WithMode(golden.ModeRecord)}, judge)
	}
	for test, whole := range map[string]bool{"TestWhole": true, "TestExcerpt": false} {
		tb := record(test, map[bool]string{true: "1", false: ""}[whole])
		require.Empty(t, tb.errors)
		f, err := golden.Load("testdata/evalkit/" + test + ".judge.json")
		require.NoError(t, err)
		require.Len(t, f.Entries, 1)
		_, err = f.Entries[0].Rebuild()
		if whole {
			assert.NoError(t, err)
			assert.Equal(t, long, f.Entries[0].Request.Content)
		} else {
			assert.ErrorIs(t, err, golden.ErrExcerpt)
		}
	}
	tb := record("TestBadWhole", "yes")
	require.Len(t, tb.errors, 1)
	assert.Contains(t, tb.errors[0], `evaltest: EVALKIT_RECORD_WHOLE="yes": want 1 (record judge requests whole) or 0`)
}
