package assert

import (
	"encoding/json"
	"hash/maphash"
	"math"
	"slices"
	"sync"
)

// builtCache holds checks that Registry.Eval built, so that evaluating the
// same check type with the same params again (a case file's evals, run on
// every case; evaltest's Eval in a loop) does not validate and build the
// check from its params each time: building was a third of assert.Eval's
// cost on the chain benchmark. It lives on the registry holding the
// entries, and so is shared by the registries derived from it (WithJudge,
// ...), which build the cached types alike.
//
// Only built-in types listed in reusableChecks are cached: checks that
// read nothing but their params when built (no judge, tools, embedder,
// classifier, environment or HTTP client from the registry) and are plain
// values that their Check method never writes. A type added with Register
// is built by its own function on every Eval, as before: what it captures
// is its own.
//
// An entry is found by a hash of the params' content and confirmed by
// comparing that content with a private deep copy taken when the check was
// built, and the cached check is built from that copy: params edited after
// a call never reach a cached check, and a check is never returned for
// params it was not built from. Params holding anything other than
// strings, bools, nil, float64, int, int64, json.Number, []string,
// []any and map[string]any (what schemacache.go's hasher walks), or more than maxCachedValues values, are not cached.
// Only successful builds are cached, so every error is Build's, built
// again.
type builtCache struct {
	mu sync.Mutex
	m  map[uint64][]builtEntry
	n  int
	// ids finds an entry by the identity of the params map it was last
	// found from, before hashing: a loop giving the same map (a case
	// file's eval, evaltest's Eval) skips the hash, as valueSchemas does.
	// Identity is only a hint: a hit is confirmed like any other. A
	// table of maxBuiltChecks slots, each map's slot picked by its
	// identity, a newer map taking the slot: a map rebuilt whenever it
	// filled made filing an entry cost more than the hash it saves when
	// more maps than slots are evaluated in turn.
	ids *[maxBuiltChecks]builtSlot
}

type builtSlot struct {
	id builtID
	e  builtEntry
}

// slot is id's place in builtCache.ids.
func (id builtID) slot() int {
	return int((uint64(id.id)*0x9e3779b97f4a7c15)>>32) % maxBuiltChecks // Fibonacci hashing: map addresses share their low bits
}

type builtID struct {
	checkType string
	id        uintptr
}

type builtEntry struct {
	checkType string
	params    map[string]any // a private copy: never written, never shown
	check     Check
}

const (
	// maxBuiltChecks bounds the entries of one registry's cache; when it
	// is full an arbitrary entry makes room.
	maxBuiltChecks = 256
	// maxCachedValues bounds the values of params that are cached, counted
	// as a tree: a larger (or self-holding) value is built every time.
	maxCachedValues = 4096
)

// reusableChecks are the built-in types (by canonical name) whose checks
// may be cached: each is a plain value built from its params alone.
var reusableChecks = map[string]bool{
	"contains": true, "contains_any": true, "content_excludes": true, "regex": true,
	"min_length": true, "max_length": true,
	"json_valid": true, "json_schema": true, "json_path": true, "field_presence": true,
	"tools_called": true, "tools_not_called": true, "tool_args": true,
	"tool_call_sequence": true, "tool_call_count": true, "no_tool_errors": true,
	"equals": true,
}

// evalCheck is the check Eval runs: a cached one when checkType is
// reusable and params were seen before, else Build's.
func (r *Registry) evalCheck(checkType string, params map[string]any) (Check, error) {
	t := r.table()
	t.mu.RLock()
	e, ok := t.entries[checkType]
	t.mu.RUnlock()
	if !ok || e.user || !reusableChecks[e.target] {
		return r.Build(checkType, params)
	}
	id := builtID{checkType, identity(params)}
	if c, ok := t.built.byID(id, params); ok {
		return c, nil
	}
	h, ok := builtKey(checkType, params)
	if !ok {
		return r.Build(checkType, params)
	}
	if c, ok := t.built.get(h, id, params); ok {
		return c, nil
	}
	own := copyParamValue(params).(map[string]any)
	c, err := r.Build(checkType, own)
	if err != nil {
		return nil, err
	}
	c = prepareBuilt(c)
	t.built.put(h, id, builtEntry{checkType: checkType, params: own, check: c})
	return c, nil
}

// prepareBuilt does once, for a check the cache keeps, what its Check
// would do on every call from its params alone.
func prepareBuilt(c Check) Check {
	if ta, ok := c.(ToolArgs); ok {
		if want, err := ta.expected(); err == nil { // an error stays Check's, every time
			return preparedToolArgs{ta, want}
		}
	}
	return c
}

// byID returns the check last found for the params map id names, when
// params still hold what it was built from.
func (b *builtCache) byID(id builtID, params map[string]any) (Check, bool) {
	if id.id == 0 {
		return nil, false
	}
	b.mu.Lock()
	var s builtSlot
	if b.ids != nil {
		s = b.ids[id.slot()]
	}
	b.mu.Unlock()
	if s.id == id && equalParamValue(s.e.params, params) { // s.e.params is never written: no lock needed
		return s.e.check, true
	}
	return nil, false
}

// remember files e under id, within the bound.
func (b *builtCache) remember(id builtID, e builtEntry) {
	if id.id == 0 {
		return
	}
	if b.ids == nil {
		b.ids = new([maxBuiltChecks]builtSlot)
	}
	b.ids[id.slot()] = builtSlot{id, e}
}

// builtKey hashes checkType and params with schemacache.go's hasher; ok
// is false for params it cannot key.
func builtKey(checkType string, params map[string]any) (h uint64, ok bool) {
	w := hasher{budget: maxCachedValues}
	if h, ok = w.hash(params, 0); !ok {
		return 0, false
	}
	return mix(h ^ maphash.String(schemaSeed, checkType)), true
}

func (b *builtCache) get(h uint64, id builtID, params map[string]any) (Check, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.m[h] {
		if e.checkType == id.checkType && equalParamValue(e.params, params) {
			b.remember(id, e)
			return e.check, true
		}
	}
	return nil, false
}

func (b *builtCache) put(h uint64, id builtID, e builtEntry) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = make(map[uint64][]builtEntry)
	}
	for _, old := range b.m[h] {
		if old.checkType == e.checkType && equalParamValue(old.params, e.params) {
			return // built concurrently by another Eval
		}
	}
	if b.n >= maxBuiltChecks {
		for k, es := range b.m {
			b.n -= len(es)
			delete(b.m, k)
			break
		}
	}
	b.m[h] = append(b.m[h], e)
	b.n++
	b.remember(id, e)
}

// equalParamValue reports whether a and b, values hasher accepts,
// hold the same content with the same types (floats by their bits).
func equalParamValue(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case string:
		bv, ok := b.(string)
		return ok && a == bv
	case bool:
		bv, ok := b.(bool)
		return ok && a == bv
	case float64:
		bv, ok := b.(float64)
		return ok && math.Float64bits(a) == math.Float64bits(bv)
	case int:
		bv, ok := b.(int)
		return ok && a == bv
	case int64:
		bv, ok := b.(int64)
		return ok && a == bv
	case json.Number:
		bv, ok := b.(json.Number)
		return ok && a == bv
	case []string:
		bv, ok := b.([]string)
		return ok && (a == nil) == (bv == nil) && slices.Equal(a, bv)
	case []any:
		bv, ok := b.([]any)
		if !ok || len(a) != len(bv) || (a == nil) != (bv == nil) {
			return false
		}
		for i := range a {
			if !equalParamValue(a[i], bv[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(a) != len(bv) || (a == nil) != (bv == nil) {
			return false
		}
		for k, ae := range a {
			be, present := bv[k]
			if !present || !equalParamValue(ae, be) {
				return false
			}
		}
		return true
	}
	return false
}

// copyParamValue deep-copies a value hasher accepts, keeping nil
// slices and maps nil.
func copyParamValue(v any) any {
	switch v := v.(type) {
	case []string:
		return slices.Clone(v) // nil stays nil
	case []any:
		if v == nil {
			return v
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = copyParamValue(e)
		}
		return out
	case map[string]any:
		if v == nil {
			return v
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = copyParamValue(e)
		}
		return out
	}
	return v
}
