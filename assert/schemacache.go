package assert

import (
	"encoding/json"
	"hash/maphash"
	"math"
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
// numbers, booleans, nil) is hashed by a walk that allocates nothing, and
// a hit is confirmed by comparing the value with a deep copy taken when it
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
	value any // a deep copy, never written
	sch   *jsonschema.Schema
}

var valueSchemas struct {
	sync.RWMutex
	m map[uint64][]valueSchema
	n int
}

var schemaSeed = maphash.MakeSeed()

// cachedValueSchema returns the schema v compiled to before, with its
// hash; ok is false when v is not cached, and hashable false when v is not
// a value this cache can key.
func cachedValueSchema(v any) (sch *jsonschema.Schema, h uint64, hashable bool) {
	w := hasher{budget: maxValueSchemaNodes}
	h, hashable = w.hash(v, 0)
	if !hashable {
		return nil, 0, false
	}
	valueSchemas.RLock()
	defer valueSchemas.RUnlock()
	for _, e := range valueSchemas.m[h] {
		if plainEqual(v, e.value) {
			return e.sch, h, true
		}
	}
	return nil, h, true
}

// storeValueSchema files sch under v, hashed to h.
func storeValueSchema(v any, h uint64, sch *jsonschema.Schema) {
	valueSchemas.Lock()
	defer valueSchemas.Unlock()
	if valueSchemas.n >= maxCachedSchemas {
		return
	}
	for _, e := range valueSchemas.m[h] {
		if plainEqual(v, e.value) {
			return
		}
	}
	if valueSchemas.m == nil {
		valueSchemas.m = map[uint64][]valueSchema{}
	}
	valueSchemas.m[h] = append(valueSchemas.m[h], valueSchema{value: plainCopy(v), sch: sch})
	valueSchemas.n++
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

// plainEqual reports whether a and b, values hasher accepts, are the same:
// same types, same contents. b is a copy plainCopy made.
func plainEqual(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !plainEqual(av, bv) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !plainEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	case []string:
		b, ok := b.([]string)
		return ok && slices.Equal(a, b)
	case float64:
		b, ok := b.(float64)
		return ok && math.Float64bits(a) == math.Float64bits(b) // NaN is no schema; -0 is not 0 in JSON text
	case nil, bool, string, int, int64, json.Number:
		return a == b
	}
	return false
}

// plainCopy copies a value hasher accepts, deeply.
func plainCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = plainCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plainCopy(e)
		}
		return out
	case []string:
		return slices.Clone(v)
	}
	return v
}
