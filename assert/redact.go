package assert

import (
	"github.com/google/go-cmp/cmp"

	"github.com/evalkit-go/evalkit/internal/secret"
)

// showDiff is the go-cmp diff a failing check shows, of want and got
// with every string (and object key) redacted first by the one redactor
// (internal/secret): go-cmp cuts a long string into pieces
// (strings.Join({"…", "…"}, "")), and a key cut so is no longer whole
// where the message leaves the test, so it is redacted before. The check
// has decided on the values themselves; a difference inside a secret
// alone shows as no diff.
func showDiff(want, got any) string {
	r := secret.Now() // the environment read once for the whole diff
	return cmp.Diff(secret.Value(want, r.Clean), secret.Value(got, r.Clean))
}
