package evaltest

import (
	"testing"
)

// Context asked for a test that has ended (a goroutine that outlived it, a
// test keeping another's T) is that test's ended context, and keeps
// nothing: the entry it stored, with a cleanup that never runs on an ended
// test, held the test and its context for the rest of the process.
func TestContextAfterTheTestEnded(t *testing.T) {
	var ended *testing.T
	t.Run("ended", func(t *testing.T) { ended = t; _ = Context(t) })
	ctx := Context(ended)
	if ctx.Err() == nil {
		t.Fatal("the context of an ended test is not done")
	}
	if _, kept := testContexts.Load(testing.TB(ended)); kept {
		t.Error("the ended test's context is kept for good")
	}
}
