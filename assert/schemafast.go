package assert

import (
	"math"
	"math/big"
	"reflect"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A fast path for simple schemas. Most schemas a test writes use a handful
// of keywords (type, required, properties, enum of strings, minLength,
// pattern, minimum, items, minItems); for them, santhosh-tekuri/jsonschema
// spends most of its time on what it does for the general case: a
// validator per value, its location strings, an uneval set per object and
// array, every number converted to a big.Rat through its text. quickSchema
// holds such a schema's constraints, read from the library's own compiled
// form, and checks a decoded document against them with plain Go.
//
// It only ever says "valid": a document it finds valid is one the
// library finds valid, and anything else (a violation, or a keyword it
// does not know) is left to the library, which finds the errors and words
// them. So a failure is explained exactly as before, and a schema using
// any keyword outside the subset below is validated as before. The
// subset is a whitelist of the compiled Schema's exported fields, checked
// by reflection once per compiled schema: a field it does not name must
// be zero (a future version of the library with a new keyword falls back).
//
// Numbers: the library compares the big.Rat of a number's %v text. The
// fast path takes bounds only when they are whole numbers of magnitude at
// most 2^52, and is only used on the float64 decoding when ShortNumbers
// holds; then comparing the float64 with the bound gives what comparing
// its shortest decimal does (between two consecutive integers below 2^53
// every float's shortest decimal stays strictly between them), and a
// float64 is an integer exactly when its shortest decimal is. An enum is
// taken only when its values are strings, booleans or null.

// quickSchema is one (sub)schema of the subset; nil children mean the
// keyword is absent.
type quickSchema struct {
	boolean *bool // a boolean schema: true accepts all, false none

	types    jsonschema.Types // 0: any
	hasTypes bool
	enum     []any // strings, bools, nils; nil: no enum
	hasEnum  bool

	required     []string
	properties   map[string]*quickSchema
	noAdditional bool // additionalProperties: false
	additional   *quickSchema
	minProps     int // -1: absent
	maxProps     int
	items        *quickSchema
	minItems     int
	maxItems     int
	minLength    int
	maxLength    int
	pattern      jsonschema.Regexp
	minimum      *float64
	maximum      *float64
	exclusiveMin *float64
	exclusiveMax *float64
}

// quickFields are the compiled Schema's exported fields the fast path
// reads or may ignore (identifiers and annotations, which never affect
// validity). Any other exported field must be zero.
var quickFields = map[string]bool{
	"DraftVersion": true, "Location": true, "ID": true, "Anchor": true, "DynamicAnchor": true, "RecursiveAnchor": true,
	"Bool": true, "Types": true, "Enum": true,
	"MaxProperties": true, "MinProperties": true, "Required": true, "Properties": true, "AdditionalProperties": true,
	"MinItems": true, "MaxItems": true, "Items": true, "Items2020": true,
	"MinLength": true, "MaxLength": true, "Pattern": true,
	"Maximum": true, "Minimum": true, "ExclusiveMaximum": true, "ExclusiveMinimum": true,
	"Title": true, "Description": true, "Default": true, "Comment": true, "ReadOnly": true, "WriteOnly": true,
	"Examples": true, "Deprecated": true,
}

// quickSchemas maps each compiled schema to its fast form, or to a nil
// *quickSchema when it has none. Compiled schemas live as long as the
// schema caches that hold them, which are bounded.
var quickSchemas sync.Map // *jsonschema.Schema -> *quickSchema

// quickSchemaOf returns sch's fast form, or nil when it uses a keyword
// outside the subset.
func quickSchemaOf(sch *jsonschema.Schema) *quickSchema {
	if q, ok := quickSchemas.Load(sch); ok {
		return q.(*quickSchema)
	}
	q, _ := toQuick(sch, 0)
	quickSchemas.Store(sch, q)
	return q
}

// maxQuickBound is the largest bound magnitude the fast path compares as
// a float64 (see the numbers paragraph above).
const maxQuickBound = 1 << 52

func quickBound(r *big.Rat) (*float64, bool) {
	if r == nil {
		return nil, true
	}
	if !r.IsInt() || !r.Num().IsInt64() {
		return nil, false
	}
	n := r.Num().Int64()
	if n > maxQuickBound || n < -maxQuickBound {
		return nil, false
	}
	f := float64(n)
	return &f, true
}

func intOr(p *int, absent int) int {
	if p == nil {
		return absent
	}
	return *p
}

func toQuick(s *jsonschema.Schema, depth int) (*quickSchema, bool) {
	if s == nil || depth > maxSchemaDepth {
		return nil, false
	}
	v := reflect.ValueOf(s).Elem()
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.IsExported() && !quickFields[f.Name] && !v.Field(i).IsZero() {
			return nil, false
		}
	}
	q := &quickSchema{
		boolean:  s.Bool,
		minProps: intOr(s.MinProperties, -1), maxProps: intOr(s.MaxProperties, -1),
		minItems: intOr(s.MinItems, -1), maxItems: intOr(s.MaxItems, -1),
		minLength: intOr(s.MinLength, -1), maxLength: intOr(s.MaxLength, -1),
		pattern:  s.Pattern,
		required: s.Required,
	}
	if s.Types != nil && !s.Types.IsEmpty() {
		q.types, q.hasTypes = *s.Types, true
	}
	if s.Enum != nil {
		for _, e := range s.Enum.Values {
			switch e.(type) {
			case nil, bool, string:
			default:
				return nil, false
			}
		}
		q.enum, q.hasEnum = s.Enum.Values, true
	}
	var ok bool
	for _, b := range []struct {
		dst **float64
		r   *big.Rat
	}{{&q.minimum, s.Minimum}, {&q.maximum, s.Maximum}, {&q.exclusiveMin, s.ExclusiveMinimum}, {&q.exclusiveMax, s.ExclusiveMaximum}} {
		if *b.dst, ok = quickBound(b.r); !ok {
			return nil, false
		}
	}
	if len(s.Properties) > 0 {
		q.properties = make(map[string]*quickSchema, len(s.Properties))
		for k, sub := range s.Properties {
			if q.properties[k], ok = toQuick(sub, depth+1); !ok {
				return nil, false
			}
		}
	}
	switch a := s.AdditionalProperties.(type) {
	case nil:
	case bool:
		q.noAdditional = !a
	case *jsonschema.Schema:
		if q.additional, ok = toQuick(a, depth+1); !ok {
			return nil, false
		}
	default:
		return nil, false
	}
	items := s.Items2020
	switch it := s.Items.(type) {
	case nil:
	case *jsonschema.Schema:
		if items != nil {
			return nil, false
		}
		items = it
	default: // a tuple ([]*Schema): not in the subset
		return nil, false
	}
	if items != nil {
		if q.items, ok = toQuick(items, depth+1); !ok {
			return nil, false
		}
	}
	return q, true
}

// The library's Types bit of each JSON type, found by name once.
var (
	typeNull    = typeBit("null")
	typeBoolean = typeBit("boolean")
	typeNumber  = typeBit("number")
	typeInteger = typeBit("integer")
	typeString  = typeBit("string")
	typeArray   = typeBit("array")
	typeObject  = typeBit("object")
)

func typeBit(name string) jsonschema.Types {
	var t jsonschema.Types
	t.Add(name)
	return t
}

// valid reports whether v, decoded as json.Unmarshal decodes into an any
// (float64 numbers, see ShortNumbers), certainly meets the schema. false
// means "ask the library".
func (q *quickSchema) valid(v any) bool {
	if q.boolean != nil {
		return *q.boolean
	}
	if q.hasTypes {
		var bit jsonschema.Types
		switch x := v.(type) {
		case nil:
			bit = typeNull
		case bool:
			bit = typeBoolean
		case string:
			bit = typeString
		case []any:
			bit = typeArray
		case map[string]any:
			bit = typeObject
		case float64:
			bit = typeNumber
			if q.types&typeNumber == 0 && q.types&typeInteger != 0 && x == math.Trunc(x) && !math.IsInf(x, 0) {
				bit = typeInteger
			}
		default:
			return false
		}
		if q.types&bit == 0 {
			return false
		}
	}
	if q.hasEnum {
		found := false
		for _, e := range q.enum {
			if e == v { // e is nil, a bool or a string: comparable
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	switch x := v.(type) {
	case map[string]any:
		if q.minProps >= 0 && len(x) < q.minProps || q.maxProps >= 0 && len(x) > q.maxProps {
			return false
		}
		for _, k := range q.required {
			if _, ok := x[k]; !ok {
				return false
			}
		}
		if q.noAdditional || q.additional != nil {
			for k, e := range x {
				sub, ok := q.properties[k]
				switch {
				case ok:
					if !sub.valid(e) {
						return false
					}
				case q.noAdditional:
					return false
				case q.additional != nil:
					if !q.additional.valid(e) {
						return false
					}
				}
			}
		} else {
			// Only the properties the schema names are checked: looking
			// them up costs less than walking the object.
			for k, sub := range q.properties {
				if e, ok := x[k]; ok && !sub.valid(e) {
					return false
				}
			}
		}
	case []any:
		if q.minItems >= 0 && len(x) < q.minItems || q.maxItems >= 0 && len(x) > q.maxItems {
			return false
		}
		if q.items != nil {
			for _, e := range x {
				if !q.items.valid(e) {
					return false
				}
			}
		}
	case string:
		if q.minLength >= 0 || q.maxLength >= 0 {
			n := utf8.RuneCountInString(x)
			if q.minLength >= 0 && n < q.minLength || q.maxLength >= 0 && n > q.maxLength {
				return false
			}
		}
		if q.pattern != nil && !q.pattern.MatchString(x) {
			return false
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
		if q.minimum != nil && x < *q.minimum || q.maximum != nil && x > *q.maximum ||
			q.exclusiveMin != nil && x <= *q.exclusiveMin || q.exclusiveMax != nil && x >= *q.exclusiveMax {
			return false
		}
	case nil, bool:
	default:
		return false
	}
	return true
}
