package query

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// MaxDepth is the deepest nesting CheckSize accepts: encoding/json refuses
// to decode JSON nested deeper.
const MaxDepth = 10_000

// CheckSize measures v as encoding/json would write it, as a tree: a value
// reached twice counts twice, so a Go value that shares its parts (an
// "allOf" of the same subschema twice, thirty levels deep) counts as the
// JSON it would make, which can be exponentially larger than the value.
// It returns an error when v holds more than maxValues values, when the
// JSON would be more than maxBytes bytes (counted from below: every value
// at its shortest), when it nests deeper than MaxDepth, or when it holds
// itself (a cycle, which no JSON can write). Past its first 4,096
// containers, each map, slice and pointer is measured once however often
// it is reached, and the walk stops at the first limit passed, so the cost
// is bounded by the value's size in memory, not as a tree: callers run it
// before anything that walks v whole (Normalize, json.Marshal, a copy, a
// comparison).
func CheckSize(v any, maxValues, maxBytes int) error {
	w := sizer{maxValues: maxValues, maxBytes: maxBytes}
	w.add(w.walk(v, 0))
	switch {
	case w.cycle:
		return fmt.Errorf("holds itself: a value that contains itself has no JSON")
	case w.deep:
		return fmt.Errorf("nests deeper than %d levels", MaxDepth)
	case w.total.values > maxValues:
		return fmt.Errorf("holds more than %d values, counted as a tree (a value it holds in many places counts each time)", maxValues)
	case w.total.bytes > maxBytes:
		return fmt.Errorf("is more than %d bytes as JSON, counted as a tree (a value it holds in many places counts each time)", maxBytes)
	}
	return nil
}

// size is a value's size as a tree: its values, its JSON's bytes, and
// how deep it nests below itself. Counts saturate past the limits.
type size struct{ values, bytes, height int }

// node names a map, slice or pointer by what it points to.
type node struct {
	kind reflect.Kind
	ptr  uintptr
	len  int
}

type sizer struct {
	maxValues, maxBytes int
	total               size
	steps               int // containers measured
	memo                map[node]size
	active              map[node]bool // the containers being measured: reaching one again is a cycle
	cycle, deep, over   bool
}

// stopped reports whether a limit is passed, so the walk ends.
func (w *sizer) stopped() bool { return w.cycle || w.deep || w.over }

// sum adds b to a, saturating just past the limits so a value of 2^64
// leaves cannot overflow.
func (w *sizer) sum(a, b size) size {
	a.values = min(a.values+b.values, w.maxValues+1)
	a.bytes = min(a.bytes+b.bytes, w.maxBytes+1)
	a.height = max(a.height, b.height)
	if a.values > w.maxValues || a.bytes > w.maxBytes {
		w.over = true
	}
	return a
}

func (w *sizer) add(s size) { w.total = w.sum(w.total, s) }

// walk measures v, depth levels down.
func (w *sizer) walk(v any, depth int) size {
	if w.stopped() {
		return size{}
	}
	if depth > MaxDepth {
		w.deep = true
		return size{}
	}
	switch v := v.(type) {
	case nil:
		return size{1, len("null"), 0}
	case bool:
		return size{1, len("true"), 0}
	case string:
		return size{1, 2 + len(v), 0}
	case json.Number:
		return size{1, len(v), 0}
	case float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return size{1, 1, 0}
	case []any:
		return w.container(reflect.ValueOf(v), depth, func() size {
			s := size{1, 1 + max(len(v), 1), 0}
			for _, e := range v {
				if s = w.sum(s, w.walk(e, depth+1)); w.stopped() {
					break
				}
			}
			return s
		})
	case map[string]any:
		return w.container(reflect.ValueOf(v), depth, func() size {
			s := size{1, 1 + max(len(v), 1), 0}
			for k, e := range v {
				s = w.sum(s, size{0, 3 + len(k), 0})
				if s = w.sum(s, w.walk(e, depth+1)); w.stopped() {
					break
				}
			}
			return s
		})
	}
	return w.reflected(reflect.ValueOf(v), depth)
}

// container measures the map, slice or pointer rv with measure, once: a
// second visit reuses the first's size, and a visit while it is being
// measured is a cycle.
func (w *sizer) container(rv reflect.Value, depth int, measure func() size) size {
	n := node{kind: rv.Kind(), ptr: rv.Pointer()}
	level := 1 // a container is one level more than what it holds
	if rv.Kind() == reflect.Pointer {
		level = 0 // a pointer is the value it points to
	} else {
		n.len = rv.Len()
	}
	w.steps++
	if w.steps <= quickSteps || n.ptr == 0 || n.len == 0 && rv.Kind() != reflect.Pointer {
		// The first containers are measured plainly, without a memo: a
		// value of a hand-written size never pays for one. Nor does a
		// nil or empty container, which shares nothing.
		s := measure()
		s.height += level
		return s
	}
	if w.active[n] {
		w.cycle = true
		return size{}
	}
	if s, ok := w.memo[n]; ok {
		if depth+s.height > MaxDepth {
			w.deep = true
		}
		return s
	}
	if w.active == nil {
		w.active, w.memo = map[node]bool{}, map[node]size{}
	}
	w.active[n] = true
	s := measure()
	delete(w.active, n)
	s.height += level
	w.memo[n] = s
	return s
}

// quickSteps is how many containers CheckSize measures before it keeps a
// memo: past it, a value that shares its parts or holds itself is measured
// once per part, and a cycle is found within a lap of its loop.
const quickSteps = 1 << 12

// reflected measures the Go types the switch in walk does not name: typed
// maps and slices, structs, pointers.
func (w *sizer) reflected(rv reflect.Value, depth int) size {
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return size{1, len("null"), 0}
		}
		if rv.Kind() == reflect.Interface {
			return w.walk(rv.Elem().Interface(), depth)
		}
		return w.container(rv, depth, func() size { return w.walk(rv.Elem().Interface(), depth) })
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			return size{1, 2 + rv.Len()*4/3, 0} // base64
		}
		measure := func() size {
			s := size{1, 1 + max(rv.Len(), 1), 0}
			for i := 0; i < rv.Len() && !w.stopped(); i++ {
				s = w.sum(s, w.walk(rv.Index(i).Interface(), depth+1))
			}
			return s
		}
		if rv.Kind() == reflect.Array {
			s := measure()
			s.height++
			return s
		}
		return w.container(rv, depth, measure)
	case reflect.Map:
		return w.container(rv, depth, func() size {
			s := size{1, 1 + max(rv.Len(), 1), 0}
			for it := rv.MapRange(); it.Next() && !w.stopped(); {
				s = w.sum(s, size{0, 3 + len(fmt.Sprint(it.Key().Interface())), 0})
				s = w.sum(s, w.walk(it.Value().Interface(), depth+1))
			}
			return s
		})
	case reflect.Struct:
		s := size{1, 2, 0}
		t := rv.Type()
		for i := 0; i < rv.NumField() && !w.stopped(); i++ {
			if t.Field(i).IsExported() {
				s = w.sum(s, size{0, 3 + len(t.Field(i).Name), 0})
				s = w.sum(s, w.walk(rv.Field(i).Interface(), depth+1))
			}
		}
		s.height++
		return s
	case reflect.String:
		return size{1, 2 + rv.Len(), 0}
	}
	return size{1, 1, 0} // numbers, booleans and what JSON cannot hold (Marshal says so)
}
