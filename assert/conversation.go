package assert

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// The multi-turn metrics: model-graded like the others (metric.go), over a
// whole conversation in numbered turns — a turn is a user message and the
// assistant's reply to it, its text and tool calls — with one item per
// user intention or per turn, so a low score says which turn lost what.
//
// Design: they live here, not in a package of their own, because the
// registry gives a judged check its judge (and judge set) through
// unexported params, and their asking, strict item reading, per-item
// Details and thresholds are metric.go's, shared with the ten other
// metrics; what is theirs alone — turns and their rendering — is this
// file.

// ConversationCompleteness scores how many of the user's intentions the
// conversation satisfied, as DeepEval's conversation_completeness: the
// judge lists the user's intentions, each with the turn it is first
// expressed in, then gives each a verdict "yes" (satisfied by the end of
// the conversation) or "no", and
//
//	score = satisfied intentions / intentions
//
// in [0,1]. Two judge requests (conversation_completeness.intentions/1
// and .verdicts/1). Ragas' agent_goal_accuracy asks the same question as
// one binary verdict. Details list every intention with its turn, verdict
// and the judge's reason, unsatisfied ones first.
//
// Errors, never scores: no Judge, no assistant reply (ErrNoOutput), the
// judge's own error or an answer not in the metric's shape
// (ErrBadVerdict), and no intention at all (ErrNoItems).
//
// Registry type "conversation_completeness", params: rubric, criteria,
// model, system_prompt (the judge's).
type ConversationCompleteness struct {
	Judge        evalkit.Judge
	Rubric       string
	Model        string
	SystemPrompt string
}

// RoleAdherence scores how many of the assistant's turns keep the role it
// was given, as DeepEval's role_adherence (its chatbot_role): the judge
// gives each turn with a reply a verdict "yes" (in role) or "no", reading
// the turns before it, and
//
//	score = turns in role / turns with a reply
//
// in [0,1]. The role is Role, else the transcript's system messages;
// neither is a *ParamError. One judge request (role_adherence.verdicts/1).
// Unlike role_violation, which asks whether any statement breaks the role,
// it scores turn by turn. Details and errors are
// ConversationCompleteness's, per turn.
//
// Registry type "role_adherence", params: system_prompt (aliases role,
// chatbot_role: the role, as role_violation's), rubric, criteria, model.
type RoleAdherence struct {
	Judge evalkit.Judge
	// Role is the role, persona or system prompt the assistant must keep.
	Role   string
	Rubric string
	Model  string
	// SystemPrompt replaces the judge's own system prompt (Go only: the
	// registry's system_prompt param is the Role).
	SystemPrompt string
}

// KnowledgeRetention scores how many of the assistant's turns keep what
// the user told it earlier, as DeepEval's knowledge_retention: the judge
// lists the facts the user gives (ids, dates, choices, constraints), each
// with its turn, then gives each turn with a reply a verdict "no" when it
// forgets one — asks for it again, contradicts it, acts against it — and
// "yes" otherwise, and
//
//	score = turns without attrition / turns with a reply
//
// in [0,1]; a conversation in which the user tells nothing scores 1 after
// the first request. Two judge requests (knowledge_retention.knowledge/1
// and .verdicts/1). Details and errors are ConversationCompleteness's,
// per turn.
//
// Registry type "knowledge_retention", params: rubric, criteria, model,
// system_prompt.
type KnowledgeRetention struct {
	Judge        evalkit.Judge
	Rubric       string
	Model        string
	SystemPrompt string
}

// DefaultWindow is TurnRelevancy's window, in turns: DeepEval's
// window_size.
const DefaultWindow = 10

// TurnRelevancy scores how many of the assistant's replies are relevant
// to the user's message of their turn, as DeepEval's turn_relevancy: the
// judge gives each turn with a reply a verdict "yes" or "no", reading it
// in a sliding window of the Window turns that end with it (default
// DefaultWindow), and
//
//	score = relevant turns / turns with a reply
//
// in [0,1]. One judge request for every turn (turn_relevancy.verdicts/1),
// told each turn's window, where DeepEval asks once per window. Details
// and errors are ConversationCompleteness's, per turn; a Window below 0
// is a *ParamError.
//
// Registry type "turn_relevancy", params: window_size (alias window),
// rubric, criteria, model, system_prompt.
type TurnRelevancy struct {
	Judge        evalkit.Judge
	Window       int
	Rubric       string
	Model        string
	SystemPrompt string
}

func conversationChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"conversation_completeness": buildConversationCompleteness,
		"role_adherence":            buildRoleAdherence,
		"knowledge_retention":       buildKnowledgeRetention,
		"turn_relevancy":            buildTurnRelevancy,
	}
}

// convTurn is one turn of a conversation: the user's message and the
// assistant's reply to it.
type convTurn struct {
	n     int // from 1
	user  string
	reply string // the text of the assistant's messages, joined
	calls []evalkit.ToolCall
}

// replied reports whether the assistant replied in the turn: text or a
// tool call.
func (t convTurn) replied() bool { return strings.TrimSpace(t.reply) != "" || len(t.calls) > 0 }

// conversationTurns splits tr into turns, each from a user message to the
// next; an assistant that speaks before the user opens a turn of its own.
// System messages are not part of any.
func conversationTurns(tr *evalkit.Transcript) []convTurn {
	if tr == nil {
		return nil
	}
	var out []convTurn
	for _, u := range tr.Turns() {
		t := convTurn{calls: u.ToolCalls()}
		var reply []string
		for _, m := range u.Messages {
			switch m.Role {
			case evalkit.RoleUser:
				t.user = m.Content
			case evalkit.RoleAssistant:
				if s := strings.TrimSpace(m.Content); s != "" {
					reply = append(reply, s)
				}
			}
		}
		t.reply = strings.Join(reply, "\n\n")
		if strings.TrimSpace(t.user) == "" && !t.replied() {
			continue
		}
		t.n = len(out) + 1
		out = append(out, t)
	}
	return out
}

// Bounds on a rendered turn, in bytes: a tool call's arguments and its
// result are cut, the conversation's text is not.
const (
	maxTurnArgs   = 300
	maxTurnResult = 300
)

// renderTurns writes turns for a judge: "Turn N", the user's message, the
// assistant's reply and its tool calls, continuation lines indented so no
// text passes for a turn of its own.
func renderTurns(turns []convTurn) string {
	var b strings.Builder
	line := func(prefix, text string) {
		lines := strings.Split(strings.TrimSpace(textnorm.Newlines(text)), "\n")
		b.WriteString(prefix)
		for i, l := range lines {
			if i > 0 {
				b.WriteString("\n")
				if l = strings.TrimRight(l, " \t"); l != "" {
					b.WriteString("  ")
				}
			}
			b.WriteString(l)
		}
		b.WriteString("\n")
	}
	for _, t := range turns {
		fmt.Fprintf(&b, "Turn %d\n", t.n)
		if strings.TrimSpace(t.user) != "" {
			line("user: ", t.user)
		}
		switch {
		case strings.TrimSpace(t.reply) != "":
			line("assistant: ", t.reply)
		case len(t.calls) == 0:
			b.WriteString("assistant: (no reply)\n")
		}
		for _, c := range t.calls {
			args := textnorm.Excerpt(strings.Join(strings.Fields(string(c.Args)), " "), maxTurnArgs)
			result := "(no result)"
			if c.Result != nil {
				result = textnorm.Excerpt(strings.Join(strings.Fields(c.Result.Content), " "), maxTurnResult)
				if result == "" {
					result = "(empty)"
				}
				if c.Result.IsError {
					result = "(error) " + result
				}
			}
			fmt.Fprintf(&b, "  tool call %s(%s) -> %s\n", strings.Join(strings.Fields(c.Name), "_"), args, result)
		}
	}
	return b.String()
}

// repliedTurns returns the turns with a reply and their numbers, or an
// error wrapping ErrNoOutput when there are none.
func repliedTurns(check string, turns []convTurn) ([]convTurn, []int, error) {
	var out []convTurn
	var nums []int
	for _, t := range turns {
		if t.replied() {
			out = append(out, t)
			nums = append(nums, t.n)
		}
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("%s: %w: the assistant replies in no turn", check, ErrNoOutput)
	}
	return out, nums, nil
}

// turnItem is an item the judge listed from a conversation, with its turn.
type turnItem struct {
	text string
	turn int
}

// extractTurnItems asks the judge for an extraction's items, each with a
// turn among the conversation's.
func (m *metricJudge) extractTurnItems(ctx context.Context, x judgeprompt.TurnExtraction, conversation string, turns int) ([]turnItem, error) {
	v, err := m.ask(ctx, x.Step, evalkit.JudgeRequest{Content: conversation})
	if err != nil {
		return nil, err
	}
	list, err := listField(m.check, v.Fields, x.Step.List)
	if err != nil {
		return nil, err
	}
	out := make([]turnItem, len(list))
	for i, it := range list {
		key := fmt.Sprintf("%s[%d]", x.Step.List, i)
		obj, ok := it.(map[string]any)
		if !ok {
			return nil, badVerdict(m.check, "%s is %s, want an object", key, kindOf(it))
		}
		text, ok := obj[x.Item].(string)
		if !ok || strings.TrimSpace(text) == "" {
			return nil, badVerdict(m.check, "%s has no %q string", key, x.Item)
		}
		n, err := turnNumber(m.check, key, obj, turns)
		if err != nil {
			return nil, err
		}
		out[i] = turnItem{text: strings.Join(strings.Fields(text), " "), turn: n}
	}
	return out, nil
}

// turnNumber reads an item's "turn": a whole number from 1 to turns.
func turnNumber(check, key string, obj map[string]any, turns int) (int, error) {
	var f float64
	switch v := obj["turn"].(type) {
	case json.Number:
		var err error
		if f, err = v.Float64(); err != nil {
			return 0, badVerdict(check, "%s.turn is %s, want a turn's number", key, excerpt(string(v)))
		}
	case float64:
		f = v
	case int:
		f = float64(v)
	case nil:
		return 0, badVerdict(check, "%s has no turn", key)
	default:
		return 0, badVerdict(check, "%s.turn is %s, want a turn's number", key, kindOf(v))
	}
	if f != math.Trunc(f) || f < 1 || f > float64(turns) {
		return 0, badVerdict(check, "%s.turn is %v, want a turn from 1 to %d", key, f, turns)
	}
	return int(f), nil
}

// turnVerdicts asks a per-turn verdict step over the turns numbered nums
// and reads exactly one verdict per turn, in order, each naming its turn.
func (m *metricJudge) turnVerdicts(ctx context.Context, nums []int, window int, base evalkit.JudgeRequest, all int) ([]itemVerdict, error) {
	step, words, err := judgeprompt.TurnVerdictStep(m.check, nums, window)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.check, err)
	}
	v, err := m.ask(ctx, step, base)
	if err != nil {
		return nil, err
	}
	list, err := listField(m.check, v.Fields, step.List)
	if err != nil {
		return nil, err
	}
	if len(list) != len(nums) {
		return nil, badVerdict(m.check, "the judge gave %s for %s: want exactly one per turn", plural(len(list), "verdict"), plural(len(nums), "turn"))
	}
	vs, err := readVerdicts(m.check, step.List, list, words, "")
	if err != nil {
		return nil, err
	}
	for i, it := range list {
		key := fmt.Sprintf("%s[%d]", step.List, i)
		n, err := turnNumber(m.check, key, it.(map[string]any), all)
		if err != nil {
			return nil, err
		}
		if n != nums[i] {
			return nil, badVerdict(m.check, "%s is for turn %d, want turn %d (the turns, in order: %s)", key, n, nums[i], joinInts(nums))
		}
	}
	return vs, nil
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// turnResult is the Result of a per-turn metric: the turns with "yes"
// over the turns judged, each turn a line with its reply and the judge's
// reason, "no" first.
func turnResult(m *metricJudge, turns []convTurn, vs []itemVerdict, summary func(n, of int, score float64) string) Result {
	lines := make([]itemLine, len(turns))
	n := 0
	for i, t := range turns {
		if vs[i].verdict == "yes" {
			n++
		}
		text := strings.Join(strings.Fields(t.reply), " ") // one line: the reply is quoted whole elsewhere
		if text == "" {
			text = "(tool calls only)"
		}
		lines[i] = itemLine{label: "turn " + strconv.Itoa(t.n), verdict: vs[i].verdict, text: text, reason: vs[i].reason}
	}
	score := ratio(n, len(turns))
	return metricResult(m, score, summary(n, len(turns), score), lines, func(l itemLine) bool { return l.verdict != "yes" })
}

// Check implements Check.
func (c ConversationCompleteness) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	m := newMetricJudge("conversation_completeness", c.Judge, c.Rubric, c.Model, c.SystemPrompt)
	if err := m.validate(); err != nil {
		return Result{}, err
	}
	turns := conversationTurns(tr)
	if _, _, err := repliedTurns(m.check, turns); err != nil {
		return Result{}, err
	}
	conversation := renderTurns(turns)
	intentions, err := m.extractTurnItems(ctx, judgeprompt.IntentionsStep(), conversation, len(turns))
	if err != nil {
		return Result{}, err
	}
	if len(intentions) == 0 {
		return Result{}, fmt.Errorf("%s: %w: the judge finds no intention of the user", m.check, ErrNoItems)
	}
	texts := make([]string, len(intentions))
	for i, it := range intentions {
		texts[i] = it.text
	}
	vs, err := m.verdicts(ctx, len(intentions), "intention", evalkit.JudgeRequest{Content: judgeprompt.NumberedList(texts), Context: []string{conversation}})
	if err != nil {
		return Result{}, err
	}
	lines := make([]itemLine, len(intentions))
	n := 0
	for i, it := range intentions {
		if vs[i].verdict == "yes" {
			n++
		}
		lines[i] = itemLine{label: fmt.Sprintf("intention %d (turn %d)", i+1, it.turn), verdict: vs[i].verdict, text: it.text, reason: vs[i].reason}
	}
	score := ratio(n, len(intentions))
	summary := fmt.Sprintf("%s %s: %d of %s satisfied", m.check, fmtRatio(score), n, plural(len(intentions), "user intention"))
	return metricResult(m, score, summary, lines, func(l itemLine) bool { return l.verdict != "yes" }), nil
}

// role returns the role the assistant must keep.
func (c RoleAdherence) role(tr *evalkit.Transcript) (string, error) {
	role, err := RoleViolation{Role: c.Role}.role(tr)
	if err != nil {
		return "", paramErr("role_adherence", "system_prompt", "no role: give the role (system_prompt, role or chatbot_role; Role in Go), or a transcript with a system message")
	}
	return role, nil
}

// Check implements Check.
func (c RoleAdherence) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	m := newMetricJudge("role_adherence", c.Judge, c.Rubric, c.Model, c.SystemPrompt)
	if err := m.validate(); err != nil {
		return Result{}, err
	}
	turns := conversationTurns(tr)
	judged, nums, err := repliedTurns(m.check, turns)
	if err != nil {
		return Result{}, err
	}
	role, err := c.role(tr)
	if err != nil {
		return Result{}, err
	}
	vs, err := m.turnVerdicts(ctx, nums, 0, evalkit.JudgeRequest{Content: renderTurns(turns), Context: []string{role}}, len(turns))
	if err != nil {
		return Result{}, err
	}
	return turnResult(m, judged, vs, func(n, of int, score float64) string {
		return fmt.Sprintf("%s %s: %d of %s keep the role", m.check, fmtRatio(score), n, plural(of, "turn"))
	}), nil
}

// Check implements Check.
func (c KnowledgeRetention) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	m := newMetricJudge("knowledge_retention", c.Judge, c.Rubric, c.Model, c.SystemPrompt)
	if err := m.validate(); err != nil {
		return Result{}, err
	}
	turns := conversationTurns(tr)
	judged, nums, err := repliedTurns(m.check, turns)
	if err != nil {
		return Result{}, err
	}
	conversation := renderTurns(turns)
	facts, err := m.extractTurnItems(ctx, judgeprompt.KnowledgeStep(), conversation, len(turns))
	if err != nil {
		return Result{}, err
	}
	if len(facts) == 0 {
		return metricResult(m, 1, m.check+" 1: the user tells the assistant nothing to remember", nil, nil), nil
	}
	var known strings.Builder
	for i, f := range facts {
		fmt.Fprintf(&known, "%d. (turn %d) %s\n", i+1, f.turn, f.text)
	}
	vs, err := m.turnVerdicts(ctx, nums, 0, evalkit.JudgeRequest{Content: conversation, Context: []string{known.String()}}, len(turns))
	if err != nil {
		return Result{}, err
	}
	return turnResult(m, judged, vs, func(n, of int, score float64) string {
		return fmt.Sprintf("%s %s: %d of %s keep what the user said (%s)", m.check, fmtRatio(score), n, plural(of, "turn"), plural(len(facts), "fact"))
	}), nil
}

// Check implements Check.
func (c TurnRelevancy) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	m := newMetricJudge("turn_relevancy", c.Judge, c.Rubric, c.Model, c.SystemPrompt)
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	turns := conversationTurns(tr)
	judged, nums, err := repliedTurns(m.check, turns)
	if err != nil {
		return Result{}, err
	}
	vs, err := m.turnVerdicts(ctx, nums, c.window(), evalkit.JudgeRequest{Content: renderTurns(turns)}, len(turns))
	if err != nil {
		return Result{}, err
	}
	return turnResult(m, judged, vs, func(n, of int, score float64) string {
		return fmt.Sprintf("%s %s: %d of %s relevant", m.check, fmtRatio(score), n, plural(of, "turn"))
	}), nil
}

func (c TurnRelevancy) window() int {
	if c.Window > 0 {
		return c.Window
	}
	return DefaultWindow
}

func (c ConversationCompleteness) validate() error {
	return newMetricJudge("conversation_completeness", c.Judge, "", "", "").validate()
}

func (c RoleAdherence) validate() error {
	return newMetricJudge("role_adherence", c.Judge, "", "", "").validate()
}

func (c KnowledgeRetention) validate() error {
	return newMetricJudge("knowledge_retention", c.Judge, "", "", "").validate()
}

func (c TurnRelevancy) validate() error {
	if c.Window < 0 {
		return paramErr("turn_relevancy", "window_size", "want 1 or more turns (0 for the default, %d), got %d", DefaultWindow, c.Window)
	}
	return newMetricJudge("turn_relevancy", c.Judge, "", "", "").validate()
}

// readConversation reads a multi-turn metric's params: the knobs, the
// judge's system prompt when takesSystemPrompt (role_adherence reads
// system_prompt as its role).
func readConversation(p *params, takesSystemPrompt bool) (judge evalkit.Judge, rubric, model, systemPrompt string, err error) {
	if err = noThreshold(p); err != nil {
		return
	}
	if rubric, model, systemPrompt, err = readMetricKnobs(p, takesSystemPrompt); err != nil {
		return
	}
	return metricJudgeParam(p), rubric, model, systemPrompt, nil
}

func buildConversationCompleteness(p *params) (Check, error) {
	j, rubric, model, sys, err := readConversation(p, true)
	if err != nil {
		return nil, err
	}
	return ConversationCompleteness{Judge: j, Rubric: rubric, Model: model, SystemPrompt: sys}, nil
}

func buildRoleAdherence(p *params) (Check, error) {
	j, rubric, model, _, err := readConversation(p, false)
	if err != nil {
		return nil, err
	}
	role, _, err := p.str(false, "system_prompt", "role", "chatbot_role")
	if err != nil {
		return nil, err
	}
	return RoleAdherence{Judge: j, Role: role, Rubric: rubric, Model: model}, nil
}

func buildKnowledgeRetention(p *params) (Check, error) {
	j, rubric, model, sys, err := readConversation(p, true)
	if err != nil {
		return nil, err
	}
	return KnowledgeRetention{Judge: j, Rubric: rubric, Model: model, SystemPrompt: sys}, nil
}

func buildTurnRelevancy(p *params) (Check, error) {
	j, rubric, model, sys, err := readConversation(p, true)
	if err != nil {
		return nil, err
	}
	window, set, err := p.count("window_size", "window")
	if err != nil {
		return nil, err
	}
	if set && window < 1 {
		name, _, _, _ := p.lookup("window_size", "window")
		return nil, p.err(name, "want 1 or more turns, got %d", window)
	}
	return TurnRelevancy{Judge: j, Window: window, Rubric: rubric, Model: model, SystemPrompt: sys}, nil
}

// Describe implements Describer.
func (c ConversationCompleteness) Describe() string {
	return "a judge scores how many of the user's intentions the conversation satisfied (conversation_completeness, score in [0,1])"
}

// Describe implements Describer.
func (c RoleAdherence) Describe() string {
	role := "the transcript's system prompt"
	if strings.TrimSpace(c.Role) != "" {
		role = "the role " + textnorm.Quote(c.Role, 80)
	}
	return describeLine(fmt.Sprintf("a judge scores how many of the assistant's turns keep %s (role_adherence, score in [0,1])", role))
}

// Describe implements Describer.
func (c KnowledgeRetention) Describe() string {
	return "a judge scores how many of the assistant's turns keep what the user told it earlier (knowledge_retention, score in [0,1])"
}

// Describe implements Describer.
func (c TurnRelevancy) Describe() string {
	return fmt.Sprintf("a judge scores how many of the assistant's replies are relevant to their turn, in a window of %d turns (turn_relevancy, score in [0,1])", c.window())
}
