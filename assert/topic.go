package assert

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// SmallTalkLabel is the candidate label TopicPolicy offers for small talk
// (greetings, thanks) when SmallTalk is set; UnknownLabel is the label a
// topic classifier may give for a message on no listed topic.
const (
	SmallTalkLabel = "small talk"
	UnknownLabel   = "unknown"
)

// TopicPolicy checks that a message keeps to a declared subject scope, as
// PromptKit's topic_policy, decided by a topic classifier rather than by
// the model under test. The Classifier is asked (Task "topic") to score
// the message against the candidate labels — the Allowed topics, the
// Disallowed ones, and SmallTalkLabel when SmallTalk is set — given the
// Description and the Examples; the message's topic is the best-scored
// label, and
//
//   - an allowed topic passes, a disallowed one fails;
//   - small talk passes when SmallTalk is "allow", fails when "deny";
//   - no topic — no scores, every score 0, or UnknownLabel — fails when
//     OnUnknown is "deny" (the default), passes when "allow".
//
// Score is 1 on a pass, 0 on a failure. The message is the last user
// message by default (PromptKit's guardrail gates input), with
// RecentTurns earlier messages sent as context (ClassifyRequest.Context).
//
// Errors, never verdicts: no Classifier (ErrNoClassifier), no
// Description, no Allowed topic, a topic both allowed and disallowed, no
// message to classify (ErrNoOutput), the classifier's own error, and a
// best label that is no candidate. OnError "deny" (the default) keeps a
// classifier's failure an evaluation error; PromptKit's "allow", which
// lets a guardrail fail open, is refused: a test never passes what it
// could not evaluate.
//
// Registry type "topic_policy", params: description (required), allowed
// (required), disallowed, small_talk (allow|deny), examples ({allowed:
// [...], disallowed: [...]}), on_unknown (deny|allow), on_error (deny),
// recent_turns (>= 0), message_role (default user), classifier_id, and
// on_deny (block|respond: what a runtime does with a denied turn; read
// for PromptKit packs, it changes nothing in a test).
type TopicPolicy struct {
	Classifier  evalkit.Classifier
	Description string
	Allowed     []string
	Disallowed  []string
	// SmallTalk is "allow", "deny" or "" (small talk is not a candidate).
	SmallTalk string
	// ExamplesAllowed and ExamplesDisallowed are example messages.
	ExamplesAllowed, ExamplesDisallowed []string
	// OnUnknown is "deny" (the default) or "allow".
	OnUnknown string
	// OnError is "deny" (the default; a classifier error is an error).
	OnError string
	// RecentTurns is how many earlier messages go with the message.
	RecentTurns int
	// MessageRole is whose last message is classified (default user).
	MessageRole evalkit.Role
}

func (c TopicPolicy) validate() error {
	const check = "topic_policy"
	switch {
	case strings.TrimSpace(c.Description) == "":
		return paramErr(check, "description", "required: what the assistant is for")
	case len(c.Allowed) == 0:
		return paramErr(check, "allowed", "required: at least one allowed topic")
	case c.RecentTurns < 0:
		return paramErr(check, "recent_turns", "want >= 0, got %d", c.RecentTurns)
	}
	seen := map[string]string{}
	for _, l := range []struct {
		name   string
		topics []string
	}{{"allowed", c.Allowed}, {"disallowed", c.Disallowed}} {
		for i, t := range l.topics {
			key := strings.ToLower(strings.TrimSpace(t))
			switch {
			case key == "":
				return paramErr(check, l.name, "topic %d is empty", i)
			case key == UnknownLabel || key == SmallTalkLabel:
				return paramErr(check, l.name, "%q is a reserved label: use on_unknown or small_talk", t)
			case seen[key] != "":
				return paramErr(check, l.name, "the topic %q is listed twice (also in %s)", t, seen[key])
			}
			seen[key] = l.name
		}
	}
	for _, o := range []struct{ name, v string }{{"small_talk", c.SmallTalk}, {"on_unknown", c.OnUnknown}} {
		if o.v != "" && o.v != "allow" && o.v != "deny" {
			return paramErr(check, o.name, "want allow or deny, got %q", o.v)
		}
	}
	switch c.OnError {
	case "", "deny":
	case "allow":
		return paramErr(check, "on_error", "allow would pass a message the classifier could not classify: evalkit never passes what it could not evaluate (a classifier error is reported as an error)")
	default:
		return paramErr(check, "on_error", "want deny, got %q", c.OnError)
	}
	if c.Classifier == nil {
		return fmt.Errorf("%s: %w: set the check's Classifier, build the registry with assert.NewRegistry().WithClassifier(c), or in a test give evaltest.New the option evaltest.WithClassifier(c)", check, ErrNoClassifier)
	}
	return nil
}

// labels are the candidate labels, in order.
func (c TopicPolicy) labels() []string {
	out := append(slices.Clone(c.Allowed), c.Disallowed...)
	if c.SmallTalk != "" {
		out = append(out, SmallTalkLabel)
	}
	return out
}

// Check implements Check.
func (c TopicPolicy) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "topic_policy"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	role := c.MessageRole
	if role == "" {
		role = evalkit.RoleUser
	}
	i, req, err := classifyInput(check, tr, evalkit.InputText, role, nil)
	if err != nil {
		return Result{}, err
	}
	for k := max(0, i-c.RecentTurns); k < i; k++ {
		m := tr.Messages[k]
		if t := strings.TrimSpace(textnorm.Newlines(m.Content)); t != "" {
			req.Context = append(req.Context, string(m.Role)+": "+t)
		}
	}
	req.Task, req.Labels, req.Description = "topic", c.labels(), c.Description
	if len(c.ExamplesAllowed) > 0 || len(c.ExamplesDisallowed) > 0 {
		req.Examples = map[string][]string{}
		if len(c.ExamplesAllowed) > 0 {
			req.Examples["allowed"] = c.ExamplesAllowed
		}
		if len(c.ExamplesDisallowed) > 0 {
			req.Examples["disallowed"] = c.ExamplesDisallowed
		}
	}
	cl, err := callClassifier(ctx, check, c.Classifier, req)
	if err != nil {
		return Result{}, err
	}
	details := []Detail{{"labels", topLabels(cl, 5)}}
	if cl.Model != "" {
		details = append(details, Detail{"classifier", textnorm.Excerpt(cl.Model, maxQuote)})
	}
	top, ok := cl.Top()
	at := fmt.Sprintf("messages[%d]", i)
	if !ok || top.Score == 0 || strings.EqualFold(top.Label, UnknownLabel) {
		if c.OnUnknown == "allow" {
			return pass(1, fmt.Sprintf("%s is on no listed topic, and on_unknown allows it", at), details...), nil
		}
		return fail(0, fmt.Sprintf("%s is on no listed topic (on_unknown: deny)", at), details...), nil
	}
	label := c.candidate(top.Label)
	switch {
	case label == "":
		return Result{}, fmt.Errorf("%s: the classifier's best label %q is none of the candidates %s", check, top.Label, quoteList(c.labels()))
	case label == SmallTalkLabel && c.SmallTalk == "allow":
		return pass(1, fmt.Sprintf("%s is small talk, which small_talk allows", at), details...), nil
	case label == SmallTalkLabel:
		return fail(0, fmt.Sprintf("%s is small talk, which small_talk denies", at), details...), nil
	case slices.Contains(c.Disallowed, label):
		return fail(0, fmt.Sprintf("%s is on the disallowed topic %q (score %s)", at, label, fmtNumber(roundScore(top.Score))), details...), nil
	}
	return pass(1, fmt.Sprintf("%s is on the allowed topic %q (score %s)", at, label, fmtNumber(roundScore(top.Score))), details...), nil
}

// candidate returns the candidate label l names (exactly, else ignoring
// case), or "".
func (c TopicPolicy) candidate(l string) string {
	labels := c.labels()
	if slices.Contains(labels, l) {
		return l
	}
	for _, cand := range labels {
		if strings.EqualFold(cand, strings.TrimSpace(l)) {
			return cand
		}
	}
	return ""
}

// Describe implements Describer.
func (c TopicPolicy) Describe() string {
	role := c.MessageRole
	if role == "" {
		role = evalkit.RoleUser
	}
	d := fmt.Sprintf("a topic classifier finds the last %s message on an allowed topic (%s)", role, joinQuoted(c.Allowed, "or"))
	if len(c.Disallowed) > 0 {
		d += ", not on " + joinQuoted(c.Disallowed, "or")
	}
	return describeLine(d)
}

func buildTopicPolicy(p *params) (Check, error) {
	var c TopicPolicy
	var err error
	if c.Description, _, err = p.str(true, "description"); err != nil {
		return nil, err
	}
	if c.Allowed, _, err = p.strs(true, "allowed"); err != nil {
		return nil, err
	}
	if c.Disallowed, _, err = p.strs(false, "disallowed"); err != nil {
		return nil, err
	}
	for _, s := range []struct {
		name string
		dst  *string
	}{{"small_talk", &c.SmallTalk}, {"on_unknown", &c.OnUnknown}, {"on_error", &c.OnError}} {
		if *s.dst, _, err = p.str(false, s.name); err != nil {
			return nil, err
		}
	}
	onDeny, _, err := p.str(false, "on_deny")
	if err != nil {
		return nil, err
	}
	if onDeny != "" && onDeny != "block" && onDeny != "respond" {
		return nil, p.err("on_deny", "want block or respond, got %q", onDeny)
	}
	ex, ok, err := p.object(false, "examples")
	if err != nil {
		return nil, err
	}
	if ok {
		ep := newParams(p.check, ex)
		if c.ExamplesAllowed, _, err = ep.strs(false, "allowed"); err != nil {
			return nil, p.err("examples", "%v", err.(*ParamError).Msg)
		}
		if c.ExamplesDisallowed, _, err = ep.strs(false, "disallowed"); err != nil {
			return nil, p.err("examples", "%v", err.(*ParamError).Msg)
		}
		if err := ep.finish(); err != nil {
			return nil, p.err("examples", "%v", err.(*ParamError).Msg)
		}
	}
	n, _, err := p.count("recent_turns")
	if err != nil {
		return nil, err
	}
	c.RecentTurns = n
	role, _, err := p.str(false, "message_role")
	if err != nil {
		return nil, err
	}
	c.MessageRole = evalkit.Role(role)
	if c.Classifier, err = classifierParam(p); err != nil {
		return nil, err
	}
	return c, nil
}
