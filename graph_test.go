package evalkit_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The package graph of DESIGN.md, enforced: what each package may pull into
// a user's build besides the standard library.
func TestPackageGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const mod = "github.com/evalkit-go/evalkit"
	// The vocabulary: standard library, plus the internal JSON extraction
	// the verdict parser shares with the checks, the bounded reader every
	// file evalkit reads for a user goes through (each std only), and the
	// statistics panels' agreement is measured with (std only).
	root := []string{mod, mod + "/internal/jsonx", mod + "/internal/textnorm", mod + "/internal/inputs", mod + "/stats"}
	// Recordings — judge verdicts and HTTP exchanges alike: the
	// vocabulary, the redaction rules the judges share, and the standard
	// library. No go-vcr: its v4 would add two modules
	// (gopkg.in/dnaeon/go-vcr.v4, go.yaml.in/yaml/v4) and 11 packages to
	// every user's test build for machinery golden replaces anyway.
	recordings := append(slices.Clone(root), mod+"/golden", mod+"/internal/secret")
	// internal/deadline (std only) lets judgehttp say which request was in
	// flight when the test's deadline stopped the wait.
	judges := []string{mod + "/openaijudge", mod + "/anthropicjudge", mod + "/internal/judgehttp", mod + "/internal/judgeprompt", mod + "/internal/secret", mod + "/internal/deadline"}
	allowed := map[string][]string{
		".": root,
		// Statistics are pure functions over counts: the standard library.
		"./stats": {mod + "/stats"},
		// Calibration joins a gold set with a judge's outcomes: statistics,
		// and the readers every user file goes through (bounded, FIFOs
		// refused, keys given twice an error), standard library only.
		"./calibrate": {mod + "/calibrate", mod + "/stats", mod + "/internal/inputs", mod + "/internal/jsonx", mod + "/internal/textnorm"},
		"./judgefake": append(slices.Clone(root), mod+"/judgefake"),
		// Verdict formats: the vocabulary they implement, nothing else.
		"./verdicts": append(slices.Clone(root), mod+"/verdicts"),
		// The real judges are thin net/http clients: no SDK, no module.
		"./openaijudge":    append(slices.Clone(root), mod+"/openaijudge", mod+"/internal/judgehttp", mod+"/internal/judgeprompt", mod+"/internal/secret", mod+"/internal/deadline"),
		"./anthropicjudge": append(slices.Clone(root), mod+"/anthropicjudge", mod+"/internal/judgehttp", mod+"/internal/judgeprompt", mod+"/internal/secret", mod+"/internal/deadline"),
		"./golden":         recordings,
		// Simulated users: the loop over the vocabulary, and the
		// recording of a user's model through golden's HTTP recording.
		"./simulate": append(slices.Clone(recordings), mod+"/simulate"),
		// The HTTP classifier: the judges' plumbing, no judge prompt.
		"./openaiclassifier": append(slices.Clone(root), mod+"/openaiclassifier", mod+"/internal/judgehttp", mod+"/internal/secret", mod+"/internal/deadline"),
		// The embeddings client: the same plumbing.
		"./openaiembedder": append(slices.Clone(root), mod+"/openaiembedder", mod+"/internal/judgehttp", mod+"/internal/secret", mod+"/internal/deadline"),
		// Named judges build the real ones from declarations: the judges'
		// packages, and YAML for config files (already in the core set,
		// for case files). evaltest and assert select judges through
		// evalkit.JudgeSet and never import it, so a test build without a
		// judge set compiles no judge it does not use.
		"./judgeset": append(append(slices.Clone(root), mod+"/judgeset", mod+"/internal/yamlcheck", "go.yaml.in/yaml/v3"), judges...),
		// The example agent is what users write: net/http and the
		// vocabulary, no SDK.
		"./examples/agent":   append(slices.Clone(root), mod+"/examples/agent"),
		"./examples/airline": append(slices.Clone(root), mod+"/examples/airline"),
		// The CLI reads recordings and results files, and draws the
		// report's charts with go-analyze/charts (SVG rendered in Go, no
		// script): its modules enter the CLI's build, never a user's test
		// build (see the core set below).
		// golden audit asks the judge a recording names again, built as
		// judgeset builds it. evalkit checks documents the checks from
		// assert's registry itself, with assert's dependencies.
		"./cmd/evalkit": slices.Concat(recordings, judges, []string{mod + "/cmd/evalkit", mod + "/internal/results", mod + "/stats",
			mod + "/assert", mod + "/verdicts", mod + "/internal/...", "github.com/google/go-cmp/...", "github.com/jmespath-community/go-jmespath/...",
			"github.com/santhosh-tekuri/jsonschema/...", "golang.org/x/exp/...", "golang.org/x/text/...",
			mod + "/judgeset", mod + "/internal/yamlcheck", "go.yaml.in/yaml/v3",
			"github.com/go-analyze/charts/...", "github.com/go-analyze/bulk/...", "github.com/golang/freetype/...",
			"golang.org/x/image/...", "github.com/dustin/go-humanize/..."}),
	}
	for pkg, allow := range allowed {
		for _, dep := range nonStandardDeps(t, pkg) {
			if !slices.ContainsFunc(allow, func(a string) bool { return allows(a, dep) }) {
				t.Errorf("package %s depends on %s, which DESIGN.md's package graph does not allow", pkg, dep)
			}
		}
	}

	// What a user's test build gets from evaltest and a real judge: the
	// core modules, nothing more. go.yaml.in/yaml/v3 reads case files
	// (RunCases) with line numbers in its errors: one module with no
	// dependencies of its own, about 2 s of compile on 2 cores.
	core := []string{mod, "github.com/google/go-cmp", "github.com/jmespath-community/go-jmespath",
		"github.com/santhosh-tekuri/jsonschema/v6", "golang.org/x/exp", "golang.org/x/text", "go.yaml.in/yaml/v3"}
	for _, m := range goList(t, "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "./evaltest", "./openaijudge", "./anthropicjudge", "./judgeset") {
		if !slices.Contains(core, m) {
			t.Errorf("evaltest, the judges and judgeset pull module %s into users' builds, outside the core set", m)
		}
	}

	// The media checks' decoders come with package assert/media alone, so
	// a user who checks no media builds none of them: image headers beyond
	// the standard library's (x/image), WAV (go-audio), MP3 frames
	// (tcolgate/mp3), Ogg Vorbis (jfreymuth) and MP4 boxes (abema/go-mp4,
	// which brings google/uuid).
	media := append(slices.Clone(core), "golang.org/x/image", "github.com/go-audio/wav", "github.com/go-audio/riff",
		"github.com/go-audio/audio", "github.com/tcolgate/mp3", "github.com/jfreymuth/oggvorbis", "github.com/jfreymuth/vorbis",
		"github.com/abema/go-mp4", "github.com/google/uuid")
	for _, m := range goList(t, "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "./assert/media") {
		if !slices.Contains(media, m) {
			t.Errorf("assert/media pulls module %s into users' builds, outside the media set", m)
		}
	}

	// evaltest records every live judge through golden; golden knows
	// nothing of evaltest or assert (see allowed above).
	if imports := goList(t, "-f", "{{range .Imports}}{{.}} {{end}}", "./evaltest"); !slices.Contains(imports, mod+"/golden") {
		t.Errorf("evaltest does not import golden, so live judges are not recorded")
	}
	for _, pkg := range []string{"./evaltest", "./assert"} {
		if deps := nonStandardDeps(t, pkg); slices.Contains(deps, mod+"/judgeset") || slices.Contains(deps, mod+"/openaijudge") {
			t.Errorf("%s depends on a real judge or on judgeset: it selects judges through evalkit.JudgeSet", pkg)
		}
	}

	// Only evaltest reports to the test: no other package's non-test files
	// import "testing".
	imports := goListOutput(t, "-f", "{{.ImportPath}}:{{range .Imports}} {{.}}{{end}}", "./...")
	for _, line := range strings.Split(imports, "\n") {
		pkg, deps, _ := strings.Cut(line, ":")
		if pkg != "" && pkg != mod+"/evaltest" && slices.Contains(strings.Fields(deps), "testing") {
			t.Errorf("package %s imports testing; only evaltest may", pkg)
		}
	}
}

// allows reports whether the allowed entry a admits the package dep: an
// exact import path, or a path ending in "/..." for it and everything
// under it.
func allows(a, dep string) bool {
	if prefix, ok := strings.CutSuffix(a, "/..."); ok {
		return dep == prefix || strings.HasPrefix(dep, prefix+"/")
	}
	return a == dep
}

// nonStandardDeps lists the non-standard-library packages pkg depends on.
func nonStandardDeps(t *testing.T, pkg string) []string {
	t.Helper()
	return goList(t, "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg)
}

// goList runs go list with args and returns its output's words, deduplicated.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	words := strings.Fields(goListOutput(t, args...))
	slices.Sort(words)
	return slices.Compact(words)
}

// goListOutput runs go list with args and returns what it printed.
func goListOutput(t *testing.T, args ...string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command(goBin, append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}
