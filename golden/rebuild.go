package golden

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// ErrExcerpt is wrapped by Entry.Rebuild when the entry's summary holds
// only an excerpt of its request, or not all of it.
var ErrExcerpt = errors.New("the recording holds an excerpt of the request, not the request")

// Rebuild rebuilds the request an entry was recorded for from its summary,
// for asking a judge again (`evalkit golden audit`). The summary holds a
// request whole when it was recorded WithWholeRequests, or when nothing in
// it was long enough to cut (criteria up to 1000 bytes, content 400, the
// other texts 200), redacted, or left out (a metric step's name): Rebuild
// checks that the rebuilt request keys to the entry's key under its
// recorded judge, and otherwise returns an error wrapping ErrExcerpt that
// names the fields cut.
func (e Entry) Rebuild() (evalkit.JudgeRequest, error) {
	s := e.Request
	req := evalkit.JudgeRequest{
		Criteria: s.Criteria, Rubric: s.Rubric, Input: s.Input, Content: s.Content, Kind: s.Kind,
		Reference: s.Reference, Context: s.Context, Scale: s.Scale, SystemPrompt: s.SystemPrompt,
		Model: s.Model, Labels: s.Labels, Metric: s.Metric,
	}
	if s.VerdictSchema != "" {
		req.VerdictSchema = json.RawMessage(s.VerdictSchema)
	}
	k, err := Key(e.Judge, req)
	if err != nil {
		return evalkit.JudgeRequest{}, fmt.Errorf("golden: entry %s: %w (%v)", ShortKey(e.Key), ErrExcerpt, err)
	}
	if k == e.Key {
		return req, nil
	}
	var cut []string
	for name, text := range map[string]string{"criteria": s.Criteria, "input": s.Input, "content": s.Content, "rubric": s.Rubric,
		"reference": s.Reference, "system_prompt": s.SystemPrompt, "verdict_schema": s.VerdictSchema, "context": strings.Join(s.Context, "\n")} {
		if excerptMark.MatchString(text) {
			cut = append(cut, name)
		}
	}
	if len(cut) == 0 {
		return evalkit.JudgeRequest{}, fmt.Errorf("golden: entry %s: %w: it does not key to its key (a field redacted, or one the summary does not hold)", ShortKey(e.Key), ErrExcerpt)
	}
	slices.Sort(cut)
	return evalkit.JudgeRequest{}, fmt.Errorf("golden: entry %s: %w: %s cut", ShortKey(e.Key), ErrExcerpt, strings.Join(cut, ", "))
}

// excerptMark ends a text cut to an excerpt.
var excerptMark = regexp.MustCompile(`… \[\d+ more bytes\]$`)
