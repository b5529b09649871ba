package assert

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// output is one assistant message's text as checks read it: CRLF line
// endings normalized to LF.
type output struct {
	index int // position in Transcript.Messages
	text  string
	msg   *evalkit.Message
}

// label names the message in failure details as the JSON path of the
// transcript does: "messages[7]" (0-based, as in decode errors).
func (o output) label() string { return "messages[" + strconv.Itoa(o.index) + "]" }

// outputs returns the assistant output a text or JSON check reads: for Turn
// the last assistant message, for Session every assistant message. It wraps
// ErrNoOutput, naming the check, when there is no assistant message at all: a
// missing answer must neither satisfy nor fail a check.
func outputs(check string, tr *evalkit.Transcript, scope Scope) ([]output, error) {
	if scope != Turn && scope != Session {
		return nil, paramErr(check, "scope", "want Turn or Session, got %v", scope)
	}
	if tr == nil {
		return nil, fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
	}
	var outs []output
	for i := len(tr.Messages) - 1; i >= 0; i-- {
		m := &tr.Messages[i]
		if m.Role != evalkit.RoleAssistant {
			continue
		}
		outs = append(outs, output{index: i, text: textnorm.Newlines(m.Content), msg: m})
		if scope == Turn {
			break
		}
	}
	if len(outs) == 0 {
		return nil, fmt.Errorf("%s: %w: the transcript has %s and none is from the assistant", check, ErrNoOutput, plural(len(tr.Messages), "message"))
	}
	for i, j := 0, len(outs)-1; i < j; i, j = i+1, j-1 {
		outs[i], outs[j] = outs[j], outs[i]
	}
	return outs, nil
}

// lastOutput is outputs for Turn: the last assistant message, with the
// same errors, without a slice.
func lastOutput(check string, tr *evalkit.Transcript) (output, error) {
	if tr == nil {
		return output{}, fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
	}
	for i := len(tr.Messages) - 1; i >= 0; i-- {
		if m := &tr.Messages[i]; m.Role == evalkit.RoleAssistant {
			return output{index: i, text: textnorm.Newlines(m.Content), msg: m}, nil
		}
	}
	return output{}, fmt.Errorf("%s: %w: the transcript has %s and none is from the assistant", check, ErrNoOutput, plural(len(tr.Messages), "message"))
}

// withText keeps the outputs that have text. Session-scoped checks that
// judge each answer (lengths, JSON) skip tool-call-only messages.
func withText(outs []output) []output {
	kept := outs[:0:0]
	for _, o := range outs {
		if o.text != "" || len(o.msg.ToolCalls) == 0 {
			kept = append(kept, o)
		}
	}
	return kept
}

// emptyNote explains an empty last message: it may have made tool calls
// instead of answering.
func emptyNote(o output) []Detail {
	if o.text != "" || len(o.msg.ToolCalls) == 0 {
		return nil
	}
	names := make([]string, len(o.msg.ToolCalls))
	for i, c := range o.msg.ToolCalls {
		names[i] = c.Name
	}
	return []Detail{{"note", fmt.Sprintf("%s has no text; it called %s", o.label(), strings.Join(names, ", "))}}
}

// excerpt bounds output text quoted in a failure message.
func excerpt(s string) string { return textnorm.Quote(s, maxQuote) }

// maxQuote bounds quoted output in failure messages, in bytes.
const maxQuote = 200
