package evaltest_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/internal/hostile"
	"github.com/evalkit-go/evalkit/internal/yamlcheck"
)

// The done-when bounds of a hostile input: a clear error within 5 s and
// 500 MB, measured in a child process (its wall time from start to exit,
// and its peak resident set).
const (
	hostileTime = 5 * time.Second
	hostileRSS  = 500 << 20
)

// loadCasesChild is the child side of the tests below: LoadCases on the
// glob in EVALKIT_TEST_GLOB, its error reported.
func loadCasesChild() {
	hostile.Do(func() error {
		_, err := evaltest.LoadCases(os.Getenv("EVALKIT_TEST_GLOB"), nil)
		return err
	})
}

// An alias inside the value it stands for — through a mapping or a list,
// in vars, params or patterns — is refused at once, naming the file, the
// line and the alias. It hung the process past 10 GB: the walk of the
// file followed the alias for ever, building a longer path at each turn.
func TestLoadCasesAliasCycles(t *testing.T) {
	if hostile.Child("alias-cycle") {
		loadCasesChild()
		return
	}
	dir := t.TempDir()
	for _, tc := range []struct{ name, file, want string }{
		{"vars", "- name: a\n  vars: &v {x: *v}\n  evals: [{type: contains, params: {patterns: [a]}}]\n",
			":2: cases[0].vars.x: the alias *v stands for a value that holds it (&v at line 2): a value cannot contain itself, so it has no end"},
		{"params", "- name: a\n  evals:\n  - type: contains\n    params: &p\n      patterns: [a]\n      again: [*p]\n",
			":6: cases[0].evals[0].params.again[0]: the alias *p stands for a value that holds it (&p at line 4): a value cannot contain itself, so it has no end"},
		{"patterns", "- name: a\n  evals:\n  - type: contains\n    params: {patterns: &l [a, *l]}\n",
			":4: cases[0].evals[0].params.patterns[1]: the alias *l stands for a value that holds it (&l at line 4): a value cannot contain itself, so it has no end"},
		{"a case", "cases:\n- &c\n  name: a\n  evals: [{type: contains, params: {patterns: [a]}}]\n  vars: {again: *c}\n",
			":5: cases[0].vars.again: the alias *c stands for a value that holds it (&c at line 2): a value cannot contain itself, so it has no end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".yaml")
			require.NoError(t, os.WriteFile(path, []byte(tc.file), 0o644))
			res := hostile.Run("TestLoadCasesAliasCycles", "alias-cycle", 20*time.Second, "EVALKIT_TEST_GLOB="+path)
			t.Logf("%s: %s", tc.name, res)
			require.NoError(t, res.Within(hostileTime, hostileRSS))
			assert.Equal(t, path+tc.want, res.Result)
		})
	}
}

// A million cases (74 MB) loaded in 39 s at 6.6 GB; now the file is
// refused before it is read, past the 4 MiB limit of a case file, and a
// run of many files past the 10,000 cases one run reads. Both limits are
// raised by their variables.
func TestLoadCasesLimits(t *testing.T) {
	if hostile.Child("case-limits") {
		loadCasesChild()
		return
	}
	if testing.Short() {
		t.Skip("writes a 74 MB case file: skipped under -short")
	}
	if hostile.Race {
		t.Skip("a measure of time and memory: the race detector's are no measure (make test runs it)")
	}
	dir := t.TempDir()
	million := filepath.Join(dir, "million.yaml")
	writeCases(t, million, 0, 1_000_000)
	res := hostile.Run("TestLoadCasesLimits", "case-limits", 30*time.Second, "EVALKIT_TEST_GLOB="+million)
	t.Logf("a million cases, %s: %s", fileSize(t, million), res)
	require.NoError(t, res.Within(hostileTime, hostileRSS))
	assert.Equal(t, million+": 70.6 MiB, past the limit of 4 MiB for a case file (EVALKIT_MAX_CASE_FILE_BYTES raises it)", res.Result)

	// Three files of 4,000 cases each: the third passes the count.
	many := filepath.Join(dir, "many")
	require.NoError(t, os.Mkdir(many, 0o755))
	for i := range 3 {
		writeCases(t, filepath.Join(many, fmt.Sprintf("part%d.yaml", i)), i*4000, 4000)
	}
	_, err := evaltest.LoadCases(many+"/*.yaml", nil)
	assert.EqualError(t, err, many+"/*.yaml: 12000 cases, past the limit of 10000 cases (EVALKIT_MAX_CASES raises it)")
	t.Setenv("EVALKIT_MAX_CASES", "12000")
	cases, err := evaltest.LoadCases(many+"/*.yaml", nil)
	require.NoError(t, err)
	assert.Len(t, cases, 12000)

	small := filepath.Join(dir, "small.yaml")
	writeCases(t, small, 0, 100)
	t.Setenv("EVALKIT_MAX_CASE_FILE_BYTES", "4KiB")
	_, err = evaltest.LoadCases(small, nil)
	assert.EqualError(t, err, small+": 7.2 KiB, past the limit of 4 KiB for a case file (EVALKIT_MAX_CASE_FILE_BYTES raises it)")
	t.Setenv("EVALKIT_MAX_CASE_FILE_BYTES", "4 KB")
	_, err = evaltest.LoadCases(small, nil)
	assert.EqualError(t, err, `EVALKIT_MAX_CASE_FILE_BYTES="4 KB": want a whole number of bytes above 0, such as 134217728 or 128MiB`)
}

// writeCases writes n one-line cases, numbered from first.
func writeCases(t *testing.T, path string, first, n int) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	w := bufio.NewWriter(f)
	for i := first; i < first+n; i++ {
		fmt.Fprintf(w, "- name: case-%07d\n  evals: [{type: contains, params: {patterns: [x]}}]\n", i)
	}
	require.NoError(t, w.Flush())
	require.NoError(t, f.Close())
}

func fileSize(t *testing.T, path string) string {
	info, err := os.Stat(path)
	require.NoError(t, err)
	return fmt.Sprintf("%.1f MB", float64(info.Size())/1e6)
}

// A case file that is a FIFO is refused at once; a plain read waited for
// a writer for ever.
func TestLoadCasesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "cases.yaml")
	if err := hostile.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	err, blocked := hostile.ReadWithin(fifo, 5*time.Second, func() error {
		_, err := evaltest.LoadCases(fifo, nil)
		return err
	})
	require.False(t, blocked, "LoadCases blocked on a FIFO")
	assert.EqualError(t, err, fifo+" is a named pipe (FIFO), not a regular file: evalkit reads only regular files")
}

// A mapping is read by the YAML library comparing each of its keys with
// every other: a case's vars of 40,000 keys (450 KB) took 17 s to load,
// and 270,000 (a file just under its 4 MiB limit) most of an hour. Past
// yamlcheck.MaxMappingKeys a mapping is refused at once; a file of
// mappings at the bound loads as fast as one of small mappings (4 MiB of
// either, 2.0 s alone on 2 cores; 1 MiB here, to hold under load).
func TestLoadCasesWideMappings(t *testing.T) {
	if hostile.Child("wide-mapping") {
		loadCasesChild()
		return
	}
	if testing.Short() {
		t.Skip("writes 4 MiB case files: skipped under -short")
	}
	if hostile.Race {
		t.Skip("a measure of time and memory: the race detector's are no measure (make test runs it)")
	}
	dir := t.TempDir()
	wide := filepath.Join(dir, "wide.yaml")
	writeVarsCases(t, wide, 1, 270_000)
	res := hostile.Run("TestLoadCasesWideMappings", "wide-mapping", 60*time.Second, "EVALKIT_TEST_GLOB="+wide)
	t.Logf("one case of 270,000 vars, %s: %s", fileSize(t, wide), res)
	require.NoError(t, res.Within(hostileTime, hostileRSS))
	assert.Equal(t, wide+":4: cases[0].vars: a mapping of 270000 keys, more than 1000: the YAML library compares each key of a mapping "+
		"with every other, so its time grows with the square of their number; use a list, or split the mapping", res.Result)

	many := filepath.Join(dir, "many.yaml")
	writeVarsCases(t, many, 85, yamlcheck.MaxMappingKeys)
	res = hostile.Run("TestLoadCasesWideMappings", "wide-mapping", 60*time.Second, "EVALKIT_TEST_GLOB="+many)
	t.Logf("85 cases of 1,000 vars, %s: %s", fileSize(t, many), res)
	require.NoError(t, res.Within(hostileTime, hostileRSS))
	assert.Equal(t, "ok", res.Result)
}

// writeVarsCases writes n cases, each with vars of keys keys.
func writeVarsCases(t *testing.T, path string, n, keys int) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	w := bufio.NewWriter(f)
	for i := range n {
		fmt.Fprintf(w, "- name: case-%d\n  evals: [{type: contains, params: {patterns: [x]}}]\n  vars:\n", i)
		for k := range keys {
			fmt.Fprintf(w, "    k%d: 1\n", k)
		}
	}
	require.NoError(t, w.Flush())
	require.NoError(t, f.Close())
}

// A key written as an alias of another key's text is that key given
// twice: {&k who: alice, *k: mallory} loaded as {who: mallory}.
func TestLoadCasesAliasKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cases.yaml")
	require.NoError(t, os.WriteFile(path, []byte("- name: a\n  vars:\n    &k who: alice\n    *k : mallory\n  evals: [{type: contains, params: {patterns: [a]}}]\n"), 0o644))
	_, err := evaltest.LoadCases(path, nil)
	assert.EqualError(t, err, path+`:4: cases[0].vars: field "who" is given twice (first at line 3)`)
}
