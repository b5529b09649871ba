package evalkit_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
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
	allowed := map[string][]string{
		// The vocabulary: standard library, plus the internal JSON extraction
		// the verdict parser shares with the checks (itself std only).
		".": {mod + "/internal/jsonx", mod + "/internal/textnorm"},
	}
	for pkg, allow := range allowed {
		for _, dep := range nonStandardDeps(t, pkg) {
			if dep == mod || strings.TrimPrefix(dep, mod) == strings.TrimPrefix(pkg, ".") {
				continue
			}
			if !slices.Contains(allow, dep) {
				t.Errorf("package %s depends on %s, which DESIGN.md's package graph does not allow", pkg, dep)
			}
		}
	}
}

// nonStandardDeps lists the non-standard-library packages pkg depends on.
func nonStandardDeps(t *testing.T, pkg string) []string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goBin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	return strings.Fields(string(out))
}
