package secret_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The places allowed to write files or print, per package: each is a
// choke point that passes what it writes through the redactor (see
// RELIABILITY.md, "Secrets"). A new output path elsewhere fails this
// test: route it through one of them, or, if it is a new choke point,
// make it redact and add it here.
var chokePoints = map[string][]string{
	"evaltest":         {"writeArtifact"},                         // secret.CleanBytes
	"golden":           {"writeRaw", "lockFile", "appendJournal"}, // writeRaw: only after cleanFile; lockFile: an empty lock; appendJournal: lines from encodeLine, cleaned
	"internal/results": {"Write", "ReadFile"},                     // Writer.Write: secret.CleanBytes
	"cmd/evalkit":      {"main", "writeOutput"},                   // run wraps stdout and stderr; writeOutput: secret.CleanBytes
}

// outputCalls are the calls that write a file or print.
var outputCalls = map[string]bool{
	"os.WriteFile": true, "os.Create": true, "os.CreateTemp": true, "os.OpenFile": true,
	"os.Stdout": true, "os.Stderr": true, "fmt.Print": true, "fmt.Printf": true, "fmt.Println": true,
	"log.Print": true, "log.Printf": true, "log.Println": true, "log.Fatal": true, "log.Fatalf": true,
}

// tbOutput are the testing.TB methods that report.
var tbOutput = []string{"Error", "Errorf", "Fatal", "Fatalf", "Log", "Logf", "Skip", "Skipf", "Attr", "Output"}

func TestEveryExitPassesTheRedactor(t *testing.T) {
	root := filepath.Join("..", "..")
	for dir, allowed := range chokePoints {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		require.NoError(t, err)
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
			require.NoError(t, err)
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					sel, ok := n.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					if x, ok := sel.X.(*ast.Ident); ok && outputCalls[x.Name+"."+sel.Sel.Name] && !slices.Contains(allowed, fn.Name.Name) {
						t.Errorf("%s: %s uses %s.%s: write through a choke point that redacts (%v)", file, fn.Name.Name, x.Name, sel.Sel.Name, allowed)
					}
					return true
				})
				if dir == "evaltest" {
					checkTB(t, file, fn)
				}
			}
		}
	}
}

// checkTB fails for an evaltest function that reports through a
// testing.TB or *testing.T it was given, unwrapped: it must report
// through reporter(tb) (or a T made by New, which wraps it).
func checkTB(t *testing.T, file string, fn *ast.FuncDecl) {
	var params []string
	for _, field := range fn.Type.Params.List {
		typ := exprString(field.Type)
		if typ == "testing.TB" || typ == "*testing.T" {
			for _, name := range field.Names {
				params = append(params, name.Name)
			}
		}
	}
	for _, p := range params {
		wrapped := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if a, ok := n.(*ast.AssignStmt); ok {
				for i, lhs := range a.Lhs {
					if id, ok := lhs.(*ast.Ident); ok && id.Name == p && i < len(a.Rhs) && strings.HasPrefix(exprString(a.Rhs[i]), "reporter(") {
						wrapped = true
					}
				}
			}
			return true
		})
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == p && slices.Contains(tbOutput, sel.Sel.Name) && !wrapped {
				t.Errorf("%s: %s reports through %s.%s, unwrapped: use reporter(%s)", file, fn.Name.Name, p, sel.Sel.Name, p)
			}
			return true
		})
	}
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	case *ast.CallExpr:
		return exprString(e.Fun) + "(…)"
	}
	return ""
}

// The test finds what it should: a print outside a choke point.
func TestEveryExitPassesTheRedactorSeesAPrint(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nimport \"fmt\"\n\nfunc leak(s string) { fmt.Println(s) }\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644))
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "p.go"), nil, 0)
	require.NoError(t, err)
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && outputCalls[x.Name+"."+sel.Sel.Name] {
				found = true
			}
		}
		return true
	})
	assert.True(t, found)
}
