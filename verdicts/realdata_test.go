package verdicts_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/verdicts"
)

// Real judgments from the field (testdata/README.md and ../testdata/README.md
// name the sources), each with the value the benchmark's own code
// extracted. Per format the test counts:
//
//   - found: judgments read;
//   - official: those the benchmark's rule gave a value, and of them
//     unambiguous: the value is the only one the judgment states (no
//     fallback guess, no first-of-two);
//   - recovered: read as exactly the official value;
//   - invented: read as a value the official rule did not give, outside
//     the table of stated reasons below;
//   - refused: errors, each wrapping ErrUnreadableVerdict with a reason.
//
// It requires 0 invented and, per format, at least 99.5% of the
// unambiguous official values recovered.

// figures is one format's count.
type figures struct {
	format                                                                string
	sources                                                               []string
	found, official, unambiguous, recovered, invented, refused, explained int
}

// judged is one real judgment and what the benchmark's rule gave.
type judged struct {
	where    string
	text     string
	official string // the official value as text: "8", "B>A", "A"; "" for none
	// ambiguous: the official rule guessed (its fallback, or the first of
	// two different values): the value is not the judgment's alone.
	ambiguous bool
}

// explained are judgments read as a value the official rule did not give,
// each with the reason it is the judgment's own.
var explained = map[string]string{}

func tallyFormat(t *testing.T, f *verdicts.Format, scale evalkit.Scale, value func(evalkit.Verdict) string, items []judged) figures {
	t.Helper()
	fig := figures{format: f.Name()}
	for _, it := range items {
		fig.found++
		if it.official != "" {
			fig.official++
			if !it.ambiguous {
				fig.unambiguous++
			}
		}
		v, err := f.Parse(it.text, scale)
		if err != nil {
			fig.refused++
			if !errors.Is(err, evalkit.ErrUnreadableVerdict) {
				t.Errorf("%s: %s: a refusal that does not wrap ErrUnreadableVerdict: %v", f.Name(), it.where, err)
			}
			if msg := strings.TrimPrefix(err.Error(), evalkit.ErrUnreadableVerdict.Error()); len(msg) < 20 {
				t.Errorf("%s: %s: a refusal without its reason: %v", f.Name(), it.where, err)
			}
			continue
		}
		got := value(v)
		switch {
		case got == it.official:
			fig.recovered++
		case explained[it.where] != "":
			fig.explained++
		default:
			fig.invented++
			t.Errorf("%s: %s: read %q, the official rule gave %q", f.Name(), it.where, got, it.official)
		}
	}
	if fig.unambiguous > 0 {
		var recoveredUnambiguous int
		for _, it := range items {
			if it.official == "" || it.ambiguous {
				continue
			}
			if v, err := f.Parse(it.text, scale); err == nil && value(v) == it.official {
				recoveredUnambiguous++
			} else {
				t.Logf("%s: %s: official %q not recovered: %v", f.Name(), it.where, it.official, err)
			}
		}
		if rate := float64(recoveredUnambiguous) / float64(fig.unambiguous); rate < 0.995 {
			t.Errorf("%s: %d of %d unambiguous official values recovered (%.1f%%), want >= 99.5%%", f.Name(), recoveredUnambiguous, fig.unambiguous, 100*rate)
		}
	}
	return fig
}

func scoreValue(v evalkit.Verdict) string { return strconv.FormatFloat(v.RawScore, 'f', -1, 64) }
func labelValue(v evalkit.Verdict) string { return v.Label }

var (
	doubleBracket = regexp.MustCompile(`\[\[(\d+\.?\d*)\]\]`)
	singleBracket = regexp.MustCompile(`\[(\d+\.?\d*)\]`)
)

// mtBenchSingle reads MT-Bench single-answer lines. The official value is
// "score" (-1: none). It is ambiguous when it came from the [n] fallback
// or was the first of several different [[n]].
func mtBenchSingle(t *testing.T, path string) []judged {
	var out []judged
	for i, l := range readJSONL[struct {
		Judgment string   `json:"judgment"`
		Score    *float64 `json:"score"`
	}](t, path) {
		it := judged{where: fmt.Sprintf("%s:%d", path, i+1), text: l.Judgment}
		if l.Score != nil && *l.Score >= 0 {
			it.official = strconv.FormatFloat(*l.Score, 'f', -1, 64)
			all := distinct(doubleBracket.FindAllStringSubmatch(l.Judgment, -1))
			it.ambiguous = len(all) != 1 && !(len(all) == 0 && len(distinct(singleBracket.FindAllStringSubmatch(l.Judgment, -1))) == 0)
			if len(all) == 0 {
				it.ambiguous = true // the single-bracket fallback
			}
		}
		out = append(out, it)
	}
	return out
}

func distinct(ms [][]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		f, _ := strconv.ParseFloat(m[1], 64)
		k := strconv.FormatFloat(f, 'f', -1, 64)
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// mtBenchPair reads MT-Bench pairwise lines: two games each; the official
// winner is in model terms (game 2 shows model_2 as A).
func mtBenchPair(t *testing.T, path string) []judged {
	var out []judged
	for i, l := range readJSONL[struct {
		G1Judgment string `json:"g1_judgment"`
		G1Winner   string `json:"g1_winner"`
		G2Judgment string `json:"g2_judgment"`
		G2Winner   string `json:"g2_winner"`
	}](t, path) {
		for g, x := range [][2]string{{l.G1Judgment, l.G1Winner}, {l.G2Judgment, l.G2Winner}} {
			it := judged{where: fmt.Sprintf("%s:%d game %d", path, i+1, g+1), text: x[0]}
			switch {
			case x[1] == "tie":
				it.official = "C"
			case x[1] == "error":
			case (x[1] == "model_1") == (g == 0):
				it.official = "A"
			default:
				it.official = "B"
			}
			n := 0
			for _, lab := range []string{"[[A]]", "[[B]]", "[[C]]"} {
				if strings.Contains(x[0], lab) {
					n++
				}
			}
			it.ambiguous = n > 1
			out = append(out, it)
		}
	}
	return out
}

// arenaHard reads Arena-Hard pairwise lines: two games each, "score" the
// label get_score found (null: none).
func arenaHard(t testing.TB, path string) []judged {
	var out []judged
	for i, l := range readJSONL[struct {
		Games []*struct {
			Judgment string  `json:"judgment"`
			Score    *string `json:"score"`
		} `json:"games"`
	}](t, path) {
		for g, x := range l.Games {
			if x == nil {
				continue
			}
			it := judged{where: fmt.Sprintf("%s:%d game %d", path, i+1, g+1), text: x.Judgment}
			if x.Score != nil {
				it.official = *x.Score
			}
			out = append(out, it)
		}
	}
	return out
}

// vicuna reads FastChat's Vicuna reviews: "score" is the pair parse_score
// read from the first line, or, where it could not, one fixed by hand
// ("You must manually fix the score pair"): that is no official value.
func vicuna(t *testing.T, path string) []judged {
	var out []judged
	for i, l := range readJSONL[struct {
		Text  string    `json:"text"`
		Score []float64 `json:"score"`
	}](t, path) {
		it := judged{where: fmt.Sprintf("%s:%d", path, i+1), text: l.Text}
		first, _, _ := strings.Cut(l.Text, "\n")
		if len(strings.Split(strings.ReplaceAll(first, ",", " "), " ")) == 2 {
			it.official = fmt.Sprintf("%v %v", l.Score[0], l.Score[1])
		}
		out = append(out, it)
	}
	return out
}

func pairValue(v evalkit.Verdict) string {
	return fmt.Sprintf("%v %v", v.Criteria[0].RawScore, v.Criteria[1].RawScore)
}

func TestRealJudgments(t *testing.T) {
	ten := evalkit.Scale{Min: 1, Max: 10}
	var all []figures
	add := func(f figures, sources ...string) {
		f.sources = sources
		all = append(all, f)
	}

	var single []judged
	singleSources := []string{
		"../testdata/mt_bench/gpt4_single_llama3_8b.jsonl",
		"../testdata/mt_bench/localjudge_single_granite7b.jsonl",
		"testdata/mt_bench_ja/gpt-4_single_ja.jsonl",
	}
	for _, p := range singleSources {
		single = append(single, mtBenchSingle(t, p)...)
	}
	add(tallyFormat(t, verdicts.MTBenchSingle, ten, scoreValue, single), "FastChat GPT-4 (en)", "granite-7b local judge (en)", "GPT-4 Japanese MT-Bench (ja)")

	add(tallyFormat(t, verdicts.MTBenchPair, ten, labelValue, mtBenchPair(t, "../testdata/mt_bench/gpt4_pair_phi3_vs_phi3dpo.jsonl")), "FastChat GPT-4 pair-v2 (en)")

	var arena []judged
	for _, p := range []string{
		"testdata/arena_hard/el_claude-3.5-sonnet-v2.jsonl",
		"testdata/arena_hard/el_gpt-4o.jsonl",
		"testdata/arena_hard/en_gpt-3.5-turbo-0125.jsonl",
	} {
		arena = append(arena, arenaHard(t, p)...)
	}
	add(tallyFormat(t, verdicts.ArenaHard, ten, labelValue, arena), "claude-3.5-sonnet-v2 (el)", "gpt-4o (el)", "gpt-3.5-turbo-0125 (en)")

	var reviews []judged
	for _, p := range []string{
		"testdata/vicuna/review_bard_vicuna-13b.jsonl",
		"testdata/vicuna/review_gpt35_vicuna-13b.jsonl",
		"testdata/vicuna/review_llama_alpaca-13b.jsonl",
	} {
		reviews = append(reviews, vicuna(t, p)...)
	}
	add(tallyFormat(t, verdicts.VicunaPair, ten, pairValue, reviews), "gpt-4-0328 reviewer (en), 3 review tables")

	var grades []judged
	for i, l := range readJSONL[struct {
		Value       string `json:"value"`
		Explanation string `json:"explanation"`
	}](t, "testdata/inspect/model_graded_fact.jsonl") {
		grades = append(grades, judged{where: fmt.Sprintf("inspect %d", i+1), text: l.Explanation, official: l.Value})
	}
	add(tallyFormat(t, verdicts.InspectGrade, ten, labelValue, grades), "gpt-4o-mini (en), inspect_ai's test logs")

	var js []judged
	var wild []struct {
		ParsedResult json.RawMessage `json:"parsed_result"`
		Score        string          `json:"score"`
	}
	readJSON(t, "../testdata/judge_json/wildbench_score_gpt-4o_judge.json", &wild)
	for i, r := range wild {
		js = append(js, judged{where: fmt.Sprintf("wildbench %d", i), text: string(r.ParsedResult), official: r.Score})
	}
	// AlpacaEval's function-call judge ranks two outputs under random
	// labels ("m", "M"); the official value is the label of the output
	// its preference (1 or 2) names; a null completion (preference 1.5)
	// has none.
	var alpaca []struct {
		RawCompletion    json.RawMessage   `json:"raw_completion"`
		ReferencedModels map[string]string `json:"referenced_models"`
		Preference       float64           `json:"preference"`
	}
	readJSON(t, "../testdata/judge_json/alpaca_eval_cot_gpt4_turbo_fn_annotations.json", &alpaca)
	for i, r := range alpaca {
		it := judged{where: fmt.Sprintf("alpaca_eval %d", i), text: string(r.RawCompletion)}
		for label, out := range r.ReferencedModels {
			if out == fmt.Sprintf("output_%v", r.Preference) {
				it.official = label
			}
		}
		js = append(js, it)
	}
	jsonValue := func(v evalkit.Verdict) string {
		if v.Scored {
			return scoreValue(v)
		}
		return v.Label
	}
	add(tallyFormat(t, verdicts.JSONObject, ten, jsonValue, js), "WildBench gpt-4o (en)", "AlpacaEval gpt-4-turbo function calls (en)")

	require.NotEmpty(t, all)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-22s %6s %9s %12s %10s %9s %8s  %s\n", "format", "found", "official", "unambiguous", "recovered", "invented", "refused", "judges (language)")
	var tot figures
	for _, f := range all {
		fmt.Fprintf(&b, "%-22s %6d %9d %12d %10d %9d %8d  %s\n", f.format, f.found, f.official, f.unambiguous, f.recovered, f.invented, f.refused, strings.Join(f.sources, "; "))
		tot.found += f.found
		tot.official += f.official
		tot.unambiguous += f.unambiguous
		tot.recovered += f.recovered
		tot.invented += f.invented
		tot.refused += f.refused
	}
	fmt.Fprintf(&b, "%-22s %6d %9d %12d %10d %9d %8d\n", "all", tot.found, tot.official, tot.unambiguous, tot.recovered, tot.invented, tot.refused)
	t.Log(b.String())
	assert.Zero(t, tot.invented)
}

func readJSONL[T any](tb testing.TB, path string) []T {
	tb.Helper()
	data, err := os.ReadFile(path)
	require.NoError(tb, err)
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var v T
		require.NoError(tb, json.Unmarshal(sc.Bytes(), &v), "%s:%d", path, n)
		out = append(out, v)
	}
	require.NoError(tb, sc.Err())
	return out
}

func readJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	data, err := os.ReadFile(path)
	require.NoError(tb, err)
	require.NoError(tb, json.Unmarshal(data, v), path)
}

var _ = sort.Strings
