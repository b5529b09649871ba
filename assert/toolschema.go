package assert

// Tool calls valid against their tools' declared JSON Schemas: the check
// promptfoo names is-valid-openai-tools-call, and the part of BFCL's AST
// checker that reads the function's declaration.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/evalkit-go/evalkit"
)

// ToolCallsValid passes when every tool call of the scope is valid against
// the tool it calls: the tool is declared (in Tools, else in the
// transcript's Tools), its arguments are a JSON object, and they are valid
// against its parameters' JSON Schema (missing required parameters, wrong
// types, values out of an enum, ...). With NoExtraArgs, a parameter its
// schema's "properties" does not list is an error even where the schema
// allows it (as BFCL's AST checker: "unexpected parameter"). With
// BFCLTypes, the schemas' Python type names — "dict", "float", "tuple",
// "any" — read as object, number, array and any type, and their
// "optional": true marks are dropped, as the Berkeley Function-Calling
// Leaderboard writes its functions.
//
// Score is the fraction of valid calls. A scope with no tool call fails
// (there is nothing valid). The failure lists each invalid call (the first
// 10) and why:
//
//	2 of 3 calls are not valid against their tools
//	invalid: call 1 get_weather: at /city: missing property 'city'
//	invalid: call 3 get_wether: not a declared tool (declared: get_time, get_weather)
//
// Scope defaults to Session. Errors: no tool declared anywhere, two tools
// of one name, a tool whose schema does not compile (naming the tool), a
// bad scope.
//
// Registry type "tool_calls_valid" (alias "is_valid_openai_tools_call",
// promptfoo's is-valid-openai-tools-call), params: tools (a list of
// {name, description, parameters}, or OpenAI's {type: function, function:
// {...}}), no_extra_args, bfcl_types, scope.
type ToolCallsValid struct {
	Tools       []evalkit.ToolSpec
	NoExtraArgs bool
	BFCLTypes   bool
	Scope       Scope
}

func buildToolCallsValid(p *params) (Check, error) {
	var c ToolCallsValid
	var err error
	if c.NoExtraArgs, _, err = p.boolean("no_extra_args"); err != nil {
		return nil, err
	}
	if c.BFCLTypes, _, err = p.boolean("bfcl_types"); err != nil {
		return nil, err
	}
	if c.Scope, err = p.scope(); err != nil {
		return nil, err
	}
	v, ok, err := p.value("tools")
	if err != nil {
		return nil, err
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	if ok {
		norm, err := normalizeArgs(v)
		if err != nil {
			return nil, p.err("tools", "not representable as JSON: %v", err)
		}
		data, _ := json.Marshal(norm)
		tr, err := evalkit.Decode([]byte(`{"messages":[{"role":"user","content":""}],"tools":` + string(data) + `}`))
		if err != nil {
			return nil, p.err("tools", "want a list of {name, description, parameters} tools: %v", err)
		}
		c.Tools = tr.Tools
	}
	return c, nil
}

func (c ToolCallsValid) validate() error { return checkScope("tool_calls_valid", c.Scope) }

// toolSchema is a declared tool's compiled schema and its properties.
type toolSchema struct {
	schema *jsonschema.Schema // nil: no parameters declared, any object
	props  map[string]bool    // nil: the schema lists no properties
}

// schemas compiles the declared tools' schemas.
func (c ToolCallsValid) schemas(tr *evalkit.Transcript) (map[string]toolSchema, error) {
	const check = "tool_calls_valid"
	tools := c.Tools
	if len(tools) == 0 && tr != nil {
		tools = tr.Tools
	}
	if len(tools) == 0 {
		return nil, paramErr(check, "tools", "no tool declared: give tools, or a transcript that declares its tools")
	}
	out := make(map[string]toolSchema, len(tools))
	for _, t := range tools {
		if _, dup := out[t.Name]; dup {
			return nil, paramErr(check, "tools", "tool %s is declared twice", quoteName(t.Name))
		}
		var ts toolSchema
		raw := strings.TrimSpace(string(t.Parameters))
		if raw != "" && raw != "null" && raw != "{}" {
			var v any
			if err := json.Unmarshal(t.Parameters, &v); err != nil {
				return nil, paramErr(check, "tools", "tool %s: parameters are not JSON: %v", quoteName(t.Name), err)
			}
			if c.BFCLTypes {
				v = bfclTypes(v)
			}
			if m, ok := v.(map[string]any); ok {
				if props, ok := m["properties"].(map[string]any); ok {
					ts.props = map[string]bool{}
					for k := range props {
						ts.props[k] = true
					}
				}
			}
			text, _ := json.Marshal(v)
			sch, err := compileSchemaText(json.RawMessage(text))
			if err != nil {
				msg := err.Error()
				var pe *ParamError
				if errors.As(err, &pe) {
					msg = pe.Msg
				}
				return nil, paramErr(check, "tools", "tool %s: its parameters' schema does not compile: %s", quoteName(t.Name), msg)
			}
			ts.schema = sch
		}
		out[t.Name] = ts
	}
	return out, nil
}

// bfclTypes rewrites BFCL's Python type names to JSON Schema's and drops
// its "optional" lists and marks (never JSON Schema). A map of properties
// keeps its keys: a parameter may be named "type" or "optional".
func bfclTypes(v any) any { return bfclSchema(v, false) }

func bfclSchema(v any, properties bool) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = bfclSchema(x, !properties && k == "properties")
		}
		if properties {
			return out
		}
		delete(out, "optional")
		if t, ok := v["type"].(string); ok {
			switch t {
			case "dict":
				out["type"] = "object"
			case "float":
				out["type"] = "number"
			case "tuple":
				out["type"] = "array"
			case "any":
				delete(out, "type")
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = bfclSchema(x, false)
		}
		return out
	}
	return v
}

// Check implements Check.
func (c ToolCallsValid) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_calls_valid"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls(check, tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	schemas, err := c.schemas(tr)
	if err != nil {
		return Result{}, err
	}
	if len(sc.calls) == 0 {
		return fail(0, "no tool calls to validate", sc.withScope(nil)...), nil
	}
	declared := slices.Sorted(maps.Keys(schemas))
	problems := bounded{max: maxProblems}
	bad := 0
	for i, call := range sc.calls {
		if why := callProblem(call, schemas, declared, c.NoExtraArgs); why != "" {
			bad++
			problems.add("call %d %s: %s", i+1, shortName(call.Name), why)
		}
	}
	score := 1 - ratio(bad, len(sc.calls))
	if bad == 0 {
		return pass(score, fmt.Sprintf("all %s are valid against their tools", plural(len(sc.calls), "call"))), nil
	}
	details := make([]Detail, 0, problems.len()+1)
	for _, pr := range problems.list() {
		details = append(details, Detail{"invalid", pr})
	}
	return fail(score, fmt.Sprintf("%d of %s %s not valid against their tools", bad, plural(len(sc.calls), "call"), verb(bad, "is", "are")), sc.withScope(details)...), nil
}

// callProblem says why a call is not valid against its tool, or "".
func callProblem(call evalkit.ToolCall, schemas map[string]toolSchema, declared []string, noExtra bool) string {
	ts, ok := schemas[call.Name]
	if !ok {
		return fmt.Sprintf("not a declared tool (declared: %s)", strings.Join(declared, ", "))
	}
	args, err := decodeArgs(call)
	if err != nil {
		return strings.Replace(err.Error(), "arguments of "+call.Name+" are", "arguments are", 1)
	}
	var whys []string
	if noExtra {
		for _, k := range slices.Sorted(maps.Keys(args)) {
			if !ts.props[k] {
				whys = append(whys, fmt.Sprintf("unexpected parameter %s (declared: %s)", quoteName(k), strings.Join(slices.Sorted(maps.Keys(ts.props)), ", ")))
			}
		}
	}
	if ts.schema != nil {
		if err := ts.schema.Validate(any(args)); err != nil {
			var ve *jsonschema.ValidationError
			if !errors.As(err, &ve) {
				return err.Error()
			}
			for _, d := range schemaLeaves(ve) {
				whys = append(whys, d.Label+": "+d.Text)
			}
		}
	}
	return strings.Join(whys, "; ")
}

// Describe implements Describer.
func (c ToolCallsValid) Describe() string {
	extra := ""
	if c.NoExtraArgs {
		extra = ", with no parameter its tool does not declare"
	}
	return describeLine(fmt.Sprintf("every tool call is valid against its tool's declared schema%s%s", extra, callsScope(c.Scope)))
}
