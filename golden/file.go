package golden

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/inputs"
	"github.com/evalkit-go/evalkit/internal/jsonx"
	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Version is the recording format version this package reads and writes.
// A file of another version is an error, never read as best it can be.
const Version = 1

// File is a recording: judge verdicts filed by key. On disk it is JSON
// with "version": 1 and its entries sorted by key, indented by two
// spaces, LF line endings and a trailing newline — so a re-recording is a
// reviewable diff, and recording twice writes the same bytes. A file
// checked out with CRLF line endings reads the same.
type File struct {
	// Version is the format version: Version (1).
	Version int `json:"version"`
	// Entries are the recorded verdicts, sorted by Key when written.
	Entries []Entry `json:"entries"`
}

// Entry is one recorded verdict.
type Entry struct {
	// Key is what the entry is filed under (see Key):
	// "sha256:" and 64 hex digits.
	Key string `json:"key"`
	// Judge is the identity of the judge that gave the verdict, its
	// credentials left out.
	Judge evalkit.Identity `json:"judge"`
	// Request is a readable summary of the request, for review and for
	// saying how a request that is not recorded differs from this one.
	Request Summary `json:"request"`
	// Digests hold, for each field of the request as it was keyed
	// ("criteria", "content", "scale", ...), the first 16 hex digits of
	// the SHA-256 of its canonical JSON: they tell which fields of a new
	// request differ, even where Request holds only an excerpt.
	Digests map[string]string `json:"digests"`
	// Verdict is the verdict as the judge gave it, usage and cost (USD)
	// included; replay returns it as is. Text that looked like a
	// credential was redacted before it was written. An embedding entry
	// has none, and leaves it out.
	Verdict evalkit.Verdict `json:"verdict,omitzero"`
	// Embedding, for an entry an embedder's call made (see EmbedRecorder),
	// holds the vectors it returned; nil for a judge's verdict.
	Embedding *Embedding `json:"embedding,omitempty"`
	// RecordedAt is when the verdict was recorded, in UTC, to the second.
	RecordedAt time.Time `json:"recorded_at"`
}

// Summary is a readable summary of a judge request: the criteria whole,
// long text cut to an excerpt that says how much was left out
// ("… [1234 more bytes]").
type Summary struct {
	// Judge names the judge that recorded the entry in its judge set, and
	// its variant: "strict/cheap" (see evalkit.NamedJudge); "" for a judge
	// given directly. It is not part of the key: a judge of another name
	// with the same identity replays the entry too.
	Judge string `json:"judge,omitempty"`
	// Criteria are the request's criteria, whole up to 1000 bytes (none
	// for an embedding).
	Criteria string `json:"criteria,omitempty"`
	// Kind is what Content holds: "" (an answer), "transcript" or
	// "tool_calls".
	Kind evalkit.ContentKind `json:"kind,omitempty"`
	// Input is the user's request the content answers, up to 200 bytes.
	Input string `json:"input,omitempty"`
	// Content is the text judged, up to 400 bytes.
	Content string `json:"content,omitempty"`
	// ContentB is a pairwise request's second answer, up to 400 bytes;
	// Game is 1 or 2 for a pair judged both ways (game 2 swapped).
	ContentB string `json:"content_b,omitempty"`
	Game     int    `json:"game,omitempty"`
	// Format names the verdict format asked for ("arena-hard/1").
	Format string `json:"format,omitempty"`
	// Rubric, Reference and SystemPrompt are the request's, up to 200
	// bytes each.
	Rubric    string `json:"rubric,omitempty"`
	Reference string `json:"reference,omitempty"`
	// Context holds each context document, up to 200 bytes each.
	Context []string `json:"context,omitempty"`
	// Scale is the request's scale; the zero Scale is written as
	// evalkit.DefaultScale, which it means (none for an embedding).
	Scale evalkit.Scale `json:"scale,omitzero"`
	// Labels are the labels the judge was offered, in order.
	Labels []string `json:"labels,omitempty"`
	// Model is the model the request asked for, when it asked.
	Model        string `json:"model,omitempty"`
	SystemPrompt string `json:"system_prompt,omitempty"`
	// VerdictSchema is the verdict JSON Schema asked for, as compact
	// JSON, up to 200 bytes.
	VerdictSchema string `json:"verdict_schema,omitempty"`
	// Metric is the request's metric step, recorded with
	// WithWholeRequests only.
	Metric string `json:"metric,omitempty"`
	// Texts are the texts an embedder was asked to embed, up to 200 bytes
	// each (Kind "embedding"); none for a judge request.
	Texts []string `json:"texts,omitempty"`
}

// Load reads and checks the recording at path (see Decode). A file that
// does not exist is an error wrapping fs.ErrNotExist.
func Load(path string) (*File, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(path, data)
}

// readFile reads a recording: a regular file (a FIFO is refused, never
// waited on) of at most inputs.Recording's limit (64 MiB, or
// EVALKIT_MAX_RECORDING_BYTES), read into one buffer of its size. It
// opens the file through os.OpenFile, which go test's cache tracks, so a
// test replaying it reruns when it changes.
func readFile(path string) ([]byte, error) {
	data, err := inputs.ReadFile(path, inputs.Recording)
	if err != nil {
		return nil, fmt.Errorf("golden: %w", err)
	}
	return data, nil
}

// Decode reads a recording; name says which file in errors. It returns an
// error naming the file for anything that is not a version 1 recording
// as evalkit writes it: JSON that does not parse (with its line and
// column), no version or another one, a UTF-8 byte order mark (which
// evalkit never writes), a JSON key given twice in any object (encoding/json
// would keep the last silently, so an edit could hide behind the value
// shown first), an entry whose key is not a key, a key given twice, and a
// verdict whose score is not its raw score on its request's scale (one of
// them edited), each naming the entry. Entries need not be sorted (Verify
// says when they are not); CRLF line endings are read as LF.
func Decode(name string, data []byte) (*File, error) {
	f, err := decode(name, data)
	if err != nil {
		return nil, err
	}
	for i, e := range f.Entries {
		if p := scoreProblem(e); p != "" {
			return nil, fmt.Errorf("golden: %s: %s: %s: restore the value recorded, or delete the entry and record it again (EVALKIT_MODE=record)", name, entryName(i, e.Key), p)
		}
	}
	return f, nil
}

// decode is Decode without the checks of each verdict, which Verify
// makes itself, listing every one.
func decode(name string, data []byte) (*File, error) {
	if err := checkBytes(name, data); err != nil {
		return nil, err
	}
	// Names are compared ignoring case, as encoding/json fills a field:
	// {"score": 0.9, "raw_score": 9, "Score": 0.2, "RAW_SCORE": 2} replayed
	// 0.2 behind the 0.9 shown first, consistent with its raw score. The
	// maps a recording holds (a verdict's fields, as the judge wrote them,
	// a judge's settings, a tool call's args) are compared exactly.
	dups := scanDuplicates(data, func(data []byte) (*jsonx.Duplicate, bool) {
		return jsonx.FirstFoldedDuplicate(data, "fields", "settings", "args")
	})
	f, err := parse(name, data)
	dup := <-dups // before any return: the scan reads data
	if err != nil {
		return nil, err
	}
	if err := checkKeys(name, f.Entries); err != nil {
		return nil, err
	}
	return f, duplicateKey(name, dup, "entries", func(i int) string {
		if i < len(f.Entries) {
			return entryName(i, f.Entries[i].Key)
		}
		return ""
	})
}

// scanDuplicates looks for a JSON key given twice in data, with find
// (jsonx.FirstDuplicate, or FirstFoldedDuplicate). On a large recording
// it reads beside the decoding, on another core, so a load takes no
// longer for it (the scan costs about a tenth of the decoding); the
// caller receives before it returns, as the scan reads data.
func scanDuplicates(data []byte, find func([]byte) (*jsonx.Duplicate, bool)) <-chan *jsonx.Duplicate {
	out := make(chan *jsonx.Duplicate, 1)
	scan := func() {
		d, _ := find(data)
		out <- d
	}
	if len(data) < 1<<20 {
		scan()
	} else {
		go scan()
	}
	return out
}

// parse reads data as a recording: one entry at a time when it is in the
// shape evalkit writes (decodeEntries), else as one value (decodeWhole),
// which gives the errors.
func parse(name string, data []byte) (*File, error) {
	if entries, ok := decodeEntries(data); ok {
		return &File{Version: Version, Entries: entries}, nil
	}
	return decodeWhole(name, data)
}

// checkBytes refuses a recording that starts with a UTF-8 byte order
// mark: evalkit never writes one, and a recording edited by a tool that
// adds one may have been edited in other ways.
func checkBytes(name string, data []byte) error {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return fmt.Errorf("golden: %s: starts with a UTF-8 byte order mark, which evalkit never writes (an editor added it?): save the file without it", name)
	}
	return nil
}

// duplicateKey is the error of d, a JSON key given twice, naming the
// entry (or interaction) of the list under list that holds it, as
// named(i) says; nil for no d.
func duplicateKey(name string, d *jsonx.Duplicate, list string, named func(i int) string) error {
	if d == nil {
		return nil
	}
	where := ""
	if rest, ok := strings.CutPrefix(d.Path, list+"["); ok {
		if n, _, ok := strings.Cut(rest, "]"); ok {
			if i, err := strconv.Atoi(n); err == nil {
				if e := named(i); e != "" {
					where = e + ": "
				}
			}
		}
	}
	if d.Same {
		return fmt.Errorf("golden: %s: %s%v: evalkit never writes a key twice: keep one, or delete the entry and record it again (EVALKIT_MODE=record)", name, where, d)
	}
	return fmt.Errorf("golden: %s: %s%v: which value replays cannot be told (encoding/json takes the last, other readers the first): keep one, or delete the entry and record it again (EVALKIT_MODE=record)", name, where, d)
}

// entryName names an entry in errors: "entry 3 (sha256:3f2a9c4d5e6f)".
func entryName(i int, key string) string {
	return fmt.Sprintf("entry %d (%s)", i+1, ShortKey(key))
}

// scoreProblem says what is wrong with an entry's score: outside [0,1],
// or not its raw score on its request's scale; "" when nothing is. A raw
// score of 0 on a scale from 0 may be one the judge never gave (a judge
// that writes only a normalized score), and is not checked.
func scoreProblem(ent Entry) string {
	v := ent.Verdict
	if !v.Scored {
		return ""
	}
	if math.IsNaN(v.Score) || v.Score < 0 || v.Score > 1 {
		return fmt.Sprintf("score %v is outside [0,1]", v.Score)
	}
	if scale := scaleOf(ent); v.RawScore != 0 || scale.Min != 0 {
		if want, err := scale.Normalize(v.RawScore); err != nil || math.Abs(want-v.Score) > 1e-9 {
			return fmt.Sprintf("score %v is not raw_score %v on the scale [%v, %v] (one was edited?)", v.Score, v.RawScore, scale.Min, scale.Max)
		}
	}
	return ""
}

// decodeWhole is Decode reading data as one JSON value.
func decodeWhole(name string, data []byte) (*File, error) {
	var f struct {
		Version *int    `json:"version"`
		Entries []Entry `json:"entries"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // Fields' numbers as the judges' parser gives them
	err := dec.Decode(&f)
	if err == nil && dec.More() {
		err = fmt.Errorf("more data after its JSON object")
	}
	switch {
	case f.Version != nil && *f.Version != Version && !versionError(err):
		// Before any other error: another version may be another shape.
		return nil, fmt.Errorf("golden: %s: format version %d, and this evalkit reads version %d: update evalkit, or re-record the file", name, *f.Version, Version)
	case err != nil:
		return nil, fmt.Errorf("golden: %s: not a recording: %s", name, jsonError(data, err))
	case f.Version == nil:
		return nil, fmt.Errorf("golden: %s: not a recording: it has no \"version\"", name)
	}
	if f.Entries == nil {
		f.Entries = []Entry{}
	}
	return &File{Version: Version, Entries: f.Entries}, nil
}

// checkKeys refuses an entry whose key is not a key, and a key given twice.
func checkKeys(name string, entries []Entry) error {
	seen := make(map[string]bool, len(entries))
	for i, e := range entries {
		if !validKey(e.Key) {
			return fmt.Errorf("golden: %s: entry %d: key %s is not %s and 64 hex digits", name, i+1, textnorm.Quote(e.Key, maxQuotedKey), KeyPrefix)
		}
		if seen[e.Key] {
			return fmt.Errorf("golden: %s: entry %d: key %s is given twice", name, i+1, e.Key)
		}
		seen[e.Key] = true
	}
	return nil
}

// decodeEntries reads a recording in the shape this package writes it —
// {"version": 1, "entries": [...]}, those two keys once each, nothing
// after — decoding one entry at a time, so encoding/json's buffer holds an
// entry, not the whole file (decoding the file as one value copied it
// into a buffer grown by doubling: three times its size allocated before
// any entry was read). ok is false for anything else, valid or not:
// Decode then reads the file as one value, with its rules and its errors.
// What decodeEntries returns is what that would have returned.
func decodeEntries(data []byte) (entries []Entry, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	sawVersion, sawEntries := false, false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		switch t {
		case "version":
			v, err := dec.Token()
			if n, isNum := v.(json.Number); err != nil || sawVersion || !isNum || n != "1" {
				return nil, false
			}
			sawVersion = true
		case "entries":
			if t, err := dec.Token(); err != nil || sawEntries || t != json.Delim('[') {
				return nil, false
			}
			sawEntries = true
			// A capacity from the keys written, so the slice grows once.
			entries = make([]Entry, 0, bytes.Count(data, []byte(`"key": "sha256:`)))
			for dec.More() {
				entries = append(entries, Entry{})
				if err := dec.Decode(&entries[len(entries)-1]); err != nil {
					return nil, false
				}
			}
			if t, err := dec.Token(); err != nil || t != json.Delim(']') {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') || !sawVersion || !sawEntries {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false // more after the object, or not JSON
	}
	return entries, true
}

// maxQuotedKey bounds a key quoted in an error: a real one is 71 bytes.
const maxQuotedKey = 120

// versionError reports whether err is the version's own decoding error: a
// "version" that is not a number decodes as 0, which is no version.
func versionError(err error) bool {
	var typ *json.UnmarshalTypeError
	return errors.As(err, &typ) && typ.Field == "version"
}

// jsonError says where in data a decoding error is: "line 3, column 7:
// invalid character '}' ...".
func jsonError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var off int64
	switch {
	case errors.As(err, &syn) && strings.HasPrefix(syn.Error(), "unexpected end of JSON input"):
		return "the JSON ends too early"
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return "the JSON ends too early"
	default:
		return err.Error()
	}
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}

func validKey(k string) bool {
	hexPart, ok := strings.CutPrefix(k, KeyPrefix)
	if !ok || len(hexPart) != 64 {
		return false
	}
	_, err := hex.DecodeString(hexPart)
	return err == nil && strings.ToLower(hexPart) == hexPart
}

// Marshal returns the file's bytes as they are written: entries sorted by
// key, two-space indent, LF, a trailing newline, no HTML escaping. It
// returns an error for a key given twice or a value JSON cannot hold.
func (f *File) Marshal() ([]byte, error) {
	out := File{Version: Version, Entries: slices.Clone(f.Entries)}
	if out.Entries == nil {
		out.Entries = []Entry{}
	}
	slices.SortFunc(out.Entries, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	for i := 1; i < len(out.Entries); i++ {
		if out.Entries[i].Key == out.Entries[i-1].Key {
			return nil, fmt.Errorf("golden: key %s is given twice", out.Entries[i].Key)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("golden: encoding the recording: %w", err)
	}
	return b.Bytes(), nil
}

// WriteFile writes f to path atomically: to a temporary file in the same
// directory (created with its parents when missing), synced, then renamed
// over path. A run killed mid-write leaves the old recording whole, and at
// worst a ".<name>.tmp-*" file beside it.
func WriteFile(path string, f *File) error {
	data, err := f.Marshal()
	if err != nil {
		return err
	}
	return writeAtomic(path, data)
}

// testHookMidWrite, when set by a test, runs after half of a file's bytes
// are written to its temporary file.
var testHookMidWrite func()

// writeAtomic writes a file of golden's atomically, redacted: every file
// golden writes (recordings, usage logs) goes through it, so every byte
// passes the process's one redactor (internal/secret) whatever built it.
func writeAtomic(path string, data []byte) error {
	return writeRaw(path, cleanFile(data))
}

// cleanFile is what golden writes of data: the secrets the process knows
// and credential shapes replaced by their labels (see secret.CleanBytes;
// JSON stays JSON).
func cleanFile(data []byte) []byte { return secret.CleanBytes(data) }

// writeRaw writes data as it is: see writeAtomic.
func writeRaw(path string, data []byte) (err error) {
	if path, err = resolveLink(path); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	half := len(data) / 2
	if _, err := tmp.Write(data[:half]); err != nil {
		return fmt.Errorf("golden: writing %s: %w", path, err)
	}
	if testHookMidWrite != nil {
		testHookMidWrite()
	}
	if _, err := tmp.Write(data[half:]); err != nil {
		return fmt.Errorf("golden: writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("golden: writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("golden: writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	return nil
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// resolveLink is the file a recording's path names: the path itself, or,
// when it is a symbolic link (recordings shared between packages), the
// file it links to, so writing replaces that file and leaves the link a
// link. A link to nothing is an error naming both.
func resolveLink(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		dest, _ := os.Readlink(path)
		return "", fmt.Errorf("golden: %s is a symbolic link to %s, which does not exist: make the file, or remove the link", path, dest)
	}
	return target, nil
}

// toWrite is what Save writes of a recording, judge or HTTP, in mode,
// under the recording's lock: in ModeRecord every entry — those this run
// recorded (fresh), and those of the journal (journal) and of the file now
// (a concurrent run's, a dead one's, or one audit -update rewrote) under
// every other id, which entries then holds too;
// in ModeRefresh the entries the live judge or API answered (fresh), and
// the journal's others (another run's, which are newer than the file). A
// file that no longer reads as a recording is an error, and is not
// overwritten.
func toWrite[E any](k recKind[E], mode Mode, path string, entries map[string]E, fresh map[string]bool, journal []E) ([]E, error) {
	var list []E
	switch mode {
	case ModeRecord:
		onDisk, err := readFile(path)
		var old []E
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			if old, err = k.decode(path, onDisk); err != nil {
				return nil, fmt.Errorf("%w (not overwritten)", err)
			}
		}
		// The file's entry stands for every id this run did not ask the
		// live judge or API (fresh): its own copy is the file as it read
		// it, and another writer (audit -update, a concurrent run) may
		// have changed it since.
		for _, e := range mergeEntries(k, old, journal) {
			if !fresh[k.id(e)] {
				entries[k.id(e)] = e
			}
		}
		for _, e := range entries {
			list = append(list, e)
		}
	case ModeRefresh:
		for id := range fresh {
			list = append(list, entries[id])
		}
		for _, e := range mergeEntries(k, nil, journal) {
			if !fresh[k.id(e)] {
				list = append(list, e)
			}
		}
	}
	return list, nil
}

// saveLocked writes a recording as Save does, holding its lock: what
// toWrite says, when it differs from the file (sum, its SHA-256, when
// exists); then it removes the journal, whose entries the file now holds.
// A journal that does not read is left alone: the rest is written, and the
// error returned. notes say what the journal's reading skipped.
func saveLocked[E any](k recKind[E], mode Mode, path string, entries map[string]E, fresh map[string]bool, exists *bool, sum *string) (notes []string, err error) {
	real, err := resolveLink(path)
	if err != nil {
		return nil, err
	}
	journal, notes, hasJournal, jerr := readJournal(k, real)
	list, err := toWrite(k, mode, path, entries, fresh, journal)
	if err != nil {
		return notes, err
	}
	data, err := k.marshal(list)
	if err != nil {
		return notes, err
	}
	if err := writeChanged(path, data, exists, sum); err != nil {
		return notes, err
	}
	if jerr != nil {
		return notes, jerr
	}
	if hasJournal {
		if err := os.Remove(real + JournalSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return notes, fmt.Errorf("golden: %w", err)
		}
	}
	return notes, nil
}

// writeChanged writes data to path atomically unless it is the file's
// content already (sum, its SHA-256, when exists), and notes what it wrote.
func writeChanged(path string, data []byte, exists *bool, sum *string) error {
	data = cleanFile(data)
	s := sha256Hex(data)
	if *exists && s == *sum {
		return nil
	}
	if err := writeRaw(path, data); err != nil {
		return err
	}
	*exists, *sum = true, s
	return nil
}

// UpdateFile changes the judge recording at path in place: it merges a
// journal left beside it (see JournalSuffix), reads it, calls change, and
// writes it when change reports a change — all holding the recording's
// lock, as Save holds it, so a record run saving meanwhile waits and
// loses none of its entries. An error from change, or a recording that
// does not read, leaves the file as it was. `evalkit golden audit
// -update` writes through it.
func UpdateFile(path string, change func(*File) (changed bool, err error)) error {
	if hasJournal(path) {
		if _, err := recoverJournal(judgeKind, path); err != nil {
			return err
		}
	}
	return withFileLock(path, func() error {
		f, err := Load(path)
		if err != nil {
			return err
		}
		changed, err := change(f)
		if err != nil || !changed {
			return err
		}
		return WriteFile(path, f)
	})
}
