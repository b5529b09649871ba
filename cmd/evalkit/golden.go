package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/inputs"
)

// recordings returns the recordings named — a directory named stands for
// every *.judge.json and *.http.json under it — or, with none, every one
// in a testdata directory under the current one, sorted.
func recordings(named []string) ([]string, error) {
	if len(named) == 0 {
		found, err := findRecordings(".", true)
		if err == nil && len(found) == 0 {
			err = errors.New("no recordings named, and no *.judge.json or *.http.json in a testdata directory under this one: run it where your tests are, or name recordings or a DIR (tests write them when run with EVALKIT_MODE=record)")
		}
		return found, err
	}
	var out []string
	for _, n := range named {
		info, err := os.Stat(n)
		if err != nil || !info.IsDir() {
			out = append(out, n) // a file, or what its reader will name as missing
			continue
		}
		found, err := findRecordings(n, false)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s holds no *.judge.json or *.http.json recordings", n)
		}
		out = append(out, found...)
	}
	return out, nil
}

// findRecordings walks dir for recordings, sorted, skipping hidden,
// vendor and node_modules directories; inTestdata keeps only those with a
// testdata directory in their path.
func findRecordings(dir string, inTestdata bool) ([]string, error) {
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "vendor" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		// A journal a recording run left (golden.JournalSuffix) names its
		// recording, which that run may not have written yet.
		rec := strings.TrimSuffix(path, golden.JournalSuffix)
		if !d.IsDir() && (strings.HasSuffix(rec, golden.JudgeSuffix) || strings.HasSuffix(rec, golden.HTTPSuffix)) && !strings.HasPrefix(d.Name(), ".") &&
			(!inTestdata || slices.Contains(strings.Split(filepath.ToSlash(path), "/"), "testdata")) {
			found = append(found, rec)
		}
		return nil
	})
	slices.Sort(found)
	found = slices.Compact(found)
	return found, err
}

// journalNote says on stderr what a journal beside the recording at path
// holds (see golden.JournalSuffix), and reports whether the recording
// itself is missing, only its journal there.
func journalNote(stderr io.Writer, cmd, path string) (onlyJournal bool) {
	n, exists, err := golden.JournalEntries(path)
	if !exists {
		return false
	}
	if err != nil {
		fmt.Fprintf(stderr, "evalkit golden %s: note: %v\n", cmd, err)
	} else {
		fmt.Fprintf(stderr, "evalkit golden %s: note: %s%s holds %d %s not merged into the recording yet, left by a recording run that ended before it saved: run the test again to merge them\n",
			cmd, filepath.ToSlash(path), golden.JournalSuffix, n, plural(n, "entry", "entries"))
	}
	_, err = os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}

func flags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("evalkit golden "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func list(args []string, stdout, stderr io.Writer) int {
	fl := flags("list", stderr)
	if err := fl.Parse(args); err != nil {
		return parseExit(err)
	}
	paths, err := recordings(fl.Args())
	if err != nil {
		fmt.Fprintln(stderr, "evalkit golden list:", err)
		return 1
	}
	code := 0
	for _, path := range paths {
		if journalNote(stderr, "list", path) {
			continue
		}
		if isHTTP(path) {
			if err := listHTTP(stdout, path); err != nil {
				fmt.Fprintln(stderr, err)
				code = 1
			}
			continue
		}
		f, err := golden.Load(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = 1
			continue
		}
		info, _ := os.Stat(path)
		var judges []string
		last := ""
		for _, e := range f.Entries {
			j := judgeName(e.Judge)
			if !slices.Contains(judges, j) {
				judges = append(judges, j)
			}
			if at := e.RecordedAt.Format("2006-01-02"); at > last {
				last = at
			}
		}
		slices.Sort(judges)
		line := fmt.Sprintf("%s\t%d %s\t%s", filepath.ToSlash(path), len(f.Entries), plural(len(f.Entries), "entry", "entries"), size(info.Size()))
		if len(judges) > 0 {
			line += "\t" + strings.Join(judges, ", ") + "\tlast recorded " + last
		}
		fmt.Fprintln(stdout, line)
	}
	return code
}

func show(args []string, stdout, stderr io.Writer) int {
	fl := flags("show", stderr)
	key := fl.String("key", "", "show only the entries whose key starts with `PREFIX` (\"sha256:3f2a\" or \"3f2a\")")
	asJSON := fl.Bool("json", false, "print the entries as JSON, as the recording holds them")
	if err := fl.Parse(args); err != nil {
		return parseExit(err)
	}
	paths, err := recordings(fl.Args())
	if err != nil {
		fmt.Fprintln(stderr, "evalkit golden show:", err)
		return 1
	}
	prefix := *key
	if prefix != "" && !strings.HasPrefix(prefix, golden.KeyPrefix) {
		prefix = golden.KeyPrefix + prefix
	}
	code, shown := 0, 0
	for _, path := range paths {
		if journalNote(stderr, "show", path) {
			continue
		}
		if isHTTP(path) {
			n, err := showHTTP(stdout, path, prefix, *asJSON)
			shown += n
			if err != nil {
				fmt.Fprintln(stderr, err)
				code = 1
			}
			continue
		}
		f, err := golden.Load(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = 1
			continue
		}
		for _, e := range f.Entries {
			if !strings.HasPrefix(e.Key, prefix) {
				continue
			}
			shown++
			if *asJSON {
				data, _ := json.MarshalIndent(e, "", "  ")
				fmt.Fprintln(stdout, string(data))
				continue
			}
			writeEntry(stdout, filepath.ToSlash(path), e)
		}
	}
	if prefix != "" && shown == 0 && code == 0 {
		fmt.Fprintf(stderr, "evalkit golden show: no entry's key starts with %s\n", prefix)
		return 1
	}
	return code
}

// writeEntry prints one entry for a reader.
func writeEntry(w io.Writer, path string, e golden.Entry) {
	fmt.Fprintf(w, "%s  %s  %s  (%s)\n", golden.ShortKey(e.Key), e.RecordedAt.Format("2006-01-02T15:04:05Z"), judgeName(e.Judge), path)
	line := func(label, text string) {
		if text != "" {
			fmt.Fprintf(w, "    %-10s %s\n", label+":", strings.Join(strings.Fields(text), " "))
		}
	}
	r, v := e.Request, e.Verdict
	if e.Embedding != nil {
		for i, text := range r.Texts {
			dims := 0
			if i < len(e.Embedding.Vectors) {
				dims = len(e.Embedding.Vectors[i])
			}
			line("text", fmt.Sprintf("%s (%d dimensions)", text, dims))
		}
		fmt.Fprintln(w)
		return
	}
	line("criteria", r.Criteria)
	line("input", r.Input)
	line("content", r.Content)
	line("rubric", r.Rubric)
	if len(r.Labels) > 0 {
		line("labels", strings.Join(r.Labels, ", "))
	}
	line("verdict", verdictText(v, r.Scale))
	line("reasoning", v.Reasoning)
	if v.Reasoning == "" {
		line("answer", v.Raw)
	}
	if u := v.Usage; u.InputTokens+u.OutputTokens > 0 || u.CostUSD > 0 {
		line("usage", fmt.Sprintf("%d+%d tokens, $%.6f", u.InputTokens, u.OutputTokens, u.CostUSD))
	}
	fmt.Fprintln(w)
}

func verdictText(v evalkit.Verdict, sc evalkit.Scale) string {
	var parts []string
	if v.Scored {
		parts = append(parts, fmt.Sprintf("score %.2f (%s on %s–%s)", v.Score, num(v.RawScore), num(sc.OrDefault().Min), num(sc.OrDefault().Max)))
	}
	if v.Label != "" {
		parts = append(parts, strconv.Quote(v.Label))
	}
	if v.Passed != nil {
		parts = append(parts, map[bool]string{true: "pass", false: "fail"}[*v.Passed])
	}
	if v.Model != "" {
		parts = append(parts, "by "+v.Model)
	}
	return strings.Join(parts, ", ")
}

func verify(args []string, stdout, stderr io.Writer) int {
	fl := flags("verify", stderr)
	if err := fl.Parse(args); err != nil {
		return parseExit(err)
	}
	paths, err := recordings(fl.Args())
	if err != nil {
		fmt.Fprintln(stderr, "evalkit golden verify:", err)
		return 1
	}
	code := 0
	for _, path := range paths {
		if err := golden.Verify(path); err != nil {
			fmt.Fprintln(stderr, err)
			code = 1
			continue
		}
		fmt.Fprintf(stdout, "ok\t%s\n", filepath.ToSlash(path))
	}
	return code
}

func prune(args []string, stdout, stderr io.Writer) int {
	fl := flags("prune", stderr)
	dryRun := fl.Bool("n", false, "only say what would be dropped")
	usageDir := fl.String("usage", golden.DefaultUsageDir(), "the directory of the usage logs go test leaves (`DIR`)")
	if err := fl.Parse(args); err != nil {
		return parseExit(err)
	}
	paths, err := recordings(fl.Args())
	if err != nil {
		fmt.Fprintln(stderr, "evalkit golden prune:", err)
		return 1
	}
	verb := "dropped"
	if *dryRun {
		verb = "would drop"
	}
	code := 0
	for _, path := range paths {
		shown := filepath.ToSlash(path)
		if _, journal, _ := golden.JournalEntries(path); journal {
			fmt.Fprintf(stdout, "%s: left alone: a journal is beside it (a recording run ended before it saved): run its tests first, which merges it\n", shown)
			continue
		}
		if test, gone := testGone(path); gone {
			if !*dryRun {
				if err := os.Remove(path); err != nil {
					fmt.Fprintln(stderr, "evalkit golden prune:", err)
					code = 1
					continue
				}
			}
			fmt.Fprintf(stdout, "%s: %s the whole recording: no test %s in its package\n", shown, verb, test)
			continue
		}
		var dropped []string
		if isHTTP(path) {
			ins, perr := golden.PruneHTTP(path, *usageDir, *dryRun)
			for _, in := range ins {
				dropped = append(dropped, fmt.Sprintf("%s #%d", golden.ShortKey(in.Key), in.Occurrence))
			}
			err = perr
		} else {
			entries, perr := golden.Prune(path, *usageDir, *dryRun)
			for _, e := range entries {
				dropped = append(dropped, golden.ShortKey(e.Key))
			}
			err = perr
		}
		what := map[bool][2]string{false: {"entry", "entries"}, true: {"interaction", "interactions"}}[isHTTP(path)]
		switch {
		case errors.Is(err, golden.ErrNoEvidence):
			fmt.Fprintf(stdout, "%s: left alone: %s\n", shown, strings.TrimPrefix(err.Error(), golden.ErrNoEvidence.Error()+": "))
		case err != nil:
			fmt.Fprintln(stderr, err)
			code = 1
		case len(dropped) == 0:
			fmt.Fprintf(stdout, "%s: every entry was used\n", shown)
		default:
			fmt.Fprintf(stdout, "%s: %s %d %s no test used: %s\n", shown, verb, len(dropped), plural(len(dropped), what[0], what[1]), strings.Join(dropped, ", "))
		}
	}
	return code
}

// testGone reports whether path is the recording of a top-level test
// (PKG/testdata/evalkit/TestName.judge.json or .http.json) that no
// _test.go file of PKG
// declares any more.
func testGone(path string) (string, bool) {
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "evalkit" || filepath.Base(filepath.Dir(dir)) != "testdata" {
		return "", false
	}
	test := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), golden.JudgeSuffix), golden.HTTPSuffix)
	pkg := filepath.Dir(filepath.Dir(dir))
	files, err := filepath.Glob(filepath.Join(pkg, "*_test.go"))
	if err != nil || len(files) == 0 {
		return test, false // no package to tell by: leave it
	}
	decl := regexp.MustCompile(`(?m)^func ` + regexp.QuoteMeta(test) + `\(`)
	for _, f := range files {
		// Read as any file evalkit reads: a FIFO named *_test.go must not
		// hang prune (an error leaves the recording, as a match does).
		if src, err := inputs.ReadFile(f, inputs.CaseFile); err != nil || decl.Match(src) {
			return test, false
		}
	}
	return test, true
}

func judgeName(id evalkit.Identity) string {
	if id.Model == "" {
		return id.Provider
	}
	return id.Provider + " " + id.Model
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
