package openaijudge_test

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

	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// Recognizable credentials, one per place a judge holds one: no six bytes
// of any of them occur in a message by chance.
var leaks = map[string]string{
	"API key":         "sk-LEAKAPI-q7Zp9Wv3Xy5Tb2Nm",
	"api-key header":  "az-LEAKHDR-r8Yq0Xw4Zz6Uc3Pn",
	"gateway header":  "gw-LEAKGWY-s9Xr1Yv5Aa7Vd4Qo",
	"query parameter": "qs-LEAKQRY-t0Ws2Zu6Bb8We5Rp",
	"URL password":    "pw-LEAKPWD-u1Vt3Av7Cc9Xf6Sq",
}

// allLeaks is every credential, space-separated, as a server might echo
// them.
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

// leakyBase is a base URL that carries credentials: a password and a
// query key (Azure style), beside a harmless api-version.
var leakyBase = "http://user:" + leaks["URL password"] + "@judge.test/v1?api-version=2024-10-21&api-key=" + leaks["query parameter"]

func leakyJudge(client *http.Client) *openaijudge.Judge {
	return openaijudge.New(
		openaijudge.WithBaseURL(leakyBase),
		openaijudge.WithAPIKey(leaks["API key"]),
		openaijudge.WithHeader("api-key", leaks["api-key header"]),
		openaijudge.WithHeader("Helicone-Auth", "Bearer "+leaks["gateway header"]),
		openaijudge.WithMaxRetries(0),
		openaijudge.WithHTTPClient(client),
	)
}

func chat(model, content, finish string) string {
	m, _ := json.Marshal(model)
	c, _ := json.Marshal(content)
	return fmt.Sprintf(`{"object": "chat.completion", "model": %s, "choices": [{"message": {"role": "assistant", "content": %s}, "finish_reason": %q}]}`, m, c, finish)
}

// TestOpenaijudgeNoCredentialInAnyError: a battery of faulty servers that
// echo the judge's credentials, in every way a reply can, and of bad
// configurations; no error, and no verdict, holds any part of one.
func TestOpenaijudgeNoCredentialInAnyError(t *testing.T) {
	all := allLeaks()
	pad := strings.Repeat("x", judgehttp.MaxMessage-10)
	type served struct {
		status int
		header http.Header
		body   string
		err    error
	}
	cases := map[string]served{
		"401 echoing the credentials": {status: 401, body: `{"error": {"message": "Incorrect API key provided: ` + all + `"}}`},
		"escaped in JSON":             {status: 401, body: `{"error": {"message": "` + strings.ReplaceAll(all, "-", `\u002d`) + `"}}`},
		"plain-text 500":              {status: 500, body: "upstream said " + all},
		"400 naming a param":          {status: 400, body: `{"error": {"message": "bad temperature for ` + all + `", "param": "temperature"}}`},
		"model echo, no verdict":      {status: 200, body: chat(all, "not a verdict", "stop")},
		"content echo, no verdict":    {status: 200, body: chat("m", "your keys are "+all, "stop")},
		"cut off":                     {status: 200, body: chat(all, `{"reasoning": "`+all, "length")},
		"filtered":                    {status: 200, body: chat(all, "", "content_filter")},
		"refusal":                     {status: 200, body: `{"object": "chat.completion", "model": "m", "choices": [{"message": {"content": null, "refusal": "no: ` + all + `"}}]}`},
		"not a completion":            {status: 200, body: `{"model": "` + all + `"}`},
		"no such host":                {err: &net.DNSError{Err: "no such host", Name: "judge.test", IsNotFound: true}},
		"connection refused, text":    {err: fmt.Errorf("dial %s: connection refused", all)},
		"redirect":                    {status: 307, header: http.Header{"Location": {"https://user:" + leaks["API key"] + "@evil.test/x?key=" + leaks["API key"]}}},
	}
	for name, key := range leaks {
		cases["401 cut at the bound: "+name] = served{status: 401, body: `{"error": {"message": "` + pad + ` ` + key + `"}}`}
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

// TestOpenaijudgeNoCredentialInAVerdict: a reply that echoes the
// credentials in the model's name and its answer still judges, and the
// verdict holds none of them.
func TestOpenaijudgeNoCredentialInAVerdict(t *testing.T) {
	all := allLeaks()
	answer := `{"reasoning": "States $42. ` + all + `", "score": 8, "notes": ["` + all + `"]}`
	client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(chat(all, answer, "stop")))}, nil
	})}
	v, err := leakyJudge(client).Judge(context.Background(), refundRequest)
	require.NoError(t, err)
	assert.Equal(t, 8.0, v.RawScore)
	dump, err := json.Marshal(v)
	require.NoError(t, err)
	assertNoLeak(t, string(dump), "verdict")
	assert.True(t, strings.HasPrefix(v.Reasoning, "States $42. [redacted:"), v.Reasoning)
}

// TestOpenaijudgeNoCredentialInConfigErrors: configurations that fail
// before any request never print the URL's credentials.
func TestOpenaijudgeNoCredentialInConfigErrors(t *testing.T) {
	key, pw := leaks["query parameter"], leaks["URL password"]
	tests := []struct {
		base string
		err  string
	}{
		{"http://u:" + pw + "@h\x7f/v1?api-key=" + key, `openaijudge: the base URL does not parse (it is not shown, as it may hold a credential): net/url: invalid control character in URL`},
		{"ftp://u:" + pw + "@h/v1?api-key=" + key, `openaijudge: base URL "ftp://[redacted]@h/v1?api-key=[redacted]": want an http:// or https:// URL with a host`},
	}
	for _, tt := range tests {
		_, err := openaijudge.New(openaijudge.WithBaseURL(tt.base), openaijudge.WithAPIKey(leaks["API key"])).Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, tt.err)
	}

	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", leakyBase)
	_, err := openaijudge.FromEnv().Judge(context.Background(), refundRequest)
	assert.EqualError(t, err, "openaijudge: OPENAI_API_KEY is not set: the judge needs an API key to call http://[redacted]@judge.test/v1/chat/completions?api-version=[redacted]&api-key=[redacted] (for a local server that needs none, set it to any value)")
}
