package anthropicjudge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/anthropicjudge"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// Recognizable credentials, one per place a judge holds one: no six bytes
// of any of them occur in a message by chance.
var leaks = map[string]string{
	"API key":         "sk-ant-LEAKAPI-q7Zp9Wv3Xy5Tb2Nm",
	"gateway header":  "gw-LEAKGWY-s9Xr1Yv5Aa7Vd4Qo",
	"subscription":    "az-LEAKSUB-r8Yq0Xw4Zz6Uc3Pn",
	"query parameter": "qs-LEAKQRY-t0Ws2Zu6Bb8We5Rp",
	"URL password":    "pw-LEAKPWD-u1Vt3Av7Cc9Xf6Sq",
}

func allLeaks() string {
	var all []string
	for _, k := range leaks {
		all = append(all, k)
	}
	return strings.Join(all, " ")
}

// assertNoLeak fails if s holds any six consecutive bytes of a credential.
func assertNoLeak(t *testing.T, s, where string) {
	t.Helper()
	for name, key := range leaks {
		for i := 0; i+6 <= len(key); i++ {
			if strings.Contains(s, key[i:i+6]) {
				t.Errorf("%s: holds %q, part of the %s: %s", where, key[i:i+6], name, s)
				return
			}
		}
	}
}

var leakyBase = "http://user:" + leaks["URL password"] + "@judge.test/?token=" + leaks["query parameter"]

func leakyJudge(client *http.Client) *anthropicjudge.Judge {
	return anthropicjudge.New(
		anthropicjudge.WithBaseURL(leakyBase),
		anthropicjudge.WithAPIKey(leaks["API key"]),
		anthropicjudge.WithHeader("Helicone-Auth", "Bearer "+leaks["gateway header"]),
		anthropicjudge.WithHeader("Ocp-Apim-Subscription-Key", leaks["subscription"]),
		anthropicjudge.WithMaxRetries(0),
		anthropicjudge.WithHTTPClient(client),
	)
}

func message(model, stop string, blocks ...string) string {
	m, _ := json.Marshal(model)
	return fmt.Sprintf(`{"type": "message", "model": %s, "content": [%s], "stop_reason": %q}`, m, strings.Join(blocks, ","), stop)
}

func textBlock(s string) string {
	b, _ := json.Marshal(s)
	return `{"type": "text", "text": ` + string(b) + `}`
}

// TestAnthropicjudgeNoCredentialInAnyError: a battery of faulty servers
// that echo the judge's credentials, in every way a reply can, and of bad
// configurations; no error, and no verdict, holds any part of one.
func TestAnthropicjudgeNoCredentialInAnyError(t *testing.T) {
	all := allLeaks()
	pad := strings.Repeat("x", judgehttp.MaxMessage-10)
	type served struct {
		status int
		header http.Header
		body   string
		err    error
	}
	cases := map[string]served{
		"401 echoing the credentials": {status: 401, body: `{"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key ` + all + `"}}`},
		"plain-text 529":              {status: 529, body: "overloaded " + all},
		"400 naming the temperature":  {status: 400, body: `{"type": "error", "error": {"message": "temperature ` + all + `"}}`},
		"model echo, no verdict":      {status: 200, body: message(all, "end_turn", textBlock("not a verdict"))},
		"text echo, no verdict":       {status: 200, body: message("m", "end_turn", textBlock("your keys are "+all))},
		"tool input echo, no verdict": {status: 200, body: message("m", "tool_use", `{"type": "tool_use", "name": "evalkit_verdict", "input": {"reasoning": "`+all+`"}}`)},
		"cut off":                     {status: 200, body: message(all, "max_tokens", textBlock(`{"reasoning": "`+all))},
		"refusal":                     {status: 200, body: message(all, "refusal", textBlock(all))},
		"not a message":               {status: 200, body: `{"model": "` + all + `"}`},
		"no such host":                {err: &net.DNSError{Err: "no such host", Name: "judge.test", IsNotFound: true}},
		"connection refused, text":    {err: fmt.Errorf("dial %s: connection refused", all)},
		"redirect":                    {status: 308, header: http.Header{"Location": {"https://user:" + leaks["API key"] + "@evil.test/x?key=" + leaks["API key"]}}},
	}
	for name, key := range leaks {
		cases["401 cut at the bound: "+name] = served{status: 401, body: `{"type": "error", "error": {"message": "` + pad + ` ` + key + `"}}`}
		cases["500 cut at the bound: "+name] = served{status: 500, body: pad + " " + key}
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
				if c.err != nil {
					return nil, c.err
				}
				h := c.header
				if h == nil {
					h = http.Header{}
				}
				return &http.Response{StatusCode: c.status, Header: h, Body: io.NopCloser(strings.NewReader(c.body)), Request: r}, nil
			})}
			v, err := leakyJudge(client).Judge(context.Background(), refundRequest)
			require.Error(t, err)
			assertNoLeak(t, err.Error(), "error")
			assertNoLeak(t, fmt.Sprintf("%+v", v), "verdict")
		})
	}
}

// TestAnthropicjudgeNoCredentialInAVerdict: a reply that echoes the
// credentials in the model's name and the tool's input still judges, and
// the verdict holds none of them.
func TestAnthropicjudgeNoCredentialInAVerdict(t *testing.T) {
	all := allLeaks()
	reply := message(all, "tool_use", `{"type": "tool_use", "name": "evalkit_verdict", "input": {"reasoning": "States $42. `+all+`", "score": 8, "notes": ["`+all+`"]}}`)
	client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(reply))}, nil
	})}
	v, err := leakyJudge(client).Judge(context.Background(), refundRequest)
	require.NoError(t, err)
	assert.Equal(t, 8.0, v.RawScore)
	dump, err := json.Marshal(v)
	require.NoError(t, err)
	assertNoLeak(t, string(dump), "verdict")
	assert.True(t, strings.HasPrefix(v.Reasoning, "States $42. [redacted:"), v.Reasoning)
}

// TestAnthropicjudgeNoCredentialInConfigErrors: configurations that fail
// before any request never print the URL's credentials.
func TestAnthropicjudgeNoCredentialInConfigErrors(t *testing.T) {
	key, pw := leaks["query parameter"], leaks["URL password"]
	tests := []struct {
		base string
		err  string
	}{
		{"http://u:" + pw + "@h\x7f/?token=" + key, `anthropicjudge: the base URL does not parse (it is not shown, as it may hold a credential): net/url: invalid control character in URL`},
		{"ftp://u:" + pw + "@h/?token=" + key, `anthropicjudge: base URL "ftp://[redacted]@h/?token=[redacted]": want an http:// or https:// URL with a host`},
	}
	for _, tt := range tests {
		_, err := anthropicjudge.New(anthropicjudge.WithBaseURL(tt.base), anthropicjudge.WithAPIKey(leaks["API key"])).Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, tt.err)
	}

	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("ANTHROPIC_BASE_URL", leakyBase)
	_, err := anthropicjudge.FromEnv().Judge(context.Background(), refundRequest)
	assert.EqualError(t, err, "anthropicjudge: ANTHROPIC_API_KEY is not set: the judge needs an API key to call http://[redacted]@judge.test/v1/messages?token=[redacted]")
}
