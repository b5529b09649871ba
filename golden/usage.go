package golden

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// Usage is what a run used of one recording, as Save writes it to a usage
// log: the evidence `evalkit golden prune` needs before it drops an entry.
type Usage struct {
	// Recording is the recording's absolute path.
	Recording string `json:"recording"`
	// SHA256 is the hex SHA-256 of the recording's bytes as the run left
	// them: a log about other bytes says nothing about these.
	SHA256 string `json:"sha256"`
	// Keys are the keys the run answered requests with, sorted: of an
	// HTTP recording, the interactions' IDs ("sha256:…#1").
	Keys []string `json:"keys"`
	// Partial says the run did not run everything that uses the
	// recording (see Recorder.MarkPartial).
	Partial bool `json:"partial,omitempty"`
}

// DefaultUsageDir is where evaltest keeps usage logs and the CLI looks for
// them: $EVALKIT_USAGE_DIR when set, else "evalkit/usage" in the user's
// cache directory (os.UserCacheDir), else "" (no log). The logs are
// machine-local: they record this machine's last run, and are never
// committed.
func DefaultUsageDir() string {
	if dir := os.Getenv("EVALKIT_USAGE_DIR"); dir != "" {
		return dir
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "evalkit", "usage")
	}
	return ""
}

// usagePath is where dir keeps the log of the recording at abs.
func usagePath(dir, abs string) string {
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, hex.EncodeToString(sum[:8])+".json")
}

func writeUsage(dir string, u Usage) error {
	data, err := json.MarshalIndent(u, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(usagePath(dir, u.Recording), append(data, '\n'))
}

// ReadUsage returns the usage log dir holds for the recording at path. A
// recording with no log is an error wrapping fs.ErrNotExist.
func ReadUsage(dir, path string) (Usage, error) {
	abs := absPath(path)
	data, err := os.ReadFile(usagePath(dir, abs))
	if err != nil {
		return Usage{}, fmt.Errorf("golden: no usage log for %s: %w", path, err)
	}
	var u Usage
	if err := json.Unmarshal(data, &u); err != nil || u.Recording != abs {
		return Usage{}, fmt.Errorf("golden: the usage log for %s does not read as one", path)
	}
	return u, nil
}

// ErrNoEvidence is what Prune's errors wrap when it cannot tell which
// entries a run used, so it drops none.
var ErrNoEvidence = errors.New("golden: no evidence of a full run")

// Prune drops from the recording at path the entries its last full run
// did not use, by the usage log in dir (see WithUsageLog), and returns
// them. It writes the file (atomically) only when it drops something, and
// with dryRun never. It drops nothing, and returns an error wrapping
// ErrNoEvidence, when there is no log, when the run was partial (a
// filtered, failed or skipped test), or when the recording changed since
// the run.
func Prune(path, dir string, dryRun bool) ([]Entry, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Decode(path, data)
	if err != nil {
		return nil, err
	}
	used, u, err := evidence(path, dir, data)
	if err != nil {
		return nil, err
	}
	var keep, drop []Entry
	for _, e := range f.Entries {
		if used[e.Key] {
			keep = append(keep, e)
		} else {
			drop = append(drop, e)
		}
	}
	if len(drop) == 0 || dryRun {
		return drop, nil
	}
	f.Entries = keep
	out, err := f.Marshal()
	if err != nil {
		return nil, err
	}
	return drop, rewrite(path, dir, out, u)
}

// PruneHTTP is Prune for an HTTP recording (see Transport): it drops the
// interactions the last full run did not use, by their IDs in the usage
// log, and returns them, on the same evidence and with the same errors.
func PruneHTTP(path, dir string, dryRun bool) ([]Interaction, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	f, err := DecodeHTTP(path, data)
	if err != nil {
		return nil, err
	}
	used, u, err := evidence(path, dir, data)
	if err != nil {
		return nil, err
	}
	var keep, drop []Interaction
	for _, in := range f.Interactions {
		if used[in.ID()] {
			keep = append(keep, in)
		} else {
			drop = append(drop, in)
		}
	}
	if len(drop) == 0 || dryRun {
		return drop, nil
	}
	f.Interactions = keep
	out, err := f.Marshal()
	if err != nil {
		return nil, err
	}
	return drop, rewrite(path, dir, out, u)
}

// evidence returns what the last full run of the recording at path (its
// bytes data) used, by its usage log in dir, or an error wrapping
// ErrNoEvidence.
func evidence(path, dir string, data []byte) (map[string]bool, Usage, error) {
	if hasJournal(path) {
		return nil, Usage{}, fmt.Errorf("%w: a journal is beside %s (a recording run ended before it saved): run its tests first, which merges it", ErrNoEvidence, path)
	}
	u, err := ReadUsage(dir, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, u, fmt.Errorf("%w: %s has no usage log: run its tests (go test) first", ErrNoEvidence, path)
	case err != nil:
		return nil, u, fmt.Errorf("%w: %v", ErrNoEvidence, err)
	case u.Partial:
		return nil, u, fmt.Errorf("%w: the last run of %s was partial (a filtered, failed or skipped test): run its tests in full first", ErrNoEvidence, path)
	case u.SHA256 != sha256Hex(data):
		return nil, u, fmt.Errorf("%w: %s changed since its tests last ran: run them first", ErrNoEvidence, path)
	}
	used := make(map[string]bool, len(u.Keys))
	for _, k := range u.Keys {
		used[k] = true
	}
	return used, u, nil
}

// rewrite writes a pruned recording, and its usage log after it.
func rewrite(path, dir string, out []byte, u Usage) error {
	out = cleanFile(out)
	if err := writeRaw(path, out); err != nil {
		return err
	}
	// The run's keys still say what was used: the log follows the file.
	u.SHA256 = sha256Hex(out)
	_ = writeUsage(dir, u)
	return nil
}

func sortedKeys(m map[string]bool) []string {
	keys := slices.Sorted(maps.Keys(m))
	if keys == nil {
		keys = []string{}
	}
	return keys
}
