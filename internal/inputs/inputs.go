// Package inputs reads the files evalkit reads on a user's behalf — case
// files, spec files, judge set configs, recordings, transcripts, results
// files — in bounded memory: only regular files (a FIFO, a device or a
// socket is refused, without blocking on it), and each kind only up to a
// documented size that the user can raise through an environment
// variable, named in the error that refuses a file.
//
//	data, err := inputs.ReadFile("testdata/cases/refund.yaml", inputs.CaseFile)
//	// err: testdata/cases/refund.yaml: 81.0 MiB, past the limit of 4 MiB for a
//	// case file (EVALKIT_MAX_CASE_FILE_BYTES raises it)
package inputs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// Limit is a bound on one kind of input: a size in bytes, or a count.
type Limit struct {
	// What names the input in errors: "case file".
	What string
	// Env is the environment variable that overrides Default.
	Env string
	// Default is the limit when Env is unset.
	Default int64
	// Unit is what the limit counts: "" for bytes, or a plural noun
	// ("cases").
	Unit string
}

// The limits. Their defaults are far above what an ordinary suite needs
// and low enough that a file at the limit is read in well under a
// second or two and a few hundred megabytes (RELIABILITY.md, "Limits").
var (
	// CaseFile bounds a case file (evaltest.LoadCases, RunCases), a
	// spec file (assert.LoadSpecs) and a PromptKit runtime config
	// (promptkit.BindRuntimeConfig): YAML costs about 80 bytes of memory
	// a byte when every line is a node.
	CaseFile = Limit{What: "case file", Env: "EVALKIT_MAX_CASE_FILE_BYTES", Default: 4 << 20}
	// Cases bounds the cases one LoadCases or RunCases reads.
	Cases = Limit{What: "case files", Env: "EVALKIT_MAX_CASES", Default: 10_000, Unit: "cases"}
	// JudgeSet bounds a judge set config (judgeset.Load).
	JudgeSet = Limit{What: "judge set config", Env: "EVALKIT_MAX_JUDGE_SET_BYTES", Default: 1 << 20}
	// Recording bounds a judge or HTTP recording and a usage log
	// (package golden, evalkit golden ...).
	Recording = Limit{What: "recording", Env: "EVALKIT_MAX_RECORDING_BYTES", Default: 64 << 20}
	// Transcript bounds the input of evalkit.Decode, DecodeAll, Load and
	// LoadAll.
	Transcript = Limit{What: "transcript", Env: "EVALKIT_MAX_TRANSCRIPT_BYTES", Default: 32 << 20}
	// Results bounds a results file (evalkit report).
	Results = Limit{What: "results file", Env: "EVALKIT_MAX_RESULTS_BYTES", Default: 64 << 20}
	// Gold bounds a gold file of human labels (calibrate.Load, Decode).
	Gold = Limit{What: "gold file", Env: "EVALKIT_MAX_GOLD_BYTES", Default: 64 << 20}
)

// All lists the limits, for documentation and tests.
var All = []*Limit{&CaseFile, &Cases, &JudgeSet, &Recording, &Transcript, &Results, &Gold}

// Value returns the limit: Env's value when set, else Default. A value
// that is not a positive whole number (bytes may take a KiB, MiB or GiB
// suffix: "128MiB") is an error naming the variable.
func (l Limit) Value() (int64, error) {
	raw, ok := os.LookupEnv(l.Env)
	if !ok || strings.TrimSpace(raw) == "" {
		return l.Default, nil
	}
	v, err := parse(strings.TrimSpace(raw), l.Unit == "")
	if err != nil {
		example := "20000"
		if l.Unit == "" {
			example = "134217728 or 128MiB"
		}
		return 0, fmt.Errorf("%s=%s: want a whole number of %s above 0, such as %s", l.Env, quote(raw), l.unit(), example)
	}
	return v, nil
}

func (l Limit) unit() string {
	if l.Unit == "" {
		return "bytes"
	}
	return l.Unit
}

func parse(s string, bytes bool) (int64, error) {
	mult := int64(1)
	if bytes {
		for _, u := range []struct {
			suffix string
			mult   int64
		}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
			if rest, ok := strings.CutSuffix(s, u.suffix); ok {
				s, mult = strings.TrimSpace(rest), u.mult
				break
			}
		}
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, errors.New("not a whole number")
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, errors.New("out of range")
	}
	return n * mult, nil
}

func quote(s string) string {
	if len(s) > 40 {
		return strconv.Quote(s[:40]) + "…"
	}
	return strconv.Quote(s)
}

// LimitError is an input past its limit.
type LimitError struct {
	// Name is the input: a file's path, or what the caller calls it.
	Name string
	// Limit is the limit passed, Max its value, and Got the input's size
	// or count (at least Max+1: a file read past its limit is not read
	// to its end).
	Limit    Limit
	Max, Got int64
	// AtLeast reports that Got is where reading stopped, not the whole.
	AtLeast bool
}

func (e *LimitError) Error() string {
	got, max, of := Size(e.Got), Size(e.Max), " for a "+e.Limit.What
	if e.Limit.Unit != "" {
		got, max, of = strconv.FormatInt(e.Got, 10)+" "+e.Limit.Unit, strconv.FormatInt(e.Max, 10)+" "+e.Limit.Unit, ""
	}
	if e.AtLeast {
		return fmt.Sprintf("%s: more than the limit of %s%s (%s raises it)", e.Name, max, of, e.Limit.Env)
	}
	return fmt.Sprintf("%s: %s, past the limit of %s%s (%s raises it)", e.Name, got, max, of, e.Limit.Env)
}

// Check returns a *LimitError when n, the size or count of the input
// name, is past l; or Value's error.
func Check(name string, n int64, l Limit) error {
	max, err := l.Value()
	if err != nil {
		return err
	}
	if n > max {
		return &LimitError{Name: name, Limit: l, Max: max, Got: n}
	}
	return nil
}

// Size renders a byte count for a message: "512 bytes", "4 MiB",
// "81.3 MiB".
func Size(n int64) string {
	switch {
	case n < 1<<10:
		return strconv.FormatInt(n, 10) + " bytes"
	case n < 1<<20:
		return unitSize(n, 1<<10, "KiB")
	case n < 1<<30:
		return unitSize(n, 1<<20, "MiB")
	}
	return unitSize(n, 1<<30, "GiB")
}

func unitSize(n, unit int64, name string) string {
	if n%unit == 0 {
		return strconv.FormatInt(n/unit, 10) + " " + name
	}
	return strconv.FormatFloat(float64(n)/float64(unit), 'f', 1, 64) + " " + name
}

// NotRegularError is a path that is not a regular file: a directory, a
// FIFO, a device, a socket.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	kind := "not a regular file"
	switch m := e.Mode; {
	case m.IsDir():
		kind = "a directory"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeCharDevice != 0:
		kind = "a character device"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	}
	return fmt.Sprintf("%s is %s, not a regular file: evalkit reads only regular files", e.Path, kind)
}

// Open opens path for reading if it is a regular file no larger than l,
// and returns it with its size. Open never blocks on a FIFO, and decides
// on the file it opened (no other file put at path in between). Errors:
// os.Open's (wrapping fs.ErrNotExist, ...), a *NotRegularError, a
// *LimitError, or Value's.
func Open(path string, l Limit) (*os.File, int64, error) {
	max, err := l.Value()
	if err != nil {
		return nil, 0, err
	}
	f, err := openNoBlock(path)
	if err != nil {
		return nil, 0, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, 0, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	if info.Size() > max {
		f.Close()
		return nil, 0, &LimitError{Name: path, Limit: l, Max: max, Got: info.Size()}
	}
	return f, info.Size(), nil
}

// ReadFile reads the regular file at path, refusing it past l (see
// Open): the size its Stat gives, or the bytes read when it grows while
// read. It reads into one buffer of the file's size, as os.ReadFile does.
func ReadFile(path string, l Limit) ([]byte, error) {
	f, size, err := Open(path, l)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	max, _ := l.Value() // Open read it
	data := make([]byte, 0, size+1)
	r := io.LimitReader(f, max+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > max {
			return nil, &LimitError{Name: path, Limit: l, Max: max, Got: int64(len(data)), AtLeast: true}
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
	}
}
