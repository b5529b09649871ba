package golden_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

// A compressed body is decoded to be redacted, and decoded it is bounded
// as a recording is: 16 KiB of gzip standing for 16 MiB of zeros, with
// the limit set to 1 MiB, is an error naming the limit, not 16 MiB read
// (nor, with a larger bomb, the process's memory).
func TestCompressedBodyBounded(t *testing.T) {
	t.Setenv("EVALKIT_MAX_RECORDING_BYTES", "1MiB")
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	_, err := zw.Write(make([]byte, 16<<20))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	require.Less(t, bomb.Len(), 64<<10)

	server := rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		h := http.Header{"Content-Type": {"application/json"}, "Content-Encoding": {"gzip"}}
		return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(bomb.Bytes()))}, nil
	})
	for _, dir := range []string{"request", "response"} {
		t.Run(dir, func(t *testing.T) {
			path := httpPath(t)
			tr, err := golden.NewTransport(path, server, golden.WithMode(golden.ModeRecord))
			require.NoError(t, err)
			req, err := http.NewRequest(http.MethodPost, "https://api.example.com/v1/upload", strings.NewReader(`{"a": 1}`))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			if dir == "request" {
				req.Body = io.NopCloser(bytes.NewReader(bomb.Bytes()))
				req.Header.Set("Content-Encoding", "gzip")
			}
			resp, err := (&http.Client{Transport: tr}).Do(req)
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), "past 1 MiB decoded, the limit of a recording (EVALKIT_MAX_RECORDING_BYTES raises it)")
		})
	}
}
