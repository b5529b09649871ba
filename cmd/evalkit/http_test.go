package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// HTTP recordings are listed, shown, verified and pruned beside judge
// recordings.
func TestCLIHTTPRecordings(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.MkdirAll("pkg/testdata/evalkit", 0o755))
	require.NoError(t, os.WriteFile("pkg/pkg_test.go", []byte("package pkg\n\nimport \"testing\"\n\nfunc TestAgent(t *testing.T) {}\n"), 0o644))
	usage := filepath.Join(t.TempDir(), "usage")
	path := "pkg/testdata/evalkit/TestAgent.http.json"
	send := func(tr *golden.Transport, content string) {
		req, err := http.NewRequest(http.MethodPost, "http://fake/v1/chat/completions", strings.NewReader(`{"model": "gpt-4o", "messages": [{"role": "user", "content": "`+content+`"}]}`))
		require.NoError(t, err)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	synctest.Test(t, func(t *testing.T) {
		rec, err := golden.NewTransport(path, judgefake.NewTransport(judgefake.Texts("Cancelled.", "Old.")...), golden.WithMode(golden.ModeRecord))
		require.NoError(t, err)
		send(rec, "Cancel Z7GOZK.")
		send(rec, "old")
		require.NoError(t, rec.Save())
	})

	code, out, errOut := runCLI("golden", "list")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `^pkg/testdata/evalkit/TestAgent.http.json\t2 interactions\t[0-9.]+ kB\tPOST /v1/chat/completions ×2\tlast recorded 2000-01-01\n$`, out)

	code, out, errOut = runCLI("golden", "show", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "POST /v1/chat/completions  (pkg/testdata/evalkit/TestAgent.http.json)\n")
	assert.Contains(t, out, `    request:   {"messages":[{"content":"Cancel Z7GOZK.","role":"user"}],"model":"gpt-4o"}`)
	assert.Contains(t, out, "    status:    200, application/json\n")

	code, out, errOut = runCLI("golden", "verify")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "ok\tpkg/testdata/evalkit/TestAgent.http.json\n", out)

	replay, err := golden.NewTransport(path, nil, golden.WithUsageLog(usage))
	require.NoError(t, err)
	send(replay, "Cancel Z7GOZK.")
	require.NoError(t, replay.Save())
	code, out, errOut = runCLI("golden", "prune", "-usage", usage)
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `^pkg/testdata/evalkit/TestAgent.http.json: dropped 1 interaction no test used: sha256:[0-9a-f]{12} #1\n$`, out)
	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	assert.Len(t, f.Interactions, 1)
}
