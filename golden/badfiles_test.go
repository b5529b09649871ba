package golden_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

// Bad recording files of both kinds, read by every mode that reads them:
// each is an error naming the file and what is wrong, of at most 1 KiB
// beside the path, never a recording read as best it can be (a "version"
// that is not a number was "format version 0"; a megabyte key made a
// megabyte error).
func TestBadInputRecordingFiles(t *testing.T) {
	key := "sha256:" + strings.Repeat("a", 64)
	huge := strings.Repeat("x", 1<<20)
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	both := []struct{ name, data, want string }{
		{"not JSON", "{\n  \"version\": 1,\n  \"LIST\": [\n}", "line 4, column 1: invalid character '}'"},
		{"empty", "", "the JSON ends too early"},
		{"cut", `{"version": 1, "LIST": [{"key": "` + key, "the JSON ends too early"},
		{"no version", `{"LIST": []}`, `it has no "version"`},
		{"null", `null`, `it has no "version"`},
		{"array", `[]`, "line 1, column 1: json: cannot unmarshal array"},
		{"unknown version", `{"version": 2, "LIST": {"another": "shape"}}`, "format version 2, and this evalkit reads version 1"},
		{"string version", `{"version": "1", "LIST": []}`, `line 1, column 15: json: cannot unmarshal string into Go struct field .version of type int`},
		{"fractional version", `{"version": 1.5, "LIST": []}`, "cannot unmarshal number 1.5 into Go struct field .version of type int"},
		{"huge version", `{"version": 1e30, "LIST": []}`, "cannot unmarshal number 1e30"},
		{"bad key", `{"version": 1, "LIST": [{"key": "md5:abc"}]}`, `key "md5:abc" is not sha256: and 64 hex digits`},
		{"upper-case key", `{"version": 1, "LIST": [{"key": "` + strings.ToUpper(key) + `"}]}`, "is not sha256: and 64 hex digits"},
		{"megabyte key", `{"version": 1, "LIST": [{"key": "` + huge + `"}]}`, `key "xxxxxxxx`},
		{"trailing data", `{"version": 1, "LIST": []} {}`, "more data after its JSON object"},
		{"list is an object", `{"version": 1, "LIST": {}}`, "cannot unmarshal object"},
		{"entry is a string", `{"version": 1, "LIST": ["x"]}`, "cannot unmarshal string"},
		{"not UTF-8", "\xff\xfe{}", "line 1, column 1: invalid character 'ÿ'"},
		{"100,000 levels", `{"version": 1, "LIST": ` + deep + `}`, "exceeded max depth"},
	}
	judge := append(both, []struct{ name, data, want string }{
		{"key twice", `{"version": 1, "LIST": [{"key": "` + key + `"}, {"key": "` + key + `"}]}`, "entry 2: key " + key + " is given twice"},
	}...)
	interaction := `{"key": "` + key + `", "occurrence": 1, "request": {"method": "POST", "path": "/v1"}, "response": {"status": 200}}`
	http := append(both, []struct{ name, data, want string }{
		{"occurrence 0", `{"version": 1, "LIST": [` + strings.Replace(interaction, `"occurrence": 1`, `"occurrence": 0`, 1) + `]}`, "interaction 1: occurrence 0 is not 1 or more"},
		{"occurrence twice", `{"version": 1, "LIST": [` + interaction + `, ` + interaction + `]}`, "interaction 2: key sha256:aaaaaaaaaaaa, occurrence 1, is given twice"},
		{"no method", `{"version": 1, "LIST": [` + strings.Replace(interaction, `"POST"`, `""`, 1) + `]}`, "interaction 1: the request has no method or path"},
		{"status 0", `{"version": 1, "LIST": [` + strings.Replace(interaction, `200`, `0`, 1) + `]}`, "interaction 1: status 0 is not an HTTP status"},
		{"status 1000", `{"version": 1, "LIST": [` + strings.Replace(interaction, `200`, `1000`, 1) + `]}`, "interaction 1: status 1000 is not an HTTP status"},
	}...)

	tried := 0
	check := func(t *testing.T, path, want string, err error) {
		t.Helper()
		tried++
		require.Error(t, err)
		msg := strings.ReplaceAll(err.Error(), path, "PATH")
		assert.True(t, strings.HasPrefix(msg, "golden: PATH: "), "names the file: %.300q", msg)
		assert.Contains(t, msg, want)
		assert.LessOrEqual(t, len(msg), 1024, "%.300q", msg)
	}
	for _, tt := range judge {
		t.Run("judge/"+tt.name, func(t *testing.T) {
			path := recordingPath(t)
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(tt.data, "LIST", "entries")), 0o644))
			for _, mode := range []golden.Mode{golden.ModeReplay, golden.ModeRecord, golden.ModeRefresh} {
				_, err := golden.New(path, newLive(testIdentity), golden.WithMode(mode))
				check(t, path, tt.want, err)
			}
			_, err := golden.Load(path)
			check(t, path, tt.want, err)
		})
	}
	for _, tt := range http {
		t.Run("http/"+tt.name, func(t *testing.T) {
			path := httpPath(t)
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(tt.data, "LIST", "interactions")), 0o644))
			for _, mode := range []golden.Mode{golden.ModeReplay, golden.ModeRecord, golden.ModeRefresh} {
				_, err := golden.NewTransport(path, nil, golden.WithMode(mode))
				check(t, path, tt.want, err)
			}
			_, err := golden.LoadHTTP(path)
			check(t, path, tt.want, err)
		})
	}
	t.Logf("bad-input count: recording files %d inputs (%d judge, %d HTTP), %d reads", len(judge)+len(http), len(judge), len(http), tried)
}
