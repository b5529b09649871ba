package evalkit_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

// ParseVerdict on real judge outputs (testdata/README.md names the
// sources). The official extraction of MT-Bench and Arena-Hard is the first
// [[n]], else the first [n], else -1 (Arena-Hard: null). On every line the
// official rule scored, ParseVerdict must return that score or an error the
// table below explains; on every line it did not, an error or a score the
// table names. It never returns a number the table does not.

// singleLine is one MT-Bench or Arena-Hard single-answer judgment.
type singleLine struct {
	QuestionID any      `json:"question_id"` // a number, or an Arena-Hard hash
	Turn       int      `json:"turn"`
	Model      string   `json:"model"`
	Judgment   string   `json:"judgment"`
	Score      *float64 `json:"score"` // -1 or null: the official rule found none
}

func (l singleLine) key(withModel bool) string {
	k := fmt.Sprintf("%v/%d", l.QuestionID, l.Turn)
	if l.Turn == 0 { // Arena-Hard has no turns
		k = fmt.Sprint(l.QuestionID)
	}
	if withModel {
		k += "/" + l.Model
	}
	return k
}

func (l singleLine) officialScored() bool { return l.Score != nil && *l.Score >= 0 }

// expectation says what ParseVerdict returns for one line and why.
type expectation struct {
	score float64 // the RawScore returned, when err is ""
	err   string  // a substring of the error returned
	why   string
}

const (
	errNoVerdict = "no verdict this parser can read with certainty"
	errFailed    = "the judge call failed"
	errConflict  = "conflicting scores"
	errBare      = "a bare number"
)

// gpt4Exceptions covers the lines of gpt4_single_llama3_8b.jsonl the
// official rule scored -1 (keyed question/turn/model: question 84 turn 1
// was judged for both models). Every other line is read as officially.
var gpt4Exceptions = map[string]expectation{
	"81/1/Meta-Llama-3-8B-Instruct-Normal": {err: errFailed, why: "$ERROR$: the judge call failed"},
	"82/1/Meta-Llama-3-8B-Instruct-Normal": {err: errFailed, why: "$ERROR$: the judge call failed"},
	"83/1/Meta-Llama-3-8B-Instruct-Normal": {err: errFailed, why: "$ERROR$: the judge call failed"},
	"84/1/Meta-Llama-3-8B-Instruct-Normal": {err: errFailed, why: "$ERROR$: the judge call failed"},
}

// arenaExceptions covers the Arena-Hard lines with score null. This
// excerpt has none (all 25 were scored), though the shared data notes
// describe nulls ("9/10", [[9.5]], a cut-off judgment) in the full file.
var arenaExceptions = map[string]expectation{}

// granite covers every line of localjudge_single_granite7b.jsonl, a small
// local model judging under the name "gpt-4": the trap file. Where the
// official score is >= 0 and ParseVerdict returns an error, why says what
// the official rule got wrong.
var granite = map[string]expectation{
	"117/1": {score: 10, why: `"Rating: [[10]]"; the "Confidence: 95%" after it is not a score`},
	"155/1": {err: errNoVerdict, why: `prose only: "I would rate it a 10"; no [[rating]] as the prompt asks`},
	"112/1": {err: errNoVerdict, why: `"response rate is 10/10" mid-sentence, not a score line`},
	"144/1": {score: 10, why: `"Rating: [[10]]"`},
	"110/1": {score: 8, why: `"Rating: [[8]]" before the explanation`},
	"113/1": {score: 5, why: `"Rating: [[5]] (Excellent)": 5 is what it wrote, odd as "Excellent" is for a 5 of 10`},
	"114/1": {score: 1, why: `"Rating: [[1]]"`},
	"84/2":  {err: errNoVerdict, why: `only "Confidence: 9/10", a confidence and not a rating`},
	"83/1":  {err: errNoVerdict, why: "no rating: the judge rewrote the outline instead"},
	"112/2": {score: 9, why: `"The rating for this conversation is [[9]]"`},
	"97/2":  {err: errNoVerdict, why: "no rating, only praise"},
	"107/2": {score: 5, why: `quotes the prompt's "Rating: [[5]]" and then rates the response "a 5": the same number`},
	"115/1": {score: 1, why: `"Rating: [[1]]"`},
	"103/1": {err: errConflict, why: `official 8 is the first of three bracketed numbers: "Rating: [[8]]" then "resulting in a rating of [[9]] or [[10]]"; ` +
		"the official rule never looks past the first, and which one is the verdict is a reading of the prose, not of the format"},
	"95/1":  {score: 8, why: `"Rating: [[8]]"; the later "an 8 out of 10" agrees (prose is not read)`},
	"127/1": {err: errNoVerdict, why: "official 0 came from the fallback rule's [n] matching `array[0]` inside a python code fence; the judge gave no rating, and 0 is not even on the 1-10 scale"},
	"153/1": {err: errBare, why: `the whole answer is "5.0": nothing says it is the rating (it asked for [[rating]])`},
	"152/1": {score: 5, why: `quotes the format "Rating: [[5]]" and says "the response is rated a 5": the same number`},
	"116/1": {err: errNoVerdict, why: "no rating: the judge solved the equations itself"},
	"145/1": {err: errBare, why: `the whole answer is "10.0": nothing says it is the rating`},
	"104/1": {score: 9, why: `"earning a rating of [[9]]"`},
	"130/2": {err: errNoVerdict, why: "no rating: the judge invented an Assistant B conversation; its [3, 4, 5] are code output in a fence"},
	"140/2": {err: errFailed, why: "$ERROR$: the judge call failed"},
	"123/1": {err: errNoVerdict, why: `prose only: "is rated as a 10"`},
	"130/1": {score: 5, why: `"Rating: [[5]]" after the evaluation`},
	"127/2": {err: errNoVerdict, why: "official 0 came from the fallback rule's [n] matching `array[0]` inside code the judge wrote; the judge gave no rating"},
	"88/2":  {err: errNoVerdict, why: `only "Confidence: 9/10." and praise`},
	"158/1": {score: 9, why: `"Rating: [[9]]" and "The rating of [[9]]": the same verdict twice`},
	"154/2": {err: errFailed, why: "$ERROR$: the judge call failed"},
	"126/2": {err: errFailed, why: "$ERROR$: the judge call failed"},
}

func TestParseVerdictMTBenchGPT4(t *testing.T) {
	checkSingleFile(t, "testdata/mt_bench/gpt4_single_llama3_8b.jsonl", true, gpt4Exceptions, false)
}

func TestParseVerdictArenaHard(t *testing.T) {
	checkSingleFile(t, "testdata/arena_hard/gpt4_judge_arena_bench_v1_gpt-4-0314.jsonl", false, arenaExceptions, false)
}

func TestParseVerdictMTBenchLocalJudge(t *testing.T) {
	checkSingleFile(t, "testdata/mt_bench/localjudge_single_granite7b.jsonl", false, granite, true)
}

// checkSingleFile checks every line of a single-answer judgment file. Lines
// in table must behave as it says; with every set, the table covers every
// line; lines outside it must read as the official score.
func checkSingleFile(t *testing.T, path string, withModel bool, table map[string]expectation, every bool) {
	t.Helper()
	lines := readJSONL[singleLine](t, path)
	used := map[string]bool{}
	var matched, errorsByDesign, officialScoredButError int
	for _, l := range lines {
		key := l.key(withModel)
		v, err := evalkit.ParseVerdict(l.Judgment, ten)
		want, listed := table[key]
		switch {
		case listed:
			used[key] = true
			if want.err != "" {
				if assert.Error(t, err, "%s: %s", key, want.why) {
					assert.ErrorIs(t, err, evalkit.ErrUnreadableVerdict, key)
					assert.Contains(t, err.Error(), want.err, "%s: %s", key, want.why)
				}
				errorsByDesign++
				if l.officialScored() {
					officialScoredButError++
				}
				continue
			}
			if assert.NoError(t, err, "%s: %s", key, want.why) {
				assert.Equal(t, want.score, v.RawScore, "%s: %s", key, want.why)
			}
			if l.officialScored() && want.score == *l.Score {
				matched++
			}
		case every:
			t.Errorf("%s: not in the table, which must cover every line of %s", key, path)
		case !l.officialScored():
			t.Errorf("%s: the official rule found no score (%v), and the table does not say what ParseVerdict returns: %v %v", key, l.Score, v.RawScore, err)
		default:
			if assert.NoError(t, err, key) {
				assert.True(t, v.Scored, key)
				assert.Equal(t, *l.Score, v.RawScore, "%s: the official score", key)
			}
			matched++
		}
	}
	for key := range table {
		assert.True(t, used[key], "table entry %s matches no line of %s", key, path)
	}
	t.Logf("%s: %d lines: %d read as the official score, %d errors by design (%d of them officially scored), %d table entries",
		path, len(lines), matched, errorsByDesign, officialScoredButError, len(table))
}

// pairLine is one MT-Bench pairwise judgment, judged twice: in game 2 the
// answers are shown in the other order.
type pairLine struct {
	QuestionID int    `json:"question_id"`
	Turn       int    `json:"turn"`
	G1Judgment string `json:"g1_judgment"`
	G1Winner   string `json:"g1_winner"`
	G2Judgment string `json:"g2_judgment"`
	G2Winner   string `json:"g2_winner"`
}

// pairWinner maps a pairwise label to FastChat's winner names: in game 1
// Assistant A is model_1, in game 2 it is model_2.
func pairWinner(label string, game int) string {
	switch {
	case label == "C":
		return "tie"
	case (label == "A") == (game == 1):
		return "model_1"
	}
	return "model_2"
}

func TestParseVerdictMTBenchPairwise(t *testing.T) {
	lines := readJSONL[pairLine](t, "testdata/mt_bench/gpt4_pair_phi3_vs_phi3dpo.jsonl")
	var matched, failedCalls int
	for _, l := range lines {
		for game, g := range []struct{ judgment, winner string }{{l.G1Judgment, l.G1Winner}, {l.G2Judgment, l.G2Winner}} {
			name := fmt.Sprintf("%d/%d game %d", l.QuestionID, l.Turn, game+1)
			v, err := evalkit.ParseVerdict(g.judgment, ten)
			if g.winner == "error" {
				require.Equal(t, "$ERROR$", g.judgment, name)
				if assert.ErrorIs(t, err, evalkit.ErrUnreadableVerdict, name) {
					assert.Contains(t, err.Error(), errFailed, name)
				}
				failedCalls++
				continue
			}
			require.NoError(t, err, name)
			assert.Contains(t, []string{"A", "B", "C"}, v.Label, name)
			assert.False(t, v.Scored, "%s: a pairwise label is not a score", name)
			assert.Equal(t, g.winner, pairWinner(v.Label, game+1), name)
			matched++
		}
	}
	assert.Equal(t, 2*len(lines), matched+failedCalls)
	t.Logf("pairwise: %d lines, %d judgments: %d read as the official winner, %d $ERROR$ errors", len(lines), 2*len(lines), matched, failedCalls)
}

// WildBench's parsed_result holds the score as a string: "8".
func TestParseVerdictWildBench(t *testing.T) {
	var records []struct {
		ParsedResult json.RawMessage `json:"parsed_result"`
		Score        string          `json:"score"`
	}
	readJSON(t, "testdata/judge_json/wildbench_score_gpt-4o_judge.json", &records)
	require.NotEmpty(t, records)
	for i, r := range records {
		v, err := evalkit.ParseVerdict(string(r.ParsedResult), ten)
		require.NoError(t, err, "record %d", i)
		want, err := strconv.ParseFloat(r.Score, 64)
		require.NoError(t, err)
		assert.True(t, v.Scored)
		assert.Equal(t, want, v.RawScore, "record %d", i)
		assert.Contains(t, v.Fields, "strengths")
	}
	t.Logf("wildbench: %d records, all read as their score", len(records))
}

// AlpacaEval's function-call judge ranks two outputs under random labels
// ("m", "M"); referenced_models says which output each label was, and
// preference 1 or 2 is the output ranked first. A null raw_completion (the
// function call could not be parsed; AlpacaEval then records 1.5) reaches
// ParseVerdict as the JSON text "null", and is an error.
func TestParseVerdictAlpacaEval(t *testing.T) {
	var records []struct {
		RawCompletion    json.RawMessage   `json:"raw_completion"`
		ReferencedModels map[string]string `json:"referenced_models"`
		Preference       float64           `json:"preference"`
	}
	readJSON(t, "testdata/judge_json/alpaca_eval_cot_gpt4_turbo_fn_annotations.json", &records)
	require.NotEmpty(t, records)
	var ranked, nulls int
	for i, r := range records {
		v, err := evalkit.ParseVerdict(string(r.RawCompletion), ten)
		if string(r.RawCompletion) == "null" {
			assert.ErrorIs(t, err, evalkit.ErrUnreadableVerdict, "record %d", i)
			assert.Equal(t, 1.5, r.Preference, "record %d: AlpacaEval's value for an unparsed completion", i)
			nulls++
			continue
		}
		require.NoError(t, err, "record %d", i)
		assert.Equal(t, fmt.Sprintf("output_%v", r.Preference), r.ReferencedModels[v.Label], "record %d: label %q", i, v.Label)
		assert.NotEmpty(t, v.Reasoning, "record %d: concise_explanation", i)
		ranked++
	}
	assert.Positive(t, nulls)
	t.Logf("alpaca_eval: %d records: %d ranked as the record's preference, %d null completions are errors", len(records), ranked, nulls)
}

// realJudgments returns every judgment text in testdata: the fuzz seeds.
func realJudgments(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for _, path := range []string{
		"testdata/mt_bench/gpt4_single_llama3_8b.jsonl",
		"testdata/mt_bench/localjudge_single_granite7b.jsonl",
		"testdata/arena_hard/gpt4_judge_arena_bench_v1_gpt-4-0314.jsonl",
	} {
		for _, l := range readJSONL[singleLine](tb, path) {
			out = append(out, l.Judgment)
		}
	}
	for _, l := range readJSONL[pairLine](tb, "testdata/mt_bench/gpt4_pair_phi3_vs_phi3dpo.jsonl") {
		out = append(out, l.G1Judgment, l.G2Judgment)
	}
	var wild []struct {
		ParsedResult json.RawMessage `json:"parsed_result"`
	}
	readJSON(tb, "testdata/judge_json/wildbench_score_gpt-4o_judge.json", &wild)
	for _, r := range wild {
		out = append(out, string(r.ParsedResult))
	}
	var alpaca []struct {
		RawCompletion json.RawMessage `json:"raw_completion"`
	}
	readJSON(tb, "testdata/judge_json/alpaca_eval_cot_gpt4_turbo_fn_annotations.json", &alpaca)
	for _, r := range alpaca {
		out = append(out, string(r.RawCompletion))
	}
	return out
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

// BenchmarkParseVerdictRealJudgments reads every real judgment in testdata
// (the fuzz seeds: MT-Bench, Arena-Hard, WildBench, AlpacaEval) once per
// iteration; the baseline is MT-Bench's own extraction, a regexp for the
// first [[n]], on the same texts.
func BenchmarkParseVerdictRealJudgments(b *testing.B) {
	texts := realJudgments(b)
	var size int64
	for _, s := range texts {
		size += int64(len(s))
	}
	b.Run("ParseVerdict", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range texts {
				_, _ = evalkit.ParseVerdict(s, ten)
			}
		}
	})
	b.Run("official_regexp", func(b *testing.B) {
		official := regexp.MustCompile(`\[\[(\d+\.?\d*)\]\]`)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range texts {
				_ = official.FindStringSubmatch(s)
			}
		}
	})
}
