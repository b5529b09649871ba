package query

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// complianceCase is one case of the official JMESPath compliance suite.
type complianceCase struct {
	Expression string          `json:"expression"`
	Result     json.RawMessage `json:"result"` // nil when absent; "null" is an expected null
	Error      string          `json:"error"`
	Bench      string          `json:"bench"`
}

// TestCompliance runs the official JMESPath compliance suite (testdata/jmespath,
// from jmespath/jmespath.py) through Compile and Search.
func TestCompliance(t *testing.T) {
	files, err := filepath.Glob("testdata/jmespath/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	total, passed := 0, 0
	var failed []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		var suites []struct {
			Given json.RawMessage  `json:"given"`
			Cases []complianceCase `json:"cases"`
		}
		require.NoError(t, json.Unmarshal(data, &suites), file)
		for _, suite := range suites {
			var given any
			require.NoError(t, json.Unmarshal(suite.Given, &given), file)
			for _, c := range suite.Cases {
				total++
				if problem := runCompliance(c, given); problem != "" {
					key := filepath.Base(file) + ": " + c.Expression
					failed = append(failed, key)
					if !knownFailures[key] {
						t.Errorf("%s: %s (new failure: fix it or add it to knownFailures)", key, problem)
					}
					continue
				}
				passed++
			}
		}
	}
	sort.Strings(failed)
	failing := map[string]bool{}
	for _, k := range failed {
		failing[k] = true
	}
	for k := range knownFailures {
		if !failing[k] {
			t.Errorf("%s now passes: remove it from knownFailures and raise compliancePass", k)
		}
	}
	t.Logf("JMESPath compliance: %d of %d cases pass", passed, total)
	assert.Equal(t, complianceTotal, total, "the suite changed")
	assert.Equal(t, compliancePass, passed)
}

// runCompliance returns "" when the case passes, or what went wrong.
func runCompliance(c complianceCase, given any) (problem string) {
	defer func() {
		if r := recover(); r != nil {
			problem = fmt.Sprintf("panic: %v", r)
		}
	}()
	q, err := Compile(c.Expression)
	var se *SyntaxError
	if c.Error == "syntax" {
		// Syntax errors must be found by Compile: checks report them
		// when they are built, before any output is read.
		if !errors.As(err, &se) {
			return fmt.Sprintf("want a *SyntaxError from Compile, got %v", err)
		}
		return ""
	}
	if err != nil && c.Error == "" {
		return fmt.Sprintf("Compile: %v", err)
	}
	var got any
	if err == nil {
		got, err = q.Search(given)
	}
	switch {
	case c.Error != "":
		if err == nil {
			return fmt.Sprintf("want a %s error, got %s", c.Error, render(got))
		}
		return ""
	case c.Bench != "":
		if err != nil {
			return fmt.Sprintf("bench case failed: %v", err)
		}
		return ""
	case c.Result != nil:
		if err != nil {
			return fmt.Sprintf("want %s, got error %v", c.Result, err)
		}
		var want any
		if err := json.Unmarshal(c.Result, &want); err != nil {
			return fmt.Sprintf("bad expected result %s: %v", c.Result, err)
		}
		if !reflect.DeepEqual(want, got) {
			return fmt.Sprintf("want %s, got %s", c.Result, render(got))
		}
		return ""
	}
	return "case has no result, error or bench"
}

func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// The official suite's size and how much of it passes. A drop fails the test;
// so does a rise, so the numbers (and knownFailures) stay true.
const (
	complianceTotal = 908
	compliancePass  = 907
)

// knownFailures are the official suite's cases jmespath-community/go-jmespath
// v1.1.1 fails, by file and expression.
var knownFailures = map[string]bool{
	// The community specification reads "\\" in a raw string literal as an
	// escaped backslash ('\\' is one backslash); jmespath.py's suite keeps
	// both backslashes. Only expressions holding raw strings with "\\"
	// differ.
	`literal.json: '\\'`: true,
}
