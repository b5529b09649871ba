package assert

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/evalkit-go/evalkit/internal/secret"
)

// showArgsDiff is the diff a failing tool-argument check shows, of two
// argument views (diffViews): JSON-shaped values (maps with string keys,
// []any, string, float64, int64, uint64, bool, nil), every string and key
// redacted first, as showDiff does. It is written in go-cmp's notation and
// layout — the text of cmp.Diff for the same values (with plain spaces)
// wherever go-cmp's own is stable: objects key by key, equal entries
// elided around the differences, values cut as go-cmp cuts them — without
// go-cmp's reflection, which cost more than the rest of a failing check.
// Where go-cmp's text is not fixed (it picks the edit script of two lists
// and the indent's space character at random per process) or is a second
// diff of its own (two long strings cut in chunks), this writes its own:
// lists by their longest common run of equal items, changed items paired
// in order; two differing strings as a - and a + line. Values of any other
// Go type go to go-cmp.
func showArgsDiff(want, got map[string]any) string {
	r := secret.Now() // the environment read once for the whole diff
	var w, g any = want, got
	if !redactsNothing(want, r, 0) || !redactsNothing(got, r, 0) {
		w, g = secret.Value(want, r.Clean), secret.Value(got, r.Clean)
	}
	if !plainShaped(w, 0) || !plainShaped(g, 0) {
		return cmp.Diff(w, g)
	}
	if jsonEq(w, g) {
		return ""
	}
	var d argsDiffer
	root := d.diffList(w, g)
	var b strings.Builder
	b.WriteString("  ")
	root = root.compact(nil, 0)
	root.expanded(&b, 0, 0)
	b.WriteByte('\n')
	return b.String()
}

// redactsNothing reports whether secret.Value(v, r.Clean) would return
// v unchanged: no string or key holds a secret, no credential field. The
// common case then skips the copy.
func redactsNothing(v any, r secret.Redactor, depth int) bool {
	if depth > 100 {
		return false
	}
	switch v := v.(type) {
	case string:
		return r.Clean(v) == v
	case map[string]any:
		for k, e := range v {
			if r.Clean(k) != k {
				return false
			}
			if s, ok := e.(string); ok && len(s) >= secret.MinSecret && secret.Field(k) {
				return false
			}
			if !redactsNothing(e, r, depth+1) {
				return false
			}
		}
	case []any:
		for _, e := range v {
			if !redactsNothing(e, r, depth+1) {
				return false
			}
		}
	}
	return true
}

// jsonShaped reports whether v holds only the types showArgsDiff writes.
func plainShaped(v any, depth int) bool {
	if depth > 100 {
		return false
	}
	switch v := v.(type) {
	case nil, bool, float64, int64, uint64, string:
		return true
	case map[string]any:
		for _, e := range v {
			if !plainShaped(e, depth+1) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range v {
			if !plainShaped(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// jsonEq is deep equality of jsonShaped values, types included.
func jsonEq(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !jsonEq(av, bv) {
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
			if !jsonEq(a[i], b[i]) {
				return false
			}
		}
		return true
	case nil:
		return b == nil
	case bool:
		bv, ok := b.(bool)
		return ok && a == bv
	case float64:
		bv, ok := b.(float64)
		return ok && a == bv
	case int64:
		bv, ok := b.(int64)
		return ok && a == bv
	case uint64:
		bv, ok := b.(uint64)
		return ok && a == bv
	case string:
		bv, ok := b.(string)
		return ok && a == bv
	}
	return false
}

// A text node is a line, or a list of records between prefix and "}"
// that is written on one line when it can be (compact) and else one
// record a line (expanded), as go-cmp lays out its reports.
type textNode struct {
	line   string
	isList bool
	prefix string // "map[string]any{", "[]any{"
	recs   []textRec
}

type textRec struct {
	mode     byte // 0, '-' or '+'
	key      string
	val      *textNode
	comment  string
	ellipsis bool // "...", no comma
}

const maxColumn = 80 // go-cmp's: a removed or inserted value longer than this is expanded

var ellipsisNode = &textNode{line: "..."}

// compact returns n, its lists that fit written as lines: a list stays
// expanded when a record differs, has a comment or holds an expanded
// list, or, within a removed or inserted value, when its records pass
// maxColumn bytes.
func (n *textNode) compact(buf []byte, mode byte) *textNode {
	if !n.isList {
		return n
	}
	out := &textNode{isList: true, prefix: n.prefix, recs: slices.Clone(n.recs)}
	multi := false
	// The one line, written while the list may still fit on one: on the
	// stack up to its size, then grown.
	var stack [256]byte
	body := append(stack[:0], n.prefix...)
	for i, r := range out.recs {
		if r.mode == '-' || r.mode == '+' || r.comment != "" {
			multi = true
		}
		m := mode
		if r.mode != 0 {
			m = r.mode
		}
		v := r.val.compact(nil, m)
		out.recs[i].val = v
		if v.isList {
			multi = true
		}
		if multi {
			continue // stays expanded: every record is still compacted
		}
		body = append(body, r.key...)
		if r.key != "" {
			body = append(body, ": "...)
		}
		body = append(body, v.line...)
		if i < len(out.recs)-1 {
			body = append(body, ", "...)
		}
	}
	if multi || (mode == '-' || mode == '+') && len(body)-len(n.prefix) > maxColumn {
		return out
	}
	return &textNode{line: string(append(body, '}'))}
}

// indent writes a line's diff marker and depth.
func indent(b *strings.Builder, mode byte, depth int) {
	switch mode {
	case '-':
		b.WriteString("- ")
	case '+':
		b.WriteString("+ ")
	default:
		b.WriteString("  ")
	}
	for range depth {
		b.WriteByte('\t')
	}
}

// expanded writes n one record a line, keys of adjacent one-line records
// aligned; a list of plain values only is written several to a line.
func (n *textNode) expanded(b *strings.Builder, mode byte, depth int) {
	if !n.isList {
		b.WriteString(n.line)
		return
	}
	b.WriteString(n.prefix)
	simple := true
	for _, r := range n.recs {
		if r.mode != 0 || r.key != "" || r.val.isList || r.comment != "" {
			simple = false
			break
		}
	}
	if simple {
		var batch []byte
		emit := func() {
			if len(batch) > 0 {
				b.WriteByte('\n')
				indent(b, mode, depth+1)
				b.Write([]byte(strings.TrimRight(string(batch), " ")))
				batch = batch[:0]
			}
		}
		for _, r := range n.recs {
			if len(batch)+len(r.val.line)+2 > maxColumn {
				emit()
			}
			batch = append(batch, r.val.line...)
			batch = append(batch, ", "...)
		}
		emit()
		b.WriteByte('\n')
		indent(b, mode, depth)
		b.WriteByte('}')
		return
	}
	pads := keyPads(n.recs)
	for i, r := range n.recs {
		m := mode
		if r.mode != 0 {
			m = r.mode
		}
		b.WriteByte('\n')
		indent(b, m, depth+1)
		if r.key != "" {
			b.WriteString(r.key)
			b.WriteString(": ")
		}
		for range pads[i] {
			b.WriteByte(' ')
		}
		r.val.expanded(b, m, depth+1)
		if !r.ellipsis {
			b.WriteByte(',')
		}
		if r.comment != "" {
			b.WriteString(" // ")
			b.WriteString(r.comment)
		}
	}
	b.WriteByte('\n')
	indent(b, mode, depth)
	b.WriteByte('}')
}

// keyPads aligns the values of each run of keyed one-line records.
func keyPads(recs []textRec) []int {
	pads := make([]int, len(recs))
	start, longest := 0, 0
	flush := func(end int) {
		for j := start; j < end; j++ {
			pads[j] = longest - utf8.RuneCountInString(recs[j].key)
		}
	}
	for i, r := range recs {
		if r.key == "" || r.val.isList {
			flush(i)
			start, longest = i+1, 0
			continue
		}
		longest = max(longest, utf8.RuneCountInString(r.key))
	}
	flush(len(recs))
	return pads
}

// Verbosity as go-cmp spends it: a value shown whole (removed, inserted,
// or replaced) starts at level 3, an equal one beside a difference at 1;
// a level shows (1<<level)>>1<<2 items of a list or object and
// (1<<level)<<5 bytes of a string, and each nesting level of a value
// shown whole spends one.
const (
	shownLevel = 3
	equalLevel = 1
	maxDiffs   = (1 << shownLevel) << 1 // differing records shown in one list
	contextRec = 2                      // equal records shown each side of a difference
)

func itemsAt(level int) int { return ((1 << max(level, 0)) >> 1) << 2 }

func stringAt(level int) int { return (1 << max(level, 0)) << 5 }

// quoteGo is go-cmp's string literal: quoted, or in backquotes when that
// is shorter and the string is printable on one line.
func quoteGo(s string) string {
	if plainASCII(s) {
		return `"` + s + `"` // strconv.Quote's, without its escaping pass
	}
	q := strconv.Quote(s)
	if len(q) == len(s)+2 {
		return q
	}
	if utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool {
		return r == '`' || r == '\n' || !(unicode.IsPrint(r) || r == '\t')
	}) < 0 {
		return "`" + s + "`"
	}
	return q
}

// plainASCII reports whether s is printable ASCII without a quote or a
// backslash: strconv.Quote writes it as is between double quotes.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// scalarLine is a scalar with its type, as go-cmp writes an interface's
// value; s is cut after max bytes.
func scalarLine(v any, max int) string {
	switch v := v.(type) {
	case nil:
		return "nil"
	case bool:
		return "bool(" + strconv.FormatBool(v) + ")"
	case float64:
		return "float64(" + fmt.Sprint(v) + ")"
	case int64:
		return "int64(" + strconv.FormatInt(v, 10) + ")"
	case uint64:
		return "uint64(" + strconv.FormatUint(v, 10) + ")"
	case string:
		cut, tail := v, `")`
		if len(v) > max+3 {
			cut, tail = v[:max], `"...)`
		}
		if plainASCII(cut) {
			return `string("` + cut + tail // one string, not the quote and then the line
		}
		if cut != v {
			return "string(" + quoteGo(cut) + "...)"
		}
		return "string(" + quoteGo(v) + ")"
	}
	return fmt.Sprint(v)
}

// shown is a value written whole, as go-cmp's FormatValue writes it at
// level.
func shown(v any, level int) *textNode {
	switch v := v.(type) {
	case map[string]any:
		n := &textNode{isList: true, prefix: "map[string]any{"}
		limit := itemsAt(level)
		for i, k := range sortedKeys(v) {
			if i == limit {
				n.recs = append(n.recs, textRec{val: ellipsisNode, ellipsis: true})
				break
			}
			n.recs = append(n.recs, textRec{key: quoteGo(k), val: shown(v[k], level-1)})
		}
		return n
	case []any:
		n := &textNode{isList: true, prefix: "[]any{"}
		limit := itemsAt(level)
		for i, e := range v {
			if i == limit {
				n.recs = append(n.recs, textRec{val: ellipsisNode, ellipsis: true})
				break
			}
			n.recs = append(n.recs, textRec{val: shown(e, level-1)})
		}
		return n
	}
	return &textNode{line: scalarLine(v, stringAt(level))}
}

// equalShown is an equal value beside a difference, as go-cmp writes it:
// each level at equalLevel (its items and strings cut anew at each level).
func equalShown(v any) *textNode {
	switch v := v.(type) {
	case map[string]any:
		n := &textNode{isList: true, prefix: "map[string]any{"}
		for i, k := range sortedKeys(v) {
			if i == itemsAt(equalLevel) {
				n.recs = append(n.recs, textRec{val: ellipsisNode, ellipsis: true})
				break
			}
			n.recs = append(n.recs, textRec{key: quoteGo(k), val: equalShown(v[k])})
		}
		return n
	case []any:
		n := &textNode{isList: true, prefix: "[]any{"}
		for i, e := range v {
			if i == itemsAt(equalLevel) {
				n.recs = append(n.recs, textRec{val: ellipsisNode, ellipsis: true})
				break
			}
			n.recs = append(n.recs, textRec{val: equalShown(e)})
		}
		return n
	}
	return &textNode{line: scalarLine(v, stringAt(equalLevel))}
}

// replacedShown is one side of a changed value shown whole (- then +):
// go-cmp writes it at shownLevel, and a chain of one-key objects or
// one-item lists at shownLevel again at each level.
func replacedShown(v, other any) *textNode {
	switch v := v.(type) {
	case map[string]any:
		if o, ok := other.(map[string]any); ok {
			n := &textNode{isList: true, prefix: "map[string]any{"}
			for _, k := range sortedKeys(v) {
				n.recs = append(n.recs, textRec{key: quoteGo(k), val: replacedShown(v[k], o[k])})
			}
			return n
		}
	case []any:
		if o, ok := other.([]any); ok && len(v) == 1 && len(o) == 1 {
			return &textNode{isList: true, prefix: "[]any{", recs: []textRec{{val: replacedShown(v[0], o[0])}}}
		}
	}
	return shown(v, shownLevel)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// An edit is one record of a list's diff: an equal pair, a changed pair,
// or an item of one side only (the other index is -1).
type edit struct {
	key  string
	w, g any
	wi   int // -1: inserted
	gi   int // -1: removed
	same bool
}

type argsDiffer struct{}

// chain reports whether go-cmp would show the changed pair w, g as a -
// and a + line rather than a diff of its own: when comparing them walks a
// single path (objects of one key in all, lists of one edit).
func chain(w, g any) bool {
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			return true
		}
		keys := len(wv)
		for k := range gv {
			if _, ok := wv[k]; !ok {
				keys++
			}
		}
		if keys != 1 {
			return false
		}
		for k, x := range wv {
			y, ok := gv[k]
			return !ok || chain(x, y)
		}
		return true
	case []any:
		gv, ok := g.([]any)
		if !ok {
			return true
		}
		eds := listEdits(wv, gv)
		if len(eds) != 1 {
			return false
		}
		e := eds[0]
		return e.wi < 0 || e.gi < 0 || chain(e.w, e.g)
	}
	return true
}

// mapEdits are two objects' records in key order.
func mapEdits(w, g map[string]any) []edit {
	keys := sortedKeys(w)
	for k := range g {
		if _, ok := w[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	eds := make([]edit, len(keys))
	for i, k := range keys {
		x, inW := w[k]
		y, inG := g[k]
		e := edit{key: quoteGo(k), w: x, g: y, wi: 0, gi: 0}
		switch {
		case !inW:
			e.wi = -1
		case !inG:
			e.gi = -1
		default:
			e.same = jsonEq(x, y)
		}
		eds[i] = e
	}
	return eds
}

// maxLCS bounds the pairs compared to find two lists' longest common run;
// longer lists compare their differing middles item by item.
const maxLCS = 4096

// listEdits are two lists' records: their longest common subsequence of
// equal items kept, and between two kept items the changed ones paired in
// order, the rest removed then inserted.
func listEdits(w, g []any) []edit {
	var eds []edit
	lo := 0
	for lo < len(w) && lo < len(g) && jsonEq(w[lo], g[lo]) {
		eds = append(eds, edit{w: w[lo], g: g[lo], wi: lo, gi: lo, same: true})
		lo++
	}
	hw, hg := len(w), len(g)
	for hw > lo && hg > lo && jsonEq(w[hw-1], g[hg-1]) {
		hw--
		hg--
	}
	mw, mg := w[lo:hw], g[lo:hg]
	// run adds the changed items between two kept ones: an item and its
	// counterpart in order paired when they are similar (go-cmp's rule:
	// no more differing values than equal ones plus one), the others
	// removed then inserted.
	run := func(rw, rg []int) {
		var rem, ins []int
		flush := func() {
			for _, i := range rem {
				eds = append(eds, edit{w: mw[i], wi: lo + i, gi: -1})
			}
			for _, j := range ins {
				eds = append(eds, edit{g: mg[j], wi: -1, gi: lo + j})
			}
			rem, ins = rem[:0], ins[:0]
		}
		for k := range max(len(rw), len(rg)) {
			if k < len(rw) && k < len(rg) && similar(mw[rw[k]], mg[rg[k]]) {
				flush()
				eds = append(eds, edit{w: mw[rw[k]], g: mg[rg[k]], wi: lo + rw[k], gi: lo + rg[k]})
				continue
			}
			if k < len(rw) {
				rem = append(rem, rw[k])
			}
			if k < len(rg) {
				ins = append(ins, rg[k])
			}
		}
		flush()
	}
	if len(mw)*len(mg) <= maxLCS {
		// table[i][j]: LCS length of mw[i:], mg[j:].
		cols := len(mg) + 1
		table := make([]int, (len(mw)+1)*cols)
		for i := len(mw) - 1; i >= 0; i-- {
			for j := len(mg) - 1; j >= 0; j-- {
				if jsonEq(mw[i], mg[j]) {
					table[i*cols+j] = table[(i+1)*cols+j+1] + 1
				} else {
					table[i*cols+j] = max(table[(i+1)*cols+j], table[i*cols+j+1])
				}
			}
		}
		var rw, rg []int
		i, j := 0, 0
		for i < len(mw) || j < len(mg) {
			switch {
			case i < len(mw) && j < len(mg) && jsonEq(mw[i], mg[j]):
				run(rw, rg)
				rw, rg = rw[:0], rg[:0]
				eds = append(eds, edit{w: mw[i], g: mg[j], wi: lo + i, gi: lo + j, same: true})
				i++
				j++
			case j == len(mg) || (i < len(mw) && table[(i+1)*cols+j] >= table[i*cols+j+1]):
				rw = append(rw, i)
				i++
			default:
				rg = append(rg, j)
				j++
			}
		}
		run(rw, rg)
	} else {
		rw, rg := make([]int, len(mw)), make([]int, len(mg))
		for i := range rw {
			rw[i] = i
		}
		for j := range rg {
			rg[j] = j
		}
		run(rw, rg)
	}
	for k := hw; k < len(w); k++ {
		eds = append(eds, edit{w: w[k], g: g[k-hw+hg], wi: k, gi: k - hw + hg, same: true})
	}
	return eds
}

// diffList is the diff of two objects or two lists, as go-cmp writes it:
// equal records elided but for contextRec each side of a difference, at
// most maxDiffs differing records.
func (d *argsDiffer) diffList(w, g any) *textNode {
	var eds []edit
	n := &textNode{isList: true}
	name := "element"
	switch wv := w.(type) {
	case map[string]any:
		eds = mapEdits(wv, g.(map[string]any))
		n.prefix, name = "map[string]any{", "entry"
	case []any:
		eds = listEdits(wv, g.([]any))
		n.prefix = "[]any{"
	}
	// Groups of equal and of differing records, in order.
	type group struct{ start, end int }
	var groups []group
	for i, e := range eds {
		if i == 0 || e.same != eds[i-1].same {
			groups = append(groups, group{i, i})
		}
		groups[len(groups)-1].end = i + 1
	}
	diffs := 0
	var over diffStats
	for gi, gr := range groups {
		if diffs >= maxDiffs {
			over.add(eds[gr.start:gr.end])
			continue
		}
		if eds[gr.start].same {
			equal := gr.end - gr.start
			lo, hi := 0, 0
			for lo < contextRec && lo+hi < equal && gi != 0 {
				lo++
			}
			for hi < contextRec && lo+hi < equal && gi != len(groups)-1 {
				hi++
			}
			if equal-(lo+hi) == 1 {
				hi++
			}
			for _, e := range eds[gr.start : gr.start+lo] {
				n.recs = append(n.recs, textRec{key: e.key, val: equalShown(e.w)})
			}
			if equal > lo+hi {
				n.recs = append(n.recs, textRec{val: ellipsisNode, ellipsis: true, comment: diffStats{identical: equal - lo - hi}.String(name)})
			}
			for _, e := range eds[gr.end-hi : gr.end] {
				n.recs = append(n.recs, textRec{key: e.key, val: equalShown(e.w)})
			}
			continue
		}
		for _, e := range eds[gr.start:gr.end] {
			switch {
			case e.gi < 0:
				n.recs = append(n.recs, textRec{mode: '-', key: e.key, val: shown(e.w, shownLevel)})
			case e.wi < 0:
				n.recs = append(n.recs, textRec{mode: '+', key: e.key, val: shown(e.g, shownLevel)})
			case chain(e.w, e.g):
				n.recs = append(n.recs,
					textRec{mode: '-', key: e.key, val: replacedShown(e.w, e.g)},
					textRec{mode: '+', key: e.key, val: replacedShown(e.g, e.w)})
			default:
				n.recs = append(n.recs, textRec{key: e.key, val: d.diffList(e.w, e.g)})
			}
		}
		diffs += gr.end - gr.start
	}
	if over != (diffStats{}) {
		n.recs = append(n.recs, textRec{val: ellipsisNode, ellipsis: true, comment: over.String(name)})
	}
	return n
}

// diffStats counts the records a list leaves out.
type diffStats struct{ identical, removed, inserted, modified int }

func (s *diffStats) add(eds []edit) {
	for _, e := range eds {
		switch {
		case e.same:
			s.identical++
		case e.gi < 0:
			s.removed++
		case e.wi < 0:
			s.inserted++
		default:
			s.modified++
		}
	}
}

// String says what s counts, as go-cmp's comments do: "3 identical
// entries", "1 removed and 2 inserted elements".
func (s diffStats) String(name string) string {
	var parts []string
	sum := 0
	for _, c := range []struct {
		n     int
		label string
	}{{s.identical, "identical"}, {s.removed, "removed"}, {s.inserted, "inserted"}, {s.modified, "modified"}} {
		if c.n > 0 {
			parts = append(parts, strconv.Itoa(c.n)+" "+c.label)
			sum += c.n
		}
	}
	if sum > 1 {
		name += "s"
		if strings.HasSuffix(name, "ys") {
			name = name[:len(name)-2] + "ies"
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1, 2:
		return strings.Join(parts, " and ") + " " + name
	}
	return strings.Join(parts[:len(parts)-1], ", ") + ", and " + parts[len(parts)-1] + " " + name
}

// argViewsDiff is showArgsDiff of two argument views, which are objects;
// anything else goes to showDiff.
func argViewsDiff(want, got any) string {
	w, wok := want.(map[string]any)
	g, gok := got.(map[string]any)
	if !wok || !gok {
		return showDiff(want, got)
	}
	return showArgsDiff(w, g)
}

// similar reports whether go-cmp would show two changed list items as one
// changed item (a diff of their own) rather than one removed and one
// inserted: when no more of their values differ than are equal, plus one.
func similar(w, g any) bool {
	same, diff := leafCounts(w, g)
	return same+1 >= diff
}

// leafCounts counts the equal and the differing values of w and g, key by
// key and item by item.
func leafCounts(w, g any) (same, diff int) {
	switch wv := w.(type) {
	case map[string]any:
		if gv, ok := g.(map[string]any); ok {
			for k, x := range wv {
				if y, ok := gv[k]; ok {
					s, d := leafCounts(x, y)
					same, diff = same+s, diff+d
				} else {
					diff++
				}
			}
			for k := range gv {
				if _, ok := wv[k]; !ok {
					diff++
				}
			}
			return same, diff
		}
	case []any:
		if gv, ok := g.([]any); ok {
			for i := range max(len(wv), len(gv)) {
				if i < len(wv) && i < len(gv) {
					s, d := leafCounts(wv[i], gv[i])
					same, diff = same+s, diff+d
				} else {
					diff++
				}
			}
			return same, diff
		}
	}
	if jsonEq(w, g) {
		return 1, 0
	}
	return 0, 1
}
