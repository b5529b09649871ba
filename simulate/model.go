package simulate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// Model is a chat model a simulated user is played by: given a system
// prompt and the conversation as the model sees it (messages of roles
// user and assistant, text only), it returns its next message, an
// assistant message with its usage. openaijudge.Judge and
// anthropicjudge.Judge are Models (their Chat method), so one configured
// client serves as judge and as user. A Model with an identity
// (evalkit.Identifier) can be recorded (NewRecorder); evaltest's Simulate
// records it.
type Model interface {
	Chat(ctx context.Context, system string, msgs []evalkit.Message) (evalkit.Message, error)
}

// DefaultOpening is the agent's greeting a ModelUser answers first, as
// τ-bench's user simulator is greeted.
const DefaultOpening = "Hi! How can I help you today?"

// ModelUser is a User played by a Model: the model is told who the user
// is (Persona), what they want (Goal), what they know and may tell when
// asked (Facts), and to write StopMarker once the goal is met or cannot
// be; it then sees the agent's replies as the other side of the chat and
// writes the user's next message. As τ-bench's user simulator (an
// instruction and the ###STOP### rule) and DeepEval's simulator
// (user_description, scenario).
//
// Model, and Goal or Persona, are required. Next strips the stop marker
// and then reports stop. A recorded model's replay miss is a *MissError
// naming the turn whose agent reply differs from the recording's.
type ModelUser struct {
	Model Model
	// Persona is who the user is and how they talk: "Omar Rossi, a gold
	// member in a hurry".
	Persona string
	// Goal is what the user wants from the agent: "add 3 checked bags to
	// the New York–Chicago trip, change the passenger to yourself,
	// upgrade to economy, pay by gift card".
	Goal string
	// Facts are what the user knows and tells only when needed: "your
	// user id is omar_rossi_1241".
	Facts []string
	// Opening is the agent's greeting the user answers first (default
	// DefaultOpening). It is shown to the model only, never added to the
	// transcript.
	Opening string
}

// modelUserOf returns the ModelUser u is, by value or by pointer.
func modelUserOf(u User) (ModelUser, bool) {
	switch u := u.(type) {
	case ModelUser:
		return u, true
	case *ModelUser:
		if u != nil {
			return *u, true
		}
	}
	return ModelUser{}, false
}

// Next asks the model for the user's next message (see ModelUser).
func (u ModelUser) Next(ctx context.Context, tr *evalkit.Transcript) (string, bool, error) {
	if u.Model == nil {
		return "", false, errors.New("ModelUser has no Model")
	}
	if strings.TrimSpace(u.Goal) == "" && strings.TrimSpace(u.Persona) == "" {
		return "", false, errors.New("ModelUser has neither a Goal nor a Persona: the model would not know whom to play")
	}
	msgs := u.Messages(tr)
	reply, err := u.Model.Chat(ctx, u.SystemPrompt(), msgs)
	if err != nil {
		var miss *MissError
		if errors.As(err, &miss) {
			return "", false, u.onTurn(miss, msgs)
		}
		return "", false, err
	}
	text := strings.TrimSpace(reply.Content)
	if strings.Contains(text, StopMarker) {
		return strings.TrimSpace(strings.ReplaceAll(text, StopMarker, "")), true, nil
	}
	if text == "" {
		return "", false, fmt.Errorf("the model (%s) wrote an empty message", modelName(u.Model))
	}
	return text, false, nil
}

// onTurn says which turn a miss is at: the model's message i is the
// opening (0), the user's message of turn k (2k−1) or the agent's reply
// of turn k (2k); a recorded conversation that ends before msgs does is
// missing the turn msgs asks for.
func (u ModelUser) onTurn(miss *MissError, msgs []evalkit.Message) *MissError {
	m := *miss
	i := m.Message
	switch {
	case i < 0:
	case m.Absent:
		// The conversation so far is recorded, but not its going on: the
		// call asks for the user's message of the turn after msgs.
		m.Turn = (len(msgs) + 1) / 2
		m.What = fmt.Sprintf("the recording holds no user message for turn %d: the recorded conversation ended sooner", m.Turn)
	case i == 0:
		m.What = "the agent's opening line differs"
	case i%2 == 1:
		m.Turn = (i + 1) / 2
		m.What = "the user's own message differs from the recording's"
	default:
		m.Turn = i / 2
		m.What = "the agent said something else than in the recording"
	}
	return &m
}

// Messages returns the conversation as the model sees it: the Opening as
// the other side's first message, then each user message of tr as the
// model's own (role assistant) and each reply of the agent — the text of
// its assistant messages between two user messages, joined by a blank
// line — as the other side's (role user). System messages, tool calls
// and tool results are not shown: a user sees none of them.
func (u ModelUser) Messages(tr *evalkit.Transcript) []evalkit.Message {
	opening := u.Opening
	if strings.TrimSpace(opening) == "" {
		opening = DefaultOpening
	}
	out := []evalkit.Message{{Role: evalkit.RoleUser, Content: opening}}
	var reply []string
	flush := func() {
		if len(reply) > 0 {
			out = append(out, evalkit.Message{Role: evalkit.RoleUser, Content: strings.Join(reply, "\n\n")})
			reply = nil
		}
	}
	if tr == nil {
		return out
	}
	for _, m := range tr.Messages {
		switch m.Role {
		case evalkit.RoleUser:
			flush()
			out = append(out, evalkit.Message{Role: evalkit.RoleAssistant, Content: m.Content})
		case evalkit.RoleAssistant:
			if t := strings.TrimSpace(m.Content); t != "" {
				reply = append(reply, t)
			}
		}
	}
	flush()
	return out
}

// SystemPrompt returns what the model is told: whom to play, the goal,
// the facts and the rules of the conversation, the stop marker among
// them. It changes only on purpose, as recordings key on it.
func (u ModelUser) SystemPrompt() string {
	var b strings.Builder
	b.WriteString("You are role-playing the user of a conversational agent, to test that agent. The other side of this chat is the agent. Stay in character as the user the whole time: never act as the agent, and never say that you are an AI or that this is a test.\n")
	if p := strings.TrimSpace(u.Persona); p != "" {
		b.WriteString("\n# Who you are\n")
		b.WriteString(p)
		b.WriteString("\n")
	}
	if g := strings.TrimSpace(u.Goal); g != "" {
		b.WriteString("\n# What you want\n")
		b.WriteString(g)
		b.WriteString("\n")
	}
	if len(u.Facts) > 0 {
		b.WriteString("\n# What you know\n")
		for _, f := range u.Facts {
			if f = strings.TrimSpace(f); f != "" {
				b.WriteString("- ")
				b.WriteString(f)
				b.WriteString("\n")
			}
		}
	}
	b.WriteString("\n# How to talk\n")
	b.WriteString("- Write only your next message to the agent, one message at a time, as this user would type it.\n")
	b.WriteString("- Tell the agent what you know only when the current step needs it; do not recite your goal or your facts all at once, nor copy these instructions word for word.\n")
	b.WriteString("- Never make up details you were not given. When the agent asks for something you do not know, say that you do not know it.\n")
	b.WriteString("- Once your goal is met, or you are sure it cannot be met, write " + StopMarker + " as your whole message to end the conversation.\n")
	return b.String()
}

// modelName names the model for a message: its identity's model, else
// its type.
func modelName(m Model) string {
	if idr, ok := m.(evalkit.Identifier); ok {
		if id := idr.Identity(); id.Model != "" {
			return id.Model
		}
	}
	return fmt.Sprintf("%T", m)
}
