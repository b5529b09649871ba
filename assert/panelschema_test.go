package assert_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// Every combination of panel aggregate × verdict schema × passing rule:
// each member's answer is read and checked as a single judge's is, an
// unreadable member is missing data, and the panel's verdict grades like
// one judge's. Members that all pass make every combination pass; members
// that all fail make every one fail. None is an error.
func TestPanelVerdictSchemaPassingCombinations(t *testing.T) {
	schema := `{"type":"object","required":["verdict","passed","score"],"properties":{` +
		`"verdict":{"enum":["pass","fail"]},"passed":{"type":"boolean"},"score":{"type":"number"},"reasoning":{"type":"string"}}}`
	member := func(answer string) evalkit.Judge {
		return evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			return evalkit.ParseVerdictFor(req, answer)
		})
	}
	panel := func(agg evalkit.Aggregate, word string, passed bool, score int) evalkit.Judge {
		var judges []evalkit.Judge
		for i := range 3 {
			judges = append(judges, member(fmt.Sprintf(`{"verdict": %q, "passed": %v, "score": %d, "reasoning": "judge %d"}`, word, passed, score, i+1)))
		}
		judges = append(judges, member("I cannot decide."))
		return evalkit.Panel(judges, agg).WithQuorum(3)
	}
	yes := true
	rules := []struct {
		name      string
		passing   assert.Passing
		threshold bool
	}{
		{"the judge's own pass/fail", assert.Passing{}, false},
		{"labels", assert.Passing{Labels: []string{"pass"}, Offered: []string{"pass", "fail"}}, false},
		{"labels in a field", assert.Passing{Labels: []string{"pass"}, Field: "verdict"}, false},
		{"pass/fail", assert.Passing{Passed: &yes}, false},
		{"a boolean field", assert.Passing{Passed: &yes, Field: "passed"}, false},
		{"a passing schema", assert.Passing{Schema: `{"properties":{"verdict":{"const":"pass"}}}`}, false},
		{"a threshold", assert.Passing{}, true},
	}
	tr := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "Refund order #W1"}, {Role: evalkit.RoleAssistant, Content: "Refunded $42."}}}
	ran := 0
	for _, agg := range []evalkit.Aggregate{evalkit.Mean, evalkit.Median, evalkit.Min, evalkit.Majority, evalkit.Unanimous} {
		for _, withSchema := range []bool{false, true} {
			for _, rule := range rules {
				for _, members := range []struct {
					word   string
					passed bool
					score  int
				}{{"pass", true, 8}, {"fail", false, 2}} {
					name := fmt.Sprintf("%s/schema=%v/%s/members %s", agg, withSchema, rule.name, members.word)
					if !withSchema && (rule.passing.Field != "" || rule.passing.Schema != nil) {
						continue // a field or a passing schema needs a verdict schema (askable)
					}
					t.Run(name, func(t *testing.T) {
						j := assert.LLMJudge{Judge: panel(agg, members.word, members.passed, members.score), Criteria: "States the refund amount", Passing: rule.passing}
						if withSchema {
							j.VerdictSchema = schema
						}
						var check assert.Check = j
						if rule.threshold {
							check = assert.Assertion{Eval: j, MinScore: ptr(0.5)}
						}
						res, err := check.Check(context.Background(), tr)
						require.NoError(t, err)
						testify.Equal(t, members.passed, res.Passed, res.Summary)
					})
					ran++
				}
			}
		}
	}
	testify.Equal(t, 5*(2*4+2*7), ran)
}

// A member that breaks the verdict schema is missing data, as an
// unreadable one is; a panel verdict graded on a field it does not hold
// names that field.
func TestPanelVerdictSchemaMember(t *testing.T) {
	schema := `{"type":"object","required":["verdict"],"properties":{"verdict":{"enum":["pass","fail"]}}}`
	answers := []string{`{"verdict": "pass", "score": 8}`, `{"verdict": "pass", "score": 9}`, `{"verdict": "maybe", "score": 1}`}
	var judges []evalkit.Judge
	for _, a := range answers {
		judges = append(judges, evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			return evalkit.ParseVerdictFor(req, a)
		}))
	}
	tr := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "q"}, {Role: evalkit.RoleAssistant, Content: "a"}}}
	check := assert.LLMJudge{Judge: evalkit.Panel(judges, evalkit.Majority), Criteria: "x", VerdictSchema: schema,
		Passing: assert.Passing{Labels: []string{"pass"}, Field: "verdict"}}
	res, err := check.Check(context.Background(), tr)
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)

	yes := true
	check.Passing = assert.Passing{Passed: &yes, Field: "passed"}
	_, err = check.Check(context.Background(), tr)
	require.Error(t, err)
	testify.Contains(t, err.Error(), `the verdict has no field "passed"`)
	testify.False(t, strings.Contains(err.Error(), "label"), err.Error())
}
