package golden_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// sample is one exchange of a recorded cassette: a request and its reply,
// unstreamed (testdata/api_samples) or streamed (testdata/api_streams).
type sample struct {
	Request struct {
		Method string          `json:"method"`
		URI    string          `json:"uri"`
		Body   json.RawMessage `json:"body"`
	} `json:"request"`
	Response struct {
		Status int             `json:"status"`
		Body   json.RawMessage `json:"body"`
		Stream string          `json:"stream"`
	} `json:"response"`
}

func loadSamples(t testing.TB, dir string) map[string][]sample {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", dir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	out := map[string][]sample{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var c struct {
			Interactions []sample `json:"interactions"`
		}
		require.NoError(t, json.Unmarshal(data, &c), f)
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = c.Interactions
	}
	return out
}

// serve is a live API answering each request with the next reply: a JSON
// body, or a stream when stream is set.
func serve(replies ...func() (body []byte, stream bool)) http.RoundTripper {
	next := 0
	return rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		body, stream := replies[next]()
		next++
		ct := "application/json"
		if stream {
			ct = "text/event-stream; charset=utf-8"
		}
		return &http.Response{
			StatusCode: 200, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Content-Type": {ct}}, Body: io.NopCloser(bytes.NewReader(body)), Request: r,
		}, nil
	})
}

// exchangeOnce posts body to uri through tr and reads the reply to its end.
func exchangeOnce(t *testing.T, tr http.RoundTripper, uri string, body []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, uri, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := tr.RoundTrip(req)
	require.NoError(t, err)
	_, err = io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, 200, resp.StatusCode)
}

// sameTranscript asserts two transcripts hold the same, JSON values (tool
// arguments, parameter schemas) compared as values: a recording writes a
// request's body as canonical JSON.
func sameTranscript(t *testing.T, want, got *evalkit.Transcript, msg any) {
	t.Helper()
	w, err := json.Marshal(want)
	require.NoError(t, err)
	g, err := json.Marshal(got)
	require.NoError(t, err)
	assert.JSONEq(t, string(w), string(g), "%v", msg)
}

// decodedExchange is the transcript a request and its unstreamed reply
// decode to, the request's messages then the reply's.
func decodedExchange(t *testing.T, req, resp []byte) *evalkit.Transcript {
	t.Helper()
	want, err := evalkit.Decode(req)
	require.NoError(t, err)
	reply, err := evalkit.Decode(resp)
	require.NoError(t, err)
	want.Messages = append(want.Messages, reply.Messages...)
	if len(want.Tools) == 0 {
		want.Tools = reply.Tools
	}
	return want
}

// For every recorded API exchange in testdata/api_samples (Chat
// Completions, Responses, Messages; parallel tool calls, tool results with
// is_error, a top-level system prompt), the transcript a Transport builds
// from the exchanges equals the request and response decoded — recorded,
// replayed and live, the reply unstreamed or streamed with its parts in
// random interleavings (ten seeds).
func TestTranscriptEqualsDecodedExchange(t *testing.T) {
	samples := loadSamples(t, "api_samples")
	for _, name := range slices.Sorted(maps.Keys(samples)) {
		for i, ex := range samples[name] {
			api := apiOf(t, ex.Request.URI)
			want := decodedExchange(t, ex.Request.Body, ex.Response.Body)
			for seed := range 11 {
				streamed := seed > 0
				t.Run(name+"/"+strconv.Itoa(i)+"/seed"+strconv.Itoa(seed), func(t *testing.T) {
					reply := func() ([]byte, bool) {
						if !streamed {
							return ex.Response.Body, false
						}
						return streamOf(t, api, ex.Response.Body, rand.New(rand.NewPCG(uint64(seed), 7))), true
					}
					path := httpPath(t)
					for _, mode := range []golden.Mode{golden.ModeRecord, golden.ModeReplay, golden.ModeLive} {
						live := serve(reply)
						if mode == golden.ModeReplay {
							live = neverLive(t)
						}
						tr, err := golden.NewTransport(path, live, golden.WithMode(mode), golden.WithTest(t.Name()))
						require.NoError(t, err)
						exchangeOnce(t, tr, ex.Request.URI, ex.Request.Body)
						got, err := tr.Transcript()
						require.NoError(t, err, mode)
						sameTranscript(t, want, got, mode)
						require.NoError(t, tr.Save())
						require.NoError(t, tr.Close())
					}
				})
			}
		}
	}
}

// The real recorded streams of testdata/api_streams assemble into the
// replies they stream: parallel tool calls (ids and names on the first
// delta only), text and tool calls in one reply, Anthropic's blocks with
// their padded JSON and empty input, a finish_reason sent before a last
// chunk whose finish_reason is null, SSE comments, usage in the last
// event. Where the next request sends the reply back, the tool calls it
// sends are the ones assembled.
func TestTranscriptFromRecordedStreams(t *testing.T) {
	type call struct{ ID, Name, Args string }
	type reply struct {
		Content string
		Calls   []call
		Finish  string
		Usage   evalkit.Usage
	}
	want := map[string][]reply{
		"anthropic_messages__text_stream": {{Content: "1\n2\n3\n4\n5", Finish: "stop", Usage: evalkit.Usage{InputTokens: 15, OutputTokens: 13}}},
		"anthropic_messages__tool_use_stream": {{
			Content: "I'll calculate the tip and get the waiter's name for you.",
			Calls: []call{
				{"toolu_01VsaoaKxpzdz8vgY4hTGjE3", "calculateTip", `{"billAmount":50,"tipPercentage":15}`},
				{"toolu_01Uksi8drJHeC8rCj8yVUtCJ", "getWaiterName", `{}`},
			},
			Finish: "tool_calls", Usage: evalkit.Usage{InputTokens: 679, OutputTokens: 111},
		}},
		"openai_chat_completions__openrouter_gemini_stream": {{
			Calls: []call{
				{"tool_getCurrentWeather_3lhCz5SSaZG604yaibNB", "getCurrentWeather", `{"location":"Boston, MA"}`},
				{"tool_getCurrentTime_ljJXl2E9hr87YwAgPI1B", "getCurrentTime", `{"location":"Boston, MA"}`},
			},
			Finish: "tool_calls", Usage: evalkit.Usage{InputTokens: 71, OutputTokens: 12},
		}},
		"openai_chat_completions__parallel_tool_calls_stream": {{
			Calls: []call{
				{"call_oStfjbrEyya6I2px3EzDuGVB", "getCurrentWeather", `{"location":"Boston, MA"}`},
				{"call_YZ4lwwqnfF0SkJgYRUhpJnn4", "getCurrentTime", `{"location":"Boston, MA"}`},
			},
			Finish: "tool_calls", Usage: evalkit.Usage{InputTokens: 121, OutputTokens: 50},
		}},
		"openai_chat_completions__tool_call_then_answer_stream": {
			{Calls: []call{{"call_ZR5UUuTt3pf61kjwAJIYdVMj", "get_capital", `{"country":"UK"}`}}, Finish: "tool_calls", Usage: evalkit.Usage{InputTokens: 53, OutputTokens: 15}},
			{Content: "The capital of the UK is London.", Finish: "stop", Usage: evalkit.Usage{InputTokens: 78, OutputTokens: 9}},
		},
	}
	samples := loadSamples(t, "api_streams")
	require.ElementsMatch(t, slices.Collect(maps.Keys(want)), slices.Collect(maps.Keys(samples)))
	view := func(t *testing.T, m evalkit.Message) reply {
		r := reply{Content: m.Content, Finish: m.FinishReason}
		if m.Usage != nil {
			r.Usage = evalkit.Usage{InputTokens: m.Usage.InputTokens, OutputTokens: m.Usage.OutputTokens}
		}
		for _, c := range m.ToolCalls {
			var b bytes.Buffer
			require.NoError(t, json.Compact(&b, c.Args))
			r.Calls = append(r.Calls, call{c.ID, c.Name, b.String()})
		}
		return r
	}
	for _, name := range slices.Sorted(maps.Keys(samples)) {
		t.Run(name, func(t *testing.T) {
			path := httpPath(t)
			exs := samples[name]
			for i, ex := range exs {
				tr, err := golden.NewTransport(path, serve(func() ([]byte, bool) { return []byte(ex.Response.Stream), true }), golden.WithMode(golden.ModeRecord))
				require.NoError(t, err)
				exchangeOnce(t, tr, ex.Request.URI, ex.Request.Body)
				got, err := tr.Transcript()
				require.NoError(t, err)
				last, ok := got.LastAssistant()
				require.True(t, ok)
				assert.Equal(t, want[name][i], view(t, last), "exchange %d", i)

				req, err := evalkit.Decode(ex.Request.Body)
				require.NoError(t, err)
				req.Messages = append(req.Messages, last)
				sameTranscript(t, req, got, "the request's messages come first, and its tools")
				if i+1 < len(exs) {
					next, err := evalkit.Decode(exs[i+1].Request.Body)
					require.NoError(t, err)
					sent, ok := next.LastAssistant()
					require.True(t, ok)
					assert.Equal(t, view(t, last).Calls, view(t, sent).Calls, "the next request sends the assembled calls back")
				}
				require.NoError(t, tr.Save())
			}
			require.NoError(t, golden.Verify(path))
		})
	}
}

// Parts of the real streams in another order an assembly by index must
// withstand — parallel calls' deltas interleaved, Anthropic's blocks
// interleaved — give the same reply; a stream cut anywhere before its end,
// an error event and deltas before their call or block are errors that
// say so.
func TestAssembleAdversarialOrders(t *testing.T) {
	samples := loadSamples(t, "api_streams")
	events := func(stream string) []string {
		var out []string
		for _, ev := range strings.SplitAfter(stream, "\n\n") {
			if ev != "" {
				out = append(out, ev)
			}
		}
		return out
	}
	t.Run("openai parallel deltas interleaved", func(t *testing.T) {
		ex := samples["openai_chat_completions__parallel_tool_calls_stream"][0]
		evs := events(ex.Response.Stream)
		require.Len(t, evs, 18)
		want, err := golden.AssembleStream("chat", []byte(ex.Response.Stream))
		require.NoError(t, err)
		// Events 1-7 are call 0's, 8-14 call 1's: deal them alternately,
		// call 1's first.
		var mixed []string
		mixed = append(mixed, evs[0])
		for k := 0; k < 7; k++ {
			mixed = append(mixed, evs[8+k], evs[1+k])
		}
		mixed = append(mixed, evs[15:]...)
		require.Equal(t, len(evs), len(mixed))
		got, err := golden.AssembleStream("chat", []byte(strings.Join(mixed, "")))
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got))

		// The arguments' first delta before the one with the call's id
		// and name: the call is whole all the same.
		reordered := slices.Concat(evs[:1], evs[2:3], evs[1:2], evs[3:])
		got, err = golden.AssembleStream("chat", []byte(strings.Join(reordered, "")))
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got))
		// A call whose name never came is an error.
		noName := strings.Replace(strings.Join(evs, ""), `"name":"getCurrentTime",`, "", 1)
		_, err = golden.AssembleStream("chat", []byte(noName))
		assert.EqualError(t, err, "choice 0's tool call 1 has no name: the stream never sent it")
	})
	t.Run("anthropic blocks interleaved", func(t *testing.T) {
		ex := samples["anthropic_messages__tool_use_stream"][0]
		evs := events(ex.Response.Stream)
		want, err := golden.AssembleStream("messages", []byte(ex.Response.Stream))
		require.NoError(t, err)
		// Block 1 is events 8-15, block 2 events 16-18: block 2 whole
		// between block 1's start and its deltas.
		require.Len(t, evs, 21)
		mixed := slices.Concat(evs[:9], evs[16:19], evs[9:16], evs[19:])
		require.Equal(t, len(evs), len(mixed))
		got, err := golden.AssembleStream("messages", []byte(strings.Join(mixed, "")))
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got))

		early := slices.Concat(evs[:8], evs[9:10], evs[8:9], evs[10:])
		_, err = golden.AssembleStream("messages", []byte(strings.Join(early, "")))
		assert.EqualError(t, err, "the stream's event 9: a delta for content block 1 before it starts")
		withErr := slices.Concat(evs[:5], []string{"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"}, evs[5:])
		_, err = golden.AssembleStream("messages", []byte(strings.Join(withErr, "")))
		assert.ErrorContains(t, err, "the stream's event 6: the API sent an error: overloaded_error Overloaded")
	})
	t.Run("cut anywhere", func(t *testing.T) {
		for _, name := range slices.Sorted(maps.Keys(samples)) {
			for _, ex := range samples[name] {
				api := apiOf(t, ex.Request.URI)
				evs := events(ex.Response.Stream)
				for n := range len(evs) - 1 {
					_, err := golden.AssembleStream(api, []byte(strings.Join(evs[:n], "")))
					require.Error(t, err, "%s cut after %d of %d events", name, n, len(evs))
				}
			}
		}
		_, err := golden.AssembleStream("chat", []byte(samples["openai_chat_completions__parallel_tool_calls_stream"][0].Response.Stream[:4000]))
		assert.ErrorContains(t, err, `the stream ended in the middle of its event 11: "data: {\"id\":`)
		assert.ErrorContains(t, err, "(cut off?)")
		_, err = golden.AssembleStream("messages", []byte(strings.Join(events(samples["anthropic_messages__text_stream"][0].Response.Stream)[:8], "")))
		assert.EqualError(t, err, "the stream ended before its end: no message_stop (cut off?)")
	})
}

// A Transcript's errors: no model call, a last call answered with an error
// status, a Responses call continuing one the client did not receive.
func TestTranscriptErrors(t *testing.T) {
	path := httpPath(t)
	tr, err := golden.NewTransport(path, serve(func() ([]byte, bool) { return []byte(`{"data":[{"embedding":[0.1]}]}`), false }), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = tr.Transcript()
	assert.ErrorIs(t, err, golden.ErrNoModelCall)
	exchangeOnce(t, tr, "https://api.openai.com/v1/embeddings", []byte(`{"model":"text-embedding-3-small","input":"hi"}`))
	_, err = tr.Transcript()
	assert.EqualError(t, err, "golden: no model call went through this client (1 exchange; a model call is a POST to a path ending in /chat/completions, /responses or /messages)")

	bad := rtFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 400, Status: "400 Bad Request", Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"error":{"message":"max_tokens is too large"}}`)), Request: r}, nil
	})
	tr, err = golden.NewTransport(httpPath(t), bad, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, "https://api.anthropic.com/v1/messages", strings.NewReader(`{"model":"claude","max_tokens":9999999,"messages":[{"role":"user","content":"hi"}]}`))
	require.NoError(t, err)
	resp, err := tr.RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	_, err = tr.Transcript()
	assert.EqualError(t, err, `golden: the transcript of the last model call (POST /v1/messages): it was answered 400 Bad Request: {"error":{"message":"max_tokens is too large"}}`)

	tr, err = golden.NewTransport(httpPath(t), serve(func() ([]byte, bool) {
		return []byte(`{"id":"resp_2","object":"response","status":"completed","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Yes."}]}]}`), false
	}), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	exchangeOnce(t, tr, "https://api.openai.com/v1/responses", []byte(`{"model":"gpt-4.1","previous_response_id":"resp_1","input":"Sure?"}`))
	_, err = tr.Transcript()
	assert.EqualError(t, err, `golden: the transcript of the last model call (POST /v1/responses): it continues response "resp_1" (previous_response_id), which this client did not receive`)
}

// A Responses conversation kept by the server (previous_response_id): the
// transcript is the calls it continues, then the last, the instructions
// sent again with each call once.
func TestTranscriptResponsesChain(t *testing.T) {
	first := `{"id":"resp_1","object":"response","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_capital","arguments":"{\"country\":\"France\"}"}],"usage":{"input_tokens":20,"output_tokens":5}}`
	second := `{"id":"resp_2","object":"response","status":"completed","output":[{"type":"message","id":"msg_2","role":"assistant","content":[{"type":"output_text","text":"Paris."}]}],"usage":{"input_tokens":30,"output_tokens":2}}`
	replies := []string{first, second}
	n := 0
	tr, err := golden.NewTransport(httpPath(t), serve(
		func() ([]byte, bool) { n++; return []byte(replies[n-1]), false },
		func() ([]byte, bool) { n++; return []byte(replies[n-1]), false },
	), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	tools := `[{"type":"function","name":"get_capital","parameters":{"type":"object","properties":{"country":{"type":"string"}}}}]`
	exchangeOnce(t, tr, "https://api.openai.com/v1/responses", []byte(`{"model":"gpt-4.1","instructions":"Be brief.","tools":`+tools+`,"input":"Capital of France?"}`))
	exchangeOnce(t, tr, "https://api.openai.com/v1/responses", []byte(`{"model":"gpt-4.1","instructions":"Be brief.","tools":`+tools+`,"previous_response_id":"resp_1","input":[{"type":"function_call_output","call_id":"call_1","output":"Paris"}]}`))
	got, err := tr.Transcript()
	require.NoError(t, err)
	var roles []string
	for _, m := range got.Messages {
		roles = append(roles, string(m.Role))
	}
	assert.Equal(t, []string{"system", "user", "assistant", "tool", "assistant"}, roles)
	calls := got.ToolCalls()
	require.Len(t, calls, 1)
	require.NotNil(t, calls[0].Result)
	assert.Equal(t, "Paris", calls[0].Result.Content)
	assert.Equal(t, "Paris.", got.AssistantText())
	require.Len(t, got.Tools, 1)
}

// judgefake's streams, through a real socket and in memory, give the
// transcript its whole responses give, for the three APIs: text, parallel
// tool calls, both in one reply.
func TestTranscriptOfJudgefakeStreams(t *testing.T) {
	replies := []judgefake.Reply{
		{Text: "The capital of the UK is London.", InputTokens: 12, OutputTokens: 8},
		{Text: "Checking both.", ToolCalls: []judgefake.ToolCall{{ID: "call_a", Name: "get_weather", Args: `{"city": "Boston"}`}, {ID: "call_b", Name: "get_time", Args: `{"city":"Boston"}`}}},
	}
	requests := map[string]string{
		"https://api.openai.com/v1/chat/completions": `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}},{"type":"function","function":{"name":"get_time","parameters":{"type":"object"}}}]%s}`,
		"https://api.openai.com/v1/responses":        `{"model":"gpt-4.1","instructions":"Be brief.","input":"hi","tools":[{"type":"function","name":"get_weather","parameters":{"type":"object"}},{"type":"function","name":"get_time","parameters":{"type":"object"}}]%s}`,
		"https://api.anthropic.com/v1/messages":      `{"model":"claude-sonnet-4-5","max_tokens":100,"system":"Be brief.","messages":[{"role":"user","content":"hi"}],"tools":[{"name":"get_weather","input_schema":{"type":"object"}},{"name":"get_time","input_schema":{"type":"object"}}]%s}`,
	}
	for _, uri := range slices.Sorted(maps.Keys(requests)) {
		for i := range replies {
			t.Run(apiOf(t, uri)+"/"+strconv.Itoa(i), func(t *testing.T) {
				transcript := func(live http.RoundTripper, stream bool) *evalkit.Transcript {
					tr, err := golden.NewTransport(httpPath(t), live, golden.WithMode(golden.ModeLive))
					require.NoError(t, err)
					extra := ""
					if stream {
						extra = `,"stream":true,"stream_options":{"include_usage":true}`
					}
					req, err := http.NewRequest(http.MethodPost, uri, strings.NewReader(fmt.Sprintf(requests[uri], extra)))
					require.NoError(t, err)
					req.Header.Set("anthropic-version", "2023-06-01")
					resp, err := tr.RoundTrip(req)
					require.NoError(t, err)
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					got, err := tr.Transcript()
					require.NoError(t, err)
					return got
				}
				whole := transcript(judgefake.NewTransport(replies[i]), false)
				srv := judgefake.NewServer(replies[i])
				defer srv.Close()
				socket := rtFunc(func(r *http.Request) (*http.Response, error) {
					r2 := r.Clone(r.Context())
					r2.URL.Scheme, r2.URL.Host, r2.Host = "http", strings.TrimPrefix(srv.URL, "http://"), ""
					return http.DefaultTransport.RoundTrip(r2)
				})
				sameTranscript(t, whole, transcript(socket, true), "streamed through a socket")
				sameTranscript(t, whole, transcript(judgefake.NewTransport(replies[i]), true), "streamed in memory")
				require.NoError(t, srv.Err())
				if i == 1 {
					calls := whole.ToolCalls()
					require.Len(t, calls, 2)
					assert.Equal(t, "Checking both.", whole.AssistantText())
				}
			})
		}
	}
}
