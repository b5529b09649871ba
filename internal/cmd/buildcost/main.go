// Command buildcost measures what evalkit costs a user's build: the cold
// compile, with an empty build cache (GOCACHE), of a test package that
// imports evaltest and openaijudge, as a user's CI's first run does, and
// the modules it pulls in. The baseline, in the same run, is the same
// test package importing only what such a package imports anyway
// (testing, net/http, encoding/json); then evalkit's package again on the
// cache the baseline left, which is evalkit's own share.
//
//	go run ./internal/cmd/buildcost        # from the module's root
//
// It works offline (GOPROXY=off): the user's module resolves evalkit to
// this checkout (a replace directive) and its dependencies from the module
// cache. Times are wall clock, and user+system CPU of the go command and
// the compilers it ran.
package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

const goMod = `module example.com/usertest

go 1.25.0

require github.com/evalkit-go/evalkit v0.0.0

replace github.com/evalkit-go/evalkit => %s
`

// evalkitTest is a user's test package: an agent's transcript checked
// through evaltest, judged by openaijudge.
//
//go:embed usertest/evalkit_test.go.txt
var evalkitTest string

// baselineTest is the same package without evalkit: what a test of an
// agent that calls an API over HTTP compiles anyway.
//
//go:embed usertest/baseline_test.go.txt
var baselineTest string

func main() {
	root, err := os.Getwd()
	if err != nil {
		fail(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		fail(fmt.Errorf("run from evalkit's module root: %w", err))
	}
	work, err := os.MkdirTemp("", "evalkit-buildcost-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(work)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		fail(err)
	}
	mod := func(name, test string) string {
		dir := filepath.Join(work, name)
		must(os.MkdirAll(dir, 0o755))
		must(os.WriteFile(filepath.Join(dir, "go.mod"), fmt.Appendf(nil, goMod, root), 0o644))
		must(os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
		must(os.WriteFile(filepath.Join(dir, "agent_test.go"), []byte(test), 0o644))
		if _, err := run(dir, "", "go", "mod", "tidy"); err != nil {
			fail(err)
		}
		return dir
	}
	baseline, user := mod("baseline", baselineTest), mod("evalkit", evalkitTest)

	cache := filepath.Join(work, "cache")
	base := compile(baseline, cache)      // cold: the standard library too
	own := compile(user, cache)           // on the baseline's cache: evalkit's share
	cold := compile(user, cache+"-empty") // cold: what a user's first CI run pays

	out, err := run(user, "", "go", "list", "-deps", "-test", "-f", "{{with .Module}}{{.Path}}{{end}}", ".")
	if err != nil {
		fail(err)
	}
	var modules []string
	for _, m := range strings.Fields(out) {
		if m != "example.com/usertest" && !slices.Contains(modules, m) {
			modules = append(modules, m)
		}
	}
	slices.Sort(modules)
	pkgs, err := run(user, "", "go", "list", "-deps", "-test", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
	if err != nil {
		fail(err)
	}
	goVersion, _ := run(root, "", "go", "version")

	fmt.Printf("%s, %d CPUs\n\n", strings.TrimSpace(goVersion), runtime.NumCPU())
	fmt.Println("| build (go test -c) | wall | CPU (user+sys) |")
	fmt.Println("|---|---|---|")
	fmt.Printf("| baseline: testing, net/http, encoding/json; empty GOCACHE | %s | %s |\n", secs(base.wall), secs(base.cpu))
	fmt.Printf("| evaltest + openaijudge; empty GOCACHE | %s | %s |\n", secs(cold.wall), secs(cold.cpu))
	fmt.Printf("| evaltest + openaijudge, on the baseline's cache (evalkit's share) | %s | %s |\n", secs(own.wall), secs(own.cpu))
	fmt.Printf("\ncold ratio (evalkit / baseline): %.2f× wall, %.2f× CPU\n", cold.wall.Seconds()/base.wall.Seconds(), cold.cpu.Seconds()/base.cpu.Seconds())
	fmt.Printf("\n%d modules besides the user's (%d non-standard packages): %s\n", len(modules), len(strings.Fields(pkgs))-1, strings.Join(modules, ", "))
}

// cost is one build's time.
type cost struct{ wall, cpu time.Duration }

// compile builds dir's test binary with the build cache at cache.
func compile(dir, cache string) cost {
	must(os.MkdirAll(cache, 0o755))
	start := time.Now()
	cmd := exec.Command("go", "test", "-c", "-o", os.DevNull, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOCACHE="+cache, "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		fail(fmt.Errorf("go test -c in %s: %v\n%s", dir, err, stderr.String()))
	}
	return cost{wall: time.Since(start), cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
}

func run(dir, cache string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off")
	if cache != "" {
		cmd.Env = append(cmd.Env, "GOCACHE="+cache)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

func secs(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

func must(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "buildcost:", err)
	os.Exit(1)
}
