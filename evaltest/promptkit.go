package evaltest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/results"
	"github.com/evalkit-go/evalkit/promptkit"
)

// promptKit reads a PromptKit document of the case file (package
// promptkit): a case per pack prompt, scenario or eval document, each
// entry validated, every problem named with the file and line. A runtime
// config contributes no case: its bindings must be on the registry
// already (promptkit.BindRuntimeConfig).
func (p *caseParser) promptKit(doc *yaml.Node) []Case {
	d, problems := promptkit.ReadNode(p.file, doc, p.reg)
	for _, pr := range problems {
		p.problems = append(p.problems, p.file+":"+pr.String())
	}
	if d == nil {
		return nil
	}
	if d.Kind == promptkit.KindRuntimeConfig {
		p.bound = true
		for name, b := range d.Exec {
			if err := p.reg.Validate(name, nil); errors.Is(err, assert.ErrUnknownCheck) {
				p.problems = append(p.problems, fmt.Sprintf("%s:%d: spec.evals.%s: not bound on the registry: bind the config with promptkit.BindRuntimeConfig(reg, %q) and give evaltest.WithRegistry(reg)", p.file, b.Line, name, filepath.ToSlash(p.file)))
			}
		}
		return nil
	}
	var out []Case
	for _, s := range d.Suites {
		c := Case{Name: s.Name, Vars: s.Vars, Description: s.Description, Tags: s.Tags, Turns: s.Turns, Recording: s.Recording,
			File: p.file, Line: s.Line, Repeat: s.Trials, PassRate: s.PassRate}
		if len(s.Turns) > 0 {
			c.Input = s.Turns[0]
		}
		if c.Repeat > MaxRepeat {
			p.problems = append(p.problems, fmt.Sprintf("%s:%d: spec.trials: %d is more than %d", p.file, s.Line, c.Repeat, MaxRepeat))
			c.Repeat = MaxRepeat
		}
		for i := range s.Entries {
			e := s.Entries[i]
			c.Evals = append(c.Evals, CaseEval{Type: e.Type, Params: e.Params, ID: e.ID, Message: e.Message, Description: e.Description,
				Trigger: string(e.Trigger), Line: e.Line, PromptKit: &e})
		}
		out = append(out, c)
	}
	return out
}

// promptKitEval runs one PromptKit entry on the expectation's transcript
// with PromptKit's meaning (promptkit.Check). An entry that does not run
// — enabled: false, sampled out, its when unmet — is logged as not run,
// neither a pass nor a failure, and promptKitEval reports false. Its
// metric and groups go on its results line. EVALKIT_SAMPLE=all runs every
// sampled eval.
func (e *Expectation) promptKitEval(c Case, ev CaseEval) (ran bool) {
	e.t.tb.Helper()
	step := e.t.stepJudge()
	check := promptkit.Check{Entry: *ev.PromptKit, Registry: e.t.evalRegistry(step), Session: c.Name, SampleAll: os.Getenv("EVALKIT_SAMPLE") == "all"}
	label := filepath.ToSlash(c.File) + ":" + strconv.Itoa(ev.Line) + ": " + call("Eval", ev.Type, ev.Params) + promptKitName(ev)
	if ok, why := check.Runs(e.tr); !ok {
		e.t.tb.Logf("%s: not run: %s", label, why)
		return false
	}
	pk := ev.PromptKit
	saved := e.t.x.report
	if m := pk.Metric; m != nil {
		e.t.x.report.metric = &results.Metric{Name: m.Name, Type: m.Type, Labels: m.Labels}
	}
	e.t.x.report.groups = pk.Groups
	defer func() { e.t.x.report = saved }()
	e.reportLazy(func() string { return label }, check, step)
	return true
}

// promptKitName names an entry after its call: its id and trigger, a
// validator's direction, a scenario assertion's turn.
func promptKitName(ev CaseEval) string {
	pk := ev.PromptKit
	switch {
	case pk.Role == promptkit.RoleValidator:
		dir := pk.Direction
		if dir == "" {
			dir = "output"
		}
		return " [validator, " + dir + "]"
	case pk.Turn >= 0:
		return fmt.Sprintf(" [turn %d]", pk.Turn+1)
	case pk.AllTurns:
		return " [all_turns]"
	case pk.ID != "":
		return " [" + pk.ID + ", " + string(pk.Trigger) + "]"
	}
	return ""
}
