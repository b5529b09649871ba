package evaltest_test

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
)

// A *T is a testing.TB: what a helper taking a testing.TB takes.
var _ testing.TB = (*evaltest.T)(nil)

// failAt is a user's helper for any testing.TB.
func failAt(tb testing.TB, msg string) {
	tb.Helper()
	tb.Errorf("%s", msg)
}

// keptTB is the test's own TB with its failures kept, not reported.
type keptTB struct {
	testing.TB
	errors []string
}

func (k *keptTB) Errorf(format string, args ...any) {
	k.errors = append(k.errors, fmt.Sprintf(format, args...))
}

// thisLine is the line it is called from.
func thisLine() int {
	_, _, line, _ := runtime.Caller(1)
	return line
}

// The TB methods of a T are the test's: Errorf, Fatal and Helper report
// to it (Errorf through the fake), Name and Context are its.
func TestTIsTheTestsTB(t *testing.T) {
	tb := report(func(et *evaltest.T) {
		et.Errorf("plain %d", 1)
		failAt(et, "through a helper")
		assert.Equal(t, "TestFake", et.Name())
		assert.NotNil(t, et.Context())
		et.Fatalf("stops %s", "here")
		et.Errorf("never reached")
	})
	assert.Equal(t, []string{"plain 1", "through a helper", "stops here"}, tb.errors)
	assert.True(t, tb.fatal)
}

// Inside a Repeat's attempt, the T's TB methods are the attempt's: Fatal
// ends the attempt only, Errorf fails it, Cleanup runs when it ends,
// TempDir and Context work; and what the attempt reports carries the line
// of the attempt function that reported it, past the user's helpers.
func TestAttemptTBReportsTheUsersLine(t *testing.T) {
	var cleaned []int
	var errLine, fatalLine int
	tb := &keptTB{TB: t}
	evaltest.New(tb).Repeat(3, func(et *evaltest.T) {
		n := et.Attempt()
		et.Cleanup(func() { cleaned = append(cleaned, n) })
		if _, err := os.Stat(et.TempDir()); err != nil {
			et.Fatal(err)
		}
		require.NoError(t, et.Context().Err())
		switch n {
		case 2:
			errLine = thisLine() + 1
			failAt(et, "the helper's failure, at the caller's line")
		case 3:
			fatalLine = thisLine() + 1
			et.Fatalf("attempt %d gave up", n)
			et.Errorf("never reached")
		}
	}, evaltest.All(), evaltest.Exhaustive())
	require.Len(t, tb.errors, 1)
	assert.Contains(t, tb.errors[0], fmt.Sprintf("\nattempt 2: tb_test.go:%d: the helper's failure, at the caller's line\n", errLine))
	assert.Contains(t, tb.errors[0], fmt.Sprintf("\nattempt 3: tb_test.go:%d: attempt 3 gave up", fatalLine))
	assert.NotContains(t, tb.errors[0], "never reached")
	assert.Equal(t, []int{1, 2, 3}, cleaned, "each attempt's cleanup ran when it ended")
}

// A cleanup registered in an attempt reports at the line that registered
// it, as testing's cleanups do.
func TestAttemptCleanupReportsWhereItWasRegistered(t *testing.T) {
	var line int
	tb := report(func(et *evaltest.T) {
		et.Repeat(1, func(et *evaltest.T) {
			line = thisLine() + 1
			et.Cleanup(func() { et.Errorf("cleaned up badly") })
		}, evaltest.All())
	})
	require.Len(t, tb.errors, 1)
	assert.Contains(t, tb.errors[0], fmt.Sprintf("attempt 1: tb_test.go:%d: cleaned up badly", line))
}

// As a user meets it: a real test binary whose T is used as a testing.TB in
// a test, a Repeat and a case file's run function reports each line at the
// user's line (the lines marked "reported here"), and the Repeat's message
// names the attempt's line.
func TestTBReportsAtTheUsersLineInATestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, _ := exec.Command(goBin, "test", "-count=1", "-v", "./testdata/tbprobe").CombinedOutput()
	src, err := os.ReadFile("testdata/tbprobe/probe_test.go")
	require.NoError(t, err)
	want := map[string]bool{}
	helperLine := 0
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "// reported here") {
			want[fmt.Sprintf("probe_test.go:%d:", i+1)] = true
		}
		if strings.Contains(line, "// in the Repeat's message") {
			helperLine = i + 1
		}
	}
	got := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s{4}(probe_test\.go:\d+:)`).FindAllStringSubmatch(string(out), -1) {
		got[m[1]] = true
	}
	assert.Equal(t, want, got, "go test output:\n%s", out)
	assert.Contains(t, string(out), fmt.Sprintf("attempt 2: probe_test.go:%d: helper: attempt two (+1 more)", helperLine), "go test output:\n%s", out)
	assert.Contains(t, string(out), "--- PASS: TestCases/fine")
	assert.Contains(t, string(out), "--- FAIL: TestCases/broken")
	_ = evalkit.RoleUser
}
