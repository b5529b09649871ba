package openaijudge_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// mtBenchLine is one line of FastChat's MT-Bench single-answer judgments.
type mtBenchLine struct {
	QuestionID int     `json:"question_id"`
	Turn       int     `json:"turn"`
	UserPrompt string  `json:"user_prompt"`
	Judgment   string  `json:"judgment"`
	Score      float64 `json:"score"`
}

func readMTBench(t *testing.T, path string) []mtBenchLine {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var lines []mtBenchLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l mtBenchLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
		lines = append(lines, l)
	}
	require.NoError(t, sc.Err())
	return lines
}

// between returns the text between two markers of an MT-Bench prompt.
func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	s = s[i+len(start):]
	if j := strings.Index(s, end); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(s)
}

// TestOpenaijudgeMTBenchEndToEnd serves the real GPT-4 judgments of
// MT-Bench (FastChat's gpt4_single judge on Llama-3-8B answers) as chat
// completions from a fake server on a real socket, and reads them back
// through openaijudge: every judgment FastChat scored (score ≥ 0) becomes
// a verdict with that RawScore, and the failed calls FastChat marked -1
// ("$ERROR$") become errors wrapping evalkit.ErrUnreadableVerdict, never a
// verdict.
func TestOpenaijudgeMTBenchEndToEnd(t *testing.T) {
	lines := readMTBench(t, "../testdata/mt_bench/gpt4_single_llama3_8b.jsonl")
	require.Len(t, lines, 60)
	var script []judgefake.Reply
	for _, l := range lines {
		script = append(script, judgefake.Reply{Text: l.Judgment, Model: "gpt-4-0613"})
	}
	srv := judgefake.NewServer(script...)
	defer srv.Close()
	j := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("sk-test"), openaijudge.WithModel("gpt-4"), openaijudge.WithHTTPClient(srv.Client()))

	scored, failed := 0, 0
	for _, l := range lines {
		req := evalkit.JudgeRequest{
			Criteria: "A helpful, relevant, accurate and detailed answer to the question",
			Input:    between(l.UserPrompt, "[Question]", "[The Start of Assistant's Answer]"),
			Content:  between(l.UserPrompt, "[The Start of Assistant's Answer]", "[The End of Assistant's Answer]"),
			Scale:    evalkit.Scale{Min: 1, Max: 10},
		}
		v, err := j.Judge(context.Background(), req)
		if l.Score < 0 {
			failed++
			assert.ErrorIs(t, err, evalkit.ErrUnreadableVerdict, "question %d turn %d", l.QuestionID, l.Turn)
			assert.Equal(t, evalkit.Verdict{}, v)
			continue
		}
		scored++
		if !assert.NoError(t, err, "question %d turn %d", l.QuestionID, l.Turn) {
			continue
		}
		assert.Equal(t, l.Score, v.RawScore, "question %d turn %d", l.QuestionID, l.Turn)
		assert.InDelta(t, (l.Score-1)/9, v.Score, 1e-12)
		assert.Equal(t, l.Judgment, v.Raw)
		assert.Equal(t, "gpt-4-0613", v.Model)
		assert.Positive(t, v.Usage.InputTokens)
	}
	assert.Equal(t, 56, scored)
	assert.Equal(t, 4, failed)
	assert.Equal(t, 60, len(srv.Requests()), "one request per judgment: no retries, no fallback")
	require.NoError(t, srv.Err())
}

// TestOpenaijudgeConformance runs judgefake.TestJudge on an openaijudge
// judge backed by a fake server on a real socket.
func TestOpenaijudgeConformance(t *testing.T) {
	var script []judgefake.Reply
	for range 200 {
		// A score of 1 lies on every scale TestJudge uses.
		script = append(script, judgefake.Text(`{"reasoning": "Meets the criteria in part.", "score": 1}`))
	}
	srv := judgefake.NewServer(script...)
	defer srv.Close()
	j := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("sk-test"), openaijudge.WithHTTPClient(srv.Client()))
	require.NoError(t, judgefake.TestJudge(j))
}
