package sdktest

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// Recording here asks judgefake servers standing for the live APIs, so
// any key does; replay asks nothing and needs none (evaltest.APIKey).
func TestMain(m *testing.M) {
	if mode := os.Getenv("EVALKIT_MODE"); mode != "" && mode != "replay" {
		for _, env := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY"} {
			if os.Getenv(env) == "" {
				os.Setenv(env, "sk-judgefake-stands-for-the-api")
			}
		}
	}
	os.Exit(m.Run())
}

// fakeAPI returns, outside replay, a live transport that sends each
// request to a judgefake server answering replies: the server stands for
// the API at the URL the SDK calls, so the recording is keyed as a real
// one would be. In replay it returns nil: nothing is sent.
func fakeAPI(t *testing.T, replies ...judgefake.Reply) http.RoundTripper {
	t.Helper()
	mode, err := evaltest.Mode()
	require.NoError(t, err)
	if mode == golden.ModeReplay {
		return nil
	}
	srv := judgefake.NewServer(replies...)
	t.Cleanup(func() {
		srv.Close()
		assert.NoError(t, srv.Err(), "the agent asked the API what the script did not hold")
	})
	host := strings.TrimPrefix(srv.URL, "http://")
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host, r.Host = "http", host, ""
		return http.DefaultTransport.RoundTrip(r)
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// script is what the model answers: a call of the tool for Paris, then the
// answer, its temperature the sibling's own.
func script(temperature string) []judgefake.Reply {
	return []judgefake.Reply{
		{ToolCalls: []judgefake.ToolCall{{Name: "get_weather", Args: `{"city":"Paris"}`}}, InputTokens: 40, OutputTokens: 12},
		{Text: "It is " + temperature + "°C and sunny in Paris.", InputTokens: 60, OutputTokens: 10},
	}
}

const question = "What is the weather in Paris?"

// agent runs one SDK's agent with the test's recording client.
type agent func(t *testing.T, rec *evaltest.HTTPRecording, stream bool) (string, error)

// eachWay runs the agent streamed and not, in two sibling subtests that
// send identical requests: each replays its own answers, and the
// transcript evalkit builds from the captured traffic holds the call, its
// arguments and the answer.
func eachWay(t *testing.T, run agent) {
	for _, stream := range []bool{false, true} {
		name := "whole"
		if stream {
			name = "streamed"
		}
		t.Run(name, func(t *testing.T) {
			for _, sibling := range []struct{ name, temperature string }{{"first", "22"}, {"second", "18"}} {
				t.Run(sibling.name, func(t *testing.T) {
					rec := evaltest.HTTPTransport(t, fakeAPI(t, script(sibling.temperature)...))
					answer, err := run(t, rec, stream)
					require.NoError(t, err)
					assert.Equal(t, "It is "+sibling.temperature+"°C and sunny in Paris.", answer, "the sibling's own answer")
					tr := rec.Transcript()
					evaltest.New(t).Expect(tr).
						ToolsCalled("get_weather").
						ToolArgs("get_weather", map[string]any{"city": "Paris"}).
						ToolResultIncludes("get_weather", "sunny in Paris").
						Contains(sibling.temperature + "°C")
					assert.Equal(t, question, tr.Messages[0].Content)
				})
			}
		})
	}
}

func TestOpenAIGoChat(t *testing.T) {
	eachWay(t, func(t *testing.T, rec *evaltest.HTTPRecording, stream bool) (string, error) {
		return OpenAIChat(t.Context(), NewOpenAI(evaltest.APIKey(t, "OPENAI_API_KEY"), rec), question, stream)
	})
}

func TestOpenAIGoResponses(t *testing.T) {
	eachWay(t, func(t *testing.T, rec *evaltest.HTTPRecording, stream bool) (string, error) {
		return OpenAIResponses(t.Context(), NewOpenAI(evaltest.APIKey(t, "OPENAI_API_KEY"), rec), question, stream)
	})
}

func TestAnthropicSDK(t *testing.T) {
	eachWay(t, func(t *testing.T, rec *evaltest.HTTPRecording, stream bool) (string, error) {
		return Anthropic(t.Context(), NewAnthropic(evaltest.APIKey(t, "ANTHROPIC_API_KEY"), rec), question, stream)
	})
}

func TestGoOpenAI(t *testing.T) {
	eachWay(t, func(t *testing.T, rec *evaltest.HTTPRecording, stream bool) (string, error) {
		return GoOpenAI(t.Context(), NewGoOpenAI(evaltest.APIKey(t, "OPENAI_API_KEY"), rec), question, stream)
	})
}

func TestLangChainOpenAI(t *testing.T) {
	eachWay(t, func(t *testing.T, rec *evaltest.HTTPRecording, stream bool) (string, error) {
		m, err := NewLangChainOpenAI(evaltest.APIKey(t, "OPENAI_API_KEY"), rec)
		require.NoError(t, err)
		return LangChain(t.Context(), m, question, stream)
	})
}

func TestLangChainAnthropic(t *testing.T) {
	eachWay(t, func(t *testing.T, rec *evaltest.HTTPRecording, stream bool) (string, error) {
		m, err := NewLangChainAnthropic(evaltest.APIKey(t, "ANTHROPIC_API_KEY"), rec)
		require.NoError(t, err)
		return LangChain(t.Context(), m, question, stream)
	})
}

// An SDK's retries after a 500 and a 429 (openai-go and anthropic-sdk-go
// retry both) leave only the answer in the recording: replay neither
// fails nor backs off.
func TestRetriesAreNotRecorded(t *testing.T) {
	for _, sdk := range []string{"openai-go", "anthropic-sdk-go"} {
		t.Run(sdk, func(t *testing.T) {
			replies := append([]judgefake.Reply{judgefake.Status(500), judgefake.RateLimited(time.Second)}, script("20")...)
			rec := evaltest.HTTPTransport(t, fakeAPI(t, replies...))
			start := time.Now()
			var answer string
			var err error
			if sdk == "openai-go" {
				answer, err = OpenAIChat(t.Context(), NewOpenAI(evaltest.APIKey(t, "OPENAI_API_KEY"), rec), question, false)
			} else {
				answer, err = Anthropic(t.Context(), NewAnthropic(evaltest.APIKey(t, "ANTHROPIC_API_KEY"), rec), question, false)
			}
			require.NoError(t, err)
			assert.Equal(t, "It is 20°C and sunny in Paris.", answer)
			if mode, _ := evaltest.Mode(); mode == golden.ModeReplay {
				assert.Less(t, time.Since(start), 500*time.Millisecond, "replay waits for no back-off")
			}
		})
	}
	t.Cleanup(func() {
		f, err := golden.LoadHTTP("testdata/evalkit/TestRetriesAreNotRecorded.http.json")
		if err != nil {
			return // written after this cleanup in record mode; checked by the next run
		}
		for _, in := range f.Interactions {
			assert.Less(t, in.Response.Status, 400, "%s #%d: a failure an answer followed is recorded", in.Test, in.Occurrence)
		}
		assert.Len(t, f.Interactions, 4, "two SDKs, two calls each")
	})
}

// A replay miss reaches openai-go and anthropic-sdk-go as a 404 they do
// not retry: one request, at once, with the miss in the SDK's error.
func TestReplayMissIsNotRetried(t *testing.T) {
	for _, sdk := range []string{"openai-go", "anthropic-sdk-go"} {
		t.Run(sdk, func(t *testing.T) {
			tr, err := golden.NewTransport(t.TempDir()+"/none.http.json", nil, golden.WithMissResponses("hint: record it"))
			require.NoError(t, err)
			client := &http.Client{Transport: tr}
			attempts := 0
			count := func(r *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
				attempts++
				return next(r)
			}
			start := time.Now()
			ctx := context.Background()
			if sdk == "openai-go" {
				_, err = OpenAIChat(ctx, NewOpenAI("evalkit-replay-no-key", client, openaioption.WithMiddleware(count)), question, false)
			} else {
				_, err = Anthropic(ctx, NewAnthropic("evalkit-replay-no-key", client, anthropicoption.WithMiddleware(count)), question, false)
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), "404")
			msg := err.Error()
			var apiErr *openai.Error
			if errors.As(err, &apiErr) {
				msg = apiErr.Message // openai-go keeps the body's message out of Error()
			}
			assert.Contains(t, msg, "golden: not recorded")
			assert.Equal(t, 1, attempts, "the miss is not retried")
			assert.Less(t, time.Since(start), 500*time.Millisecond)
			assert.Len(t, tr.Misses(), 1)
		})
	}
}
