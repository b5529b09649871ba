package simulate_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/secret/secrettest"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
	"github.com/evalkit-go/evalkit/simulate"
)

// Regression test of the fourth hostile review of issue 15: a replay
// miss's error quoted the conversation as it is now, unredacted — a key
// in the user's instructions or an agent's reply was in the error
// string, which a test printing it with its own testing.T (not
// evaltest's) wrote to the CI log.
func TestReview4MissErrorRedacted(t *testing.T) {
	t.Parallel()
	key := secrettest.All()[2].Secret
	run := loadTau(t, 5, 1)
	path := filepath.Join(t.TempDir(), "TestTau.http.json")
	srv := judgefake.NewUserServer(run.users[:2]...)
	defer srv.Close()
	model := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey(testKey), openaijudge.WithModel("gpt-4"))
	rec, err := simulate.NewRecorder(path, model, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = simulate.Run(t.Context(), simulate.ModelUser{Model: rec, Goal: run.instruction}, replayAgent(run.replies, 0, ""), simulate.MaxTurns(2))
	require.NoError(t, err)
	require.NoError(t, rec.Save())

	for _, c := range []struct {
		goal  string
		agent simulate.Agent
	}{
		{run.instruction + " Your API key is " + key + ".", replayAgent(run.replies, 0, "")},
		{run.instruction, replayAgent(run.replies, 1, "Use the key "+key+" to log in.")},
	} {
		r, err := simulate.NewRecorder(path, never{Identifier: model, t: t})
		require.NoError(t, err)
		_, err = simulate.Run(t.Context(), simulate.ModelUser{Model: r, Goal: c.goal}, c.agent, simulate.MaxTurns(2))
		var miss *simulate.MissError
		require.ErrorAs(t, err, &miss)
		for _, p := range []string{key, key[8:16], key[len(key)-8:], key[60:68]} {
			assert.NotContains(t, err.Error(), p)
		}
		assert.Contains(t, err.Error(), "[redacted:openai-key]")
	}
}
