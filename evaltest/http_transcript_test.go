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

// rec.Transcript() is the agent's transcript from its last model call, in
// record mode and in replay; with no model call the test stops, saying so.
func TestHTTPClientTranscript(t *testing.T) {
	isolate(t)
	t.Setenv("EVALKIT_MODE", "record")
	live := judgefake.NewTransport(judgefake.Reply{ToolCalls: []judgefake.ToolCall{{ID: "call_1", Name: "cancel_reservation", Args: `{"reservation_id": "Z7GOZK"}`}}})
	for _, mode := range []string{"record", ""} {
		t.Setenv("EVALKIT_MODE", mode)
		tb := runTB("TestAgent", func(tb testing.TB) {
			rec := evaltest.HTTPTransport(tb, live)
			_, err := post(rec.Client, agentBody)
			require.NoError(t, err)
			tr := rec.Transcript()
			require.Len(t, tr.Messages, 3, "system, user, the reply")
			calls := tr.ToolCalls()
			require.Len(t, calls, 1)
			assert.Equal(t, "cancel_reservation", calls[0].Name)
			assert.JSONEq(t, `{"reservation_id": "Z7GOZK"}`, string(calls[0].Args))
			evaltest.New(tb).Expect(tr).ToolArgs("cancel_reservation", map[string]any{"reservation_id": "Z7GOZK"})
		})
		assert.Empty(t, tb.errors, "mode %q", mode)
	}

	tb := runTB("TestNoCall", func(tb testing.TB) {
		evaltest.HTTPClient(tb).Transcript()
		t.Error("Transcript went on with no model call")
	})
	assert.Equal(t, []string{"HTTPClient(t).Transcript(): error: golden: no model call went through this client (0 exchanges; a model call is a POST to a path ending in /chat/completions, /responses or /messages)"}, tb.errors)
}

// APIKey: a placeholder in replay, the environment's key when recording,
// and a stop naming the variable when it is unset and the live API would
// be asked.
func TestAPIKey(t *testing.T) {
	isolate(t)
	t.Setenv("OPENAI_API_KEY", "sk-live-0123456789abcdef")
	tb := runTB("TestKey", func(tb testing.TB) {
		assert.Equal(t, "evalkit-replay-no-key", evaltest.APIKey(tb, "OPENAI_API_KEY"))
	})
	assert.Empty(t, tb.errors)
	t.Setenv("EVALKIT_MODE", "record")
	tb = runTB("TestKey", func(tb testing.TB) {
		assert.Equal(t, "sk-live-0123456789abcdef", evaltest.APIKey(tb, "OPENAI_API_KEY"))
	})
	assert.Empty(t, tb.errors)
	t.Setenv("OPENAI_API_KEY", "")
	tb = runTB("TestKey", func(tb testing.TB) {
		evaltest.APIKey(tb, "OPENAI_API_KEY")
		t.Error("APIKey went on with no key")
	})
	assert.Equal(t, []string{`APIKey(t, "OPENAI_API_KEY"): error: OPENAI_API_KEY is not set, and mode record asks the live API; set it, or replay (unset EVALKIT_MODE)
hint: recording against a local fake server (judgefake.NewServer), not the live API? Any value will do: OPENAI_API_KEY=fake EVALKIT_MODE=record go test …`}, tb.errors)
}

// Repeat's attempts each record and replay their own answers, even
// concurrent: the attempt is part of the key, and the recording's "test"
// field names it — given the attempt's TB, or its T as a testing.TB.
func TestHTTPClientRepeatAttempts(t *testing.T) {
	isolate(t)
	body := func(et *evaltest.T) string {
		var tb testing.TB = et.TB()
		if et.Attempt() == 2 {
			tb = et
		}
		rec := evaltest.HTTPTransport(tb, judgefake.NewTransport(judgefake.Text("answer "+strings.Repeat("I", et.Attempt()))))
		got, err := post(rec.Client, agentBody)
		require.NoError(t, err)
		return got
	}
	for _, mode := range []string{"record", ""} {
		t.Setenv("EVALKIT_MODE", mode)
		answers := make([]string, 4)
		tb := runTB("TestRepeat", func(tb testing.TB) {
			evaltest.New(tb).Repeat(3, func(et *evaltest.T) {
				answers[et.Attempt()] = body(et)
			}, evaltest.All(), evaltest.Concurrency(3))
		})
		assert.Empty(t, tb.errors, "mode %q", mode)
		for i := 1; i <= 3; i++ {
			assert.Contains(t, answers[i], "answer "+strings.Repeat("I", i), "mode %q attempt %d", mode, i)
		}
	}
	f, err := golden.LoadHTTP("testdata/evalkit/TestRepeat.http.json")
	require.NoError(t, err)
	var tests []string
	for _, in := range f.Interactions {
		tests = append(tests, in.Test)
	}
	assert.Equal(t, []string{"TestRepeat (attempt 1)", "TestRepeat (attempt 2)", "TestRepeat (attempt 3)"}, tests, "one interaction each, attempts in name order")
	require.NoError(t, golden.Verify("testdata/evalkit/TestRepeat.http.json"))
}
