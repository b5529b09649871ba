package assert

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// argsDiffGen makes JSON-shaped argument objects and changed copies of
// them, in the shapes tool arguments take.
type argsDiffGen struct{ r *rand.Rand }

var genKeys = []string{"id", "order_id", "amount", "user", "items", "note", "flags", "a", "b", "payment_id", "dob", "ключ"}

func (g argsDiffGen) scalar() any {
	switch g.r.IntN(7) {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return float64(g.r.IntN(2000)) / []float64{1, 4, 1000}[g.r.IntN(3)]
	case 3:
		return int64(1<<53 + g.r.IntN(9))
	default:
		n := []int{0, 3, 12, 31, 40, 70, 140, 300}[g.r.IntN(8)]
		var b strings.Builder
		for b.Len() < n {
			b.WriteString([]string{"a", "b", "HAT0", " ", "\"", "`", "é", "\t", "\\", "\n"}[g.r.IntN(10)])
		}
		return b.String()
	}
}

func (g argsDiffGen) value(depth int) any {
	if depth > 3 || g.r.IntN(3) > 0 {
		return g.scalar()
	}
	if g.r.IntN(2) == 0 {
		m := map[string]any{}
		for range g.r.IntN(7) {
			m[genKeys[g.r.IntN(len(genKeys))]] = g.value(depth + 1)
		}
		return m
	}
	l := make([]any, g.r.IntN(7))
	for i := range l {
		l[i] = g.value(depth + 1)
	}
	return l
}

// change returns a copy of v with a few changes: values replaced, keys
// added or dropped, items changed in place or appended.
func (g argsDiffGen) change(v any, depth int) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			switch g.r.IntN(8) {
			case 0:
				continue
			case 1, 2:
				out[k] = g.change(e, depth+1)
			default:
				out[k] = e
			}
		}
		if g.r.IntN(4) == 0 {
			out[genKeys[g.r.IntN(len(genKeys))]] = g.value(depth + 1)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = e
			if g.r.IntN(4) == 0 {
				out[i] = g.change(e, depth+1)
			}
		}
		if g.r.IntN(4) == 0 {
			out = append(out, g.value(depth+1))
		}
		return out
	}
	if g.r.IntN(5) == 0 {
		return g.value(depth)
	}
	return g.scalar()
}

// cmpStable reports whether go-cmp's diff of w and g is one text: no two
// differing lists (go-cmp picks their edit script at random), no two
// differing strings of 32 bytes or more (cut in chunks), no removed or
// inserted string of four lines or more (written in triple quotes).
func cmpStable(w, g any) bool {
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			return stableAlone(w) && stableAlone(g)
		}
		for k, x := range wv {
			if y, ok := gv[k]; ok && !cmpStable(x, y) {
				return false
			} else if !ok && !stableAlone(x) {
				return false
			}
		}
		for k, y := range gv {
			if _, ok := wv[k]; !ok && !stableAlone(y) {
				return false
			}
		}
		return true
	case []any:
		gv, ok := g.([]any)
		if !ok {
			return stableAlone(w) && stableAlone(g)
		}
		return jsonEq(wv, gv)
	case string:
		if gs, ok := g.(string); ok && gs != wv && len(gs) >= 32 && len(wv) >= 32 {
			return false
		}
	}
	return stableAlone(w) && stableAlone(g)
}

func stableAlone(v any) bool {
	switch v := v.(type) {
	case string:
		return strings.Count(strings.TrimSuffix(v, "\n"), "\n") < 3
	case map[string]any:
		for _, e := range v {
			if !stableAlone(e) {
				return false
			}
		}
	case []any:
		for _, e := range v {
			if !stableAlone(e) {
				return false
			}
		}
	}
	return true
}

// showArgsDiff writes what cmp.Diff writes (with plain spaces) wherever
// go-cmp's own text is one text: random argument objects and changed
// copies, compared text for text.
func TestShowArgsDiffAsGoCmp(t *testing.T) {
	g := argsDiffGen{rand.New(rand.NewPCG(21, 4))}
	compared := 0
	for range 20000 {
		w := map[string]any{}
		for range 1 + g.r.IntN(8) {
			w[genKeys[g.r.IntN(len(genKeys))]] = g.value(1)
		}
		got := g.change(w, 0).(map[string]any)
		if !cmpStable(w, got) {
			continue
		}
		compared++
		want := strings.ReplaceAll(cmp.Diff(w, got), "\u00a0", " ")
		if have := showArgsDiff(w, got); have != want {
			t.Fatalf("want %#v\ngot %#v\ngo-cmp:\n%s\nshowArgsDiff:\n%s", w, got, want, have)
		}
	}
	if compared < 5000 {
		t.Fatalf("only %d pairs compared", compared)
	}
	t.Logf("%d pairs compared", compared)
}

// Where go-cmp's text is not one text, showArgsDiff's own: lists by their
// longest common run (similar items paired, others removed then
// inserted), two long strings on a - and a + line.
func TestShowArgsDiffOwnChoices(t *testing.T) {
	pay := func(amount float64, id string) map[string]any {
		return map[string]any{"amount": amount, "payment_id": id}
	}
	long := strings.Repeat("The user wants a refund. ", 3)
	for name, c := range map[string]struct {
		want, got map[string]any
		text      string
	}{
		"an item inserted between equal ones": {
			map[string]any{"payments": []any{pay(500, "certificate_1"), pay(198, "gift_card_2"), pay(1786, "credit_card_3")}},
			map[string]any{"payments": []any{pay(500, "certificate_1"), pay(250, "certificate_4"), pay(198, "gift_card_2"), pay(298, "credit_card_3")}},
			"  map[string]any{\n  \t\"payments\": []any{\n" +
				"  \t\tmap[string]any{\"amount\": float64(500), \"payment_id\": string(\"certificate_1\")},\n" +
				"+ \t\tmap[string]any{\"amount\": float64(250), \"payment_id\": string(\"certificate_4\")},\n" +
				"  \t\tmap[string]any{\"amount\": float64(198), \"payment_id\": string(\"gift_card_2\")},\n" +
				"  \t\tmap[string]any{\n- \t\t\t\"amount\":     float64(1786),\n+ \t\t\t\"amount\":     float64(298),\n  \t\t\t\"payment_id\": string(\"credit_card_3\"),\n  \t\t},\n" +
				"  \t},\n  }\n",
		},
		"items with nothing in common": {
			map[string]any{"payments": []any{pay(128, "gift_card_1"), pay(247, "credit_card_2")}},
			map[string]any{"payments": []any{pay(299, "certificate_3")}},
			"  map[string]any{\n  \t\"payments\": []any{\n" +
				"- \t\tmap[string]any{\"amount\": float64(128), \"payment_id\": string(\"gift_card_1\")},\n" +
				"- \t\tmap[string]any{\"amount\": float64(247), \"payment_id\": string(\"credit_card_2\")},\n" +
				"+ \t\tmap[string]any{\"amount\": float64(299), \"payment_id\": string(\"certificate_3\")},\n" +
				"  \t},\n  }\n",
		},
		"two long strings": {
			map[string]any{"summary": long + "X", "id": "W1"},
			map[string]any{"summary": long + "Y", "id": "W1"},
			"  map[string]any{\n  \t\"id\":      string(\"W1\"),\n" +
				"- \t\"summary\": string(\"" + long + "X\"),\n" +
				"+ \t\"summary\": string(\"" + long + "Y\"),\n  }\n",
		},
	} {
		if have := showArgsDiff(c.want, c.got); have != c.text {
			t.Errorf("%s:\n%s\nwant:\n%s", name, have, c.text)
		}
	}
	if have := showArgsDiff(map[string]any{"a": 1.0}, map[string]any{"a": 1.0}); have != "" {
		t.Errorf("equal arguments: %q", have)
	}
}

// The diff redacts what the process knows as secret, in values and keys,
// and credential fields, as showDiff does; a difference inside a secret
// alone shows as no difference.
func TestShowArgsDiffRedacts(t *testing.T) {
	key := "sk-proj-Qm4Tz8Lw2Xc6Vb9Nr1Ks5Hd7Jf3Gp0Ya" + strings.Repeat("Lk7Mn3", 6)
	t.Setenv("OPENAI_API_KEY", key)
	diff := showArgsDiff(
		map[string]any{"note": "use " + key, key: 1.0, "password": "hunter2hunter2", "n": 1.0},
		map[string]any{"note": "use " + key, key: 1.0, "password": "hunter3hunter3", "n": 2.0})
	for _, f := range []string{key, key[8:16], "hunter"} {
		if strings.Contains(diff, f) {
			t.Errorf("the diff shows %q:\n%s", f, diff)
		}
	}
	if !strings.Contains(diff, "[redacted:openai-key]") {
		t.Errorf("the diff:\n%s", diff)
	}
	want := strings.ReplaceAll(cmp.Diff(
		map[string]any{"note": "use [redacted:openai-key]", "[redacted:openai-key]": 1.0, "password": "[redacted:credential]", "n": 1.0},
		map[string]any{"note": "use [redacted:openai-key]", "[redacted:openai-key]": 1.0, "password": "[redacted:credential]", "n": 2.0}), "\u00a0", " ")
	if diff != want {
		t.Errorf("the diff:\n%s\nwant:\n%s", diff, want)
	}
}

// Where plainASCII holds, strconv.Quote adds nothing but the two quotes,
// so quoteGo and scalarLine may skip it: every byte alone and every pair
// of bytes; and it holds for each printable ASCII byte but " and \.
func TestPlainASCIIIsUnquotedByStrconv(t *testing.T) {
	for a := range 256 {
		for b := range 257 {
			s := string([]byte{byte(a)})
			if b < 256 {
				s += string([]byte{byte(b)})
			}
			if plainASCII(s) && strconv.Quote(s) != `"`+s+`"` {
				t.Fatalf("plainASCII(%q), but strconv.Quote writes %s", s, strconv.Quote(s))
			}
			if want := b == 256 && a >= 0x20 && a <= 0x7e && a != '"' && a != '\\'; b == 256 && plainASCII(s) != want {
				t.Fatalf("plainASCII(%q) = %v, want %v", s, !want, want)
			}
		}
	}
}
