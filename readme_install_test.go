package evalkit_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's install lines for the evalkit command, run as a user runs
// them: in a new module that requires evalkit through a replace directive
// to this checkout, with the network as the environment gives it. It
// downloads through the Go module proxy, so it runs only when asked
// (EVALKIT_INSTALL_TEST=1; .ci/run, whose network is the module proxy
// only, asks).
func TestREADMEInstallsTheCommand(t *testing.T) {
	if os.Getenv("EVALKIT_INSTALL_TEST") == "" {
		t.Skip("downloads through the Go module proxy: EVALKIT_INSTALL_TEST=1 (.ci/run sets it)")
	}
	goBin, err := exec.LookPath("go")
	require.NoError(t, err)
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	block := regexp.MustCompile("(?s)```sh\n(go mod edit -tool=[^`]*)```").FindSubmatch(readme)
	require.NotNil(t, block, "README.md has the install block")
	checkout, err := filepath.Abs(".")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/agent\n\ngo 1.25\n\n"+
		"require github.com/evalkit-go/evalkit v0.0.0\n\nreplace github.com/evalkit-go/evalkit => "+checkout+"\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "testdata", "evalkit"), 0o755))
	rec, err := os.ReadFile("testdata/evalkit/TestMTBenchJudgments.judge.json")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "testdata", "evalkit", "TestMTBenchJudgments.judge.json"), rec, 0o644))
	for _, line := range strings.Split(strings.TrimSpace(string(block[1])), "\n") {
		line, _, _ = strings.Cut(line, "#")
		args := strings.Fields(line)
		require.Equal(t, "go", args[0], line)
		cmd := exec.Command(goBin, args[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s:\n%s", line, out)
		if args[1] == "tool" {
			assert.NotEmpty(t, out, line)
		}
	}
}
