package judgefake

import (
	"strconv"
	"time"
)

// Reply is one scripted answer of a Server or Transport: the text a model
// answers with, an HTTP error, or a broken response. Requests take replies
// in order, one each; see NewServer for the wire formats.
//
// The zero Reply other than Text is a success: status 200 with Text as the
// assistant's answer. The constructors below build the common replies; a
// Reply literal combines the fields freely, such as a slow answer with
// its own token counts:
//
//	judgefake.Reply{Text: `{"score": 8}`, Delay: 3 * time.Second, Model: "gpt-4o", InputTokens: 900, OutputTokens: 40}
type Reply struct {
	// Text is the assistant's answer: the content of an OpenAI choice's
	// message, or of an Anthropic text block (parsed as JSON, the input
	// of a forced tool_use block). For an error Status it is the error
	// body's message (default: one naming the status). For CutOff it is
	// the text of the response that gets cut.
	Text string
	// Status, when not 0 or 200, makes the reply an HTTP error with that
	// status (400–599) and the provider's error body.
	Status int
	// RetryAfter, when positive, sets the Retry-After header to the
	// whole seconds it rounds up to.
	RetryAfter time.Duration
	// Fault breaks the response; see Fault.
	Fault Fault
	// Delay holds the response this long first. If the request's context
	// ends during the delay, nothing is sent (the transport returns the
	// context's error). The delay is a timer, so in a testing/synctest
	// bubble it passes in virtual time.
	Delay time.Duration
	// Model is the model the response names; by default the request's
	// "model", or "judgefake" when it has none.
	Model string
	// InputTokens and OutputTokens are the usage the response reports; a
	// zero count is estimated as one token per 4 bytes (at least 1) of the
	// request's prompt and of Text.
	InputTokens, OutputTokens int
	// ToolCalls, when set, make the answer call tools: an OpenAI choice's
	// message gets "tool_calls" (its "content" null when Text is empty)
	// and finish_reason "tool_calls"; an Anthropic response gets one
	// tool_use block per call after its text block (none when Text is
	// empty) and stop_reason "tool_use". A scripted agent turn, such as a
	// recorded run's, replays with them.
	ToolCalls []ToolCall
	// StopReason is the response's finish_reason (OpenAI) or stop_reason
	// (Anthropic), such as "length" or "max_tokens" for an answer cut by
	// the token limit; by default "stop", "end_turn", or "tool_use" for a
	// forced tool.
	StopReason string
}

// ToolCall is one tool call of a scripted answer (see Reply.ToolCalls).
type ToolCall struct {
	// ID is the call's id; by default "call_judgefake_<reply>_<n>"
	// (OpenAI) or "toolu_judgefake_<reply>_<n>" (Anthropic), n from 1.
	ID string
	// Name is the tool's name.
	Name string
	// Args are the arguments as a JSON object, such as
	// `{"reservation_id": "Z7GOZK"}`: OpenAI's "arguments" string, byte
	// for byte, or Anthropic's "input" object. Empty means {}; anything else that is
	// not a JSON object makes the reply one the script cannot give.
	Args string
}

// Fault is a way a response breaks.
type Fault int

// The faults. Each is served with a status 200 and Content-Type
// application/json unless it says otherwise.
const (
	// FaultNone is a response that is not broken.
	FaultNone Fault = iota
	// FaultStall holds the request and never answers: the request ends
	// only when its context does (or the Server closes).
	FaultStall
	// FaultMalformed answers with a body that is not JSON: the success
	// response with a syntax error after its first "{".
	FaultMalformed
	// FaultCutOff answers with the first half of the success response's
	// bytes, with a Content-Length that matches: a JSON decoder meets the
	// end of its input, the transport sees no error.
	FaultCutOff
	// FaultEmpty answers with an empty body.
	FaultEmpty
	// FaultWrongSchema answers with valid JSON in the other provider's
	// shape: an Anthropic message to an OpenAI request and an OpenAI chat
	// completion to an Anthropic request, Text inside. A decoder that
	// ignores unknown fields finds no answer in it.
	FaultWrongSchema
	// FaultReset resets the connection before any response: a client sees
	// an error wrapping syscall.ECONNRESET ("connection reset by peer").
	FaultReset
)

// String returns the fault's name, such as "FaultStall".
func (f Fault) String() string {
	switch f {
	case FaultNone:
		return "FaultNone"
	case FaultStall:
		return "FaultStall"
	case FaultMalformed:
		return "FaultMalformed"
	case FaultCutOff:
		return "FaultCutOff"
	case FaultEmpty:
		return "FaultEmpty"
	case FaultWrongSchema:
		return "FaultWrongSchema"
	case FaultReset:
		return "FaultReset"
	}
	return "Fault(" + strconv.Itoa(int(f)) + ")"
}

// Text returns a reply that answers with text: status 200, text as the
// assistant's answer.
func Text(text string) Reply { return Reply{Text: text} }

// Texts returns one Text reply per text, in order: a script that serves a
// fixed list of judge answers, such as real recorded judgments.
//
//	srv := judgefake.NewServer(judgefake.Texts(judgments...)...)
func Texts(texts ...string) []Reply {
	out := make([]Reply, len(texts))
	for i, t := range texts {
		out[i] = Text(t)
	}
	return out
}

// Status returns a reply that is an HTTP error with the given status
// (400–599) and the provider's error body: 500, 502 and 503 for a failing
// server, 529 for an overloaded Anthropic, 400 or 401 for errors a judge
// must not retry.
func Status(code int) Reply { return Reply{Status: code} }

// RateLimited returns a 429 reply with the provider's rate-limit error
// body, and a Retry-After header of retryAfter in whole seconds (rounded
// up) when retryAfter is positive; none when it is 0.
func RateLimited(retryAfter time.Duration) Reply {
	return Reply{Status: 429, RetryAfter: retryAfter}
}

// Stall returns a reply that never answers; see FaultStall. For an answer
// that is only late, set Reply.Delay.
func Stall() Reply { return Reply{Fault: FaultStall} }

// Malformed returns a reply whose body is not JSON; see FaultMalformed.
func Malformed() Reply { return Reply{Fault: FaultMalformed} }

// CutOff returns a reply whose JSON body, which would have answered with
// text, is cut in half; see FaultCutOff.
func CutOff(text string) Reply { return Reply{Text: text, Fault: FaultCutOff} }

// EmptyBody returns a reply with status 200 and no body.
func EmptyBody() Reply { return Reply{Fault: FaultEmpty} }

// WrongSchema returns a reply that answers with text in the other
// provider's shape; see FaultWrongSchema.
func WrongSchema(text string) Reply { return Reply{Text: text, Fault: FaultWrongSchema} }

// ConnReset returns a reply that resets the connection; see FaultReset.
func ConnReset() Reply { return Reply{Fault: FaultReset} }
