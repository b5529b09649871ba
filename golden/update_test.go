package golden_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

// UpdateFile holds the recording's lock from its read to its write: a
// record run saving meanwhile waits, and both the update and the run's
// new entry are in the file (audit -update read and wrote without the
// lock, so such a run's entry was lost). An error from change leaves the
// file as it was.
func TestUpdateFileHoldsTheLock(t *testing.T) {
	path := recordingPath(t)
	a, b := refundRequest(), refundRequest()
	b.Criteria = "Is polite"
	first, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = first.Judge(context.Background(), a)
	require.NoError(t, err)
	require.NoError(t, first.Save())
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	boom := errors.New("boom")
	assert.ErrorIs(t, golden.UpdateFile(path, func(f *golden.File) (bool, error) {
		f.Entries[0].Verdict.Reasoning = "changed"
		return true, boom
	}), boom)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "an error changes nothing")

	// A record run has asked a new verdict (journaled), and saves while
	// the update holds the lock.
	second, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = second.Judge(context.Background(), b)
	require.NoError(t, err)
	inside, release, saved := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	updated := make(chan error, 1)
	go func() {
		updated <- golden.UpdateFile(path, func(f *golden.File) (bool, error) {
			close(inside)
			<-release
			for i := range f.Entries {
				if f.Entries[i].Request.Criteria == a.Criteria {
					f.Entries[i].Verdict.Reasoning = "asked again"
				}
			}
			return true, nil
		})
	}()
	<-inside
	go func() { saved <- second.Save() }()
	select {
	case err := <-saved:
		t.Fatalf("Save did not wait for UpdateFile's lock (err %v)", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	require.NoError(t, <-updated)
	require.NoError(t, <-saved)

	f, err := golden.Load(path)
	require.NoError(t, err)
	require.Len(t, f.Entries, 2, "the run's new entry is kept")
	reasons := []string{f.Entries[0].Verdict.Reasoning, f.Entries[1].Verdict.Reasoning}
	assert.Contains(t, reasons, "asked again", "the update is kept")
}
