package golden_test

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

// contents lists, in file order, the test and the user message of each
// interaction of a recording.
func contents(t *testing.T, path string) []string {
	t.Helper()
	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	var out []string
	re := regexp.MustCompile(`"content":\s*"([^"]*)"`)
	for _, in := range f.Interactions {
		m := re.FindSubmatch(in.Request.Body)
		require.NotNil(t, m, "%s", in.Request.Body)
		out = append(out, in.Test+": "+string(m[1]))
	}
	return out
}

// An HTTP recording reads as the conversation: each test's interactions
// in the order it made them, tests by name, whatever order parallel
// subtests ran in; recording the same calls again writes the same bytes;
// a call added in the middle is written in its place.
func TestHTTPRecordingInCallOrder(t *testing.T) {
	path := httpPath(t)
	live, calls := echoLive()
	// Messages whose keys sort in no particular order.
	turns := []string{"zebra: book a flight", "alpha: to Paris", "mango: on Friday", "kiwi: yes, confirm"}
	run := func(mode golden.Mode, extra string) {
		t.Run(mode.String(), func(t *testing.T) {
			for _, name := range []string{"TestAgent/b", "TestAgent/a", "TestAgent/c"} {
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					tr, err := golden.NewTransport(path, live, golden.WithMode(mode), golden.WithTest(name))
					require.NoError(t, err)
					for i, turn := range turns {
						if i == 2 && extra != "" {
							status, _, err := chat(t, tr.Client(), "http://fake/v1/chat/completions", fmt.Sprintf(`{"model": "m", "messages": [{"role": "user", "content": %q}]}`, extra), nil)
							require.NoError(t, err)
							require.Equal(t, 200, status)
						}
						body := fmt.Sprintf(`{"model": "m", "messages": [{"role": "user", "content": %q}]}`, name+" "+turn)
						status, _, err := chat(t, tr.Client(), "http://fake/v1/chat/completions", body, nil)
						require.NoError(t, err)
						require.Equal(t, 200, status)
					}
					require.NoError(t, tr.Save())
				})
			}
		})
	}
	run(golden.ModeRecord, "")
	var want []string
	for _, name := range []string{"TestAgent/a", "TestAgent/b", "TestAgent/c"} {
		for _, turn := range turns {
			want = append(want, name+": "+name+" "+turn)
		}
	}
	assert.Equal(t, want, contents(t, path), "each test's calls in order, tests by name")
	first, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, golden.Verify(path))

	run(golden.ModeRefresh, "")
	second, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(second), "the same calls write the same bytes")

	run(golden.ModeRecord, "hold on")
	got := contents(t, path)
	require.Len(t, got, 13, "the three tests' identical new call is one interaction, the first test's")
	assert.Equal(t, []string{"TestAgent/a: TestAgent/a zebra: book a flight", "TestAgent/a: TestAgent/a alpha: to Paris", "TestAgent/a: hold on",
		"TestAgent/a: TestAgent/a mango: on Friday", "TestAgent/a: TestAgent/a kiwi: yes, confirm"}, got[:5], "a new call is written where it was made")
	assert.Equal(t, 25, calls(), "12 recorded, 12 refreshed, 1 new")
	require.NoError(t, golden.Verify(path))
}
