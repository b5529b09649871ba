package assert

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/jsonx"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// A2AEval asks an A2A agent to evaluate the output, as PromptKit's
// a2a_eval: a JSON-RPC 2.0 "message/send" (A2A protocol 0.3) to AgentURL
// whose user message carries the EvalRequest twice — as a data part, and
// as JSON in a text part after a sentence saying what to answer — and
// whose reply is read as the verdict: the agent's Message, or the Task's
// artifacts and final status message (the task must be "completed"),
// holding {"passed", "score", "reasoning"} as a data part or as one JSON
// object in a text part. Passing and scoring are RESTEval's.
//
// AuthToken, sent as "Authorization: Bearer …", may be a ${NAME}
// reference to an environment variable named in AllowEnv. The message id
// and the JSON-RPC id are a hash of the request, so the same request is
// the same bytes on the wire (an HTTP recording replays it).
//
// Errors, never verdicts: a bad parameter, no assistant output, and
// wrapping ErrEvaluator a failed call or non-2xx status, a reply that is
// not JSON-RPC 2.0, a JSON-RPC error (its code and message), a task in
// another state (failed, rejected, input-required: named), and a reply
// without a verdict. Timeout defaults to 60 s.
//
// Registry types "a2a_eval" and "a2a_eval_session", params: agent_url
// (required), auth_token, timeout, criteria, include_messages (default
// true), include_tool_calls, extra, min_score (as RESTEval's), scope.
type A2AEval struct {
	AgentURL         string
	AuthToken        string
	Timeout          time.Duration
	Criteria         string
	Extra            map[string]any
	OmitMessages     bool
	IncludeToolCalls bool
	Scope            Scope
	AllowEnv         []string
	HTTPClient       *http.Client
}

func (c A2AEval) ext() external {
	return external{check: "a2a_eval", criteria: c.Criteria, extra: c.Extra, omitMessages: c.OmitMessages, includeToolCalls: c.IncludeToolCalls, scope: c.Scope}
}

func (c A2AEval) validate() error {
	if err := c.ext().validate(); err != nil {
		return err
	}
	if err := checkURL("a2a_eval", "agent_url", c.AgentURL); err != nil {
		return err
	}
	if c.Timeout < 0 {
		return paramErr("a2a_eval", "timeout", "want a positive duration, got %v", c.Timeout)
	}
	return nil
}

// Check implements Check.
func (c A2AEval) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	r, who, err := c.call(ctx, tr)
	if err != nil {
		return Result{}, err
	}
	return evalResult("a2a_eval", r, who)
}

func (c A2AEval) measure(ctx context.Context, tr *evalkit.Transcript) (Result, bool, error) {
	r, who, err := c.call(ctx, tr)
	if err != nil {
		return Result{}, false, err
	}
	return measureResult("a2a_eval", r, who)
}

func (c A2AEval) emitScore(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	r, who, err := c.call(ctx, tr)
	if err != nil {
		return Result{}, err
	}
	return evalScore("a2a_eval", r, who)
}

// a2aInstruction opens the evaluation message.
const a2aInstruction = `Evaluate the AI assistant's output in the evaluation request below (its current_output, in the context of its messages, against its criteria). Reply with one JSON object and nothing else: {"passed": true or false, "score": a number from 0 to 1, "reasoning": "why, in a few sentences"}.`

func (c A2AEval) call(ctx context.Context, tr *evalkit.Transcript) (EvalResponse, string, error) {
	const check = "a2a_eval"
	if err := c.validate(); err != nil {
		return EvalResponse{}, "", err
	}
	req, err := c.ext().request(tr)
	if err != nil {
		return EvalResponse{}, "", err
	}
	data, err := json.Marshal(req)
	if err != nil {
		return EvalResponse{}, "", fmt.Errorf("%s: encoding the request: %w", check, err)
	}
	sum := sha256.Sum256(data)
	id := "evalkit-" + hex.EncodeToString(sum[:8])
	rpc := map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"method":  "message/send",
		"params": map[string]any{
			"message": map[string]any{
				"kind":      "message",
				"role":      "user",
				"messageId": id,
				"parts": []any{
					map[string]any{"kind": "text", "text": a2aInstruction + "\n\n" + string(data)},
					map[string]any{"kind": "data", "data": json.RawMessage(data)},
				},
			},
			"configuration": map[string]any{"blocking": true, "acceptedOutputModes": []string{"application/json", "text/plain"}},
		},
	}
	body, err := json.Marshal(rpc)
	if err != nil {
		return EvalResponse{}, "", fmt.Errorf("%s: encoding the request: %w", check, err)
	}
	header := http.Header{"Accept": {"application/json"}}
	var secrets []string
	if c.AuthToken != "" {
		tok, err := expandEnv(check, "auth_token", c.AuthToken, c.AllowEnv, &secrets)
		if err != nil {
			return EvalResponse{}, "", err
		}
		secrets = append(secrets, tok)
		header.Set("Authorization", "Bearer "+tok)
	}
	who := "A2A agent " + judgehttp.RedactURL(c.AgentURL)
	resp, err := postJSON(ctx, check, c.HTTPClient, c.AgentURL, header, body, c.Timeout, 60*time.Second, secrets)
	if err != nil {
		return EvalResponse{}, who, err
	}
	r, err := readA2AReply(check, resp, id)
	if err != nil {
		return EvalResponse{}, who, judgehttp.RedactError(err, secrets)
	}
	return r, who, nil
}

// a2aPart is a message part: A2A 0.3's {"kind": "text", "text": ...} and
// {"kind": "data", "data": ...}, or 1.0's {"text": ...} and {"data": ...}.
type a2aPart struct {
	Kind string          `json:"kind"`
	Text *string         `json:"text"`
	Data json.RawMessage `json:"data"`
}

type a2aMessage struct {
	Kind  string    `json:"kind"`
	Role  string    `json:"role"`
	Parts []a2aPart `json:"parts"`
}

type a2aResult struct {
	Kind  string    `json:"kind"`
	Role  string    `json:"role"`
	Parts []a2aPart `json:"parts"`
	// A task's.
	Status *struct {
		State   string      `json:"state"`
		Message *a2aMessage `json:"message"`
	} `json:"status"`
	Artifacts []struct {
		Parts []a2aPart `json:"parts"`
	} `json:"artifacts"`
}

// readA2AReply reads a JSON-RPC reply to message/send as a verdict.
func readA2AReply(check string, body []byte, id string) (EvalResponse, error) {
	var rpc struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &rpc); err != nil || rpc.JSONRPC != "2.0" {
		return EvalResponse{}, fmt.Errorf("%s: %w: the reply is not a JSON-RPC 2.0 response: %s", check, ErrEvaluator, textnorm.Quote(string(body), 120))
	}
	// Decoded into structs, whose fields take keys folded: compared so.
	if err := givenOnce(check, "the reply", body, true); err != nil {
		return EvalResponse{}, err
	}
	if rpc.Error != nil {
		return EvalResponse{}, fmt.Errorf("%s: %w: JSON-RPC error %d: %s", check, ErrEvaluator, rpc.Error.Code, textnorm.Excerpt(rpc.Error.Message, 300))
	}
	if want, _ := json.Marshal(id); len(rpc.ID) > 0 && !bytes.Equal(bytes.TrimSpace(rpc.ID), want) {
		return EvalResponse{}, fmt.Errorf("%s: %w: the reply's id %s is not the request's %s", check, ErrEvaluator, textnorm.Excerpt(string(rpc.ID), 80), want)
	}
	var res a2aResult
	if len(rpc.Result) == 0 || json.Unmarshal(rpc.Result, &res) != nil {
		return EvalResponse{}, fmt.Errorf("%s: %w: the reply has no result object", check, ErrEvaluator)
	}
	var parts []a2aPart
	switch {
	case res.Kind == "task" || res.Status != nil:
		if res.Status == nil || res.Status.State != "completed" {
			state := "no status"
			if res.Status != nil {
				state = fmt.Sprintf("state %q", res.Status.State)
				if res.Status.Message != nil {
					if t := partsText(res.Status.Message.Parts); t != "" {
						state += ": " + textnorm.Excerpt(strings.Join(strings.Fields(t), " "), 200)
					}
				}
			}
			return EvalResponse{}, fmt.Errorf("%s: %w: the agent's task did not complete (%s)", check, ErrEvaluator, state)
		}
		for _, a := range res.Artifacts {
			parts = append(parts, a.Parts...)
		}
		if res.Status.Message != nil {
			parts = append(parts, res.Status.Message.Parts...)
		}
	default:
		parts = res.Parts
	}
	// A data part with a verdict first, then a text part holding one.
	for _, p := range parts {
		if len(p.Data) == 0 {
			continue
		}
		var fields map[string]any
		dec := json.NewDecoder(bytes.NewReader(p.Data))
		dec.UseNumber()
		if dec.Decode(&fields) == nil && fields != nil && (fields["passed"] != nil || fields["score"] != nil) {
			return evalResponseOf(check, fields)
		}
	}
	for _, p := range parts {
		if p.Text == nil {
			continue
		}
		found, err := jsonx.Extract(*p.Text, jsonx.Prose)
		if err != nil {
			continue
		}
		if err := givenOnce(check, "the agent's verdict in its text", found.JSON, false); err != nil {
			return EvalResponse{}, err
		}
		var fields map[string]any
		dec := json.NewDecoder(bytes.NewReader(found.JSON))
		dec.UseNumber()
		if dec.Decode(&fields) == nil && fields != nil && (fields["passed"] != nil || fields["score"] != nil) {
			return evalResponseOf(check, fields)
		}
	}
	text := partsText(parts)
	if text == "" {
		text = "no text"
	} else {
		text = textnorm.Quote(text, 200)
	}
	return EvalResponse{}, fmt.Errorf("%s: %w: the agent's reply holds no verdict (a data part or a JSON object with passed or score); it said %s", check, ErrEvaluator, text)
}

func partsText(parts []a2aPart) string {
	var texts []string
	for _, p := range parts {
		if p.Text != nil && strings.TrimSpace(*p.Text) != "" {
			texts = append(texts, strings.TrimSpace(*p.Text))
		}
	}
	return strings.Join(texts, "\n")
}
