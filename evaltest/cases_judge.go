package evaltest

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/evalkit-go/evalkit/assert"
)

// judgeless returns, one problem a line, every eval of cases that asks a
// judge (llm_judge, a metric, an assertion wrapping one) when the T has
// neither a judge nor a judge set, each with its file, line and case: a
// case file that can only fail at run time fails at load. None when the T
// has a judge, or no eval asks one.
func (t *T) judgeless(cases []Case) []string {
	if t.judge != nil || t.judgeSet() != nil {
		return nil
	}
	reg := t.evalRegistry(nil)
	if reg == nil {
		reg = assert.NewRegistry()
	}
	var problems []string
	for _, c := range cases {
		for _, ev := range c.Evals {
			if _, err := reg.Build(ev.Type, ev.Params); errors.Is(err, assert.ErrNoJudge) {
				problems = append(problems, fmt.Sprintf("%s:%d: case %q: %s asks a judge, and RunCases has none: give it evaltest.WithJudge(j) or evaltest.WithJudgeSet(set)",
					filepath.ToSlash(c.File), ev.Line, c.Name, ev.Type))
			}
		}
	}
	return problems
}
