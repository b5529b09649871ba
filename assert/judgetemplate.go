package assert

import (
	"fmt"
	"strings"
	"text/template"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// JudgeTemplateData is what a judge prompt template reads (LLMJudge's
// Template, a Go text/template), in MindTrial's names, so a MindTrial
// template runs unchanged:
//
//	Does the answer {{.Candidate.Response}} solve {{.OriginalTask.Prompt}}?
//	Acceptable answers: {{range .OriginalTask.ExpectedResults}}{{.}}; {{end}}
//
// The template's text is the judge's whole task (JudgeRequest.Prompt): the
// judge adds only the shape of its answer (VerdictFormat's schema, or its
// own score and reasoning).
type JudgeTemplateData struct {
	OriginalTask struct {
		// Prompt is the user's request: the last user message before the
		// answer.
		Prompt string
		// ResponseResultFormat is the answer format the task asked for
		// (LLMJudge's ResponseFormat).
		ResponseResultFormat string
		// ExpectedResults are the reference answers: References, or
		// Reference alone.
		ExpectedResults []string
	}
	Candidate struct {
		// Response is the content under judgment.
		Response string
	}
	// Rules are the check's canonicalization rules (its Passing's).
	Rules struct {
		CaseSensitive, IgnoreWhitespace, TrimLines bool
	}
	// VerdictFormat is the verdict JSON Schema asked for, as JSON; "" when
	// none.
	VerdictFormat string
}

// parseJudgeTemplate parses a judge prompt template; its error is a
// *ParamError on "template". Templates that reference an unknown field
// fail when executed (missingkey=error).
func parseJudgeTemplate(check, text string) (*template.Template, error) {
	t, err := template.New("judge").Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, paramErr(check, "template", "%v", strings.TrimPrefix(err.Error(), "template: judge:"))
	}
	return t, nil
}

// renderJudgeTemplate renders j's template for req into req.Prompt.
func (j judging) renderTemplate(req *evalkit.JudgeRequest) error {
	t, err := parseJudgeTemplate(j.check, j.template)
	if err != nil {
		return err
	}
	var d JudgeTemplateData
	d.OriginalTask.Prompt = req.Input
	d.OriginalTask.ResponseResultFormat = j.responseFormat
	d.OriginalTask.ExpectedResults = req.References
	if req.Reference != "" {
		d.OriginalTask.ExpectedResults = []string{req.Reference}
	}
	d.Candidate.Response = req.Content
	r := j.passing.Rules
	d.Rules.CaseSensitive, d.Rules.IgnoreWhitespace, d.Rules.TrimLines = !r.CaseInsensitive, r.IgnoreWhitespace, r.TrimLines
	d.VerdictFormat = string(req.VerdictSchema)
	var b strings.Builder
	if err := t.Execute(&b, d); err != nil {
		return fmt.Errorf("%s: param \"template\": %s", j.check, strings.TrimPrefix(err.Error(), "template: judge:"))
	}
	if strings.TrimSpace(b.String()) == "" {
		return paramErr(j.check, "template", "renders to nothing: the judge would be asked nothing")
	}
	req.Prompt = b.String()
	return nil
}

// judgeToolsText lists a judge's tool calls for a detail line:
// lookup_policy({"topic":"refunds"}) → "Refunds within 30 days." (×1).
func judgeToolsText(calls []evalkit.JudgeToolCall) string {
	parts := make([]string, 0, len(calls))
	for _, c := range calls {
		out := excerpt(c.Result)
		if c.Error != "" {
			out = "error: " + excerpt(c.Error)
		}
		parts = append(parts, fmt.Sprintf("%s(%s) → %s", c.Name, textnorm.Excerpt(string(c.Args), 80), out))
	}
	return textnorm.Excerpt(strings.Join(parts, "; "), maxDetail)
}
