package golden_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
)

// namedLive is a live judge of a judge set: a name and a variant.
type namedLive struct {
	*liveJudge
	name, variant string
}

func (j namedLive) JudgeName() (name, variant string) { return j.name, j.variant }

// A judge of a set records its name and variant in the entry's summary,
// which the key leaves out: a judge of another name with the same identity
// replays the entry, while variants with different settings key apart.
func TestRecordedJudgeName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "TestNamed.judge.json")
	req := evalkit.JudgeRequest{Criteria: "Confirms the refund", Content: "Your refund of $42 was issued."}
	cheap := namedLive{newLive(testIdentity), "strict", "cheap"}
	rec, err := golden.New(path, cheap, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), req)
	require.NoError(t, err)

	warmID := testIdentity
	warmID.Settings = map[string]any{"temperature": 0.7, "max_tokens": 512}
	warm, err := rec.For(namedLive{newLive(warmID), "strict", "warm"})
	require.NoError(t, err)
	_, err = warm.Judge(context.Background(), req)
	require.NoError(t, err)

	copyOf := namedLive{newLive(testIdentity), "strict-copy", ""}
	same, err := rec.For(copyOf)
	require.NoError(t, err)
	_, err = same.Judge(context.Background(), req)
	require.NoError(t, err)
	assert.Zero(t, copyOf.calls.Load(), "the same identity replays, whatever the name")
	require.NoError(t, rec.Save())

	f, err := golden.Load(path)
	require.NoError(t, err)
	require.Len(t, f.Entries, 2, "two settings, two keys")
	names := map[string]evalkit.Identity{}
	for _, e := range f.Entries {
		names[e.Request.Judge] = e.Judge
	}
	assert.Equal(t, `{"max_tokens":512,"temperature":0}`, settingsJSON(t, names["strict/cheap"]))
	assert.Equal(t, `{"max_tokens":512,"temperature":0.7}`, settingsJSON(t, names["strict/warm"]))
}

func settingsJSON(t *testing.T, id evalkit.Identity) string {
	t.Helper()
	data, err := json.Marshal(id.Settings)
	require.NoError(t, err)
	return string(data)
}
