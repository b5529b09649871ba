package golden

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// ErrNotRecorded is the error a replay miss wraps: the recording has no
// verdict for the request, and replay never asks the live judge. As
// go-vcr's ErrInteractionNotFound. The error is a *NotRecordedError.
var ErrNotRecorded = errors.New("golden: not recorded")

// NotRecordedError is a replay miss: which recording, which key, and how
// the request differs from the nearest recorded one.
type NotRecordedError struct {
	// Path is the recording's path.
	Path string
	// Key is the request's key (see Key).
	Key string
	// NoFile says the recording does not exist; Nearest is then "".
	NoFile bool
	// Nearest is the key of the recorded entry that differs from the
	// request in the fewest fields, "" when the recording has no entries.
	Nearest string
	// NearestRecordedAt is when Nearest was recorded.
	NearestRecordedAt time.Time
	// Differs says, field by field, how the request differs from Nearest:
	// the judge's identity first ("judge.model",
	// "judge.settings.temperature"), then the request's fields
	// ("criteria", "content", ...), each sorted by name. For an HTTP
	// request: "method", "path", "query.NAME", then the body's fields in
	// order ("body.messages[0].content").
	Differs []Difference
	// Request names the HTTP request a Transport did not find, "POST
	// /v1/chat/completions"; "" for a judge request.
	Request string
	// Occurrence is which of the identical HTTP requests a Transport sent
	// this one was (1 for the first), and Recorded how many identical
	// ones the recording holds: more were sent than recorded when
	// Recorded > 0 (Nearest is then ""). Both are 0 for a judge request.
	Occurrence, Recorded int
	// Texts is how many texts an embedder was asked to embed, for an
	// EmbedRecorder's miss; 0 otherwise.
	Texts int
}

// Difference is one field in which a request differs from a recorded one.
type Difference struct {
	// Field names it: "criteria", "judge.settings.temperature".
	Field string
	// Now and Recorded are its values, as Go-quoted excerpts for text
	// ("\"Confirms the refund\""), as JSON otherwise ("0.7"), "(not set)"
	// when absent, and "(differs beyond the excerpt)" when the recording
	// keeps only an excerpt that matches.
	Now, Recorded string
}

// String returns "criteria: now \"…\", recorded \"…\"".
func (d Difference) String() string {
	return d.Field + ": now " + d.Now + ", recorded " + d.Recorded
}

// Headline is the error's first sentence, without the nearest entry:
// "golden: not recorded: testdata/evalkit/TestRefund.judge.json has no
// verdict for this request (key sha256:3f2a9c4d5e6f)".
func (e *NotRecordedError) Headline() string {
	if e.Request != "" {
		return e.httpHeadline()
	}
	what := "has no verdict for this request"
	if e.Texts > 0 {
		what = fmt.Sprintf("has no embeddings for these %d texts", e.Texts)
	}
	switch {
	case e.NoFile:
		what = "does not exist"
	case e.Nearest == "":
		what = "has no entries"
	}
	return fmt.Sprintf("%v: %s %s (key %s)", ErrNotRecorded, e.Path, what, ShortKey(e.Key))
}

// Error returns the headline, then the nearest entry and what differs:
// "…; nearest entry sha256:9b1c2d3e4f5a differs in criteria: now …,
// recorded …".
func (e *NotRecordedError) Error() string {
	s := e.Headline()
	if e.Nearest == "" {
		return s
	}
	if e.Request != "" {
		s += "; nearest recorded request " + ShortKey(e.Nearest)
	} else {
		s += "; nearest entry " + ShortKey(e.Nearest)
	}
	if len(e.Differs) == 0 {
		return s + " keys differently in no field it records"
	}
	parts := make([]string, len(e.Differs))
	for i, d := range e.Differs {
		parts[i] = d.String()
	}
	return s + " differs in " + strings.Join(parts, "; ")
}

// Is reports whether target is ErrNotRecorded.
func (e *NotRecordedError) Is(target error) bool { return target == ErrNotRecorded }

// Unwrap returns ErrNotRecorded.
func (e *NotRecordedError) Unwrap() error { return ErrNotRecorded }

// ShortKey returns a key's first 12 hex digits with its prefix, as
// messages show it: "sha256:3f2a9c4d5e6f". The CLI takes it as a prefix.
func ShortKey(key string) string {
	if len(key) > len(KeyPrefix)+12 {
		return key[:len(KeyPrefix)+12]
	}
	return key
}

// notRecorded builds the miss error for req. st.mu is held.
func (st *store) notRecorded(r *Recorder, req evalkit.JudgeRequest, k requestKey) *NotRecordedError {
	e := &NotRecordedError{Path: st.path, Key: k.key, NoFile: !st.exists && len(st.entries) == 0}
	if len(st.entries) == 0 {
		return e
	}
	now := flatten("judge", secret.Value(r.id.tree, r.cleaner()))
	// Count the differing fields of every entry cheaply (digests, and the
	// judge's identity once per distinct identity); describe the nearest.
	judgeDiffs := map[string]int{}
	best, nearest := -1, ""
	for _, key := range slices.Sorted(maps.Keys(st.entries)) {
		ent := st.entries[key]
		idJSON := string(mustJSON(ent.Judge))
		n, seen := judgeDiffs[idJSON]
		if !seen {
			n = len(judgeDifferences(now, ent))
			judgeDiffs[idJSON] = n
		}
		for f := range union(k.digests, ent.Digests) {
			if k.digests[f] != ent.Digests[f] {
				n++
			}
		}
		if best < 0 || n < best {
			best, nearest = n, key
		}
	}
	ent := st.entries[nearest]
	e.Nearest, e.NearestRecordedAt, e.Differs = nearest, ent.RecordedAt, differences(now, ent, req, k, r.clean)
	return e
}

// judgeDifferences lists how the judge's identity now differs from the
// entry's.
func judgeDifferences(judgeNow map[string]string, ent Entry) []Difference {
	var out []Difference
	var recorded any
	if err := decodeUseNumber(mustJSON(ent.Judge), &recorded); err != nil {
		return []Difference{{Field: "judge", Now: "(an identity)", Recorded: "(one that does not read)"}}
	}
	judgeThen := flatten("judge", shortNumbers(recorded))
	for _, f := range slices.Sorted(maps.Keys(union(judgeNow, judgeThen))) {
		if judgeNow[f] != judgeThen[f] {
			out = append(out, Difference{Field: f, Now: orNotSet(judgeNow[f]), Recorded: orNotSet(judgeThen[f])})
		}
	}
	return out
}

// differences lists how a request differs from a recorded entry. clean
// redacts the request's text as the recording did.
func differences(judgeNow map[string]string, ent Entry, req evalkit.JudgeRequest, k requestKey, clean func(string) string) []Difference {
	out := judgeDifferences(judgeNow, ent)
	for _, f := range slices.Sorted(maps.Keys(union(k.digests, ent.Digests))) {
		if k.digests[f] == ent.Digests[f] {
			continue
		}
		d := fieldDifference(f, req, ent.Request, clean)
		switch {
		case k.digests[f] == "":
			d.Now = "(not set)"
		case ent.Digests[f] == "":
			d.Recorded = "(not set)"
		}
		out = append(out, d)
	}
	return out
}

// maxDiffer bounds a value in a Difference, in bytes.
const maxDiffer = 80

// fieldDifference shows a request field now and as the summary recorded it.
func fieldDifference(field string, req evalkit.JudgeRequest, sum Summary, clean func(string) string) Difference {
	d := Difference{Field: field}
	text := func(now, then string) Difference {
		d.Now, d.Recorded = textDifference(clean(now), then)
		return d
	}
	switch field {
	case "criteria":
		return text(req.Criteria, sum.Criteria)
	case "content":
		return text(req.Content, sum.Content)
	case "input":
		return text(req.Input, sum.Input)
	case "rubric":
		return text(req.Rubric, sum.Rubric)
	case "reference":
		return text(req.Reference, sum.Reference)
	case "system_prompt":
		return text(req.SystemPrompt, sum.SystemPrompt)
	case "model":
		return text(req.Model, sum.Model)
	case "kind":
		return text(string(req.Kind), string(sum.Kind))
	case "verdict_schema":
		return text(string(req.VerdictSchema), sum.VerdictSchema)
	case "content_b":
		return text(req.ContentB, sum.ContentB)
	case "format":
		name := ""
		if req.Format != nil {
			name = req.Format.Name()
		}
		return text(name, sum.Format)
	case "game":
		d.Now, d.Recorded = fmt.Sprint(req.Game), fmt.Sprint(sum.Game)
	case "scale":
		d.Now, d.Recorded = scaleText(req.Scale.OrDefault()), scaleText(sum.Scale)
	case "labels":
		d.Now, d.Recorded = textnorm.Excerpt(string(mustJSON(req.Labels)), maxDiffer), textnorm.Excerpt(string(mustJSON(sum.Labels)), maxDiffer)
	case "context":
		d.Now, d.Recorded = fmt.Sprintf("%d documents", len(req.Context)), fmt.Sprintf("%d documents", len(sum.Context))
	default:
		d.Now, d.Recorded = "(a field this evalkit does not summarize)", "(not summarized)"
	}
	return d
}

// excerptMarker ends an excerpt textnorm.Excerpt cut.
var excerptMarker = regexp.MustCompile(`… \[\d+ more bytes\]$`)

// textDifference shows where two texts part: both from a little before
// the first byte that differs. then may be an excerpt; when now starts
// with all it kept, the difference lies beyond it, and then says so.
func textDifference(now, then string) (string, string) {
	kept := then
	cut := false
	if loc := excerptMarker.FindStringIndex(then); loc != nil {
		kept, cut = then[:loc[0]], true
	}
	p := 0
	for p < len(now) && p < len(kept) && now[p] == kept[p] {
		p++
	}
	if cut && p == len(kept) {
		return window(now, p), fmt.Sprintf("(the same first %d bytes: the recording keeps no more)", len(kept))
	}
	return window(now, p), window(kept, p)
}

// window quotes s from a little before byte p, at most maxDiffer bytes;
// from its start when that leaves out under 8 bytes (an ellipsis for one
// letter hides more than it saves).
func window(s string, p int) string {
	start := max(0, p-24)
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	if start < 8 {
		return textnorm.Quote(s, maxDiffer)
	}
	return "…" + textnorm.Quote(s[start:], maxDiffer)
}

func scaleText(s evalkit.Scale) string {
	return strconv.FormatFloat(s.Min, 'g', -1, 64) + "–" + strconv.FormatFloat(s.Max, 'g', -1, 64)
}

// flatten maps every leaf of a plain JSON value to its canonical JSON, by
// path: "judge.model", "judge.settings.temperature", "judge.settings.judges[0].model".
func flatten(prefix string, v any) map[string]string {
	out := map[string]string{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(path+"."+k, x)
			}
			return
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), x)
			}
			return
		case string:
			out[path] = textnorm.Quote(v, maxDiffer)
			return
		}
		out[path] = textnorm.Excerpt(string(mustCanonical(v)), maxDiffer)
	}
	walk(prefix, v)
	return out
}

func union(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	for k, v := range b {
		out[k] = v
	}
	return out
}

func orNotSet(s string) string {
	if s == "" {
		return "(not set)"
	}
	return s
}

func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return data
}
