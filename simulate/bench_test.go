package simulate_test

import (
	"path/filepath"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
	"github.com/evalkit-go/evalkit/simulate"
)

// A real τ-bench conversation (airline task 5, trial 1: 7 customer
// turns, 6 replies) replayed through a recorded ModelUser, against its
// baseline: the same turns from a scripted user, which records nothing.
// The difference is what recording a simulated user costs a replayed
// test per conversation.
func BenchmarkReplayConversation(b *testing.B) {
	run := loadTau(b, 5, 1)
	path := filepath.Join(b.TempDir(), "TestTau.http.json")
	srv := judgefake.NewUserServer(run.users...)
	rec, err := simulate.NewRecorder(path, openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithModel("gpt-4")), golden.WithMode(golden.ModeRecord))
	if err != nil {
		b.Fatal(err)
	}
	agent := replayAgent(run.replies, 0, "")
	if _, err := simulate.Run(b.Context(), simulate.ModelUser{Model: rec, Goal: run.instruction}, agent); err != nil {
		b.Fatal(err)
	}
	if err := rec.Save(); err != nil {
		b.Fatal(err)
	}
	srv.Close()
	replay, err := simulate.NewRecorder(path, openaijudge.New(openaijudge.WithBaseURL("http://model.invalid/v1"), openaijudge.WithModel("gpt-4")))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("recorded", func(b *testing.B) {
		user := simulate.ModelUser{Model: replay, Goal: run.instruction}
		for b.Loop() {
			if _, err := simulate.Run(b.Context(), user, agent); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline=scripted", func(b *testing.B) {
		user := judgefake.Script(run.users)
		var tr *evalkit.Transcript
		for b.Loop() {
			if tr, err = simulate.Run(b.Context(), user, agent); err != nil {
				b.Fatal(err)
			}
		}
		_ = tr
	})
}
