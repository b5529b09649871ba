package assert

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/jsonx"
)

func jsonChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"json_valid":     buildJSONValid,
		"json_schema":    buildJSONSchema,
		"json_path":      buildJSONPath,
		"field_presence": buildFieldPresence,
	}
}

func jsonMode(allowWrapped, extractJSON bool) jsonx.Mode {
	switch {
	case extractJSON:
		return jsonx.Prose
	case allowWrapped:
		return jsonx.Wrapped
	}
	return jsonx.Strict
}

// readJSONSource reads the parameters every JSON check has.
func readJSONSource(p *params) (allowWrapped, extractJSON bool, scope Scope, err error) {
	if allowWrapped, _, err = p.boolean("allow_wrapped"); err != nil {
		return
	}
	if extractJSON, _, err = p.boolean("extract_json"); err != nil {
		return
	}
	scope, err = p.scope()
	return
}

// eachJSON finds the JSON of every assistant message the check reads and
// judges it; a message without JSON fails. For Session scope it combines
// the messages' results; passNoun says what they all do when they pass
// ("hold valid JSON").
func eachJSON(check string, tr *evalkit.Transcript, scope Scope, mode jsonx.Mode, passNoun string,
	judge func(o output, p *parsed) (Result, error)) (Result, error) {
	return eachJSONReading(check, tr, scope, mode, passNoun, false, judge)
}

// eachPlainJSON is eachJSON for a check whose judge reads p.Plain: the
// JSON is decoded before the duplicate-key check, which the decoding
// answers when it takes its quick path (see parsed.Conflict).
func eachPlainJSON(check string, tr *evalkit.Transcript, scope Scope, mode jsonx.Mode, passNoun string,
	judge func(o output, p *parsed) (Result, error)) (Result, error) {
	return eachJSONReading(check, tr, scope, mode, passNoun, true, judge)
}

func eachJSONReading(check string, tr *evalkit.Transcript, scope Scope, mode jsonx.Mode, passNoun string, plain bool,
	judge func(o output, p *parsed) (Result, error)) (Result, error) {
	scope = scope.or(Turn)
	if scope == Turn {
		// One output: judged as the loop below judges it, without the
		// slices (most JSON checks read the last answer only).
		o, err := lastOutput(check, tr)
		if err != nil {
			return Result{}, err
		}
		return judgeJSON(check, o, mode, plain, judge)
	}
	outs, err := outputs(check, tr, scope)
	if err != nil {
		return Result{}, err
	}
	if scope == Session {
		outs = withText(outs)
		if len(outs) == 0 {
			return fail(0, "no assistant message has text"), nil
		}
	}
	results := make([]Result, len(outs))
	for i, o := range outs {
		if results[i], err = judgeJSON(check, o, mode, plain, judge); err != nil {
			return Result{}, err
		}
	}
	return combine(outs, results, passNoun), nil
}

// judgeJSON is eachJSON's verdict on one output.
func judgeJSON(check string, o output, mode jsonx.Mode, plain bool, judge func(o output, p *parsed) (Result, error)) (Result, error) {
	p := parseOutput(o.text, mode)
	if p.err != nil {
		return notJSON(o, p.err, mode), nil
	}
	if plain {
		_, _ = p.Plain() // judge reads it, and reports its error after the duplicate keys'
	}
	if err := p.Conflict(); err != nil {
		return Result{}, fmt.Errorf("%s: %s: the JSON in %s: %w", check, o.label(), p.found.From, err)
	}
	res, err := judge(o, p)
	if err != nil {
		if pe := (*ParamError)(nil); errors.As(err, &pe) {
			return Result{}, err // the check's parameters are at fault, not this message
		}
		return Result{}, fmt.Errorf("%s: %s: %w", check, o.label(), err)
	}
	return res, nil
}

// notJSON is the failure of a message in which no JSON was found.
func notJSON(o output, err error, mode jsonx.Mode) Result {
	msg := err.Error()
	if !strings.HasPrefix(msg, "no JSON found") {
		msg = "not valid JSON: " + msg
	}
	var details []Detail
	if note := emptyNote(o); note != nil {
		details = note
	} else if strings.TrimSpace(o.text) != "" {
		details = append(details, Detail{"output", excerpt(o.text)})
	}
	if o.msg.FinishReason == "length" {
		details = append(details, Detail{"note", `finish_reason is "length": the output was cut off by the token limit`})
	}
	// Say when a more lenient mode would have found JSON.
	for m := mode + 1; m <= jsonx.Prose && strings.TrimSpace(o.text) != ""; m++ {
		if found, err := jsonx.Extract(o.text, m); err == nil {
			param := "allow_wrapped (AllowWrapped)"
			if m == jsonx.Prose {
				param = "extract_json (ExtractJSON)"
			}
			details = append(details, Detail{"hint", fmt.Sprintf("there is JSON in %s: set %s to read it", found.From, param)})
			break
		}
	}
	return fail(0, msg, details...)
}

// combine merges the results of several messages: all must pass; the score
// is their mean. Failing messages are listed, at most maxListed of them.
func combine(outs []output, results []Result, passNoun string) Result {
	total := 0.0
	var failed []int
	for i, r := range results {
		total += r.Score
		if !r.Passed {
			failed = append(failed, i)
		}
	}
	score := total / float64(len(results))
	if len(failed) == 0 {
		return pass(score, fmt.Sprintf("all %d assistant messages %s", len(results), passNoun))
	}
	res := fail(score, fmt.Sprintf("%d of %d assistant messages fail", len(failed), len(results)))
	for n, i := range failed {
		if n == maxListed {
			res.Details = append(res.Details, Detail{"more", fmt.Sprintf("… and %d more messages", len(failed)-n)})
			break
		}
		res.Details = append(res.Details, Detail{outs[i].label(), results[i].Summary})
		for _, d := range results[i].Details {
			if d.Label == "note" || d.Label == "hint" {
				res.Details = append(res.Details, d)
			}
		}
		if res.Diff == "" && res.lazyDiff == nil {
			res.Diff, res.lazyDiff = results[i].Diff, results[i].lazyDiff
		}
	}
	return res
}

// maxListed bounds the items (messages, schema errors, missing fields) a
// failure lists.
const maxListed = 10

// boundedList joins items already rendered for a message with ", ": at most
// maxListed of them, then "… and N more".
func boundedList(items []string) string {
	if len(items) <= maxListed {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:maxListed], ", ") + fmt.Sprintf(", … and %d more", len(items)-maxListed)
}

// JSONValid passes when the output is valid JSON: any JSON value, scalars
// included. It fails on output that is empty, not JSON or cut off, with
// encoding/json's reason and position. With Turn scope (the default) it
// reads the last assistant message; with Session scope every assistant
// message that has text must hold JSON, and the score is the fraction that
// does; otherwise the score is 1 or 0.
//
// Every JSON check (JSONValid, JSONSchema, JSONPath, FieldPresence) finds
// the JSON in a message the same way:
//
//   - by default the whole message, trimmed of white space (Unicode's, as
//     unicode.IsSpace; inside the value only JSON's), must be one JSON value;
//   - with AllowWrapped (PromptKit's allow_wrapped) it may also be in a
//     markdown code fence, ``` or ~~~: the first fence tagged json (or
//     jsonc, json5; any case) wins, else the first untagged fence holding an
//     object or array; a fence tagged with another language (```ts,
//     ```python) is never read as JSON, and when the first json fence does
//     not parse the check fails with its reason rather than read another
//     fence;
//   - with ExtractJSON (PromptKit's extract_json) it may also be the first
//     JSON object or array embedded in prose (bare scalars in prose are not
//     taken); ExtractJSON implies AllowWrapped.
//
// A message in which no JSON is found fails the check with the reason, such
// as "no JSON found: the only fence is tagged python" or "not valid JSON:
// unexpected end of input (cut off?) at line 1, column 51"; a message whose
// FinishReason is "length" gets a note that the token limit cut it off, and a
// hint names the parameter that would have found JSON elsewhere in it. With
// Session scope every assistant message that has text must pass and the
// score is the mean of the messages' scores. A transcript with no assistant
// message is an error wrapping ErrNoOutput. JSON that gives a key twice in
// one object with different values ({"amount": 42, "amount": 4200}) is an
// error naming the key and its place, for every JSON check (and Equals on
// JSON): RFC 8259 calls such objects not interoperable, encoding/json
// keeps the last value and other parsers the first, so any verdict on it
// would be a guess.
//
// Registry type "json_valid" (aliases "valid_json", "is_valid_json"),
// params: allow_wrapped, extract_json, scope. As PromptKit's json_valid.
type JSONValid struct {
	// AllowWrapped also accepts JSON in a markdown code fence.
	AllowWrapped bool
	// ExtractJSON also accepts the first JSON object or array in prose
	// (and implies AllowWrapped).
	ExtractJSON bool
	Scope       Scope
}

func buildJSONValid(p *params) (Check, error) {
	var c JSONValid
	var err error
	c.AllowWrapped, c.ExtractJSON, c.Scope, err = readJSONSource(p)
	return c, err
}

// Check implements Check.
func (c JSONValid) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	return eachJSON("json_valid", tr, c.Scope, jsonMode(c.AllowWrapped, c.ExtractJSON), "hold valid JSON",
		func(_ output, p *parsed) (Result, error) {
			return pass(1, "valid JSON in "+p.found.From), nil
		})
}
