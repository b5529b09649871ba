// Package golden records LLM judges' verdicts once and replays them: a
// Recorder is itself an evalkit.Judge that answers from a recording file,
// so CI judges deterministically, for free, with no network and no API
// key, and a re-recording is a reviewed diff.
//
//	live := openaijudge.FromEnv() // needs no key to replay
//	rec, err := golden.New("testdata/evalkit/TestRefund.judge.json", live,
//		golden.WithMode(golden.ModeReplay))
//	v, err := rec.Judge(ctx, req) // the recorded verdict, or ErrNotRecorded
//	err = rec.Save()
//
// Package evaltest does this for every live judge given to
// evaltest.WithJudge: one recording per top-level test, the mode from
// EVALKIT_MODE or -evalkit.mode, saved when the test ends.
//
// Modes, as go-vcr v4's: ModeReplay (the default) answers from the
// recording and never calls the live judge — a request it does not hold is
// an error wrapping ErrNotRecorded that names the key, the nearest
// recorded entry and what differs; ModeRecord asks the live judge only
// what is not recorded; ModeRefresh asks it everything again and drops
// what no request used; ModeLive records nothing.
//
// Entries are keyed by the SHA-256 of the canonical JSON of the judge's
// identity (provider, model, settings, prompt version) and the request
// (see Key): whatever can change a verdict changes the key; JSON key
// order, credentials and transport (base URL, headers, HTTP client) do
// not. Nothing that looks like a credential is ever written (see
// WithRedact for a user's own patterns), and Verify checks a recording's
// format, order and secrets, as the `evalkit golden verify` command does.
// Writes are atomic, recording twice writes the same bytes, and a file
// checked out with CRLF line endings replays.
package golden
