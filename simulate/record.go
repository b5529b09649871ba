package simulate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Design: a simulated user's model calls are recorded through golden's
// HTTP recording (golden.Transport), each call filed as one exchange with
// the path ChatPath: its JSON body the model's identity, the system prompt
// and the messages, its response the model's reply. So they are keyed,
// written (versioned, sorted, redacted, atomic, locked), pruned and
// verified as every HTTP exchange is, into the test's <TestName>.http.json
// beside the agent's own model calls, and a change to that path's rules
// (deadlines, durability) applies to them too. The call's Go values never
// travel: the live side decodes the body the key was made from.

// ChatPath is the path under which a Recorder files its model's calls in
// an HTTP recording.
const ChatPath = "/evalkit/simulate/chat"

// chatURL is where a Recorder's requests go: never dialled (the live side
// is the model itself); recordings keep no host.
const chatURL = "http://simulate.evalkit.invalid" + ChatPath

// chatRequest is the body of a recorded call.
type chatRequest struct {
	Model    evalkit.Identity `json:"model"`
	System   string           `json:"system"`
	Messages []chatMessage    `json:"messages"`
}

type chatMessage struct {
	Role    evalkit.Role `json:"role"`
	Content string       `json:"content"`
}

// chatReply is the body of a recorded reply.
type chatReply struct {
	Content string         `json:"content"`
	Usage   *evalkit.Usage `json:"usage,omitempty"`
}

// Recorder is a Model that answers from a recording of a live model's
// replies and records them, as its mode says (golden.ModeReplay,
// ModeRecord, ModeRefresh, ModeLive): golden.Recorder's counterpart for
// the model a simulated user is played by. Make one with NewRecorder. It
// is safe for concurrent use.
type Recorder struct {
	live Model
	id   evalkit.Identity
	path string
	opts []golden.Option
	tr   *golden.Transport // the recording, for Save; calls go through their own
}

// NewRecorder returns a Recorder for the HTTP recording at path (by
// convention testdata/evalkit/<TestName>.http.json, which the test's
// agent may record into too), asking live when its mode says so. opts are
// golden's: WithMode (default ModeReplay), WithRedact, WithUsageLog,
// WithTest. With WithTest (evaltest.T.Simulate gives the test's name) the
// calls are keyed with the test and written among its agent's, in the
// order made, and a conversation asked twice in the test replays its own
// reply each time, as the agent's identical requests do; call Close when
// the test ends, after Save.
//
// A call is keyed on live's identity (evalkit.Identifier: provider,
// model, settings; not its prompt version, which is a judge's), the
// system prompt and every message: a changed persona, model, temperature
// or agent reply is a new call. live must have an identity with a
// Provider except in ModeLive. Errors: no live model, no identity, and
// golden.NewTransport's (a recording that does not read, a bad mode).
func NewRecorder(path string, live Model, opts ...golden.Option) (*Recorder, error) {
	if live == nil {
		return nil, errors.New("simulate: no live model")
	}
	r := &Recorder{live: live, path: path, opts: append([]golden.Option(nil), opts...)}
	if idr, ok := live.(evalkit.Identifier); ok {
		r.id = idr.Identity()
		r.id.PromptVersion = ""
	}
	tr, err := r.transport()
	if err != nil {
		return nil, err
	}
	if tr.Mode() != golden.ModeLive && r.id.Provider == "" {
		return nil, fmt.Errorf("simulate: %T has no identity with a Provider, so its replies cannot be keyed: give it an Identity method (evalkit.Identifier), or use ModeLive", live)
	}
	r.tr = tr
	return r, nil
}

// transport returns a Transport on the recording. Each call goes through
// its own, closed after it: a Transport of no test counts identical
// requests on its own and replays the n-th recorded response to the n-th,
// where a simulated user's reply depends on the conversation alone — the
// same conversation, asked again in another run or attempt, replays the
// same reply. With a test (golden.WithTest), the calls count with the
// test's other Transports, which r.tr keeps open until Close. Transports
// on one file share its recording (golden.NewTransport), so this costs a
// lookup.
func (r *Recorder) transport() (*golden.Transport, error) {
	return golden.NewTransport(r.path, roundTripFunc(r.liveCall), r.opts...)
}

// Path returns the recording's path.
func (r *Recorder) Path() string { return r.tr.Path() }

// Mode returns the Recorder's mode.
func (r *Recorder) Mode() golden.Mode { return r.tr.Mode() }

// Identity returns the live model's identity, without a prompt version.
func (r *Recorder) Identity() evalkit.Identity { return r.id }

// MarkPartial says the run did not run everything that uses the
// recording (see golden.Transport.MarkPartial).
func (r *Recorder) MarkPartial() { r.tr.MarkPartial() }

// Save writes the recording when the mode and what happened say so (see
// golden.Transport.Save).
func (r *Recorder) Save() error { return r.tr.Save() }

// Close ends the Recorder's part in its test's count of identical
// requests (see golden.Transport.Close): call it when the test ends,
// after Save. It never fails.
func (r *Recorder) Close() error { return r.tr.Close() }

// Chat answers as the mode says: the recorded reply, or in replay mode
// for a call not recorded, a *MissError saying where the conversation
// parts from the nearest recorded one (it wraps golden.ErrNotRecorded);
// in record and refresh mode, the live model's reply, recorded; in live
// mode, the live model's. The live model's errors are returned as they
// are, and nothing is recorded for them.
func (r *Recorder) Chat(ctx context.Context, system string, msgs []evalkit.Message) (evalkit.Message, error) {
	body := chatRequest{Model: r.id, System: system, Messages: make([]chatMessage, len(msgs))}
	for i, m := range msgs {
		body.Messages[i] = chatMessage{Role: m.Role, Content: m.Content}
	}
	data, err := json.Marshal(body)
	if err != nil {
		return evalkit.Message{}, fmt.Errorf("simulate: encoding the call: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, chatURL, bytes.NewReader(data))
	if err != nil {
		return evalkit.Message{}, fmt.Errorf("simulate: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	tr, err := r.transport()
	if err != nil {
		return evalkit.Message{}, err
	}
	defer tr.Close()
	resp, err := tr.RoundTrip(req)
	if err != nil {
		var nr *golden.NotRecordedError
		if errors.As(err, &nr) {
			return evalkit.Message{}, newMiss(nr, body)
		}
		return evalkit.Message{}, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return evalkit.Message{}, fmt.Errorf("simulate: reading the recorded reply: %w", err)
	}
	var reply chatReply
	if resp.StatusCode != http.StatusOK || json.Unmarshal(out, &reply) != nil {
		return evalkit.Message{}, fmt.Errorf("simulate: %s holds a reply that is not a simulated user's (status %d): %s", r.tr.Path(), resp.StatusCode, textnorm.Quote(string(out), 120))
	}
	return evalkit.Message{Role: evalkit.RoleAssistant, Content: reply.Content, Usage: reply.Usage}, nil
}

// liveCall is the live side of the recording: the live model, asked what
// the request's body says.
func (r *Recorder) liveCall(req *http.Request) (*http.Response, error) {
	data, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	var body chatRequest
	if err := json.Unmarshal(data, &body); err != nil {
		return nil, fmt.Errorf("simulate: decoding the call: %w", err)
	}
	msgs := make([]evalkit.Message, len(body.Messages))
	for i, m := range body.Messages {
		msgs[i] = evalkit.Message{Role: m.Role, Content: m.Content}
	}
	m, err := r.live.Chat(req.Context(), body.System, msgs)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(chatReply{Content: m.Content, Usage: m.Usage})
	if err != nil {
		return nil, fmt.Errorf("simulate: encoding the reply: %w", err)
	}
	return &http.Response{
		Status: "200 OK", StatusCode: http.StatusOK,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(out)),
		ContentLength: int64(len(out)),
		Request:       req,
	}, nil
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

var _ Model = (*Recorder)(nil)

// MissError is a replay miss of a recorded simulated user: the
// conversation its model was asked to answer is not in the recording. It
// says where the conversation parts from the nearest recorded one — the
// recorded call with the same model and instructions that shares the
// longest start of the conversation — and how.
type MissError struct {
	// Path is the recording's path.
	Path string
	// Turn is the turn where the conversation parts from the recording:
	// the agent's reply of this turn differs (1 for the first); when the
	// recorded conversation ended sooner (Absent), the turn whose user
	// message is not recorded. 0 when it parts before any turn (the
	// model, the instructions, the opening) or a Recorder is used
	// without a ModelUser.
	Turn int
	// What says how it parts: "the agent said something else than in the
	// recording".
	What string
	// Message is the index of the first message of the model's
	// conversation that differs; -1 when the model or the system prompt
	// differ, or nothing is recorded.
	Message int
	// Now and Recorded are what differs, now and in the nearest
	// recorded call (the message's text, the system prompt, the model's
	// identity as JSON); Recorded is "" when the recorded conversation has
	// no such message (Absent).
	Now, Recorded string
	// Absent says the nearest recorded conversation ends before Message.
	Absent bool
	// Nearest is the nearest recorded call's key, "" when there is none.
	Nearest string
	// Err is the recording's miss.
	Err *golden.NotRecordedError
}

// Headline is the error's first sentence, without what differs:
// "simulate: not recorded: turn 3: the agent said something else than in
// the recording".
func (e *MissError) Headline() string {
	s := "simulate: not recorded: "
	if e.Turn > 0 {
		s += "turn " + strconv.Itoa(e.Turn) + ": "
	}
	return s + e.What
}

// Error returns the headline, what differs, and the recording's miss.
func (e *MissError) Error() string {
	s := e.Headline()
	if e.Now != "" || e.Recorded != "" {
		s += ": now " + quoteOrNone(e.Now) + ", recorded " + quoteOrNone(e.Recorded)
	}
	if e.Err != nil {
		s += " (" + e.Err.Headline() + ")"
	}
	return s
}

// Unwrap returns the recording's miss, which wraps golden.ErrNotRecorded.
func (e *MissError) Unwrap() error {
	if e.Err == nil {
		return golden.ErrNotRecorded
	}
	return e.Err
}

// maxQuoted bounds a text quoted in a MissError, in bytes.
const maxQuoted = 300

func quoteOrNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return textnorm.Quote(s, maxQuoted)
}

// newMiss finds the nearest recorded call to now in nr's recording and
// says where they part.
func newMiss(nr *golden.NotRecordedError, now chatRequest) *MissError {
	e := &MissError{Path: nr.Path, Message: -1, Err: nr}
	// As the recording holds it: redacted, so the error quotes no secret
	// and a secret that is the same now compares equal.
	clean := secret.Now()
	now.System = clean.Clean(now.System)
	now.Messages = slices.Clone(now.Messages)
	for i := range now.Messages {
		now.Messages[i].Content = clean.Clean(now.Messages[i].Content)
	}
	if nr.NoFile {
		e.What = "nothing is recorded: the recording does not exist"
		return e
	}
	f, err := golden.LoadHTTP(nr.Path)
	if err != nil {
		e.What = "the recording cannot be read to find the nearest call: " + err.Error()
		return e
	}
	nowModel := identityJSON(now.Model)
	best, bestScore := -1, [4]int{}
	var bestBody chatRequest
	for i, in := range f.Interactions {
		if in.Request.Path != ChatPath || in.Request.Method != http.MethodPost {
			continue
		}
		var rec chatRequest
		if json.Unmarshal(in.Request.Body, &rec) != nil {
			continue
		}
		p := commonPrefix(now.Messages, rec.Messages)
		score := [4]int{
			boolInt(identityJSON(rec.Model) != nowModel),
			boolInt(rec.System != now.System),
			-p,
			abs(len(rec.Messages) - len(now.Messages)),
		}
		if best < 0 || less(score, bestScore) {
			best, bestScore, bestBody = i, score, rec
		}
	}
	if best < 0 {
		e.What = "the recording holds no simulated user's calls"
		return e
	}
	e.Nearest = f.Interactions[best].Key
	rec := bestBody
	switch {
	case identityJSON(rec.Model) != nowModel:
		e.What = "the user's model differs from the recording's"
		e.Now, e.Recorded = nowModel, identityJSON(rec.Model)
	case rec.System != now.System:
		e.What = "the user's instructions (persona, goal, facts) differ from the recording's"
		e.Now, e.Recorded = parting(now.System, rec.System)
	default:
		p := commonPrefix(now.Messages, rec.Messages)
		e.Message = p
		e.What = fmt.Sprintf("message %d of the user model's conversation differs from the recording's", p+1)
		if p < len(now.Messages) {
			e.Now = now.Messages[p].Content
		}
		if p >= len(now.Messages) {
			e.Message = -1
			e.What = "the recording holds this conversation but does not replay it"
			break
		}
		if p < len(rec.Messages) {
			e.Recorded = rec.Messages[p].Content
		} else {
			e.Absent = true
			e.What = fmt.Sprintf("the recorded conversation ends before message %d of the user model's", p+1)
		}
	}
	return e
}

// parting returns two texts from a little before where they first
// differ: where a long system prompt changed.
func parting(now, rec string) (string, string) {
	p := 0
	for p < len(now) && p < len(rec) && now[p] == rec[p] {
		p++
	}
	start := max(0, p-40)
	for start > 0 && start < len(now) && !isRuneStart(now[start]) {
		start--
	}
	cut := func(s string) string {
		if start >= len(s) {
			return ""
		}
		if start > 0 {
			return "…" + s[start:]
		}
		return s
	}
	return cut(now), cut(rec)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func commonPrefix(a, b []chatMessage) int {
	n := 0
	for n < len(a) && n < len(b) && a[n].Role == b[n].Role && strings.TrimSpace(a[n].Content) == strings.TrimSpace(b[n].Content) {
		n++
	}
	return n
}

func identityJSON(id evalkit.Identity) string {
	id.PromptVersion = ""
	data, err := json.Marshal(id)
	if err != nil {
		return ""
	}
	return string(data)
}

func less(a, b [4]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
