package verdicts_test

import (
	"errors"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/verdicts"
)

// FuzzFormats: on any answer every format returns a verdict or an error
// wrapping ErrUnreadableVerdict, never a panic; a preference it returns is
// one of the five, and a score is on the scale. Seeds: the real judgments.
func FuzzFormats(f *testing.F) {
	for _, p := range []string{"testdata/arena_hard/en_gpt-3.5-turbo-0125.jsonl", "testdata/mt_bench_ja/gpt-4_single_ja.jsonl", "testdata/vicuna/review_bard_vicuna-13b.jsonl"} {
		for _, l := range readJSONL[struct {
			Judgment string `json:"judgment"`
			Text     string `json:"text"`
			Games    []struct {
				Judgment string `json:"judgment"`
			} `json:"games"`
		}](f, p)[:5] {
			f.Add(l.Judgment + l.Text)
			for _, g := range l.Games {
				f.Add(g.Judgment)
			}
		}
	}
	for _, s := range []string{"[[A>>B]]", "Feedback: x [RESULT] 4", "[RESULT] B", "GRADE: C", "M", "8 9\n", "{\"score\": 8}", "```\nRating: [[5]]"} {
		f.Add(s)
	}
	formats := append(verdicts.Formats(), verdicts.Choice("m", "M"))
	f.Fuzz(func(t *testing.T, raw string) {
		for _, fm := range formats {
			scale := evalkit.Scale{Min: 1, Max: 10}
			if fm == verdicts.PrometheusAbsolute {
				scale = evalkit.Scale{Min: 1, Max: 5}
			}
			v, err := fm.Parse(raw, scale)
			if err != nil {
				if !errors.Is(err, evalkit.ErrUnreadableVerdict) {
					t.Fatalf("%s: an error that does not wrap ErrUnreadableVerdict: %v", fm.Name(), err)
				}
				continue
			}
			if p := v.Preference; p != nil {
				if s := p.String(); s != "A>>B" && s != "A>B" && s != "A=B" && s != "B>A" && s != "B>>A" {
					t.Fatalf("%s: preference %v", fm.Name(), s)
				}
			}
			if v.Scored && (v.Score < 0 || v.Score > 1 || v.RawScore < scale.Min || v.RawScore > scale.Max) {
				t.Fatalf("%s: score %v (raw %v) off the scale", fm.Name(), v.Score, v.RawScore)
			}
		}
	})
}
