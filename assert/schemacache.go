package assert

import (
	"encoding/json"
	"hash/maphash"
	"math"
	"reflect"
	"slices"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schemas given as Go values (map[string]any, as tests write them) are
// cached by the value itself, not only by its JSON: compileSchema found a
// compiled schema by its JSON text, so every check marshalled its schema
// with encoding/json first — reflection over every map, its keys sorted —
// which cost a repeated json_schema check as much as validating. Here a
// schema made of plain JSON shapes (maps of string keys, slices, strings,
// numbers, booleans, nil) is hashed by a walk that allocates nothing (or
// found by the identity of its map, see valueSchemas), and a hit is
// confirmed by comparing the value with a deep copy taken when it
// compiled: a schema changed in place since (a map the test edits between
// checks) compares unequal and takes the JSON path again, so a cached
// schema is always the one the value means now. Anything else (structs,
// typed maps) takes the JSON path.
//
// Bounded like the JSON-keyed cache: at most maxCachedSchemas values; past
// that, schemas are still found by their JSON. A walk stops, and the value
// takes the JSON path (which bounds it and says why), past
// maxValueSchemaNodes values or maxSchemaDepth levels: a value that shares
// its parts, or holds itself, is no faster to hash than to write.

// maxValueSchemaNodes bounds the hashing walk, in values visited.
const maxValueSchemaNodes = 1 << 16

// valueSchema is a compiled schema and the value it compiled from.
type valueSchema struct {
	value *snapshot // a deep copy, never written
	sch   *jsonschema.Schema
}

// valueSchemas holds the compiled schemas by the hash of their value, and
// by the identity of the map they were last found from: a test gives the
// same map to every check, and confirming a copy by looking its keys up
// in that map costs a fifth of hashing it (iterating a Go map is what
// costs). Identity is only a hint: a hit is confirmed like any other, and
// a map freed and another made at its address compares unequal.
var valueSchemas struct {
	sync.RWMutex
	m   map[uint64][]valueSchema
	ids map[uintptr]valueSchema
	n   int
}

var schemaSeed = maphash.MakeSeed()

// identity is the address of a map schema's table, or 0 for any other
// value.
func identity(v any) uintptr {
	if m, ok := v.(map[string]any); ok && m != nil {
		return reflect.ValueOf(m).Pointer()
	}
	return 0
}

// cachedValueSchema returns the schema v compiled to before, with its
// hash; sch is nil when v is not cached, and hashable false when v is not
// a value this cache can key.
func cachedValueSchema(v any) (sch *jsonschema.Schema, h uint64, hashable bool) {
	if id := identity(v); id != 0 {
		valueSchemas.RLock()
		e, ok := valueSchemas.ids[id]
		valueSchemas.RUnlock()
		if ok && e.value.matches(v, 0) {
			return e.sch, 0, true
		}
	}
	w := hasher{budget: maxValueSchemaNodes}
	h, hashable = w.hash(v, 0)
	if !hashable {
		return nil, 0, false
	}
	valueSchemas.RLock()
	var found *valueSchema
	for _, e := range valueSchemas.m[h] {
		if e.value.matches(v, 0) {
			found = &e
			break
		}
	}
	valueSchemas.RUnlock()
	if found == nil {
		return nil, h, true
	}
	if id := identity(v); id != 0 {
		valueSchemas.Lock()
		if len(valueSchemas.ids) < maxCachedSchemas {
			valueSchemas.ids[id] = *found
		}
		valueSchemas.Unlock()
	}
	return found.sch, h, true
}

// storeValueSchema files sch under v, hashed to h.
func storeValueSchema(v any, h uint64, sch *jsonschema.Schema) {
	valueSchemas.Lock()
	defer valueSchemas.Unlock()
	if valueSchemas.n >= maxCachedSchemas {
		return
	}
	for _, e := range valueSchemas.m[h] {
		if e.value.matches(v, 0) {
			return
		}
	}
	if valueSchemas.m == nil {
		valueSchemas.m, valueSchemas.ids = map[uint64][]valueSchema{}, map[uintptr]valueSchema{}
	}
	e := valueSchema{value: snapshotOf(v), sch: sch}
	valueSchemas.m[h] = append(valueSchemas.m[h], e)
	valueSchemas.n++
	if id := identity(v); id != 0 {
		valueSchemas.ids[id] = e
	}
}

// snapshot is a deep copy of a value hasher accepts, kept so that
// comparing a value with it needs no iteration over the value's maps: a
// map's keys are kept in a list, and looked up in the value.
type snapshot struct {
	keys  []string    // a map's keys
	elems []*snapshot // a map's values (beside keys), or a []any's items
	strs  []string    // a []string's items
	leaf  any         // nil, bool, string, float64, int, int64, json.Number
	kind  byte        // 'm' map, 'a' []any, 's' []string, 'l' leaf
}

func snapshotOf(v any) *snapshot {
	switch v := v.(type) {
	case map[string]any:
		s := &snapshot{kind: 'm', keys: make([]string, 0, len(v)), elems: make([]*snapshot, 0, len(v))}
		for k, e := range v {
			s.keys = append(s.keys, k)
			s.elems = append(s.elems, snapshotOf(e))
		}
		return s
	case []any:
		s := &snapshot{kind: 'a', elems: make([]*snapshot, len(v))}
		for i, e := range v {
			s.elems[i] = snapshotOf(e)
		}
		return s
	case []string:
		return &snapshot{kind: 's', strs: slices.Clone(v)}
	}
	return &snapshot{kind: 'l', leaf: v}
}

// matches reports whether v is the value s copied: same types, same
// contents. It stops, false, past maxSchemaDepth levels (a value that
// holds itself).
func (s *snapshot) matches(v any, depth int) bool {
	if depth > maxSchemaDepth {
		return false
	}
	switch s.kind {
	case 'm':
		m, ok := v.(map[string]any)
		if !ok || len(m) != len(s.keys) {
			return false
		}
		for i, k := range s.keys {
			e, ok := m[k]
			if !ok || !s.elems[i].matches(e, depth+1) {
				return false
			}
		}
		return true
	case 'a':
		a, ok := v.([]any)
		if !ok || len(a) != len(s.elems) {
			return false
		}
		for i, e := range a {
			if !s.elems[i].matches(e, depth+1) {
				return false
			}
		}
		return true
	case 's':
		a, ok := v.([]string)
		return ok && slices.Equal(a, s.strs)
	}
	switch leaf := s.leaf.(type) {
	case float64:
		f, ok := v.(float64)
		return ok && math.Float64bits(f) == math.Float64bits(leaf) // -0 is not 0 in JSON text
	case nil, bool, string, int, int64, json.Number:
		return v == s.leaf // a leaf's type is comparable, so this never panics
	}
	return false
}

// hasher hashes a plain Go value, visiting at most budget values.
type hasher struct{ budget int }

// Tags keep values of different kinds apart.
const (
	tagNil uint64 = iota + 1
	tagFalse
	tagTrue
	tagString
	tagFloat
	tagInt
	tagNumber
	tagMap
	tagSlice
	tagStrings
)

func (w *hasher) hash(v any, depth int) (uint64, bool) {
	if w.budget--; w.budget < 0 || depth > maxSchemaDepth {
		return 0, false
	}
	switch v := v.(type) {
	case nil:
		return tagNil, true
	case bool:
		if v {
			return tagTrue, true
		}
		return tagFalse, true
	case string:
		return mix(tagString ^ maphash.String(schemaSeed, v)), true
	case float64:
		return mix(tagFloat ^ math.Float64bits(v)), true
	case int:
		return mix(tagInt ^ uint64(v)), true
	case int64:
		return mix(tagInt ^ uint64(v)), true
	case json.Number:
		return mix(tagNumber ^ maphash.String(schemaSeed, string(v))), true
	case []string:
		h := tagStrings
		for _, s := range v {
			h = mix(h ^ maphash.String(schemaSeed, s))
		}
		return h, true
	case []any:
		h := tagSlice
		for _, e := range v {
			eh, ok := w.hash(e, depth+1)
			if !ok {
				return 0, false
			}
			h = mix(h ^ eh)
		}
		return h, true
	case map[string]any:
		// A sum of the entries' hashes: the same whatever order the map
		// is walked in.
		sum := uint64(0)
		for k, e := range v {
			eh, ok := w.hash(e, depth+1)
			if !ok {
				return 0, false
			}
			sum += mix(maphash.String(schemaSeed, k) ^ mix(eh))
		}
		return mix(tagMap ^ sum ^ uint64(len(v))<<32), true
	}
	return 0, false
}

// mix is SplitMix64's finalizer.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
