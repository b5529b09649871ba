package golden_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// Sibling tests sending identical requests each replay their own answers
// (the test is part of the key); two Transports of one test count
// together; closing a test's Transports starts its count again, as a
// -count run does.
func TestTransportTestsKeepTheirOwnAnswers(t *testing.T) {
	path := httpPath(t)
	live := judgefake.NewTransport(judgefake.Texts("a1", "a2", "b1", "b2")...)
	url := "https://api.openai.com/v1/chat/completions"
	for _, test := range []string{"TestAgent/a", "TestAgent/b"} {
		first, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord), golden.WithTest(test))
		require.NoError(t, err)
		second, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord), golden.WithTest(test))
		require.NoError(t, err)
		_, _, err = chat(t, first.Client(), url, chatBody, nil)
		require.NoError(t, err)
		_, _, err = chat(t, second.Client(), url, chatBody, nil)
		require.NoError(t, err)
		require.NoError(t, first.Save())
		require.NoError(t, first.Close())
		require.NoError(t, second.Close())
	}
	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	require.Len(t, f.Interactions, 4)
	tests := map[string][]int{}
	for _, in := range f.Interactions {
		tests[in.Test] = append(tests[in.Test], in.Occurrence)
	}
	assert.ElementsMatch(t, []int{1, 2}, tests["TestAgent/a"])
	assert.ElementsMatch(t, []int{1, 2}, tests["TestAgent/b"])

	for run := range 2 { // go test -count=2
		for _, test := range []string{"TestAgent/b", "TestAgent/a"} {
			first, err := golden.NewTransport(path, neverLive(t), golden.WithTest(test))
			require.NoError(t, err)
			second, err := golden.NewTransport(path, neverLive(t), golden.WithTest(test))
			require.NoError(t, err)
			_, got1, err := chat(t, first.Client(), url, chatBody, nil)
			require.NoError(t, err)
			_, got2, err := chat(t, second.Client(), url, chatBody, nil)
			require.NoError(t, err)
			prefix := test[len(test)-1:]
			assert.Equal(t, []string{prefix + "1", prefix + "2"}, []string{got1, got2}, "run %d", run)
			require.NoError(t, first.Close())
			require.NoError(t, second.Close())
		}
	}

	other, err := golden.NewTransport(path, neverLive(t), golden.WithTest("TestAgent/c"))
	require.NoError(t, err)
	_, _, err = chat(t, other.Client(), url, chatBody, nil)
	var nr *golden.NotRecordedError
	require.ErrorAs(t, err, &nr)
	require.NotEmpty(t, nr.Differs)
	assert.Equal(t, `test: now "TestAgent/c", recorded "TestAgent/a"`, nr.Differs[0].String())
}

// With WithMissResponses a replay miss is a 404 an SDK does not retry
// (X-Should-Retry: false), whose body both OpenAI's and Anthropic's SDKs
// read as an error message: the miss and the hint.
func TestTransportMissResponse(t *testing.T) {
	tr, err := golden.NewTransport(httpPath(t), neverLive(t), golden.WithMissResponses("hint: EVALKIT_MODE=record go test -run '^TestAgent$'"))
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, "https://api.anthropic.com/v1/messages", strings.NewReader(`{"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}`))
	require.NoError(t, err)
	resp, err := tr.RoundTrip(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, 404, resp.StatusCode)
	assert.Equal(t, "false", resp.Header.Get("X-Should-Retry"))
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var body struct {
		Type  string `json:"type"`
		Error struct {
			Type, Code, Message string
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(data, &body))
	assert.Equal(t, "error", body.Type)
	assert.Equal(t, "not_recorded", body.Error.Type)
	assert.Equal(t, "evalkit_not_recorded", body.Error.Code)
	assert.True(t, strings.HasPrefix(body.Error.Message, "golden: not recorded: "), body.Error.Message)
	assert.True(t, strings.HasSuffix(body.Error.Message, "\nhint: EVALKIT_MODE=record go test -run '^TestAgent$'"), body.Error.Message)
	require.Len(t, tr.Misses(), 1)
	assert.Equal(t, tr.Misses()[0].Key, resp.Header.Get("X-Evalkit-Not-Recorded"))
}
