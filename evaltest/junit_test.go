package evaltest_test

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// junitReport is the part of gotestsum's JUnit XML this test reads.
type junitReport struct {
	Suites []struct {
		Cases []struct {
			Name       string `xml:"name,attr"`
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// As a CI user meets it: gotestsum's JUnit XML of a test with two judged
// steps and a Repeat carries each as properties of its own — score,
// threshold, outcome, judge, replayed or live, the whole criteria and
// reasoning — where one repeated key kept only the last step's.
func TestJUnitThroughGotestsumKeepsEveryJudgedStep(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gotestsum and runs a test binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	junit := filepath.Join(t.TempDir(), "junit.xml")
	cmd := exec.Command(goBin, "tool", "-modfile=../tools/go.mod", "gotestsum", "--format", "standard-quiet", "--junitfile", junit,
		"--", "-count=1", "./testdata/junitprobe")
	cmd.Env = append(os.Environ(), "EVALKIT_MODE=replay")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the probe fails one judged step on purpose:\n%s", out)
	data, err := os.ReadFile(junit)
	require.NoError(t, err, "%s", out)
	var rep junitReport
	require.NoError(t, xml.Unmarshal(data, &rep))
	props := map[string]string{}
	for _, s := range rep.Suites {
		for _, c := range s.Cases {
			if c.Name != "TestRefund" {
				continue
			}
			for _, p := range c.Properties {
				props[p.Name] = p.Value
			}
		}
	}
	want := map[string]string{
		"evalkit.001.check":     `Judge("Confirms the refund, states the amou…", MinScore(0.80))`,
		"evalkit.001.type":      "llm_judge",
		"evalkit.001.outcome":   "pass",
		"evalkit.001.score":     "0.9",
		"evalkit.001.threshold": ">= 0.80",
		"evalkit.001.judge":     "gpt-4.1-mini",
		"evalkit.001.source":    "replayed",
		"evalkit.001.criteria":  "Confirms the refund, states the amount and says when the money arrives in the customer's account",
		"evalkit.001.reasoning": "States the refund of $42 and when it arrives.",
		"evalkit.002.check":     `Judge("Is polite and thanks the customer", MinScore(0.60))`,
		"evalkit.002.type":      "llm_judge",
		"evalkit.002.outcome":   "fail",
		"evalkit.002.score":     "0.4",
		"evalkit.002.threshold": ">= 0.60",
		"evalkit.002.judge":     "gpt-4.1-mini",
		"evalkit.002.source":    "replayed",
		"evalkit.002.criteria":  "Is polite and thanks the customer",
		"evalkit.002.reasoning": "Curt: no greeting, no thanks.",
		"evalkit.003.check":     "Repeat(3, All())",
		"evalkit.003.type":      "repeat",
		"evalkit.003.outcome":   "pass",
		"evalkit.003.score":     "1",
		"evalkit.003.attempts":  "3",
		"evalkit.003.passed":    "3",
		"evalkit.003.need":      "3",
	}
	assert.Equal(t, want, props, "gotestsum's JUnit XML:\n%s", data)
}
