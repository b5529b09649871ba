package assert

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// The registry builders and descriptions of the external evaluators.

func externalChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"rest_eval": buildRESTEval,
		"a2a_eval":  buildA2AEval,
		"exec_eval": buildExecEval,
	}
}

// readExternal reads the params every external evaluator takes.
func readExternal(p *params, check string) (external, error) {
	e := external{check: check}
	var err error
	if e.criteria, _, err = p.str(false, "criteria"); err != nil {
		return e, err
	}
	include, ok, err := p.boolean("include_messages")
	if err != nil {
		return e, err
	}
	e.omitMessages = ok && !include
	if e.includeToolCalls, _, err = p.boolean("include_tool_calls"); err != nil {
		return e, err
	}
	if e.extra, _, err = p.object(false, "extra"); err != nil {
		return e, err
	}
	if e.scope, err = p.scope(); err != nil {
		return e, err
	}
	return e, nil
}

// readTimeout reads a timeout: a Go duration string ("30s", "1m") or a
// number of seconds, or timeout_ms, a number of milliseconds (PromptKit's
// exec bindings).
func readTimeout(p *params) (time.Duration, error) {
	name, v, ok, err := p.lookup("timeout", "timeout_ms")
	if err != nil || !ok {
		return 0, err
	}
	if name == "timeout_ms" {
		f, isNum := toFloat(v)
		if !isNum || math.IsNaN(f) || f < 1 || f > 24*3600*1000 {
			return 0, p.err(name, "want a number of milliseconds from 1 to 86400000, got %s", kindOf(v))
		}
		return time.Duration(f * float64(time.Millisecond)), nil
	}
	if s, isStr := v.(string); isStr {
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil || d <= 0 {
			return 0, p.err(name, "want a positive duration such as \"30s\", got %q", s)
		}
		return d, nil
	}
	f, isNum := toFloat(v)
	if !isNum || math.IsNaN(f) || f <= 0 || f > 24*3600 {
		return 0, p.err(name, "want a duration such as \"30s\" or a number of seconds, got %s", kindOf(v))
	}
	return time.Duration(f * float64(time.Second)), nil
}

// withThreshold wraps c in an Assertion when min_score or max_score is
// given, as PromptKit's external evaluators take min_score themselves.
func withThreshold(p *params, c Check) (Check, error) {
	var a Assertion
	for _, b := range []struct {
		name string
		dst  **float64
	}{{"min_score", &a.MinScore}, {"max_score", &a.MaxScore}} {
		f, ok, err := p.num(b.name)
		if err != nil {
			return nil, err
		}
		if ok {
			*b.dst = &f
		}
	}
	if a.MinScore == nil && a.MaxScore == nil {
		return c, nil
	}
	a.Eval = c
	return a, nil
}

func buildRESTEval(p *params) (Check, error) {
	e, err := readExternal(p, "rest_eval")
	if err != nil {
		return nil, err
	}
	c := RESTEval{Criteria: e.criteria, Extra: e.extra, OmitMessages: e.omitMessages, IncludeToolCalls: e.includeToolCalls, Scope: e.scope,
		AllowEnv: slices.Clone(p.reg.allowEnv), HTTPClient: p.reg.httpClient}
	if c.URL, _, err = p.str(true, "url"); err != nil {
		return nil, err
	}
	method, _, err := p.str(false, "method")
	if err != nil {
		return nil, err
	}
	switch m := strings.ToUpper(strings.TrimSpace(method)); m {
	case "", "POST":
	case "PUT", "PATCH", "GET":
		c.Method = m
	default:
		return nil, p.err("method", "want POST, PUT, PATCH or GET (the request is sent as a JSON body), got %q", method)
	}
	headers, _, err := p.object(false, "headers")
	if err != nil {
		return nil, err
	}
	for k, v := range headers {
		s, ok := v.(string)
		if !ok {
			return nil, p.err("headers", "%q is %s, want a string", k, kindOf(v))
		}
		if c.Headers == nil {
			c.Headers = map[string]string{}
		}
		c.Headers[k] = s
	}
	if c.Timeout, err = readTimeout(p); err != nil {
		return nil, err
	}
	return withThreshold(p, c)
}

func buildA2AEval(p *params) (Check, error) {
	e, err := readExternal(p, "a2a_eval")
	if err != nil {
		return nil, err
	}
	c := A2AEval{Criteria: e.criteria, Extra: e.extra, OmitMessages: e.omitMessages, IncludeToolCalls: e.includeToolCalls, Scope: e.scope,
		AllowEnv: slices.Clone(p.reg.allowEnv), HTTPClient: p.reg.httpClient}
	if c.AgentURL, _, err = p.str(true, "agent_url"); err != nil {
		return nil, err
	}
	if c.AuthToken, _, err = p.str(false, "auth_token"); err != nil {
		return nil, err
	}
	if c.Timeout, err = readTimeout(p); err != nil {
		return nil, err
	}
	return withThreshold(p, c)
}

func buildExecEval(p *params) (Check, error) {
	e, err := readExternal(p, "exec_eval")
	if err != nil {
		return nil, err
	}
	c := ExecEval{Criteria: e.criteria, Extra: e.extra, OmitMessages: e.omitMessages, IncludeToolCalls: e.includeToolCalls, Scope: e.scope,
		AllowEnv: slices.Clone(p.reg.allowEnv)}
	if c.Command, _, err = p.str(true, "command"); err != nil {
		return nil, err
	}
	if c.Args, _, err = p.strs(false, "args"); err != nil {
		return nil, err
	}
	if c.Env, _, err = p.strs(false, "env"); err != nil {
		return nil, err
	}
	if c.Timeout, err = readTimeout(p); err != nil {
		return nil, err
	}
	return withThreshold(p, c)
}

// RegisterExec adds a check type name to r that runs e, as PromptKit's
// runtime exec bindings make an exec eval's type name: a case file names
// the type, the test code holds the command. Its params are ExecEval's
// but command, args, env and timeout (e's): criteria, include_messages,
// include_tool_calls, extra, min_score, scope; with e.Protocol
// "promptkit", any params, sent to the program as they are (min_score and
// max_score grade its score). The registry's WithEnv
// names join e.AllowEnv. Registering a name that exists is an error.
func (r *Registry) RegisterExec(name string, e ExecEval) error {
	if err := e.validate(); err != nil {
		return err
	}
	if name == "" {
		return fmt.Errorf("assert: RegisterExec needs a name")
	}
	t := r.table()
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.entries[name]; dup {
		return fmt.Errorf("assert: check type %q is already registered", name)
	}
	t.entries[name] = entry{target: name, build: func(p *params) (Check, error) {
		if e.Protocol == "promptkit" {
			// PromptKit's exec evals take params of their own, sent as
			// they are; min_score and max_score grade the score.
			c := e
			c.Type, c.Params = name, map[string]any{}
			for k, v := range p.m {
				p.known[k] = true
				if k != "min_score" && k != "max_score" {
					c.Params[k] = v
				}
			}
			c.AllowEnv = append(slices.Clone(e.AllowEnv), p.reg.allowEnv...)
			return withThreshold(p, c)
		}
		ext, err := readExternal(p, "exec_eval")
		if err != nil {
			return nil, err
		}
		c := e
		c.Criteria, c.Extra, c.OmitMessages, c.IncludeToolCalls, c.Scope = ext.criteria, ext.extra, ext.omitMessages, ext.includeToolCalls, ext.scope
		c.AllowEnv = append(slices.Clone(e.AllowEnv), p.reg.allowEnv...)
		return withThreshold(p, c)
	}}
	return nil
}

// Describe implements Describer.
func (c RESTEval) Describe() string {
	return describeLine(fmt.Sprintf("the evaluator at %s passes %s (rest_eval)", redactedOrRaw(c.URL), outputNoun(c.Scope.or(Turn))))
}

// Describe implements Describer.
func (c A2AEval) Describe() string {
	return describeLine(fmt.Sprintf("the A2A agent at %s passes %s (a2a_eval)", redactedOrRaw(c.AgentURL), outputNoun(c.Scope.or(Turn))))
}

// Describe implements Describer.
func (c ExecEval) Describe() string {
	cmd := strings.Join(append([]string{c.Command}, c.Args...), " ")
	return describeLine(fmt.Sprintf("the command %s passes %s (exec_eval)", quoteName(cmd), outputNoun(c.Scope.or(Turn))))
}

// redactedOrRaw writes a URL for a description without its credentials.
func redactedOrRaw(u string) string { return judgehttp.RedactURL(u) }
