package promptkit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/inputs"
	"github.com/evalkit-go/evalkit/internal/yamlcheck"
)

// ExecBinding is a runtime config's binding of an eval type to a program
// (spec.evals.<type>), as PromptKit's exec evals.
type ExecBinding struct {
	Command string
	Args    []string
	// Env names the host variables the program is given.
	Env []string
	// TimeoutMS bounds a run, in milliseconds (0: 30 s).
	TimeoutMS int
	Line      int
}

// BindRuntimeConfig registers on reg (a registry the caller made with
// assert.NewRegistry) every eval type that the PromptKit runtime config at
// path binds to a program (spec.evals), with Registry.RegisterExec and
// PromptKit's exec protocol (assert.ExecEval's Protocol "promptkit"): a
// pack naming the type then runs the program unchanged. A command with a
// path is resolved from the config's directory, as PromptKit resolves it,
// and so is an argument "./x" or "../x" naming a file there (a script
// beside the config), so a test runs it from its own directory; the
// variables its env names are passed from the test's environment.
// Errors name the file, the line and the field; a type already
// registered is an error, as is a config that is not a regular file or is
// past a case file's size limit (4 MiB, EVALKIT_MAX_CASE_FILE_BYTES).
//
//	reg := assert.NewRegistry()
//	err := promptkit.BindRuntimeConfig(reg, "testdata/runtime.yaml")
//	evaltest.RunCases(t, "testdata/*.pack.json", run, evaltest.WithRegistry(reg))
func BindRuntimeConfig(reg *assert.Registry, path string) error {
	if reg == nil {
		return errors.New("promptkit: BindRuntimeConfig needs a registry (assert.NewRegistry())")
	}
	docs, err := decodeFile(path)
	if err != nil {
		return err
	}
	var problems []string
	bound := 0
	for _, doc := range docs {
		d, ps := ReadNode(path, doc, reg)
		for _, p := range ps {
			problems = append(problems, path+":"+p.String())
		}
		if d == nil || d.Kind != KindRuntimeConfig {
			if d != nil && d.Kind != "" {
				problems = append(problems, fmt.Sprintf("%s:%d: a %s document, not a RuntimeConfig", path, d.Line, d.Kind))
			}
			continue
		}
		names := make([]string, 0, len(d.Exec))
		for n := range d.Exec {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, name := range names {
			b := d.Exec[name]
			if err := reg.RegisterExec(name, b.exec(path, name)); err != nil {
				problems = append(problems, fmt.Sprintf("%s:%d: spec.evals.%s: %v", path, b.Line, name, err))
				continue
			}
			bound++
		}
	}
	if len(problems) > 0 {
		return errors.New("promptkit: " + strings.Join(problems, "\n"))
	}
	if bound == 0 {
		return fmt.Errorf("promptkit: %s binds no eval types (spec.evals)", path)
	}
	return nil
}

func (b ExecBinding) exec(config, name string) assert.ExecEval {
	cmd := b.Command
	if strings.ContainsAny(cmd, `/\`) && !filepath.IsAbs(cmd) {
		cmd = filepath.Join(filepath.Dir(config), cmd)
	}
	args := slices.Clone(b.Args)
	for i, a := range args {
		// A file beside the config, as PromptKit's examples name their
		// scripts: found from any working directory.
		if strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") {
			if p := filepath.Join(filepath.Dir(config), a); fileExists(p) {
				args[i] = p
			}
		}
	}
	e := assert.ExecEval{Protocol: "promptkit", Type: name, Command: cmd, Args: args,
		Timeout: time.Duration(b.TimeoutMS) * time.Millisecond, AllowEnv: slices.Clone(b.Env)}
	for _, v := range b.Env {
		e.Env = append(e.Env, v+"=${"+v+"}")
	}
	return e
}

func fileExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && !info.IsDir()
}

// decodeFile reads a YAML or JSON file's documents, each checked by
// yamlcheck (keys given twice, alias expansion) as case files are, and
// read as they are: a regular file within a case file's size limit. A
// plain read waited for ever on a FIFO and read /dev/zero until memory
// ran out.
func decodeFile(path string) ([]*yaml.Node, error) {
	data, err := inputs.ReadFile(path, inputs.CaseFile)
	if err != nil {
		return nil, fmt.Errorf("promptkit: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("promptkit: %s: %v", path, err)
		}
		if ps := yamlcheck.Check(&doc, ""); len(ps) > 0 {
			var lines []string
			for _, p := range ps {
				lines = append(lines, fmt.Sprintf("%s:%d: %s", path, p.Line, p.Msg))
			}
			return nil, errors.New("promptkit: " + strings.Join(lines, "\n"))
		}
		docs = append(docs, &doc)
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("promptkit: %s: empty", path)
	}
	return docs, nil
}
