package judgefake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// The fakes of a simulated user (package simulate): Script and UserRules
// are users themselves, played without a model; NewUserServer and
// NewUserTransport are the model a simulate.ModelUser is played by,
// speaking the OpenAI and Anthropic wire formats. Each has simulate.User's
// or the wire's shape only, so this package imports neither simulate nor
// golden.

// Script is a simulated user (a simulate.User) that says its turns in
// order, whatever the agent answers, and ends the conversation after the
// last: a real run's user turns, replayed. Which turn comes next is read
// from the conversation — the number of user messages it holds — not
// counted in the Script, so one Script serves any number of runs, in
// parallel. A turn holding simulate's stop marker ("###STOP###", as
// τ-bench's recorded user turns end) ends the conversation there.
type Script []string

// Next returns the turn after the user messages tr holds, or stop once
// every turn is said. It returns ctx's error when ctx is done.
func (s Script) Next(ctx context.Context, tr *evalkit.Transcript) (string, bool, error) {
	if err := ctxErr(ctx); err != nil {
		return "", false, err
	}
	n := userMessages(tr)
	if n >= len(s) {
		return "", true, nil
	}
	return s[n], false, nil
}

// String returns "judgefake.Script(N turns)".
func (s Script) String() string { return fmt.Sprintf("judgefake.Script(%d turns)", len(s)) }

func userMessages(tr *evalkit.Transcript) int {
	n := 0
	if tr != nil {
		for _, m := range tr.Messages {
			if m.Role == evalkit.RoleUser {
				n++
			}
		}
	}
	return n
}

// UserRules is a simulated user (a simulate.User) written as data: it
// opens with First, then answers each reply of the agent by the first
// rule that matches it.
//
//	user := judgefake.UserRules{
//		First: "I want to cancel my trip.",
//		Rules: []judgefake.UserRule{
//			{Keyword: "user id", Say: "It's omar_rossi_1241."},
//			{Pattern: `(?i)\bconfirm\b`, Say: "Yes, go ahead."},
//			{Otherwise: true, Say: "Thanks, that's all.", Stop: true},
//		},
//	}
//
// A reply no rule matches is an error naming it; end the list with an
// Otherwise rule for a default. Broken rules (none of Keyword, Pattern and
// Otherwise; Otherwise with either; a Pattern that does not compile; an
// empty Say without Stop) are one error naming each. Safe for concurrent
// use as long as nobody changes it.
type UserRules struct {
	// First is the user's first message.
	First string
	// Rules answer the agent's last reply (the text of its assistant
	// messages since the last user message, joined by blank lines).
	Rules []UserRule
}

// UserRule is one rule of UserRules.
type UserRule struct {
	// Keyword matches when the agent's reply contains it, byte for byte.
	Keyword string
	// Pattern is a regular expression (RE2) that matches anywhere in the
	// reply; (?i) for case-insensitive. With Keyword, both must match.
	Pattern string
	// Otherwise matches every reply.
	Otherwise bool
	// Say is the user's message.
	Say string
	// Stop ends the conversation with Say (which may then be empty).
	Stop bool
}

// Next returns First for an empty conversation, else the Say of the first
// rule matching the agent's last reply. It returns ctx's error when ctx
// is done.
func (u UserRules) Next(ctx context.Context, tr *evalkit.Transcript) (string, bool, error) {
	if err := ctxErr(ctx); err != nil {
		return "", false, err
	}
	res, err := u.compile()
	if err != nil {
		return "", false, err
	}
	if userMessages(tr) == 0 {
		if strings.TrimSpace(u.First) == "" {
			return "", false, errors.New("judgefake: UserRules has no First message")
		}
		return u.First, false, nil
	}
	reply := lastReply(tr)
	for i, r := range u.Rules {
		if !r.Otherwise {
			if r.Keyword != "" && !strings.Contains(reply, r.Keyword) {
				continue
			}
			if res[i] != nil && !res[i].MatchString(reply) {
				continue
			}
		}
		return r.Say, r.Stop, nil
	}
	return "", false, fmt.Errorf("judgefake: none of %d user rules matches the agent's reply %s; end Rules with {Otherwise: true, ...} for a default", len(u.Rules), excerpt(reply, 80))
}

func (u UserRules) compile() ([]*regexp.Regexp, error) {
	res := make([]*regexp.Regexp, len(u.Rules))
	var errs []error
	for i, r := range u.Rules {
		switch {
		case r.Otherwise && (r.Keyword != "" || r.Pattern != ""):
			errs = append(errs, fmt.Errorf("judgefake: UserRules.Rules[%d]: Otherwise with a Keyword or Pattern", i))
		case !r.Otherwise && r.Keyword == "" && r.Pattern == "":
			errs = append(errs, fmt.Errorf("judgefake: UserRules.Rules[%d]: none of Keyword, Pattern and Otherwise", i))
		case strings.TrimSpace(r.Say) == "" && !r.Stop:
			errs = append(errs, fmt.Errorf("judgefake: UserRules.Rules[%d]: an empty Say that does not Stop", i))
		}
		if r.Pattern != "" {
			re, err := regexp.Compile(r.Pattern)
			if err != nil {
				errs = append(errs, fmt.Errorf("judgefake: UserRules.Rules[%d]: Pattern: %w", i, err))
				continue
			}
			res[i] = re
		}
	}
	return res, errors.Join(errs...)
}

// lastReply is the text of the assistant messages after the last user
// message.
func lastReply(tr *evalkit.Transcript) string {
	var parts []string
	for _, m := range tr.Messages {
		switch {
		case m.Role == evalkit.RoleUser:
			parts = nil
		case m.Role == evalkit.RoleAssistant && strings.TrimSpace(m.Content) != "":
			parts = append(parts, strings.TrimSpace(m.Content))
		}
	}
	return strings.Join(parts, "\n\n")
}

// NewUserServer starts a Server that plays the model of a simulated user
// (simulate.ModelUser) from a script of the user's turns: each request
// gets, as the model's answer, the turn after those it already said — as
// many as the request's messages of role "assistant" (the model's own
// earlier lines) — in the OpenAI or Anthropic shape NewServer describes.
// Its answer depends on the request alone, so parallel conversations and
// retries get the same turns. A request for a turn past the script is a
// problem Err returns, answered with a 400. NewServer's refusals (no
// model, no messages, ...) and its streams hold as well.
func NewUserServer(turns ...string) *Server {
	return newServerWith(func(closed <-chan struct{}) *script { return newUserScript(turns, closed) })
}

// NewUserTransport is NewUserServer as an in-memory http.RoundTripper,
// as NewTransport is NewServer's.
func NewUserTransport(turns ...string) *Transport {
	return &Transport{sc: newUserScript(turns, nil)}
}

func newUserScript(turns []string, closed <-chan struct{}) *script {
	sc := newScript(nil, closed)
	turns = append([]string(nil), turns...)
	sc.pick = func(body []byte) (Reply, int, string) {
		var req struct {
			Messages []struct {
				Role string `json:"role"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return Reply{}, 0, "request body is not a JSON object"
		}
		n := 0
		for _, m := range req.Messages {
			if m.Role == "assistant" {
				n++
			}
		}
		if n >= len(turns) {
			return Reply{}, 0, fmt.Sprintf("script exhausted: the model was asked for turn %d, and %d turns were scripted", n+1, len(turns))
		}
		return Text(turns[n]), n + 1, ""
	}
	return sc
}
