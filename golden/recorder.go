package golden

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Recorder is an evalkit.Judge that answers from a recording of a live
// judge's verdicts, and records them, as its Mode says: go-vcr's recorder,
// for judge verdicts instead of HTTP interactions. Make one with New. It
// is safe for concurrent use; Recorders made with For share one recording.
type Recorder struct {
	st   *store
	live evalkit.Judge
	id   identityKey
}

// store is one recording in memory, shared by a Recorder and the ones For
// makes from it.
type store struct {
	path     string
	mode     Mode
	redact   func(string) string
	usage    string // the usage log's directory, or ""
	now      func() time.Time
	ignore   []string // WithIgnoreFields' paths: Transports only
	whole    bool     // WithWholeRequests
	opening  bool     // Open: no live judge yet
	test     string   // WithTest: Transports only
	missHint *string  // WithMissResponses: Transports only

	mu       sync.Mutex
	entries  map[string]Entry // as read, then as recorded
	fresh    map[string]bool  // keys the live judge answered through this store
	used     map[string]bool  // keys answered through this store
	inflight map[string]*call
	dirty    bool     // entries changed since the file was read or written
	exists   bool     // the file existed when read or was written
	sum      string   // SHA-256 of the file's bytes as last read or written
	partial  bool     // see MarkPartial
	notes    []string // see Notes
}

// call is a live judge call that other callers with the same key wait for.
type call struct {
	done chan struct{}
	v    evalkit.Verdict
	vecs [][]float64 // an embedder's call's
	err  error
}

// Option configures a Recorder.
type Option func(*store)

// WithMode sets the Recorder's mode (default ModeReplay).
func WithMode(m Mode) Option { return func(s *store) { s.mode = m } }

// WithRedact adds a redaction hook: every string a recording writes — the
// request summary, the judge identity, the verdict's model, answer,
// reasoning and fields — passes through f after the built-in redaction,
// for credentials of the user's own shapes (an internal token format, a
// customer id). f must be deterministic, or re-recording churns. It does
// not change a Recorder's keys. As go-vcr's BeforeSaveHook and vcrpy's
// filter_sensitive_data, on write only.
//
// A Transport passes every string of a request's query and JSON body, and
// of a response's body and events, through f too, and keys requests by
// what it writes: a redacted value an agent echoes back in its next
// request then keys as it was recorded. There f must also be idempotent
// (f(f(s)) == f(s)), and the client gets responses as they replay,
// redacted.
func WithRedact(f func(s string) string) Option { return func(s *store) { s.redact = f } }

// WithWholeRequests makes the recording hold each request whole — the
// criteria, content, input, reference, context, rubric, system prompt and
// verdict schema uncut (credentials redacted as ever), and a metric step's
// name — instead of excerpts, so `evalkit golden audit` can ask the judge
// again any verdict it holds (see Entry.Rebuild). The recording grows by
// the size of what is judged. Keys do not change: a recording made either
// way replays the same.
func WithWholeRequests() Option { return func(s *store) { s.whole = true } }

// WithUsageLog makes Save also write which entries this Recorder used to a
// usage log in dir (see ReadUsage): what `evalkit golden prune` reads to
// drop the entries no test used.
func WithUsageLog(dir string) Option { return func(s *store) { s.usage = dir } }

// New returns a Recorder for the recording at path, asking live when its
// mode says so. live must be an evalkit.Identifier with a non-empty
// Provider — the identity keys every entry — except in ModeLive, which
// keys nothing.
//
// In every mode but ModeLive, New reads the recording: a file that does
// not exist is an empty recording (replay then misses every request); a
// file that is not a version 1 recording is an error naming it (see
// Decode). New never calls live.
func New(path string, live evalkit.Judge, opts ...Option) (*Recorder, error) {
	st := &store{path: path, now: time.Now}
	for _, o := range opts {
		o(st)
	}
	if st.mode < ModeReplay || st.mode > ModeLive {
		return nil, fmt.Errorf("golden: %v is not a mode", st.mode)
	}
	st.entries, st.fresh, st.used, st.inflight = map[string]Entry{}, map[string]bool{}, map[string]bool{}, map[string]*call{}
	r := &Recorder{st: st}
	if live != nil || !st.opening {
		if err := r.bind(live); err != nil {
			return nil, err
		}
	}
	if st.mode == ModeLive {
		return r, nil
	}
	var journal []Entry // replayed, not merged: see journalInMemory
	if hasJournal(path) {
		// A run ended before saving: what it paid for is merged first (or
		// was, by another process, when this finds no journal after all).
		notes, err := recoverJournal(judgeKind, path)
		if err != nil && st.mode == ModeReplay {
			journal, notes, err = journalInMemory(judgeKind, path, err)
		}
		if err != nil {
			return nil, err
		}
		st.notes = notes
	}
	data, err := readFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		f, err := Decode(path, data)
		if err != nil {
			return nil, err
		}
		for _, e := range f.Entries {
			st.entries[e.Key] = e
		}
		st.exists, st.sum = true, sha256Hex(data)
	}
	for _, e := range journal {
		st.entries[e.Key] = e
	}
	return r, nil
}

// For returns a Recorder for another live judge on the same recording: the
// entries, the mode and Save are shared, so two judges of one test record
// into one file. Its errors are New's for live.
func (r *Recorder) For(live evalkit.Judge) (*Recorder, error) {
	n := &Recorder{st: r.st}
	if err := n.bind(live); err != nil {
		return nil, err
	}
	return n, nil
}

func (r *Recorder) bind(live evalkit.Judge) error {
	if live == nil {
		return fmt.Errorf("golden: no live judge")
	}
	r.live = live
	if r.st.mode == ModeLive {
		return nil
	}
	idr, ok := live.(evalkit.Identifier)
	if !ok {
		return fmt.Errorf("golden: %T has no Identity, so its verdicts cannot be keyed: give it an Identity method (evalkit.Identifier), or use ModeLive", live)
	}
	id := idr.Identity()
	if id.Provider == "" {
		return fmt.Errorf("golden: %T's Identity has no Provider, so its verdicts cannot be keyed (a panel with a member without an identity has none)", live)
	}
	ci, err := canonicalIdentity(id)
	if err != nil {
		return err
	}
	for _, v := range ci.secrets {
		secret.Learn("credential", v) // every output of the process keeps it out
	}
	r.id = ci
	return nil
}

// Path returns the recording's path, as given to New.
func (r *Recorder) Path() string { return r.st.path }

// Mode returns the Recorder's mode.
func (r *Recorder) Mode() Mode { return r.st.mode }

// Identity returns the live judge's identity, so a Recorder is recorded,
// named and keyed like the judge it stands for.
func (r *Recorder) Identity() evalkit.Identity {
	if idr, ok := r.live.(evalkit.Identifier); ok {
		return idr.Identity()
	}
	return evalkit.Identity{}
}

// Judge implements evalkit.Judge: JudgeOrigin without the origin.
func (r *Recorder) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	v, _, err := r.JudgeOrigin(ctx, req)
	return v, err
}

// JudgeOrigin answers req as the mode says, and says where the verdict
// came from:
//
//   - ModeReplay: the recorded verdict (OriginReplayed), or an error
//     wrapping ErrNotRecorded — a *NotRecordedError with the key, the
//     nearest recorded entry and what differs from it. Never a live call.
//   - ModeRecord: the recorded verdict, or the live judge's, which is
//     recorded (OriginRecorded).
//   - ModeRefresh: the live judge's verdict, asked once per key and
//     recorded; later requests with the key replay it.
//   - ModeLive: the live judge's (OriginLive).
//
// Concurrent requests with one key make one live call. A verdict the live
// judge gave is returned as it will replay: credentials redacted (see
// WithRedact), and Fields' numbers as json.Number, as ParseVerdict gives
// them. An invalid request or a done context is an error before anything
// else; the live judge's errors are returned as they are, and nothing is
// recorded for them. With an error, the Origin means nothing.
func (r *Recorder) JudgeOrigin(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, Origin, error) {
	st := r.st
	if r.live == nil {
		return evalkit.Verdict{}, OriginReplayed, errNoLive
	}
	if st.mode == ModeLive {
		v, err := r.live.Judge(ctx, req)
		return v, OriginLive, err
	}
	if err := req.Validate(); err != nil {
		return evalkit.Verdict{}, OriginReplayed, err
	}
	if err := ctx.Err(); err != nil {
		return evalkit.Verdict{}, OriginReplayed, err
	}
	k, err := keyRequest(r.id, req)
	if err != nil {
		return evalkit.Verdict{}, OriginReplayed, err
	}
	st.mu.Lock()
	e, hit := st.entries[k.key]
	if hit && (st.mode != ModeRefresh || st.fresh[k.key]) {
		st.used[k.key] = true
		st.mu.Unlock()
		v, err := e.verdict()
		return v, OriginReplayed, err
	}
	if st.mode == ModeReplay {
		nr := st.notRecorded(r, req, k)
		st.mu.Unlock()
		return evalkit.Verdict{}, OriginReplayed, nr
	}
	if c := st.inflight[k.key]; c != nil {
		st.mu.Unlock()
		select {
		case <-c.done:
			return copyVerdict(c.v), OriginRecorded, c.err
		case <-ctx.Done():
			return evalkit.Verdict{}, OriginRecorded, ctx.Err()
		}
	}
	c := &call{done: make(chan struct{})}
	st.inflight[k.key] = c
	st.mu.Unlock()

	c.v, c.err = r.record(ctx, req, k)
	st.mu.Lock()
	delete(st.inflight, k.key)
	st.mu.Unlock()
	close(c.done)
	return c.v, OriginRecorded, c.err
}

// record asks the live judge and files its verdict.
func (r *Recorder) record(ctx context.Context, req evalkit.JudgeRequest, k requestKey) (evalkit.Verdict, error) {
	st := r.st
	v, err := callLive(ctx, r.live, req)
	if err != nil {
		return evalkit.Verdict{}, err
	}
	e, err := r.entry(req, k, v)
	if err != nil {
		return evalkit.Verdict{}, err
	}
	st.mu.Lock()
	old, ok := st.entries[k.key]
	if ok && sameVerdict(old.Verdict, e.Verdict) {
		// Re-judged alike: the entry keeps its date, and the file its bytes.
		e.RecordedAt = old.RecordedAt
	}
	changed := !ok || !sameEntry(old, e)
	st.mu.Unlock()
	if changed {
		// Durable now, whatever ends the run before Save. Journaled before
		// it is filed: a Save that files it removes the journal after.
		st.journal(e)
	}
	st.mu.Lock()
	if changed {
		st.entries[k.key] = e
		st.dirty = true
	}
	st.fresh[k.key], st.used[k.key] = true, true
	st.mu.Unlock()
	return e.verdict()
}

// journal appends a recorded entry to the recording's journal (see
// JournalSuffix). A journal that cannot be written is a note: Save writes
// the entry still.
func (st *store) journal(e Entry) {
	if err := appendJournal(st.path, e); err != nil {
		st.mu.Lock()
		st.notes = append(st.notes, fmt.Sprintf("%s: the verdict of %s was not journaled, and is lost should the run end before Save: %v", st.path, ShortKey(e.Key), err))
		st.mu.Unlock()
	}
}

// Notes returns what the Recorder's reading and saving of its recording
// had to say, each note once: entries recovered from a journal a run left
// behind (see JournalSuffix), journal lines cut off by a kill and skipped,
// a journal that could not be written. An adapter logs them (evaltest
// does, with t.Logf); none is an error.
func (r *Recorder) Notes() []string {
	r.st.mu.Lock()
	defer r.st.mu.Unlock()
	out := r.st.notes
	r.st.notes = nil
	return out
}

// callLive calls the live judge, turning a panic into an error.
func callLive(ctx context.Context, j evalkit.Judge, req evalkit.JudgeRequest) (v evalkit.Verdict, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = evalkit.Verdict{}, fmt.Errorf("golden: the live judge panicked: %v", p)
		}
	}()
	return j.Judge(ctx, req)
}

// Bounds on a summary's excerpts, in bytes.
const (
	maxCriteria = 1000
	maxContent  = 400
	maxExcerpt  = 200
)

// entry builds the entry a verdict is recorded as: everything redacted,
// the verdict as it will decode.
func (r *Recorder) entry(req evalkit.JudgeRequest, k requestKey, v evalkit.Verdict) (Entry, error) {
	clean := r.cleaner()
	excerpt := func(s string, n int) string { return textnorm.Excerpt(clean(s), n) }
	if r.st.whole {
		excerpt = func(s string, _ int) string { return clean(s) }
	}
	req.Scale = req.Scale.OrDefault()
	sum := Summary{
		Criteria:      excerpt(req.Criteria, maxCriteria),
		Kind:          req.Kind,
		Input:         excerpt(req.Input, maxExcerpt),
		Content:       excerpt(req.Content, maxContent),
		Rubric:        excerpt(req.Rubric, maxExcerpt),
		Reference:     excerpt(req.Reference, maxExcerpt),
		Scale:         req.Scale,
		Labels:        cleanAll(req.Labels, clean),
		Model:         clean(req.Model),
		SystemPrompt:  excerpt(req.SystemPrompt, maxExcerpt),
		VerdictSchema: excerpt(compact(req.VerdictSchema), maxExcerpt),
		ContentB:      excerpt(req.ContentB, maxContent),
		Game:          req.Game,
	}
	if req.Format != nil {
		sum.Format = clean(req.Format.Name())
	}
	for _, c := range req.Context {
		sum.Context = append(sum.Context, excerpt(c, maxExcerpt))
	}
	if r.st.whole {
		sum.Metric = clean(req.Metric)
	}
	if n, ok := r.live.(evalkit.NamedJudge); ok {
		name, variant := n.JudgeName()
		sum.Judge = clean(evalkit.Provenance{Name: name, Variant: variant}.Ref())
	}
	var id evalkit.Identity
	if err := decodeUseNumber(mustCanonical(secret.Value(r.id.tree, clean)), &id); err != nil {
		return Entry{}, fmt.Errorf("golden: the judge's Identity: %w", err)
	}
	secret.RedactVerdict(&v, clean)
	data, err := json.Marshal(v)
	if err != nil {
		return Entry{}, fmt.Errorf("golden: the verdict cannot be recorded: %w", err)
	}
	var stored evalkit.Verdict
	if err := decodeUseNumber(data, &stored); err != nil {
		return Entry{}, fmt.Errorf("golden: the verdict cannot be recorded: %w", err)
	}
	return Entry{
		Key:        k.key,
		Judge:      id,
		Request:    sum,
		Digests:    k.digests,
		Verdict:    stored,
		RecordedAt: r.st.now().UTC().Truncate(time.Second),
	}, nil
}

// compact returns raw JSON without insignificant space, or as it is when
// it does not parse (Key has refused it then).
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// clean redacts s for writing (see cleaner).
func (r *Recorder) clean(s string) string { return r.cleaner()(s) }

// cleaner returns what redacts the strings of one entry for writing: the
// process's one redactor (internal/secret: the secrets it knows now —
// the judge's own key and header values and its identity's credential
// settings among them — and credential shapes), then the user's hook.
func (r *Recorder) cleaner() func(string) string {
	red := secret.Now()
	return func(s string) string {
		s = red.Clean(s)
		if r.st.redact != nil {
			s = r.st.redact(s)
		}
		return s
	}
}

func cleanAll(ss []string, clean func(string) string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clean(s)
	}
	return out
}

// verdict returns a copy of the entry's verdict that shares nothing with
// it: the caller may change it.
func (e Entry) verdict() (evalkit.Verdict, error) { return copyVerdict(e.Verdict), nil }

func copyVerdict(v evalkit.Verdict) evalkit.Verdict {
	if v.Passed != nil {
		p := *v.Passed
		v.Passed = &p
	}
	v.Criteria = slices.Clone(v.Criteria)
	if v.Fields != nil {
		v.Fields = copyValue(v.Fields).(map[string]any)
	}
	v.ToolCalls = slices.Clone(v.ToolCalls)
	for i, c := range v.ToolCalls {
		// Arguments as the judge kept them: compact, however the file
		// indents them.
		var b bytes.Buffer
		if json.Compact(&b, c.Args) == nil {
			v.ToolCalls[i].Args = b.Bytes()
		}
	}
	if v.Votes != nil {
		v.Votes = slices.Clone(v.Votes)
		for i := range v.Votes {
			v.Votes[i].Verdict = copyVerdict(v.Votes[i].Verdict)
		}
	}
	return v
}

// copyValue deep-copies a decoded JSON value.
func copyValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = copyValue(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = copyValue(x)
		}
		return out
	}
	return v
}

func decodeUseNumber(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

func mustCanonical(v any) []byte {
	data, err := canonical(v)
	if err != nil {
		panic(err) // v is plain JSON that encoded before
	}
	return data
}

func sameVerdict(a, b evalkit.Verdict) bool {
	x, errX := json.Marshal(a)
	y, errY := json.Marshal(b)
	return errX == nil && errY == nil && bytes.Equal(x, y)
}

func sameEntry(a, b Entry) bool {
	x, errX := json.Marshal(a)
	y, errY := json.Marshal(b)
	return errX == nil && errY == nil && bytes.Equal(x, y)
}

// MarkPartial says the run using this recording did not run everything
// that uses it (a filtered, failed or skipped test): the usage log Save
// writes says so, and prune leaves the recording alone.
func (r *Recorder) MarkPartial() {
	r.st.mu.Lock()
	r.st.partial = true
	r.st.mu.Unlock()
}

// Save writes the recording when the mode and what happened say so:
//
//   - ModeRecord: when a verdict was added, every entry — the file's as
//     it is on disk now, so a concurrent run's additions are kept, and
//     this Recorder's.
//   - ModeRefresh: when the entries the live judge answered differ from
//     the file, exactly those entries. A Recorder that judged nothing
//     writes nothing.
//   - ModeReplay, ModeLive: never.
//
// The write is atomic (see WriteFile), and the same entries write the same
// bytes. Reading, merging and writing hold an advisory lock, the file
// PATH.lock beside the recording (removed when done), so two processes
// recording one file lose nothing: flock(2) on Linux, macOS and the BSDs;
// elsewhere, Windows included, the lock file's exclusive creation, one
// older than a minute taken for a dead process's. Save waits up to two
// minutes for another process's lock, then returns an error naming it.
// With WithUsageLog, every mode but ModeLive then writes the usage
// log. Save may be called again; it writes only what changed since. A
// file on disk that no longer reads as a recording is an error, and is not
// overwritten.
func (r *Recorder) Save() error {
	st := r.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.mode == ModeLive {
		return nil
	}
	if err := st.write(); err != nil {
		return err
	}
	if st.usage != "" && st.exists {
		// The log is advice for prune, which refuses without one: a log
		// that cannot be written is no reason to fail a test.
		_ = writeUsage(st.usage, Usage{Recording: absPath(st.path), SHA256: st.sum, Keys: sortedKeys(st.used), Partial: st.partial})
	}
	return nil
}

// write writes the recording when its mode and what happened say so (see
// Save), holding its lock.
func (st *store) write() error {
	switch {
	case st.mode == ModeRecord && st.dirty, st.mode == ModeRefresh && len(st.fresh) > 0:
		return withFileLock(st.path, st.writeLocked)
	}
	return nil
}

func (st *store) writeLocked() error {
	notes, err := saveLocked(judgeKind, st.mode, st.path, st.entries, st.fresh, &st.exists, &st.sum)
	st.notes = append(st.notes, notes...)
	if err != nil {
		return err
	}
	st.dirty = false
	return nil
}

// absPath is path made absolute, for the usage log.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

var _ evalkit.Identifier = (*Recorder)(nil)
