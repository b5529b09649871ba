package inputs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/inputs"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cases.yaml")
	require.NoError(t, os.WriteFile(path, []byte("0123456789"), 0o644))
	small := inputs.Limit{What: "case file", Env: "EVALKIT_TEST_MAX_BYTES", Default: 10}

	data, err := inputs.ReadFile(path, small)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(data))

	small.Default = 9
	_, err = inputs.ReadFile(path, small)
	var le *inputs.LimitError
	require.ErrorAs(t, err, &le)
	assert.EqualError(t, err, path+": 10 bytes, past the limit of 9 bytes for a case file (EVALKIT_TEST_MAX_BYTES raises it)")

	t.Setenv("EVALKIT_TEST_MAX_BYTES", "1KiB")
	_, err = inputs.ReadFile(path, small)
	require.NoError(t, err, "the variable raises the limit")

	for _, bad := range []string{"abc", "-1", "0", "1.5", "1e3", "0x10", "+5", "99999999999999999999", "12 MB", "1TiB"} {
		t.Setenv("EVALKIT_TEST_MAX_BYTES", bad)
		_, err = inputs.ReadFile(path, small)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "EVALKIT_TEST_MAX_BYTES=")
		assert.Contains(t, err.Error(), "want a whole number of bytes above 0")
	}

	_, err = inputs.ReadFile(filepath.Join(dir, "missing.yaml"), inputs.CaseFile)
	assert.ErrorIs(t, err, fs.ErrNotExist)

	// A link to a regular file is read; the file it names is checked.
	link := filepath.Join(dir, "link.yaml")
	require.NoError(t, os.Symlink(path, link))
	data, err = inputs.ReadFile(link, inputs.CaseFile)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(data))
}

// A directory and a device are refused, naming what they are.
func TestReadFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	_, err := inputs.ReadFile(dir, inputs.Recording)
	assert.EqualError(t, err, dir+" is a directory, not a regular file: evalkit reads only regular files")
	var nr *inputs.NotRegularError
	assert.ErrorAs(t, err, &nr)

	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err = inputs.ReadFile("/dev/zero", inputs.Recording)
		assert.EqualError(t, err, "/dev/zero is a character device, not a regular file: evalkit reads only regular files")
	}

}

func TestCheck(t *testing.T) {
	assert.NoError(t, inputs.Check("run", 10_000, inputs.Cases))
	err := inputs.Check("testdata/*.yaml", 10_001, inputs.Cases)
	assert.EqualError(t, err, "testdata/*.yaml: 10001 cases, past the limit of 10000 cases (EVALKIT_MAX_CASES raises it)")
	t.Setenv("EVALKIT_MAX_CASES", "20000")
	assert.NoError(t, inputs.Check("run", 10_001, inputs.Cases))
	t.Setenv("EVALKIT_MAX_CASES", "2KiB")
	assert.ErrorContains(t, inputs.Check("run", 1, inputs.Cases), "EVALKIT_MAX_CASES=\"2KiB\": want a whole number of cases above 0, such as 20000")

	var le *inputs.LimitError
	require.True(t, errors.As(inputs.Check("big.json", 100<<20+5<<19, inputs.Transcript), &le))
	assert.EqualError(t, le, "big.json: 102.5 MiB, past the limit of 32 MiB for a transcript (EVALKIT_MAX_TRANSCRIPT_BYTES raises it)")
}

// Every limit names a distinct variable, documented in README.md and
// RELIABILITY.md.
func TestLimitsDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, path := range []string{"../../README.md", "../../RELIABILITY.md"} {
		doc, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, l := range inputs.All {
			assert.False(t, seen[l.Env+path], l.Env)
			seen[l.Env+path] = true
			assert.True(t, strings.Contains(string(doc), l.Env), "%s does not document %s", path, l.Env)
		}
	}
}
