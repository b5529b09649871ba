package evaltest

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// RegisterSecret adds value to what evalkit never writes or prints, in
// this test binary: every failure message, diff, test attribute,
// artifact, results line, report and recording shows it as
// "[redacted:secret:<name>]" instead (name says which secret it was, never
// what). Register what evalkit cannot know is secret: a database
// password, a customer's token, an internal key with no public shape.
// Environment variables named as credentials (OPENAI_API_KEY, *_TOKEN,
// *_SECRET, *_PASSWORD, …), credential headers and query parameters sent
// through HTTPClient and the judges, and the key shapes of the major
// providers are redacted without registering. A value shorter than 8
// bytes is not redacted: replacing it everywhere would garble the text
// (no provider issues keys that short). A value an environment variable
// named as a credential holds keeps that variable's label
// ("[redacted:env:CRM_TOKEN]"), registered before or after, and a value
// registered twice keeps its first name: registering it changes only
// the label of what evalkit would not redact otherwise. Safe for
// concurrent use; call it
// from TestMain or a test before the secret can appear.
func RegisterSecret(name, value string) {
	secret.Learn("secret:"+name, value)
}

// reporter returns tb wrapped so that everything reported through it —
// Error, Errorf, Fatal, Fatalf, Log, Logf, Skip, Skipf, Attr and Output —
// passes the one redactor (internal/secret) first: a T reports only
// through its wrapped TB, so no failure message, log line or attribute
// can bypass it. Wrapping twice wraps once.
func reporter(tb testing.TB) testing.TB {
	if r, ok := tb.(*redactingTB); ok {
		return r
	}
	return &redactingTB{TB: tb}
}

// base is the TB a reporter wraps: the test itself, for what keys on it.
func base(tb testing.TB) testing.TB {
	for {
		switch x := tb.(type) {
		case *redactingTB:
			tb = x.TB
		case *T: // a T given as a testing.TB
			tb = x.root().tb
		default:
			return tb
		}
	}
}

// redactingTB is a testing.TB whose output is redacted (see reporter).
type redactingTB struct {
	testing.TB
	once sync.Once
	out  io.Writer
}

func line(args ...any) string { return strings.TrimSuffix(fmt.Sprintln(args...), "\n") }

// sprintf is fmt.Sprintf, a message passed as ("%s", msg) — every failure
// evaltest reports (T.fail) — given back as is: Sprintf would copy it.
func sprintf(format string, args ...any) string {
	if format == "%s" && len(args) == 1 {
		if s, ok := args[0].(string); ok {
			return s
		}
	}
	return fmt.Sprintf(format, args...)
}

func (r *redactingTB) Error(args ...any) {
	r.TB.Helper()
	r.TB.Error(secret.Clean(line(args...)))
}

func (r *redactingTB) Errorf(format string, args ...any) {
	r.TB.Helper()
	r.TB.Errorf("%s", secret.Clean(sprintf(format, args...)))
}

func (r *redactingTB) Fatal(args ...any) {
	r.TB.Helper()
	r.TB.Fatal(secret.Clean(line(args...)))
}

func (r *redactingTB) Fatalf(format string, args ...any) {
	r.TB.Helper()
	r.TB.Fatalf("%s", secret.Clean(sprintf(format, args...)))
}

func (r *redactingTB) Log(args ...any) {
	r.TB.Helper()
	r.TB.Log(secret.Clean(line(args...)))
}

func (r *redactingTB) Logf(format string, args ...any) {
	r.TB.Helper()
	r.TB.Logf("%s", secret.Clean(sprintf(format, args...)))
}

func (r *redactingTB) Skip(args ...any) {
	r.TB.Helper()
	r.TB.Skip(secret.Clean(line(args...)))
}

func (r *redactingTB) Skipf(format string, args ...any) {
	r.TB.Helper()
	r.TB.Skipf("%s", secret.Clean(sprintf(format, args...)))
}

// Attr reports a test attribute (a JUnit property through gotestsum),
// its key and value redacted.
func (r *redactingTB) Attr(key, value string) {
	r.TB.Helper()
	r.TB.Attr(secret.Clean(key), secret.Clean(value))
}

// Output is the test's output writer, redacted as a stream: a secret
// written in two pieces is found whole; what is held back is written
// when the test ends.
func (r *redactingTB) Output() io.Writer {
	r.once.Do(func() {
		w := secret.NewWriter(r.TB.Output())
		r.TB.Cleanup(func() { _ = w.Flush() })
		r.out = w
	})
	return r.out
}

// excerpt bounds s for a message after redacting it, so a cut never
// leaves part of a secret.
func excerpt(s string, n int) string { return textnorm.Excerpt(secret.Clean(s), n) }

// excerptWith is excerpt with r's secrets: a message of several parts
// reads the environment once.
func excerptWith(r secret.Redactor, s string, n int) string {
	return textnorm.Excerpt(r.Clean(s), n)
}
