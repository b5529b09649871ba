// Package results is the format of evalkit's results files: JSON Lines,
// one line per check a test ran (and one per transcript those checks
// read), written by package evaltest and read by `evalkit report`. It
// needs only the standard library and the one redactor (internal/secret),
// which every line written passes.
package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/evalkit-go/evalkit/internal/secret"
)

// Version is the format's version, written on every line.
const Version = 1

// Line is one line of a results file: a check's outcome (Kind "check"), or
// a transcript the checks read (Kind "transcript", with ID and
// Transcript), written once per file so check lines can name it.
type Line struct {
	V    int    `json:"v"`
	Kind string `json:"kind"`
	// Test is the full test name: TestRefund/case_name.
	Test string `json:"test"`
	// Package is the test's package, as its directory from the module's
	// root ("examples/agent"; "." for the root), when known: the tests of
	// two packages that share a results file may share a name.
	Package string `json:"package,omitempty"`
	// Case is the case's name, for a check of a case file (RunCases).
	Case string `json:"case,omitempty"`
	// Tags are the case's tags.
	Tags []string `json:"tags,omitempty"`
	// Shard is the EVALKIT_SHARD the test ran in ("2/4"), when sharded.
	Shard string `json:"shard,omitempty"`
	// Attempt is the Repeat attempt the check ran in, from 1; 0 outside one.
	Attempt int `json:"attempt,omitempty"`
	// Check is the check as written: Judge("Confirms the refund", MinScore(0.80)).
	Check string `json:"check,omitempty"`
	// Type is the check type: the registry's name ("contains",
	// "llm_judge"), "repeat", or a user check's Go type.
	Type string `json:"type,omitempty"`
	// Status is "pass", "fail" or "error".
	Status string `json:"status,omitempty"`
	// Score is the check's score in [0,1]; absent for an error.
	Score *float64 `json:"score,omitempty"`
	// Message is the failure message, for a failure or an error.
	Message string `json:"message,omitempty"`
	// Judge is the model that judged, for a judged check.
	Judge string `json:"judge,omitempty"`
	// Criteria are a judged check's criteria as the judge was asked them,
	// whole (the Check label cuts them); Reasoning is the judge's
	// reasoning, whole, passed or not; Threshold is what passes, as the
	// result's want clause says it (">= 0.80", "one of \"A\", \"B\"",
	// "pass").
	Criteria  string `json:"criteria,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
	Threshold string `json:"threshold,omitempty"`
	// Provenance says which judge gave the verdict, for a judged check
	// whose judge has a name in a judge set or an identity.
	Provenance *Provenance `json:"provenance,omitempty"`
	// Source says where the verdict came from: "live" (the judge was
	// asked), "replayed" (from a recording) or "fake" (a judge with no
	// identity, such as judgefake's).
	Source string `json:"source,omitempty"`
	// Tokens and CostUSD are the judge calls' tokens and price in US
	// dollars (for a replayed verdict, what its recording cost).
	Tokens  int     `json:"tokens,omitempty"`
	CostUSD float64 `json:"cost_usd,omitempty"`
	// LatencyMS is the judge calls' wall time, in milliseconds.
	LatencyMS float64 `json:"latency_ms,omitempty"`
	// Votes are a panel's members' scores, for agreement over a run.
	Votes []Vote `json:"votes,omitempty"`
	// Attempts, Passed and Need describe a Repeat (Type "repeat").
	Attempts int `json:"attempts,omitempty"`
	Passed   int `json:"passed,omitempty"`
	Need     int `json:"need,omitempty"`
	// Metric is the metric a PromptKit eval declares, kept as written:
	// its name, type and labels. Groups are the eval's groups.
	Metric *Metric  `json:"metric,omitempty"`
	Groups []string `json:"groups,omitempty"`
	// TranscriptID names the transcript line of the transcript checked.
	TranscriptID string `json:"transcript_id,omitempty"`
	// ID and Transcript are a transcript line's (Kind "transcript"): the
	// transcript as evalkit JSON.
	ID         string          `json:"id,omitempty"`
	Transcript json.RawMessage `json:"transcript,omitempty"`
}

// Provenance is which judge gave a judged check's verdict — its name and
// variant in a judge set, provider, model, effective settings and prompt
// version — and what it answered. Tokens and cost are the Line's.
type Provenance struct {
	Name          string         `json:"name,omitempty"`
	Variant       string         `json:"variant,omitempty"`
	Provider      string         `json:"provider,omitempty"`
	Model         string         `json:"model,omitempty"`
	Settings      map[string]any `json:"settings,omitempty"`
	PromptVersion string         `json:"prompt_version,omitempty"`
	// Raw is the judge's answer as it wrote it, cut to MaxRaw bytes.
	Raw string `json:"raw,omitempty"`
	// ToolCalls are the calls the judge made to its tools while judging.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
}

// ToolCall is one call a judge made to a tool while judging: arguments
// as JSON, the result or the error, each cut to MaxRaw bytes.
type ToolCall struct {
	Name   string `json:"name"`
	Args   string `json:"args,omitempty"`
	Result string `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Metric is a PromptKit eval's metric declaration (its Prometheus name,
// type — gauge, counter, histogram or boolean — and labels).
type Metric struct {
	Name   string            `json:"name"`
	Type   string            `json:"type"`
	Labels map[string]string `json:"labels,omitempty"`
}

// MaxRaw bounds a Provenance's Raw, in bytes.
const MaxRaw = 2000

// Vote is one panel member's part in a judged check's verdict.
type Vote struct {
	Judge string   `json:"judge"`
	Score *float64 `json:"score,omitempty"`
	Label string   `json:"label,omitempty"`
	Error string   `json:"error,omitempty"`
}

// The kinds of line.
const (
	KindCheck      = "check"
	KindTranscript = "transcript"
)

// Writer appends lines to a results file, safe for concurrent use. Each
// line is one write(2) to a file opened with O_APPEND, so the test
// binaries of `go test ./...` and the shards of a CI matrix can share a
// file without tearing lines.
type Writer struct {
	mu   sync.Mutex
	path string
	seen map[string]bool // transcript IDs written
}

// NewWriter returns a Writer appending to path. The file is created on
// the first line.
func NewWriter(path string) *Writer { return &Writer{path: path, seen: map[string]bool{}} }

// Path is the file written.
func (w *Writer) Path() string { return w.path }

// HasTranscript reports whether the transcript line id was written, and
// marks it written.
func (w *Writer) HasTranscript(id string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen[id] {
		return true
	}
	w.seen[id] = true
	return false
}

// Write appends l. A line Read would refuse (see Read) is an error, and
// is not written: a results file evaltest writes always reads back.
func (w *Writer) Write(l Line) error {
	l.V = Version
	if err := l.check(); err != nil {
		return fmt.Errorf("results: a line Read would refuse (test %q, check %q): %w", l.Test, l.Check, err)
	}
	data, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("results: encoding a line: %w", err)
	}
	// Every field, the transcript's included, passes the one redactor:
	// a results file goes into CI artifacts and PR comments.
	data = append(secret.CleanBytes(data), '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("results: %w", werr)
	}
	if cerr != nil {
		return fmt.Errorf("results: %w", cerr)
	}
	return nil
}

// Read reads a results file, every line redacted (see Writer.Write).
// Errors name the file and the line: a line
// that is not JSON, a version or kind this reader does not know, a check
// line without a test or a status other than pass, fail or error. A file
// cut off in its last line (a test binary killed mid-write) is an error
// too: every line is complete or the file is not read.
func Read(name string, r io.Reader) ([]Line, error) {
	var out []Line
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		raw, err := br.ReadBytes('\n')
		if len(raw) == 0 && errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s:%d: the line has no newline: the file was cut off", name, n)
		}
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		// Redacted as read too: a file written by an older evalkit, or by
		// hand, reaches reports only through the one redactor.
		raw = secret.CleanBytes(raw)
		var l Line
		dec := json.NewDecoder(bytes.NewReader(raw))
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("%s:%d: not a results line: %v", name, n, err)
		}
		if err := l.check(); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		out = append(out, l)
	}
}

func (l Line) check() error {
	if l.V != Version {
		return fmt.Errorf("format version %d, want %d", l.V, Version)
	}
	switch l.Kind {
	case KindCheck:
		if l.Test == "" {
			return errors.New("a check line without a test")
		}
		switch l.Status {
		case "pass", "fail", "error":
		default:
			return fmt.Errorf("status %q, want pass, fail or error", l.Status)
		}
		switch {
		case l.Score != nil && !(*l.Score >= 0 && *l.Score <= 1):
			return fmt.Errorf("score %v, want a number in [0,1]", *l.Score)
		case l.Tokens < 0:
			return fmt.Errorf("tokens %d, want at least 0", l.Tokens)
		case !(l.CostUSD >= 0 && l.CostUSD < 1e9):
			return fmt.Errorf("cost_usd %v, want a price in US dollars, at least 0", l.CostUSD)
		case !(l.LatencyMS >= 0 && l.LatencyMS < 1e12):
			return fmt.Errorf("latency_ms %v, want milliseconds, at least 0", l.LatencyMS)
		case l.Attempts < 0 || l.Passed < 0 || l.Need < 0 || l.Passed > l.Attempts:
			// need may pass attempts: a Repeat stops once it cannot pass
			return fmt.Errorf("attempts %d, passed %d, need %d: want counts of at least 0, passed at most attempts", l.Attempts, l.Passed, l.Need)
		}
	case KindTranscript:
		if l.ID == "" || len(l.Transcript) == 0 {
			return errors.New("a transcript line without an id or a transcript")
		}
	default:
		return fmt.Errorf("kind %q, want %q or %q", l.Kind, KindCheck, KindTranscript)
	}
	return nil
}

// ReadFile reads a results file from disk.
func ReadFile(path string) ([]Line, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(path, f)
}

// Key is what identifies a check line across runs and shards: package,
// test, case, attempt and check, for comparing two runs' results.
func (l Line) Key() string {
	return strings.Join([]string{l.Package, l.Test, l.Case, fmt.Sprint(l.Attempt), l.Check}, "\x00")
}
