package assert

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/jsonx"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// External evaluators: an HTTP endpoint (RESTEval), an A2A agent
// (A2AEval) or a subprocess (ExecEval) reads the evaluation request,
// EvalRequest, and answers {"passed": ..., "score": ..., "reasoning": ...}.
// Every failure of the evaluator — it cannot be reached, answers non-2xx
// or non-JSON, exits non-zero, runs out of time, gives neither passed nor
// score — is an error, never a verdict.

// ErrEvaluator is wrapped by every error an external evaluator's failure
// causes (as opposed to a bad parameter): the evaluator, not the output
// under test, is at fault.
var ErrEvaluator = errors.New("the external evaluator failed")

// EvalRequest is what an external evaluator reads, as PromptKit's
// ExternalEvalRequest: the output under test and, unless left out, the
// conversation that led to it.
type EvalRequest struct {
	// CurrentOutput is the last assistant message's text (Turn scope), or
	// every assistant message's text joined by blank lines (Session).
	CurrentOutput string `json:"current_output"`
	// Messages are the conversation's messages up to and including the
	// last assistant message (Turn), or all of them (Session); omitted
	// with include_messages false.
	Messages []EvalMessage `json:"messages,omitempty"`
	// ToolCalls are the last turn's calls (Turn) or every call (Session),
	// with their results; only with include_tool_calls true.
	ToolCalls []EvalToolCall `json:"tool_calls,omitempty"`
	// Criteria are the check's evaluation criteria, when given.
	Criteria string `json:"criteria,omitempty"`
	// Variables are the transcript's Metadata.
	Variables map[string]any `json:"variables,omitempty"`
	// Extra is the check's extra data, forwarded as given.
	Extra map[string]any `json:"extra,omitempty"`
	// Scope is "turn" or "session".
	Scope string `json:"scope"`
}

// EvalMessage is one message of an EvalRequest.
type EvalMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// ToolCalls name the calls an assistant message made.
	ToolCalls []string `json:"tool_calls,omitempty"`
}

// EvalToolCall is one tool call of an EvalRequest, with its result.
type EvalToolCall struct {
	Name    string          `json:"name"`
	Args    json.RawMessage `json:"args,omitempty"`
	Result  string          `json:"result,omitempty"`
	IsError bool            `json:"is_error,omitempty"`
}

// EvalResponse is an external evaluator's answer. Passed, Score or both
// must be given; Score is in [0,1].
type EvalResponse struct {
	Passed    *bool    `json:"passed,omitempty"`
	Score     *float64 `json:"score,omitempty"`
	Reasoning string   `json:"reasoning,omitempty"`
}

// external is what the three evaluators share.
type external struct {
	check            string
	criteria         string
	extra            map[string]any
	omitMessages     bool
	includeToolCalls bool
	scope            Scope
}

func (e external) validate() error {
	if s := e.scope.or(Turn); s != Turn && s != Session {
		return paramErr(e.check, "scope", "want Turn or Session, got %v", e.scope)
	}
	if e.extra != nil {
		if _, err := json.Marshal(e.extra); err != nil {
			return paramErr(e.check, "extra", "not JSON: %v", err)
		}
	}
	return nil
}

// request builds the EvalRequest for tr.
func (e external) request(tr *evalkit.Transcript) (EvalRequest, error) {
	scope := e.scope.or(Turn)
	outs, err := outputs(e.check, tr, scope)
	if err != nil {
		return EvalRequest{}, err
	}
	req := EvalRequest{Criteria: e.criteria, Extra: e.extra, Scope: scope.String(), Variables: tr.Metadata}
	last := outs[len(outs)-1].index
	if scope == Turn {
		req.CurrentOutput = outs[0].text
	} else {
		req.CurrentOutput = joinOutputs(withText(outs))
		last = len(tr.Messages) - 1
	}
	if !e.omitMessages {
		for _, m := range tr.Messages[:last+1] {
			em := EvalMessage{Role: string(m.Role), Content: textnorm.Newlines(m.Content)}
			for _, c := range m.ToolCalls {
				em.ToolCalls = append(em.ToolCalls, c.Name)
			}
			req.Messages = append(req.Messages, em)
		}
	}
	if e.includeToolCalls {
		calls := tr.ToolCalls()
		if scope == Turn {
			if turn, ok := tr.LastTurn(); ok {
				calls = turn.ToolCalls()
			}
		}
		for _, c := range calls {
			tc := EvalToolCall{Name: c.Name}
			if json.Valid(c.Args) {
				tc.Args = c.Args
			}
			if c.Result != nil {
				tc.Result, tc.IsError = c.Result.Content, c.Result.IsError
			}
			req.ToolCalls = append(req.ToolCalls, tc)
		}
	}
	return req, nil
}

// maxEvalBody bounds an evaluator's answer, in bytes.
const maxEvalBody = 1 << 20

// readEvalResponse reads an evaluator's JSON answer: an object whose
// passed is a boolean and score a number in [0,1], at least one of them
// given; reasoning (or reason) a string.
func readEvalResponse(check string, body []byte) (EvalResponse, error) {
	var fields map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&fields); err != nil || fields == nil {
		return EvalResponse{}, fmt.Errorf("%s: %w: the answer is not a JSON object: %s", check, ErrEvaluator, textnorm.Quote(string(body), 120))
	}
	if dec.More() {
		return EvalResponse{}, fmt.Errorf("%s: %w: the answer has more than one JSON value: %s", check, ErrEvaluator, textnorm.Quote(string(body), 120))
	}
	if err := givenOnce(check, "the answer", body, false); err != nil {
		return EvalResponse{}, err
	}
	return evalResponseOf(check, fields)
}

// givenOnce is an error when what, JSON from an evaluator, gives a key
// twice — compared as they are, or with fold as encoding/json matches
// struct fields (jsonx.DuplicateFoldedKey) — or does not read as JSON
// after all.
func givenOnce(check, what string, data []byte, fold bool) error {
	find := jsonx.DuplicateKey
	if fold {
		find = jsonx.DuplicateFoldedKey
	}
	key, dup, err := find(data)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w: %s is not JSON: %s", check, ErrEvaluator, what, textnorm.Excerpt(err.Error(), 200))
	case dup:
		return fmt.Errorf("%s: %w: %s gives %s twice", check, ErrEvaluator, what, textnorm.Quote(key, 80))
	}
	return nil
}

func evalResponseOf(check string, fields map[string]any) (EvalResponse, error) {
	var r EvalResponse
	for k := range fields {
		for _, want := range []string{"passed", "score", "reasoning", "reason"} {
			if k != want && strings.EqualFold(k, want) {
				// {"Passed": false, "score": 0.9} must not pass on the score.
				return r, fmt.Errorf("%s: %w: the answer gives %s: want %s, in lower case", check, ErrEvaluator, textnorm.Quote(k, 40), want)
			}
		}
	}
	if v, ok := fields["passed"]; ok && v != nil {
		b, isBool := v.(bool)
		if !isBool {
			return r, fmt.Errorf("%s: %w: passed is %s, want true or false", check, ErrEvaluator, kindOf(v))
		}
		r.Passed = &b
	}
	if v, ok := fields["score"]; ok && v != nil {
		f, isNum := toFloat(v)
		if !isNum || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f > 1 {
			return r, fmt.Errorf("%s: %w: score is %s, want a number in [0,1]", check, ErrEvaluator, textnorm.Quote(fmt.Sprint(v), 40))
		}
		r.Score = &f
	}
	if r.Passed == nil && r.Score == nil {
		return r, fmt.Errorf("%s: %w: the answer has neither passed nor score (its fields: %s)", check, ErrEvaluator, fieldNames(fields))
	}
	for _, k := range []string{"reasoning", "reason"} {
		if v, ok := fields[k]; ok && v != nil {
			s, isStr := v.(string)
			if !isStr {
				return r, fmt.Errorf("%s: %w: %s is %s, want a string", check, ErrEvaluator, k, kindOf(v))
			}
			r.Reasoning = s
			break
		}
	}
	return r, nil
}

// evalResult is a Check's Result from an evaluator's answer: its own
// passed decides. An answer with a score and no passed cannot be graded
// without a threshold: an error telling to add one.
func evalResult(check string, r EvalResponse, who string) (Result, error) {
	if r.Passed == nil {
		return Result{}, fmt.Errorf("%s: %w: the evaluator gave a score (%s) but no passed: give min_score (or wrap the check in an assertion) to grade the score", check, ErrNoThreshold, fmtNumber(*r.Score))
	}
	score := 0.0
	if *r.Passed {
		score = 1
	}
	verdict := "failed"
	if *r.Passed {
		verdict = "passed"
	}
	summary := fmt.Sprintf("%s: the evaluator %s the output", check, verdict)
	if r.Score != nil {
		score = *r.Score
		summary += fmt.Sprintf(" (score %s)", fmtNumber(roundScore(score)))
	}
	return Result{Passed: *r.Passed, Score: score, Summary: summary, Details: evalDetails(r, who)}, nil
}

// measureResult is Measure's answer from an evaluator's answer: its own
// passed decides when it gives one; else its score is measured.
func measureResult(check string, r EvalResponse, who string) (Result, bool, error) {
	if r.Passed == nil {
		res, err := evalScore(check, r, who)
		return res, err == nil, err
	}
	res, err := evalResult(check, r, who)
	return res, false, err
}

// evalScore is an emitScore's Result: the score is required.
func evalScore(check string, r EvalResponse, who string) (Result, error) {
	if r.Score == nil {
		return Result{}, fmt.Errorf("%s: %w: the evaluator gave no score, and the threshold needs one", check, ErrEvaluator)
	}
	summary := fmt.Sprintf("%s: the evaluator scores the output %s", check, fmtNumber(roundScore(*r.Score)))
	if r.Passed != nil {
		summary += fmt.Sprintf(" (its own verdict: passed %v)", *r.Passed)
	}
	return Result{Passed: r.Passed == nil || *r.Passed, Score: *r.Score, Summary: summary, Details: evalDetails(r, who)}, nil
}

func evalDetails(r EvalResponse, who string) []Detail {
	var d []Detail
	if s := strings.Join(strings.Fields(r.Reasoning), " "); s != "" {
		d = append(d, Detail{"reasoning", textnorm.Excerpt(s, maxReasoning)})
	}
	return append(d, Detail{"evaluator", who})
}

// envRef is a reference to an environment variable: ${NAME}.
var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expandEnv replaces each ${NAME} in value by the variable's value. Only
// the names in allow are read: a reference to any other, to an unset
// variable, or a "${" that starts no reference, is an error naming it,
// never an empty or literal value sent on. secrets collects the values
// read, for redaction.
func expandEnv(check, param, value string, allow []string, secrets *[]string) (string, error) {
	var err error
	out := envRef.ReplaceAllStringFunc(value, func(ref string) string {
		name := ref[2 : len(ref)-1]
		if err != nil {
			return ""
		}
		if !slices.Contains(allow, name) {
			err = paramErr(check, param, "${%s} is not an allowed environment variable: allow it in Go with Registry.WithEnv(%q) (AllowEnv on the check)", name, name)
			return ""
		}
		v, set := os.LookupEnv(name)
		if !set || v == "" {
			err = paramErr(check, param, "${%s} is not set in the environment", name)
			return ""
		}
		*secrets = append(*secrets, v)
		return v
	})
	if err != nil {
		return "", err
	}
	if strings.Contains(envRef.ReplaceAllString(value, ""), "${") {
		return "", paramErr(check, param, "a \"${\" that starts no ${NAME} reference")
	}
	return out, nil
}

// RESTEval asks an HTTP endpoint to evaluate the output, as PromptKit's
// rest_eval: it sends the EvalRequest as JSON to URL (POST, or Method:
// PUT, PATCH, or GET with the body, as PromptKit sends it) and reads the answer,
// a JSON object {"passed": bool, "score": number in [0,1], "reasoning":
// string}. The evaluator's passed decides, its score is the Result's (1 or
// 0 by passed when it gives none); an Assertion wrapping the check grades
// the score instead, which is then required. With Turn scope (the
// default) the request holds the last assistant message; with Session
// scope every assistant message (PromptKit's rest_eval_session).
//
// Headers may hold ${NAME} references to environment variables named in
// AllowEnv (the registry's WithEnv), and only those; their values, and
// those of headers named like credentials, never appear in an error. The
// call times out after Timeout (default 30 s), is retried twice on 408,
// 429, 5xx and connection failures, never follows a redirect, and reads at
// most 1 MiB. Errors, never verdicts: a bad parameter, no assistant output
// (ErrNoOutput), and wrapping ErrEvaluator a failed call, a non-2xx
// status, an answer that is not one JSON object, has neither passed nor
// score, or a score outside [0,1]; a score without passed, outside an
// assertion, is an error too.
//
// Registry types "rest_eval" and "rest_eval_session", params: url
// (required, http or https), method (POST, PUT, PATCH or GET), headers (an
// object of strings), timeout (a duration, "30s", or seconds), criteria,
// include_messages (default true), include_tool_calls (default false),
// extra (an object), min_score (the check becomes an Assertion on the
// score, as PromptKit's rest_eval min_score), scope.
type RESTEval struct {
	URL string
	// Method is the HTTP method; "" is POST.
	Method  string
	Headers map[string]string
	Timeout time.Duration
	// Criteria are forwarded in the request.
	Criteria string
	// Extra is forwarded in the request as given.
	Extra map[string]any
	// OmitMessages leaves the conversation out of the request
	// (include_messages false).
	OmitMessages bool
	// IncludeToolCalls adds the tool calls and their results.
	IncludeToolCalls bool
	// Scope: Turn (the default) or Session.
	Scope Scope
	// AllowEnv are the environment variables ${NAME} may read.
	AllowEnv []string
	// HTTPClient sends the request; nil means http.DefaultClient (with
	// redirects never followed either way).
	HTTPClient *http.Client
}

func (c RESTEval) ext() external {
	return external{check: "rest_eval", criteria: c.Criteria, extra: c.Extra, omitMessages: c.OmitMessages, includeToolCalls: c.IncludeToolCalls, scope: c.Scope}
}

func (c RESTEval) validate() error {
	if err := c.ext().validate(); err != nil {
		return err
	}
	if err := checkURL("rest_eval", "url", c.URL); err != nil {
		return err
	}
	for k := range c.Headers {
		if strings.TrimSpace(k) == "" || strings.ContainsAny(k, " \t\r\n:") {
			return paramErr("rest_eval", "headers", "%q is not a header name", k)
		}
	}
	if c.Timeout < 0 {
		return paramErr("rest_eval", "timeout", "want a positive duration, got %v", c.Timeout)
	}
	return nil
}

// checkURL wants an http or https URL with a host.
func checkURL(check, param, raw string) error {
	if strings.TrimSpace(raw) == "" {
		return paramErr(check, param, "required: the evaluator's URL")
	}
	u, err := judgehttp.ParseBaseURL(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return paramErr(check, param, "want an http:// or https:// URL with a host, got %s", judgehttp.RedactURL(raw))
	}
	return nil
}

// Check implements Check.
func (c RESTEval) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	r, who, err := c.call(ctx, tr)
	if err != nil {
		return Result{}, err
	}
	return evalResult("rest_eval", r, who)
}

func (c RESTEval) measure(ctx context.Context, tr *evalkit.Transcript) (Result, bool, error) {
	r, who, err := c.call(ctx, tr)
	if err != nil {
		return Result{}, false, err
	}
	return measureResult("rest_eval", r, who)
}

func (c RESTEval) emitScore(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	r, who, err := c.call(ctx, tr)
	if err != nil {
		return Result{}, err
	}
	return evalScore("rest_eval", r, who)
}

func (c RESTEval) call(ctx context.Context, tr *evalkit.Transcript) (EvalResponse, string, error) {
	const check = "rest_eval"
	if err := c.validate(); err != nil {
		return EvalResponse{}, "", err
	}
	req, err := c.ext().request(tr)
	if err != nil {
		return EvalResponse{}, "", err
	}
	body, err := json.Marshal(req)
	if err != nil {
		return EvalResponse{}, "", fmt.Errorf("%s: encoding the request: %w", check, err)
	}
	header := http.Header{}
	var secrets []string
	for k, v := range c.Headers {
		val, err := expandEnv(check, "headers", v, c.AllowEnv, &secrets)
		if err != nil {
			return EvalResponse{}, "", err
		}
		header.Set(k, val)
	}
	header.Set("Accept", "application/json")
	who := judgehttp.RedactURL(c.URL)
	resp, err := sendJSON(ctx, check, c.HTTPClient, c.Method, c.URL, header, body, c.Timeout, 30*time.Second, secrets)
	if err != nil {
		return EvalResponse{}, who, err
	}
	r, err := readEvalResponse(check, resp)
	if err != nil {
		return EvalResponse{}, who, judgehttp.RedactError(err, secrets)
	}
	return r, who, nil
}

// postJSON posts body with judgehttp's retries and redaction, within
// timeout (def when zero), and returns the response body, bounded.
func postJSON(ctx context.Context, check string, hc *http.Client, endpoint string, header http.Header, body []byte, timeout, def time.Duration, secrets []string) ([]byte, error) {
	return sendJSON(ctx, check, hc, http.MethodPost, endpoint, header, body, timeout, def, secrets)
}

// sendJSON is postJSON with the method given ("" is POST).
func sendJSON(ctx context.Context, check string, hc *http.Client, method, endpoint string, header http.Header, body []byte, timeout, def time.Duration, secrets []string) ([]byte, error) {
	if timeout == 0 {
		timeout = def
	}
	if method == "" {
		method = http.MethodPost
	}
	u, _ := judgehttp.ParseBaseURL(endpoint)
	secrets = append(secrets, judgehttp.Secrets("", u, header)...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := judgehttp.Client{Name: method + " " + judgehttp.RedactURL(endpoint), HTTP: hc, MaxRetries: 2, AttemptTimeout: timeout, Secrets: secrets}
	resp, err := client.Send(ctx, method, endpoint, header, body)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", check, ErrEvaluator, judgehttp.RedactError(err, secrets))
	}
	if len(resp.Body) > maxEvalBody {
		return nil, fmt.Errorf("%s: %w: the answer is %d bytes, more than the %d an evaluator may send", check, ErrEvaluator, len(resp.Body), maxEvalBody)
	}
	return resp.Body, nil
}
