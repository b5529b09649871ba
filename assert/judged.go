package assert

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

func judgedChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"llm_judge":            buildLLMJudge,
		"llm_judge_tool_calls": buildLLMJudgeToolCalls,
		"assertion":            buildAssertion,
		"guardrail":            buildGuardrail,
	}
}

// ErrNoJudge is returned (wrapped) by a judged check that has no judge to
// ask.
var ErrNoJudge = errors.New("no judge")

// LLMJudge asks a judge whether the output meets Criteria: with Turn scope
// (the default) the last assistant message, sent as the answer with the last
// user message before it as the input; with Session scope the whole
// transcript, rendered by evalkit.RenderTranscript with roles, tool calls
// and results. The request carries Criteria, Rubric, Reference, Context,
// Scale, Model, SystemPrompt and VerdictSchema, and never a threshold: the
// judge grades, the assertion decides.
//
// What passes: Passing, graded by GradeVerdict (labels, a boolean field or a
// schema; not a score threshold, which belongs to the assertion: wrap the
// check in an Assertion). With the zero Passing the judge is asked to
// label the content "pass" or "fail" (JudgeRequest.Labels), and that label
// — or the judge's own Verdict.Passed — decides; a verdict with neither is
// an error wrapping ErrBadVerdict, never a silent pass. Labels are asked
// for from their menu (Passing.Offered), which must be given.
//
// The Result's Score is the verdict's Score in [0,1] (when the judge gave
// none, 1 or 0 by the outcome); its Details are the judge's "reasoning", the
// "label", per-criterion scores ("criteria") and the "judge" model.
//
// Errors, never verdicts: no Judge (ErrNoJudge), no Criteria, no assistant
// message or a last one with only tool calls (ErrNoOutput), the judge's own
// error (an unreadable answer, an API failure; wrapped, with its message),
// the context ending before the judge answers (wrapping ctx.Err(), even
// from a judge that ignores its context: see callJudge), and a verdict that
// cannot be graded (ErrBadVerdict: a missing field, an off-menu label, a
// verdict that breaks VerdictSchema).
//
// Registry type "llm_judge" (Session scope: "llm_judge_session", alias
// "llm_judge_conversation"), params: criteria (required unless template is
// given), references, template, response_format, rubric, model,
// system_prompt (as PromptKit's llm_judge), reference, context (a string or
// a list), scale ({"min": 1, "max": 10}), verdict_schema, passing_labels,
// offered_labels, label_rules (rule names; by default case_insensitive,
// trim, collapse_whitespace, ignore_zero_width), verdict_field, passed,
// passing_schema, passing_verdicts (MindTrial's literal passing verdicts,
// with verdict_rules), scope. The judge is the registry's (Registry.WithJudge),
// or the one judge and variant name in its judge set
// (Registry.WithJudgeSet); the Result's judge line then gives its
// provenance: "strict/cheap (openai gpt-4.1-mini, temperature 0)".
// min_score and max_score are refused here: put them on a "type: assertion"
// wrapper, as PromptKit does.
type LLMJudge struct {
	// Judge answers the request.
	Judge evalkit.Judge
	// Criteria say what to judge, in the user's words. Required.
	Criteria string
	// Rubric is optional scoring guidance: what earns which score.
	Rubric string
	// Reference is an optional reference answer.
	Reference string
	// Context holds optional context documents (retrieved passages, a
	// policy) to judge against.
	Context []string
	// Scale is the range the judge scores on; zero means
	// evalkit.DefaultScale (0 to 10). Scores reach the check normalized.
	Scale evalkit.Scale
	// Model asks the judge for a model other than its default
	// (PromptKit's model).
	Model string
	// SystemPrompt replaces the judge's own system prompt (PromptKit's
	// system_prompt).
	SystemPrompt string
	// VerdictSchema, when set, is the JSON Schema of the verdict object:
	// the judge asks for it, and a verdict that breaks it is an error
	// (ErrBadVerdict), not a failure. Given as JSONSchema's Schema.
	VerdictSchema any
	// Passing says which verdicts pass; see the type's doc.
	Passing Passing
	// Scope: Turn (the default) or Session.
	Scope Scope
	// Against, when set, makes the judgment pairwise: the output is
	// Assistant A's answer and Against is B's (JudgeRequest.ContentB).
	Against string
	// Format is the verdict format the judge is asked for (package
	// verdicts); the answer is read by its rule.
	Format evalkit.Format
	// References are several acceptable reference answers: the content
	// should be equivalent to any one (MindTrial's expected results).
	References []string
	// Template, when set, is a judge prompt template (Go text/template
	// over JudgeTemplateData, MindTrial's): its text is the judge's whole
	// task. Criteria may then be empty.
	Template string
	// ResponseFormat is the answer format the task asked for, which a
	// Template reads.
	ResponseFormat string
	// JudgeTools are tools the judge may call while judging; its calls are
	// kept in the verdict (recorded and replayed with it) and shown in the
	// Result's "judge tools" detail. MindTrial's judge tools.
	JudgeTools []evalkit.JudgeTool
}

// LLMJudgeToolCalls asks a judge whether the tool calls meet Criteria: the
// calls with their arguments and results, rendered by
// evalkit.RenderTranscript with ToolCallsOnly, with Session scope (the
// default) every call of the transcript, with Turn scope the last turn's;
// Tools, when set, keeps only the calls to those tools. The input is the
// last user message before the last assistant message. Everything else is
// as LLMJudge: the request, Passing, the Result and the errors. A
// transcript with no calls is judged as "(no tool calls)": whether that
// meets the criteria is the judge's to say.
//
// Registry type "llm_judge_tool_calls", params: LLMJudge's, and tools (a
// list of tool names). As PromptKit's llm_judge_tool_calls.
type LLMJudgeToolCalls struct {
	Judge         evalkit.Judge
	Criteria      string
	Rubric        string
	Reference     string
	Context       []string
	Scale         evalkit.Scale
	Model         string
	SystemPrompt  string
	VerdictSchema any
	Passing       Passing
	// Tools, when set, are the tool names whose calls are judged.
	Tools   []string
	Scope   Scope
	Against string
	Format  evalkit.Format
	// References, Template, ResponseFormat and JudgeTools are LLMJudge's.
	References     []string
	Template       string
	ResponseFormat string
	JudgeTools     []evalkit.JudgeTool
}

// judging is what LLMJudge and LLMJudgeToolCalls share.
type judging struct {
	check          string
	judge          evalkit.Judge
	req            evalkit.JudgeRequest // without content
	verdictSchema  any
	passing        Passing
	byScore        bool   // graded by an Assertion's threshold
	template       string // a judge prompt template (judgetemplate.go)
	responseFormat string
}

func (c LLMJudge) judging() judging {
	return judging{
		check: "llm_judge", judge: c.Judge, verdictSchema: c.VerdictSchema, passing: c.Passing, template: c.Template, responseFormat: c.ResponseFormat,
		req: evalkit.JudgeRequest{Criteria: c.Criteria, Rubric: c.Rubric, Reference: c.Reference, References: c.References, Context: c.Context,
			Scale: c.Scale, Model: c.Model, SystemPrompt: c.SystemPrompt, Tools: c.JudgeTools, ContentB: c.Against, Format: c.Format},
	}
}

func (c LLMJudgeToolCalls) judging() judging {
	return judging{
		check: "llm_judge_tool_calls", judge: c.Judge, verdictSchema: c.VerdictSchema, passing: c.Passing, template: c.Template, responseFormat: c.ResponseFormat,
		req: evalkit.JudgeRequest{Criteria: c.Criteria, Rubric: c.Rubric, Reference: c.Reference, References: c.References, Context: c.Context,
			Scale: c.Scale, Model: c.Model, SystemPrompt: c.SystemPrompt, Tools: c.JudgeTools, ContentB: c.Against, Format: c.Format},
	}
}

func (c LLMJudge) validate() error {
	if err := c.judging().validate(); err != nil {
		return err
	}
	if s := c.Scope.or(Turn); s != Turn && s != Session {
		return paramErr("llm_judge", "scope", "want Turn or Session, got %v", c.Scope)
	}
	return nil
}

func (c LLMJudgeToolCalls) validate() error {
	if err := c.judging().validate(); err != nil {
		return err
	}
	for i, t := range c.Tools {
		if t == "" {
			return paramErr("llm_judge_tool_calls", "tools", "tool %d is empty", i)
		}
	}
	if s := c.Scope.or(Session); s != Turn && s != Session {
		return paramErr("llm_judge_tool_calls", "scope", "want Turn or Session, got %v", c.Scope)
	}
	return nil
}

// Check implements Check.
func (c LLMJudge) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	v, j, err := c.verdict(ctx, tr, false)
	if err != nil {
		return Result{}, err
	}
	return j.result(v)
}

// Check implements Check.
func (c LLMJudgeToolCalls) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	v, j, err := c.verdict(ctx, tr, false)
	if err != nil {
		return Result{}, err
	}
	return j.result(v)
}

// verdicter is a check whose outcome is a judge's verdict: an Assertion
// grades the verdict itself with its threshold.
type verdicter interface {
	Check
	judging() judging
	// verdict asks the judge; byScore says the verdict is graded by its
	// score alone (an Assertion's threshold), so no label is asked for.
	verdict(ctx context.Context, tr *evalkit.Transcript, byScore bool) (evalkit.Verdict, judging, error)
}

func (c LLMJudge) verdict(ctx context.Context, tr *evalkit.Transcript, byScore bool) (evalkit.Verdict, judging, error) {
	j := c.judging()
	j.byScore = byScore
	req := j.req
	if c.Scope.or(Turn) == Session {
		if _, err := outputs(j.check, tr, Session); err != nil {
			return evalkit.Verdict{}, j, err
		}
		req.Kind, req.Content = evalkit.ContentTranscript, evalkit.RenderTranscript(tr, evalkit.RenderOptions{})
	} else {
		outs, err := outputs(j.check, tr, Turn)
		if err != nil {
			return evalkit.Verdict{}, j, err
		}
		o := outs[0]
		if note := emptyNote(o); note != nil {
			return evalkit.Verdict{}, j, fmt.Errorf("%s: %w: %s (judge the tool calls with llm_judge_tool_calls)", j.check, ErrNoOutput, note[0].Text)
		}
		req.Kind, req.Content, req.Input = evalkit.ContentAnswer, o.text, lastUserBefore(tr, o.index)
	}
	v, err := j.ask(ctx, req)
	return v, j, err
}

func (c LLMJudgeToolCalls) verdict(ctx context.Context, tr *evalkit.Transcript, byScore bool) (evalkit.Verdict, judging, error) {
	j := c.judging()
	j.byScore = byScore
	outs, err := outputs(j.check, tr, Turn)
	if err != nil {
		return evalkit.Verdict{}, j, err
	}
	calls := tr
	if c.Scope.or(Session) == Turn {
		turn, _ := tr.LastTurn()
		calls = &evalkit.Transcript{Messages: turn.Messages}
	}
	req := j.req
	req.Kind = evalkit.ContentToolCalls
	req.Content = evalkit.RenderTranscript(calls, evalkit.RenderOptions{ToolCallsOnly: true, Tools: c.Tools})
	req.Input = lastUserBefore(tr, outs[0].index)
	v, err := j.ask(ctx, req)
	return v, j, err
}

// lastUserBefore returns the text of the last user message before index i.
func lastUserBefore(tr *evalkit.Transcript, i int) string {
	for i--; i >= 0; i-- {
		if tr.Messages[i].Role == evalkit.RoleUser {
			return textnorm.Newlines(tr.Messages[i].Content)
		}
	}
	return ""
}

// validate checks everything that can be known before a transcript.
func (j judging) validate() error {
	if strings.TrimSpace(j.req.Criteria) == "" && j.template == "" {
		return paramErr(j.check, "criteria", "required: say what the judge should look for")
	}
	if j.template != "" {
		if _, err := parseJudgeTemplate(j.check, j.template); err != nil {
			return err
		}
	}
	if j.req.Reference != "" && len(j.req.References) > 0 {
		return paramErr(j.check, "references", "give reference or references, not both")
	}
	for i, r := range j.req.References {
		if strings.TrimSpace(r) == "" {
			return paramErr(j.check, "references", "reference %d is empty", i)
		}
	}
	if err := j.req.Scale.OrDefault().Validate(); err != nil {
		return paramErr(j.check, "scale", "%v", strings.TrimPrefix(err.Error(), "evalkit: "))
	}
	if p := j.passing; p.MinScore != nil || p.MaxScore != nil {
		name := "min_score"
		if p.MinScore == nil {
			name = "max_score"
		}
		return paramErr(j.check, name, "a judged check holds no threshold: wrap it in an Assertion (type: assertion with min_score/max_score; assert.MinScore in Go)")
	}
	if j.passing.hasCriterion() {
		if err := j.passing.validate(j.check); err != nil {
			return err
		}
	}
	if j.verdictSchema != nil {
		if _, err := compileNamed(j.check, "verdict_schema", j.verdictSchema); err != nil {
			return err
		}
	} else if err := j.passing.askable(j.check); err != nil {
		return err
	}
	if j.judge == nil {
		return fmt.Errorf("%s: %w: set the check's Judge, build the registry with assert.NewRegistry().WithJudge(j), or in a test give evaltest.New the option evaltest.WithJudge(j)", j.check, ErrNoJudge)
	}
	return nil
}

// passFail are the labels a judge is asked for when the check grades by the
// judge's own pass or fail.
var passFail = []string{"pass", "fail"}

// askable reports, for a check without a verdict schema, whether the judge
// can be asked for what the passing criterion reads: a judge's default
// verdict holds a score and, when the request lists them, a label. Labels
// need the menu they come from (a judge told only the passing labels could
// answer nothing else); a criterion on a field of the check's own naming,
// or a passing schema, needs a verdict schema that says what to write.
func (p Passing) askable(check string) error {
	switch {
	case p.Schema != nil:
		return paramErr(check, "verdict_schema", "a passing schema needs a verdict schema telling the judge what to write")
	case p.Field != "" && p.Field != "label" && p.Field != "pass" && p.Field != "passed":
		return paramErr(check, "verdict_schema", "the criterion reads the verdict field %q: give a verdict schema that asks the judge for it", p.Field)
	case len(p.Labels) > 0 && len(p.Offered) == 0:
		return paramErr(check, "offered_labels", "the judge must be told every label it may give, not only the passing ones: add OfferedLabels in Go (offered_labels), or a verdict schema")
	}
	return nil
}

// labels are the labels the request lists for the judge to choose from:
// the menu of a label criterion, pass and fail for a criterion on the
// judge's own pass/fail (or for no criterion at all), none for a threshold.
func (j judging) labels() []string {
	p := j.passing
	switch {
	case j.byScore || j.verdictSchema != nil || p.MinScore != nil || p.MaxScore != nil:
		return nil
	case len(p.Labels) > 0:
		return p.Offered
	case p.Passed != nil || !p.hasCriterion():
		return passFail
	}
	return nil
}

// ask sends the request and checks the verdict keeps the judge's contract.
func (j judging) ask(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	req.Scale = req.Scale.OrDefault()
	req.Labels = j.labels()
	if j.verdictSchema != nil {
		raw, err := schemaJSON(j.verdictSchema)
		if err != nil {
			return evalkit.Verdict{}, paramErr(j.check, "verdict_schema", "%v", err)
		}
		req.VerdictSchema = raw
	}
	if j.template != "" {
		if err := j.renderTemplate(&req); err != nil {
			return evalkit.Verdict{}, err
		}
		if strings.TrimSpace(req.Criteria) == "" {
			req.Criteria = "the judge prompt template" // the task is the Prompt; recordings name it so
		}
	}
	if err := req.Validate(); err != nil {
		return evalkit.Verdict{}, fmt.Errorf("%s: %w", j.check, err)
	}
	if j.verdictSchema != nil {
		// A panel checks each member's verdict as a single judge's is
		// checked below: a member that breaks the schema is missing data.
		ctx = evalkit.WithVoteCheck(ctx, func(v evalkit.Verdict) (evalkit.Verdict, error) {
			return v, j.checkSchema(v)
		})
	}
	v, err := callJudge(ctx, j.judge, req)
	if err != nil {
		return evalkit.Verdict{}, fmt.Errorf("%s: the judge failed: %w", j.check, err)
	}
	if err := checkScore(j.check, v); err != nil {
		return evalkit.Verdict{}, err
	}
	if err := contradiction(j.check, v); err != nil {
		return evalkit.Verdict{}, err
	}
	if j.verdictSchema != nil && len(v.Votes) == 0 {
		if err := j.checkSchema(v); err != nil {
			return evalkit.Verdict{}, err
		}
	}
	return v, nil
}

// checkSchema checks a verdict against the check's verdict schema.
func (j judging) checkSchema(v evalkit.Verdict) error {
	sch, err := compileNamed(j.check, "verdict_schema", j.verdictSchema)
	if err != nil {
		return err
	}
	if v.Fields == nil {
		return badVerdict(j.check, "the judge did not answer with a JSON object, and the verdict schema asks for one")
	}
	leaves, err := validateFields(sch, v.Fields)
	if err != nil {
		return fmt.Errorf("%s: validating the verdict: %w", j.check, err)
	}
	if leaves != nil {
		var why []string
		for _, d := range leaves {
			why = append(why, d.Label+": "+d.Text)
		}
		return badVerdict(j.check, "the verdict breaks the verdict schema: %s", strings.Join(why, "; "))
	}
	return nil
}

// schemaJSON is a schema's JSON text for the request: compact, and with
// sorted keys when given as a Go value, so equal schemas key recordings
// alike.
func schemaJSON(schema any) (json.RawMessage, error) {
	var text []byte
	switch s := schema.(type) {
	case string:
		text = []byte(s)
	case []byte:
		text = s
	case json.RawMessage:
		text = s
	default:
		return json.Marshal(s)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, text); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// result grades v by the check's Passing: the zero Passing reads the
// judge's own pass/fail, which the request asked for as a label.
func (j judging) result(v evalkit.Verdict) (Result, error) {
	var g graded
	var err error
	p := j.passing
	if !p.hasCriterion() {
		p = Passing{Passed: ptrTo(true)}
	}
	if p.Passed != nil && p.Field == "" && v.Passed == nil && slices.Equal(j.labels(), passFail) {
		// The judge was asked for pass or fail as a label.
		switch strings.ToLower(strings.TrimSpace(v.Label)) {
		case "pass":
			v.Passed = ptrTo(true)
		case "fail":
			v.Passed = ptrTo(false)
		case "":
			return Result{}, badVerdict(j.check, "the verdict has no pass/fail: asked for the label pass or fail, the judge gave no label and no \"passed\" field%s", gaveInstead(v))
		default:
			return Result{}, badVerdict(j.check, "asked to label the content pass or fail, the judge gave %s", labelOrNothing(v.Label))
		}
	}
	if p.hasCriterion() {
		g, err = p.grade(j.check, v)
	}
	if err != nil {
		return Result{}, err
	}
	return verdictResult(v, g, j, len(j.passing.Labels) > 0 && j.passing.Field == ""), nil
}

// verdictResult builds a judged check's Result: the verdict's score, the
// grading's summary, then the judge's reasoning, label, criteria and model.
func verdictResult(v evalkit.Verdict, g graded, j judging, labelShown bool) Result {
	score := v.Score
	if !v.Scored {
		score = 0
		if g.passed {
			score = 1
		}
	}
	var details []Detail
	if r := strings.Join(strings.Fields(v.Reasoning), " "); r != "" {
		details = append(details, Detail{"reasoning", textnorm.Excerpt(r, maxReasoning)})
	} else if r := strings.Join(strings.Fields(v.Raw), " "); r != "" {
		// A text verdict ("... Rating: [[6]]") has no reasoning field: its
		// whole answer is the explanation.
		details = append(details, Detail{"answer", textnorm.Excerpt(r, maxReasoning)})
	}
	if sc := j.req.Scale.OrDefault(); v.Scored && j.byScore {
		// The score decided: say what the judge wrote, when it is what was
		// graded (a custom judge may leave RawScore unset).
		if n, err := sc.Normalize(v.RawScore); err == nil && math.Abs(n-v.Score) <= scoreSlack {
			details = append(details, Detail{"raw score", fmt.Sprintf("%s on %s–%s", fmtNumber(v.RawScore), fmtNumber(sc.Min), fmtNumber(sc.Max))})
		}
	}
	if v.Label != "" && !labelShown {
		details = append(details, Detail{"label", excerpt(v.Label)})
	}
	if len(v.Criteria) > 0 {
		parts := make([]string, 0, len(v.Criteria))
		for _, c := range v.Criteria {
			parts = append(parts, fmt.Sprintf("%s %.2f", c.Name, c.Score))
		}
		details = append(details, Detail{"criteria", textnorm.Excerpt(strings.Join(parts, ", "), maxDetail)})
	}
	details = append(details, g.details...)
	if len(v.ToolCalls) > 0 {
		details = append(details, Detail{"judge tools", judgeToolsText(v.ToolCalls)})
	}
	if m := judgeModel(v, j.judge); m != "" {
		details = append(details, Detail{"judge", textnorm.Excerpt(m, maxQuote)})
	}
	return Result{Passed: g.passed, Score: clamp01(score), Summary: g.summary, Want: g.want, Details: details}
}

// maxReasoning bounds the judge's reasoning in a Result, in bytes.
const maxReasoning = 500

// judgeModel names the judge: a judge of a set by its provenance (see
// judgeLine), any other by the model that judged, the verdict's, else the
// judge's identity's.
func judgeModel(v evalkit.Verdict, j evalkit.Judge) string {
	if line := judgeLine(j); line != "" {
		return line
	}
	if v.Model != "" {
		return v.Model
	}
	if id, ok := j.(evalkit.Identifier); ok {
		return id.Identity().Model
	}
	return ""
}

func ptrTo[T any](v T) *T { return &v }

// buildJudging reads the params LLMJudge and LLMJudgeToolCalls share.
func buildJudging(p *params) (judging, error) {
	var j judging
	var err error
	_, hasTemplate := p.m["template"]
	if j.req.Criteria, _, err = p.str(!hasTemplate, "criteria"); err != nil {
		return j, err
	}
	for _, s := range []struct {
		name string
		dst  *string
	}{{"rubric", &j.req.Rubric}, {"model", &j.req.Model}, {"system_prompt", &j.req.SystemPrompt}, {"reference", &j.req.Reference}} {
		if *s.dst, _, err = p.str(false, s.name); err != nil {
			return j, err
		}
	}
	if j.req.Context, _, err = p.strs(false, "context"); err != nil {
		return j, err
	}
	if j.req.References, _, err = p.strs(false, "references"); err != nil {
		return j, err
	}
	if j.template, _, err = p.str(false, "template"); err != nil {
		return j, err
	}
	if j.responseFormat, _, err = p.str(false, "response_format"); err != nil {
		return j, err
	}
	scale, ok, err := p.object(false, "scale")
	if err != nil {
		return j, err
	}
	if ok {
		sp := newParams(p.check, scale)
		lo, okLo, err := sp.num("min")
		if err != nil {
			return j, p.err("scale", "%v", err.(*ParamError).Msg)
		}
		hi, okHi, err := sp.num("max")
		if err != nil {
			return j, p.err("scale", "%v", err.(*ParamError).Msg)
		}
		if !okLo || !okHi {
			return j, p.err("scale", "want an object with min and max, such as {\"min\": 1, \"max\": 10}")
		}
		if err := sp.finish(); err != nil {
			return j, p.err("scale", "%v", err.(*ParamError).Msg)
		}
		j.req.Scale = evalkit.Scale{Min: lo, Max: hi}
	}
	if j.verdictSchema, _, err = p.value("verdict_schema"); err != nil {
		return j, err
	}
	for _, name := range []string{"min_score", "max_score"} {
		if _, ok, _ := p.value(name); ok {
			return j, p.err(name, "a judged check holds no threshold: wrap it in type: assertion with eval_type %q and %s", p.check, name)
		}
	}
	j.passing, err = readPassing(p)
	j.judge = p.reg.judgeOrNil()
	if j.judge == nil && p.declaring {
		j.judge = notYetJudge{} // Validate: the judge is wired later
	}
	return j, err
}

// notYetJudge stands in for the judge while Registry.Validate checks a
// judged check's parameters; the check it is in is never run.
type notYetJudge struct{}

func (notYetJudge) Judge(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return evalkit.Verdict{}, fmt.Errorf("%w: the check was only validated", ErrNoJudge)
}

// readPassing reads a judged check's passing criterion, other than a
// threshold.
func readPassing(p *params) (Passing, error) {
	var ps Passing
	var err error
	if ps.Labels, _, err = p.strs(false, "passing_labels"); err != nil {
		return ps, err
	}
	if ps.Offered, _, err = p.strs(false, "offered_labels"); err != nil {
		return ps, err
	}
	rules, ok, err := p.rules("label_rules")
	if err != nil {
		return ps, err
	}
	if !ok && len(ps.Labels) > 0 {
		rules = defaultLabelRules
	}
	ps.Rules = rules
	if ps.Field, _, err = p.str(false, "verdict_field"); err != nil {
		return ps, err
	}
	passed, ok, err := p.boolean("passed")
	if err != nil {
		return ps, err
	}
	if ok {
		ps.Passed = &passed
	}
	if ps.Schema, _, err = p.value("passing_schema"); err != nil {
		return ps, err
	}
	if ps.Verdicts, err = readPassingVerdicts(p); err != nil {
		return ps, err
	}
	if _, ok := p.m["verdict_rules"]; ok { // the rules passing_verdicts are canonicalized by
		if ps.Rules, _, err = p.rules("verdict_rules"); err != nil {
			return ps, err
		}
	}
	return ps, nil
}

// defaultLabelRules compare labels as a reader would: a label's case,
// surrounding or doubled white space and invisible characters never mean
// anything.
var defaultLabelRules = Rules{CaseInsensitive: true, Trim: true, CollapseWhitespace: true, IgnoreZeroWidth: true}

func buildLLMJudge(p *params) (Check, error) {
	j, err := buildJudging(p)
	if err != nil {
		return nil, err
	}
	scope, err := p.scope()
	if err != nil {
		return nil, err
	}
	return LLMJudge{Judge: j.judge, Criteria: j.req.Criteria, Rubric: j.req.Rubric, Reference: j.req.Reference, Context: j.req.Context,
		Scale: j.req.Scale, Model: j.req.Model, SystemPrompt: j.req.SystemPrompt, VerdictSchema: j.verdictSchema, Passing: j.passing, Scope: scope,
		References: j.req.References, Template: j.template, ResponseFormat: j.responseFormat}, nil
}

func buildLLMJudgeToolCalls(p *params) (Check, error) {
	j, err := buildJudging(p)
	if err != nil {
		return nil, err
	}
	tools, _, err := p.strs(false, "tools", "tool_names")
	if err != nil {
		return nil, err
	}
	scope, err := p.scope()
	if err != nil {
		return nil, err
	}
	return LLMJudgeToolCalls{Judge: j.judge, Criteria: j.req.Criteria, Rubric: j.req.Rubric, Reference: j.req.Reference, Context: j.req.Context,
		Scale: j.req.Scale, Model: j.req.Model, SystemPrompt: j.req.SystemPrompt, VerdictSchema: j.verdictSchema, Passing: j.passing,
		Tools: tools, Scope: scope, References: j.req.References, Template: j.template, ResponseFormat: j.responseFormat}, nil
}

func labelOrNothing(l string) string {
	if l == "" {
		return "no label"
	}
	return "the label " + excerpt(l)
}

// fmtNumber writes a number as briefly as it reads: 8, 5.5, 0.25.
func fmtNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// callJudge asks the judge, turning a panic (a user's judge, a fake with a
// bug) into an error: a check must not take down the program that runs it.
// A context that can end bounds the wait even for a judge that ignores it:
// the judge runs in a goroutine of its own, and when the context ends
// first, callJudge returns an error wrapping ctx.Err() and abandons that
// goroutine, which ends whenever the judge returns (its verdict is
// dropped) or never, if the judge never does. A judge that honours its
// context and returns within judgeGrace of its end gives its own error,
// which says more (evaltest's names the stalled call at the test's
// deadline).
func callJudge(ctx context.Context, j evalkit.Judge, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return evalkit.Verdict{}, fmt.Errorf("the context ended before the judge was asked: %w", err)
	}
	if ctx.Done() == nil { // a context that never ends: nothing to wait for
		return judgeSafely(ctx, j, req)
	}
	type answer struct {
		v   evalkit.Verdict
		err error
	}
	done := make(chan answer, 1) // buffered: an abandoned judge never blocks
	go func() {
		v, err := judgeSafely(ctx, j, req)
		done <- answer{v, err}
	}()
	select {
	case a := <-done:
		return a.v, a.err
	case <-ctx.Done():
	}
	grace := time.NewTimer(judgeGrace)
	defer grace.Stop()
	select {
	case a := <-done:
		if a.err != nil {
			return a.v, a.err
		}
	case <-grace.C:
	}
	// context.Cause says why: a cancellation, a deadline, evaltest's stop
	// before go test's -timeout (which is a DeadlineExceeded too).
	return evalkit.Verdict{}, fmt.Errorf("the context ended before the judge answered: %w", context.Cause(ctx))
}

// judgeGrace is how long callJudge waits, once the context has ended, for
// the judge's own error.
const judgeGrace = 250 * time.Millisecond

// judgeSafely calls the judge, turning a panic into an error.
func judgeSafely(ctx context.Context, j evalkit.Judge, req evalkit.JudgeRequest) (v evalkit.Verdict, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = evalkit.Verdict{}, fmt.Errorf("the judge panicked: %v", r)
		}
	}()
	return j.Judge(ctx, req)
}
