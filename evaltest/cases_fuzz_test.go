package evaltest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit/assert"
)

// maxProblemLen bounds one problem of a case file: its file, line, field
// and what is wrong, quoting no more than a fragment of what is written.
const maxProblemLen = 2048

// FuzzParseCases: any bytes read as a YAML or JSON case file give cases
// or problems, never a panic; every problem names the file and stays
// bounded; a file read without problems has named cases, each with evals
// the registry validates. Seeds are the repository's case files.
func FuzzParseCases(f *testing.F) {
	var seeds []string
	for _, glob := range []string{"testdata/cases/*.*", "testdata/cases/bad/*", "../testdata/cases/*.yaml"} {
		files, _ := filepath.Glob(glob)
		seeds = append(seeds, files...)
	}
	if len(seeds) == 0 {
		f.Fatal("no case files")
	}
	for _, file := range seeds {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		json := strings.EqualFold(filepath.Ext(file), ".json")
		if len(data) > 8<<10 {
			// A long file's first cases: the fuzzer mutates a short one
			// faster.
			data = data[:8<<10]
		}
		f.Add(data, json)
	}
	f.Add([]byte("a: &a [x, x]\nb: &b [*a, *a]\ncases: [{name: c, evals: [{type: contains, params: {patterns: *b}}]}]"), false)
	f.Add([]byte("- name: x\n  repeat: {n: 3, pass_rate: 0.5}\n  evals: [{type: tools_called, params: {tool_names: [a]}}]\n"), false)
	reg := assert.NewRegistry()
	f.Fuzz(func(t *testing.T, data []byte, json bool) {
		file := "fuzz.yaml"
		if json {
			file = "fuzz.json"
		}
		cases, problems := parseCases(file, data, reg)
		for _, p := range problems {
			if !strings.HasPrefix(p, file+":") {
				t.Fatalf("a problem that does not name the file: %.300q", p)
			}
			if len(p) > maxProblemLen {
				t.Fatalf("a problem of %d bytes: %.300q…", len(p), p)
			}
		}
		if len(problems) > 0 {
			return
		}
		if len(cases) == 0 {
			t.Fatalf("no cases and no problem")
		}
		for _, c := range cases {
			if strings.TrimSpace(c.Name) == "" || len(c.Evals) == 0 {
				t.Fatalf("a case without a name or evals and no problem: %+v", c)
			}
			if c.Repeat < 0 || c.PassRate < 0 || c.PassRate > 1 || c.AtLeast < 0 || c.Confidence < 0 || c.Confidence >= 1 {
				t.Fatalf("a bad repeat and no problem: %+v", c)
			}
			for _, ev := range c.Evals {
				if err := reg.Validate(ev.Type, ev.Params); err != nil {
					t.Fatalf("an eval the registry refuses and no problem: %v", err)
				}
			}
		}
	})
}
