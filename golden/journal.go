package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// JournalSuffix ends the name of a recording's journal: the file
// PATH.journal beside the recording PATH (TestRefund.judge.json.journal).
//
// In ModeRecord and ModeRefresh every verdict or exchange the live judge or
// API gives is appended to the journal as soon as it is obtained — one
// entry a line, in compact JSON, redacted as the recording's entries are,
// synced to disk, under the recording's lock — so a run that ends before
// its Save (go test's -timeout panic, a panic on another goroutine, a
// kill) loses no paid call. Save merges the journal into the recording
// and removes it; so does the next New or NewTransport on the recording,
// in any mode, when a run left one behind (see Recorder.Notes). A journal
// is never committed: `evalkit golden verify` reports one as a problem.
const JournalSuffix = ".journal"

// recKind is what the two kinds of recording, judge verdicts and HTTP
// exchanges, differ in, for the code they share: reading, merging and
// writing them and their journals.
type recKind[E any] struct {
	// id is an entry's identity in its recording: a key, or a key and an
	// occurrence.
	id func(E) string
	// decode reads a whole recording (Decode, DecodeHTTP).
	decode func(path string, data []byte) ([]E, error)
	// marshal writes a whole recording (File.Marshal, HTTPFile.Marshal).
	marshal func([]E) ([]byte, error)
	// line reads one journal line, checked as decode checks an entry.
	line func(data []byte) (E, error)
}

var judgeKind = recKind[Entry]{
	id: func(e Entry) string { return e.Key },
	decode: func(path string, data []byte) ([]Entry, error) {
		f, err := Decode(path, data)
		if err != nil {
			return nil, err
		}
		return f.Entries, nil
	},
	marshal: func(es []Entry) ([]byte, error) { return (&File{Version: Version, Entries: es}).Marshal() },
	line: func(data []byte) (Entry, error) {
		var e Entry
		if err := decodeUseNumber(data, &e); err != nil {
			return Entry{}, err
		}
		if !validKey(e.Key) {
			return Entry{}, fmt.Errorf("key %.120q is not %s and 64 hex digits", e.Key, KeyPrefix)
		}
		return e, nil
	},
}

var httpKind = recKind[Interaction]{
	id: Interaction.ID,
	decode: func(path string, data []byte) ([]Interaction, error) {
		f, err := DecodeHTTP(path, data)
		if err != nil {
			return nil, err
		}
		return f.Interactions, nil
	},
	marshal: func(ins []Interaction) ([]byte, error) {
		return (&HTTPFile{Version: Version, Interactions: ins}).Marshal()
	},
	line: func(data []byte) (Interaction, error) {
		var in Interaction
		if err := json.Unmarshal(data, &in); err != nil {
			return Interaction{}, err
		}
		return in, checkInteraction(in)
	},
}

// encodeLine is an entry as a journal line: compact JSON, no HTML
// escaping, a trailing LF.
func encodeLine(e any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, fmt.Errorf("golden: encoding a journal entry: %w", err)
	}
	return cleanFile(b.Bytes()), nil // the one redactor, as every recording write
}

// testNoJournal, set by a benchmark, turns journaling off.
var testNoJournal bool

// appendJournal appends entry e to the journal of the recording at path,
// synced, holding the recording's lock. A journal whose last line was cut
// off (a run killed while writing it) gets its line ended first, so the
// cut line stays a line of its own that readJournal skips.
func appendJournal(path string, e any) error {
	if testNoJournal {
		return nil
	}
	line, err := encodeLine(e)
	if err != nil {
		return err
	}
	return withFileLock(path, func() error {
		real, err := resolveLink(path)
		if err != nil {
			return err
		}
		jp := real + JournalSuffix
		f, err := os.OpenFile(jp, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("golden: %w", err)
		}
		info, err := f.Stat()
		if err != nil {
			f.Close()
			return fmt.Errorf("golden: %w", err)
		}
		if n := info.Size(); n > 0 {
			last := make([]byte, 1)
			if _, err := f.ReadAt(last, n-1); err == nil && last[0] != '\n' {
				line = append([]byte{'\n'}, line...)
			}
		}
		if _, err := f.Write(line); err != nil {
			f.Close()
			return fmt.Errorf("golden: writing %s: %w", jp, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return fmt.Errorf("golden: writing %s: %w", jp, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("golden: writing %s: %w", jp, err)
		}
		if info.Size() == 0 {
			syncDir(filepath.Dir(jp)) // the journal's name, made now, survives a crash too
		}
		return nil
	})
}

// syncDir syncs a directory's entries where the system allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// readJournal reads the journal of the recording at path (resolved: not a
// link), if there is one: its entries in order, and notes on what it
// skipped. A line that is not JSON was cut off by a run killed while
// writing it, and is skipped with a note; a line that is JSON but not an
// entry is an error naming the journal and the line.
func readJournal[E any](k recKind[E], path string) (entries []E, notes []string, exists bool, err error) {
	jp := path + JournalSuffix
	data, err := readFile(jp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, false, nil
	case err != nil:
		return nil, nil, false, err
	}
	n := 0
	for len(data) > 0 {
		n++
		line, rest, whole := bytes.Cut(data, []byte{'\n'})
		data = rest
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !json.Valid(line) {
			how := "is cut off"
			if !whole {
				how = "is cut off at the end of the file"
			}
			notes = append(notes, fmt.Sprintf("%s: line %d %s (a run killed while writing it): skipped", jp, n, how))
			continue
		}
		e, err := k.line(line)
		if err != nil {
			return nil, nil, true, fmt.Errorf("golden: %s: line %d: not a journal entry: %v (remove the file to drop what it holds)", jp, n, err)
		}
		entries = append(entries, e)
	}
	return entries, notes, true, nil
}

// recoverJournal merges a journal a run left behind into the recording at
// path, holding its lock: its entries added to the file's, a journal entry
// replacing the file's under its id (it is the newer), the file written
// atomically when that changes it, the journal then removed. It returns
// notes saying what was recovered and skipped; none when there was no
// journal after all (another process merged it first). A recording or
// journal that does not read is an error, and neither is changed.
func recoverJournal[E any](k recKind[E], path string) (notes []string, err error) {
	err = withFileLock(path, func() error {
		real, err := resolveLink(path)
		if err != nil {
			return err
		}
		journal, skipped, exists, err := readJournal(k, real)
		if err != nil || !exists {
			return err
		}
		old, err := readFile(path)
		var list []E
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return err
		default:
			if list, err = k.decode(path, old); err != nil {
				return fmt.Errorf("%w (its journal %s not merged)", err, real+JournalSuffix)
			}
		}
		data, err := k.marshal(mergeEntries(k, list, journal))
		if err != nil {
			return err
		}
		if !bytes.Equal(data, old) {
			if err := writeAtomic(path, data); err != nil {
				return err
			}
		}
		if err := os.Remove(real + JournalSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("golden: %w", err)
		}
		notes = append(skipped, fmt.Sprintf("%s: recovered %d %s from its journal, left by a recording run that ended before it saved; the recording now holds them (review and commit it)",
			path, len(journal), plural(len(journal), "entry", "entries")))
		return nil
	})
	return notes, err
}

// mergeEntries is list with add merged in: an entry of add replaces the
// one of list with its id, the last of add with an id winning.
func mergeEntries[E any](k recKind[E], list, add []E) []E {
	at := make(map[string]int, len(list)+len(add))
	out := make([]E, 0, len(list)+len(add))
	for _, e := range list {
		at[k.id(e)] = len(out)
		out = append(out, e)
	}
	for _, e := range add {
		if i, ok := at[k.id(e)]; ok {
			out[i] = e
			continue
		}
		at[k.id(e)] = len(out)
		out = append(out, e)
	}
	return out
}

// hasJournal reports whether the recording at path has a journal beside
// it.
func hasJournal(path string) bool {
	real, err := resolveLink(path)
	if err != nil {
		return false
	}
	_, err = os.Lstat(real + JournalSuffix)
	return err == nil
}

// JournalEntries returns how many entries the journal beside the recording
// at path holds, and whether there is one: for `evalkit golden` to say
// what a run that ended before saving left. A journal that does not read
// is an error.
func JournalEntries(path string) (int, bool, error) {
	real, err := resolveLink(path)
	if err != nil {
		return 0, false, err
	}
	var n int
	var exists bool
	if isHTTPPath(path) {
		es, _, ex, err := readJournal(httpKind, real)
		if err != nil {
			return 0, true, err
		}
		n, exists = len(es), ex
	} else {
		es, _, ex, err := readJournal(judgeKind, real)
		if err != nil {
			return 0, true, err
		}
		n, exists = len(es), ex
	}
	return n, exists, nil
}
