package query

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// MaxDepth is the deepest nesting CheckSize accepts: encoding/json refuses
// to decode JSON nested deeper.
const MaxDepth = 10_000

// CheckSize walks v as encoding/json would write it, as a tree: a value
// reached twice counts twice, so a Go value that shares its parts (an
// "allOf" of the same subschema twice, thirty levels deep) counts as the
// JSON it would make, which can be exponentially larger than the value.
// It returns an error when v holds more than maxValues values, when the
// JSON would be more than maxBytes bytes (counted from below: every value
// at its shortest), or when it nests deeper than MaxDepth. The walk stops
// at the first limit passed, so it is bounded however much v shares or
// whether it has cycles: callers run it before anything that walks v
// whole (Normalize, json.Marshal, a comparison).
func CheckSize(v any, maxValues, maxBytes int) error {
	w := sizer{maxValues: maxValues, maxBytes: maxBytes}
	w.walk(v, 0)
	switch {
	case w.deep:
		return fmt.Errorf("nests deeper than %d levels", MaxDepth)
	case w.values > maxValues:
		return fmt.Errorf("holds more than %d values, counted as a tree (a value it holds in many places counts each time)", maxValues)
	case w.bytes > maxBytes:
		return fmt.Errorf("is more than %d bytes as JSON, counted as a tree (a value it holds in many places counts each time)", maxBytes)
	}
	return nil
}

type sizer struct {
	maxValues, maxBytes int
	values, bytes       int
	deep                bool
}

func (w *sizer) over() bool { return w.values > w.maxValues || w.bytes > w.maxBytes || w.deep }

// walk counts v, depth levels down.
func (w *sizer) walk(v any, depth int) {
	if w.over() {
		return
	}
	if depth > MaxDepth {
		w.deep = true
		return
	}
	w.values++
	switch v := v.(type) {
	case nil:
		w.bytes += len("null")
	case bool:
		w.bytes += len("true")
	case string:
		w.bytes += 2 + len(v)
	case json.Number:
		w.bytes += len(v)
	case float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		w.bytes++
	case []any:
		w.bytes += 1 + max(len(v), 1)
		for _, e := range v {
			w.walk(e, depth+1)
		}
	case map[string]any:
		w.bytes += 1 + max(len(v), 1)
		for k, e := range v {
			w.bytes += 3 + len(k)
			w.walk(e, depth+1)
		}
	default:
		w.reflected(reflect.ValueOf(v), depth)
	}
}

// reflected counts the Go types the switch in walk does not name: typed
// maps and slices, structs, pointers.
func (w *sizer) reflected(rv reflect.Value, depth int) {
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			w.bytes += len("null")
			return
		}
		w.values-- // the pointer is the value it points to
		w.walk(rv.Elem().Interface(), depth)
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			w.bytes += 2 + rv.Len()*4/3 // base64
			return
		}
		w.bytes += 1 + max(rv.Len(), 1)
		for i := 0; i < rv.Len() && !w.over(); i++ {
			w.walk(rv.Index(i).Interface(), depth+1)
		}
	case reflect.Map:
		w.bytes += 1 + max(rv.Len(), 1)
		for it := rv.MapRange(); it.Next() && !w.over(); {
			w.bytes += 3 + len(fmt.Sprint(it.Key().Interface()))
			w.walk(it.Value().Interface(), depth+1)
		}
	case reflect.Struct:
		w.bytes += 2
		t := rv.Type()
		for i := 0; i < rv.NumField() && !w.over(); i++ {
			if t.Field(i).IsExported() {
				w.bytes += 3 + len(t.Field(i).Name)
				w.walk(rv.Field(i).Interface(), depth+1)
			}
		}
	case reflect.String:
		w.bytes += 2 + rv.Len()
	default: // numbers, booleans and what JSON cannot hold (Marshal says so)
		w.bytes++
	}
}
