package golden

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// httpHeadline is Headline for an HTTP request: "golden: not recorded:
// testdata/evalkit/TestAgent.http.json has no response for this POST
// /v1/chat/completions (key sha256:3f2a9c4d5e6f)".
func (e *NotRecordedError) httpHeadline() string {
	var what string
	switch {
	case e.NoFile:
		what = "does not exist (" + e.Request + ", "
	case e.Recorded > 0:
		what = fmt.Sprintf("holds %d %s to this %s, and this is request %d like it (", e.Recorded, plural(e.Recorded, "response", "responses"), e.Request, e.Occurrence)
	case e.Nearest == "":
		what = "has no interactions (" + e.Request + ", "
	default:
		what = "has no response for this " + e.Request + " ("
	}
	return fmt.Sprintf("%v: %s %skey %s)", ErrNotRecorded, e.Path, what, ShortKey(e.Key))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// notRecorded builds the miss error for a request, the n-th with its key.
// st.mu is held.
func (st *httpStore) notRecorded(kr keyedRequest, n int, ignore [][]string) *NotRecordedError {
	e := &NotRecordedError{
		Path:       st.path,
		Key:        kr.key,
		Request:    kr.written.Method + " " + kr.written.Path,
		Occurrence: n,
		NoFile:     !st.exists && len(st.entries) == 0,
	}
	ids := slices.Sorted(maps.Keys(st.entries))
	for _, id := range ids {
		if st.entries[id].Key == kr.key {
			e.Recorded++
		}
	}
	if e.Recorded > 0 || len(ids) == 0 {
		return e
	}
	// Count the differences to every recorded request once per key; the
	// first with the fewest is the nearest, and only it is described.
	best, nearest := -1, ""
	var nearestTree map[string]any
	counted := map[string]bool{}
	for _, id := range ids {
		in := st.entries[id]
		if counted[in.Key] {
			continue
		}
		counted[in.Key] = true
		tree, err := keyTree(in.Request, in.Test, ignore)
		if err != nil {
			continue
		}
		if d := countDiffs(kr.tree, tree); best < 0 || d < best {
			best, nearest, nearestTree = d, id, tree
		}
	}
	if nearest == "" {
		return e
	}
	in := st.entries[nearest]
	e.Nearest, e.NearestRecordedAt = in.Key, in.RecordedAt
	e.Differs = diffTrees("", kr.tree, nearestTree, nil)
	return e
}

// absent stands for a field one side does not have.
type absentValue struct{}

var absent any = absentValue{}

func get(m map[string]any, k string) any {
	if v, ok := m[k]; ok {
		return v
	}
	return absent
}

func index(a []any, i int) any {
	if i < len(a) {
		return a[i]
	}
	return absent
}

// bothKeys is the set of keys of a and b.
func bothKeys(a, b map[string]any) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// countDiffs counts the fields in which two request trees differ, as
// diffTrees lists them.
func countDiffs(now, then any) int {
	switch n := now.(type) {
	case map[string]any:
		if t, ok := then.(map[string]any); ok {
			c := 0
			for k := range bothKeys(n, t) {
				c += countDiffs(get(n, k), get(t, k))
			}
			return c
		}
	case []any:
		if t, ok := then.([]any); ok {
			c := 0
			for i := range max(len(n), len(t)) {
				c += countDiffs(index(n, i), index(t, i))
			}
			return c
		}
	}
	if sameValue(now, then) {
		return 0
	}
	return 1
}

// diffTrees lists how two request trees differ, field by field in order:
// object fields sorted by name, array elements by index. A field one side
// lacks is one difference, its whole value shown.
func diffTrees(path string, now, then any, out []Difference) []Difference {
	switch n := now.(type) {
	case map[string]any:
		if t, ok := then.(map[string]any); ok {
			for _, k := range slices.Sorted(maps.Keys(bothKeys(n, t))) {
				p := k
				if path != "" {
					p = path + "." + k
				}
				out = diffTrees(p, get(n, k), get(t, k), out)
			}
			return out
		}
	case []any:
		if t, ok := then.([]any); ok {
			for i := range max(len(n), len(t)) {
				out = diffTrees(path+"["+strconv.Itoa(i)+"]", index(n, i), index(t, i), out)
			}
			return out
		}
	}
	if sameValue(now, then) {
		return out
	}
	d := Difference{Field: path}
	ns, nok := now.(string)
	ts, tok := then.(string)
	switch {
	case nok && tok:
		d.Now, d.Recorded = textDifference(ns, ts)
	default:
		d.Now, d.Recorded = valueText(now), valueText(then)
	}
	return append(out, d)
}

func valueText(v any) string {
	switch v := v.(type) {
	case absentValue:
		return "(not set)"
	case string:
		return textnorm.Quote(v, maxDiffer)
	}
	return textnorm.Excerpt(string(mustCanonical(v)), maxDiffer)
}

func sameValue(a, b any) bool {
	_, aAbsent := a.(absentValue)
	_, bAbsent := b.(absentValue)
	if aAbsent || bAbsent {
		return aAbsent && bAbsent
	}
	return string(mustCanonical(a)) == string(mustCanonical(b))
}
