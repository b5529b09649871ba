package evaltest

import (
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	evalassert "github.com/evalkit-go/evalkit/assert"
)

// A report names a check's type as the registry does, however the test
// ran it: every fluent method that runs one registered check, and
// Check(...) of a check of package assert, give a registry type name (so
// evalkit compare and evalkit report count MaxCost(0.5) and
// Eval("cost_budget", ...) as one type); Check(...) of a check of one's own
// keeps its Go type's name.
func TestCheckTypeIsTheRegistrys(t *testing.T) {
	known := evalassert.NewRegistry().Names()
	// Methods that are not one registered check, or whose label names the
	// type some other way.
	notOne := []string{"Check", "Eval", "OK", "ToolArgsAs", "StateEquals"}
	et := reflect.TypeFor[*Expectation]()
	for i := range et.NumMethod() {
		m := et.Method(i)
		if slices.Contains(notOne, m.Name) || m.Type.NumOut() != 1 || m.Type.Out(0) != et {
			continue
		}
		if typ := checkType(m.Name+"(…)", nil); !slices.Contains(known, typ) {
			t.Errorf("%s reports type %q, which the registry does not know: add it to fluentTypes", m.Name, typ)
		}
	}
	assert.Equal(t, "no_tool_errors", checkType(`Check(assert.NoToolErrors{ErrorPattern: "^Error: "})`, evalassert.NoToolErrors{ErrorPattern: "^Error: "}))
	assert.Equal(t, "cost_budget", checkType("Check(…)", &evalassert.CostBudget{}))
	assert.Equal(t, "evaltest.mine", checkType("Check(…)", mine{}))
	assert.Equal(t, "cost_budget", checkType("MaxCost(0.5)", nil))
}

type mine struct{ evalassert.Contains }
