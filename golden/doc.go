// Package golden records LLM judges' verdicts, and the model calls of the
// code under test, once and replays them: a Recorder is itself an
// evalkit.Judge that answers from a recording file, and a Transport an
// http.RoundTripper, so CI judges deterministically, for free, with no
// network and no API key, and a re-recording is a reviewed diff.
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
//
// The code under test is recorded too: a Transport is an
// http.RoundTripper that records and replays an agent's calls to its
// model API, under the same modes, so a whole test — the agent's model
// calls and the judge's verdicts — replays in CI:
//
//	tr, err := golden.NewTransport("testdata/evalkit/TestAgent.http.json", nil,
//		golden.WithMode(golden.ModeReplay))
//	client := tr.Client() // give it to the OpenAI or Anthropic SDK, or use it as is
//	resp, err := client.Post(url, "application/json", body) // the recorded response, or ErrNotRecorded
//	err = tr.Save()
//
// Requests match on the test that sent them (WithTest), method, origin,
// path, query and canonical JSON body (WithIgnoreFields leaves volatile
// fields out), never on headers or credentials; identical requests replay
// in order within their test; event streams replay event by event. The
// file lists the interactions test by test, each test's in the order it
// made them. Package evaltest's HTTPClient does this per test, beside the
// judge recordings. A miss is a *NotRecordedError naming the request,
// the nearest recorded one and what differs.
//
// This package records HTTP itself rather than through go-vcr v4: go-vcr
// reads a response whole before the client sees a byte and replays it as
// one body (streams lose their events), matches raw bodies and every
// header by default, writes YAML cassettes with durations and ids in
// arrival order (parallel recording churns) through a non-atomic write,
// and its miss error names no nearest interaction; replacing its matcher,
// hooks, file system and marshaller would leave its loop, and still add
// two modules (its own and go.yaml.in/yaml/v4, 11 packages, about 4 s of
// compile on a cold two-core build) to every user's test build.
package golden
