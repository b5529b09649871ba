package evaltest

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/textnorm"
	"github.com/evalkit-go/evalkit/simulate"
)

// Simulate plays a conversation between a simulated user and the agent
// under test (simulate.Run) and returns its whole transcript, to Expect:
//
//	user := simulate.ModelUser{Model: openaijudge.FromEnv(), Persona: "...", Goal: "...", Facts: []string{"..."}}
//	tr := et.Simulate(user, myAgent, simulate.System(policy), simulate.MaxTurns(8))
//	et.Expect(tr).ToolsCalled("cancel_reservation").StateEquals(want, db.State())
//
// A simulate.ModelUser whose Model has an identity (openaijudge's,
// anthropicjudge's) is recorded as judges are: its model's replies are
// answered from and added to testdata/evalkit/<TestName>.http.json, the
// test's HTTP recording, as the mode says (see WithMode; replay by
// default: no network, no key), saved when the test ends. Its calls are
// keyed with the test (or Repeat attempt) and written among the agent's
// in the order made, as HTTPClient's are. Scripted users
// (judgefake.Script, judgefake.UserRules) and models without an identity
// are not recorded. The T's judge (WithJudge), recorded, is the run's
// judge for simulate.StopWhenGoalMet unless an option gives another.
//
// A run that cannot finish stops the test (Fatalf) at the caller's line:
// the agent's or the user's error, or a replay miss, which names the turn
// where the conversation parts from the recording and what the agent said
// then and now:
//
//	Simulate(ModelUser(gpt-4.1-mini)): error: simulate: not recorded: turn 3: the agent said something else than in the recording
//	now: "Your reservation is cancelled."
//	recorded: "Shall I cancel reservation Z7GOZK?"
//	recording: testdata/evalkit/TestCancel.http.json (nearest sha256:9b1c2d3e4f5a)
//	transcript: 7 messages
//	hint: EVALKIT_MODE=record go test ./agent -run '^TestCancel$'   # record the simulated user's replies to the new conversation
func (t *T) Simulate(user simulate.User, agent simulate.Agent, opts ...simulate.Option) *evalkit.Transcript {
	t.tb.Helper()
	label := "Simulate(" + userLabel(user) + ")"
	user, err := t.recordedUser(user)
	if err != nil {
		t.fail(label+": error: "+err.Error(), true, true)
		return nil
	}
	if step := t.stepJudge(); step != nil {
		opts = append([]simulate.Option{simulate.WithJudge(step)}, opts...)
	}
	tr, err := simulate.Run(t.Context(), user, agent, opts...)
	if err != nil {
		t.fail(t.simulateMessage(label, tr, err), true, true)
		return tr
	}
	t.noteTranscript(tr)
	return tr
}

// userLabel names a user for a message: "ModelUser(gpt-4.1-mini)", a
// Stringer's String ("judgefake.Script(6 turns)"), else its type.
func userLabel(u simulate.User) string {
	var mu *simulate.ModelUser
	switch v := u.(type) {
	case simulate.ModelUser:
		mu = &v
	case *simulate.ModelUser:
		mu = v
	case fmt.Stringer:
		return textnorm.Excerpt(v.String(), 60)
	}
	if mu != nil {
		name := fmt.Sprintf("%T", mu.Model)
		if idr, ok := mu.Model.(evalkit.Identifier); ok && idr.Identity().Model != "" {
			name = idr.Identity().Model
		}
		return "ModelUser(" + textnorm.Excerpt(name, 60) + ")"
	}
	return fmt.Sprintf("%T", u)
}

// recordedUser returns user with its model recorded, when it is a
// ModelUser whose model has an identity and the mode records (see
// Simulate); else user as it is.
func (t *T) recordedUser(user simulate.User) (simulate.User, error) {
	var mu simulate.ModelUser
	switch v := user.(type) {
	case simulate.ModelUser:
		mu = v
	case *simulate.ModelUser:
		if v == nil {
			return user, nil
		}
		mu = *v
	default:
		return user, nil
	}
	if _, own := mu.Model.(*simulate.Recorder); own {
		return user, nil // the user's own recording: answered through, saved by them
	}
	idr, ok := mu.Model.(evalkit.Identifier)
	if !ok || idr.Identity().Provider == "" {
		return user, nil
	}
	mode, err := t.resolveMode()
	if err != nil {
		return nil, err
	}
	if mode == golden.ModeLive {
		return user, nil
	}
	root := t.root()
	path := filepath.Join("testdata", "evalkit", fileName(root.topTest())+golden.HTTPSuffix)
	gopts := []golden.Option{golden.WithMode(mode), golden.WithTest(testScope(t.tb))}
	if dir := golden.DefaultUsageDir(); dir != "" {
		gopts = append(gopts, golden.WithUsageLog(dir))
	}
	rec, err := simulate.NewRecorder(path, mu.Model, gopts...)
	if err != nil {
		return nil, err
	}
	tb := root.tb
	tb.Cleanup(func() {
		if tb.Failed() || tb.Skipped() || filtered() {
			rec.MarkPartial()
		}
		if err := rec.Save(); err != nil {
			tb.Errorf("evaltest: saving the simulated user's recorded replies: %v", err)
		}
		rec.Close()
	})
	mu.Model = rec
	return mu, nil
}

// simulateMessage renders a run's error in DESIGN.md's format: for a
// replay miss, what differs now and as recorded, the recording and the
// command that records the new conversation.
func (t *T) simulateMessage(label string, tr *evalkit.Transcript, err error) string {
	var b strings.Builder
	b.WriteString(label + ": error: ")
	var miss *simulate.MissError
	if !errors.As(err, &miss) {
		b.WriteString(textnorm.Excerpt(err.Error(), maxLine))
		if line := t.transcriptLine(tr); line != "" {
			b.WriteString("\n" + line)
		}
		return b.String()
	}
	b.WriteString(textnorm.Excerpt(miss.Headline(), maxLine))
	if miss.Now != "" || miss.Recorded != "" {
		b.WriteString("\nnow: " + quoteOrNone(miss.Now))
		b.WriteString("\nrecorded: " + quoteOrNone(miss.Recorded))
	}
	where := "recording: " + filepath.ToSlash(miss.Path)
	if miss.Nearest != "" {
		where += " (nearest " + golden.ShortKey(miss.Nearest) + ")"
	}
	b.WriteString("\n" + where)
	if line := t.transcriptLine(tr); line != "" {
		b.WriteString("\n" + line)
	}
	b.WriteString("\n" + hintCommand("record", t.topTest(), "record the simulated user's replies to the new conversation"))
	return b.String()
}

func quoteOrNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return textnorm.Quote(s, 300)
}
