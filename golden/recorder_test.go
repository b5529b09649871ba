package golden_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
)

// Record with a fake, then replay with a judge that fails if called: no
// live call, and the very verdicts the record run returned.
func TestGoldenRecordThenReplay(t *testing.T) {
	path := recordingPath(t)
	live := newLive(testIdentity)
	rec, err := golden.New(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	ctx := context.Background()
	var reqs []evalkit.JudgeRequest
	var recorded []evalkit.Verdict
	for i := range 5 {
		req := refundRequest()
		req.Content = fmt.Sprintf("%s (run %d)", req.Content, i)
		v, origin, err := rec.JudgeOrigin(ctx, req)
		require.NoError(t, err)
		assert.Equal(t, golden.OriginRecorded, origin)
		reqs, recorded = append(reqs, req), append(recorded, v)
	}
	assert.Equal(t, richVerdict(reqs[0]), recorded[0], "the recorded verdict is the judge's, exactly")
	require.NoError(t, rec.Save())
	assert.EqualValues(t, 5, live.calls.Load())

	replay, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	for i, req := range reqs {
		v, origin, err := replay.JudgeOrigin(ctx, req)
		require.NoError(t, err)
		assert.Equal(t, golden.OriginReplayed, origin)
		assert.Equal(t, recorded[i], v, "request %d", i)
	}
	require.NoError(t, replay.Save())
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(string(after), "}\n"))
	assert.NotContains(t, string(after), "\r")
	assert.NotContains(t, string(after), `\u003c`, "no HTML escaping: < reads as <")
}

// A replayed verdict is the caller's own: changing it changes nothing
// recorded.
func TestGoldenReplayReturnsACopy(t *testing.T) {
	path := recordingPath(t)
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	v, err := rec.Judge(context.Background(), refundRequest())
	require.NoError(t, err)
	v.Fields["label"] = "changed"
	*v.Passed = false
	again, err := rec.Judge(context.Background(), refundRequest())
	require.NoError(t, err)
	assert.Equal(t, "yes", again.Fields["label"])
	assert.True(t, *again.Passed)
}

func TestGoldenReplayMiss(t *testing.T) {
	path := recordingPath(t)
	ctx := context.Background()

	// No file at all.
	rec, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	_, err = rec.Judge(ctx, refundRequest())
	require.ErrorIs(t, err, golden.ErrNotRecorded)
	var nr *golden.NotRecordedError
	require.ErrorAs(t, err, &nr)
	assert.True(t, nr.NoFile)
	assert.Regexp(t, `^golden: not recorded: .*TestX\.judge\.json does not exist \(key sha256:[0-9a-f]{12}\)$`, err.Error())

	// Recorded, then asked with other criteria.
	rec, err = golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(ctx, refundRequest())
	require.NoError(t, err)
	require.NoError(t, rec.Save())

	rec, err = golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	req := refundRequest()
	req.Criteria = "Confirms the refund"
	v, err := rec.Judge(ctx, req)
	assert.Equal(t, evalkit.Verdict{}, v, "a miss is no verdict")
	require.ErrorAs(t, err, &nr)
	key, kerr := golden.Key(testIdentity, req)
	require.NoError(t, kerr)
	assert.Equal(t, key, nr.Key)
	recordedKey, _ := golden.Key(testIdentity, refundRequest())
	assert.Equal(t, recordedKey, nr.Nearest)
	assert.Equal(t, []golden.Difference{{Field: "criteria", Now: `"Confirms the refund"`, Recorded: `"Confirms the refund and states the amount"`}}, nr.Differs)
	assert.Equal(t, fmt.Sprintf(`golden: not recorded: %s has no verdict for this request (key %s); nearest entry %s differs in criteria: now "Confirms the refund", recorded "Confirms the refund and states the amount"`,
		path, golden.ShortKey(key), golden.ShortKey(recordedKey)), err.Error())
}

// What differs is said field by field, the judge's identity first; text
// the recording keeps only an excerpt of is told apart by its digest.
func TestGoldenMissSaysWhatDiffers(t *testing.T) {
	path := recordingPath(t)
	long := refundRequest()
	long.Content = strings.Repeat("The refund of $42 is on its way. ", 40)
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), long)
	require.NoError(t, err)
	require.NoError(t, rec.Save())

	id := testIdentity
	id.Settings = map[string]any{"temperature": 0.7, "max_tokens": 512, "seed": 1}
	id.Model = "judge-max"
	req := long
	req.Content += "!"
	req.Scale = evalkit.Scale{Min: 1, Max: 5}
	replay, err := golden.New(path, &liveJudge{id: id})
	require.NoError(t, err)
	_, err = replay.Judge(context.Background(), req)
	var nr *golden.NotRecordedError
	require.ErrorAs(t, err, &nr)
	assert.Equal(t, []golden.Difference{
		{Field: "judge.model", Now: `"judge-max"`, Recorded: `"judge-mini"`},
		{Field: "judge.settings.seed", Now: "1", Recorded: "(not set)"},
		{Field: "judge.settings.temperature", Now: "0.7", Recorded: "0"},
		{Field: "content", Now: `…" $42 is on its way. The refund of $42 is on its way. The refund of $42 is on its"… [865 more bytes]`, Recorded: "(the same first 400 bytes: the recording keeps no more)"},
		{Field: "scale", Now: "1–5", Recorded: "0–10"},
	}, nr.Differs)

	// Within the excerpt, both sides show where the texts part.
	req = long
	req.Content = strings.Replace(req.Content, "$42", "$43", 2)
	replay, err = golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	_, err = replay.Judge(context.Background(), req)
	require.ErrorAs(t, err, &nr)
	assert.Equal(t, []golden.Difference{{Field: "content",
		Now:      `"The refund of $43 is on its way. The refund of $43 is on its way. The refund of "… [1240 more bytes]`,
		Recorded: `"The refund of $42 is on its way. The refund of $42 is on its way. The refund of "… [320 more bytes]`,
	}}, nr.Differs)
}

func TestGoldenBadFiles(t *testing.T) {
	for name, tt := range map[string]struct{ data, want string }{
		"not JSON":        {"{\n  \"version\": 1,\n  \"entries\": [\n}", `golden: PATH: not a recording: line 4, column 1: invalid character '}' looking for beginning of value`},
		"empty":           {"", `golden: PATH: not a recording: the JSON ends too early`},
		"no version":      {`{"entries": []}`, `golden: PATH: not a recording: it has no "version"`},
		"unknown version": {`{"version": 2, "entries": {"another": "shape"}}`, `golden: PATH: format version 2, and this evalkit reads version 1: update evalkit, or re-record the file`},
		"bad key":         {`{"version": 1, "entries": [{"key": "md5:abc"}]}`, `golden: PATH: entry 1: key "md5:abc" is not sha256: and 64 hex digits`},
		"trailing data":   {`{"version": 1, "entries": []} {}`, `golden: PATH: not a recording: more data after its JSON object`},
	} {
		t.Run(name, func(t *testing.T) {
			path := recordingPath(t)
			require.NoError(t, os.MkdirAll(strings.TrimSuffix(path, "TestX.judge.json"), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(tt.data), 0o644))
			for _, mode := range []golden.Mode{golden.ModeReplay, golden.ModeRecord, golden.ModeRefresh} {
				_, err := golden.New(path, newLive(testIdentity), golden.WithMode(mode))
				assert.EqualError(t, err, strings.ReplaceAll(tt.want, "PATH", path), mode.String())
			}
			_, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeLive))
			assert.NoError(t, err, "live mode reads no recording")
		})
	}
}

func TestGoldenNewNeedsAnIdentity(t *testing.T) {
	_, err := golden.New(recordingPath(t), evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.Verdict{}, nil
	}))
	assert.EqualError(t, err, "golden: evalkit.JudgeFunc has no Identity, so its verdicts cannot be keyed: give it an Identity method (evalkit.Identifier), or use ModeLive")
	_, err = golden.New(recordingPath(t), &liveJudge{})
	assert.ErrorContains(t, err, "Identity has no Provider")
	_, err = golden.New(recordingPath(t), nil)
	assert.EqualError(t, err, "golden: no live judge")
}

// A live judge's error is returned as it is, and nothing is recorded.
func TestGoldenRecordLiveError(t *testing.T) {
	path := recordingPath(t)
	boom := errors.New("judge: 529 overloaded")
	live := &liveJudge{id: testIdentity, judge: func(evalkit.JudgeRequest) (evalkit.Verdict, error) { return evalkit.Verdict{}, boom }}
	rec, err := golden.New(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), refundRequest())
	assert.Same(t, boom, err)
	require.NoError(t, rec.Save())
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err), "nothing recorded, nothing written")
}

func TestGoldenInvalidRequestAndDoneContext(t *testing.T) {
	rec, err := golden.New(recordingPath(t), mustNotCall(t), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), evalkit.JudgeRequest{Content: "x"})
	assert.EqualError(t, err, "evalkit: judge request has no criteria")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = rec.Judge(ctx, refundRequest())
	assert.ErrorIs(t, err, context.Canceled)
}

func TestGoldenModeLive(t *testing.T) {
	path := recordingPath(t)
	live := newLive(evalkit.Identity{})
	rec, err := golden.New(path, live, golden.WithMode(golden.ModeLive))
	require.NoError(t, err)
	_, origin, err := rec.JudgeOrigin(context.Background(), refundRequest())
	require.NoError(t, err)
	assert.Equal(t, golden.OriginLive, origin)
	require.NoError(t, rec.Save())
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err))
}

func TestGoldenParseMode(t *testing.T) {
	for s, want := range map[string]golden.Mode{"": golden.ModeReplay, "replay": golden.ModeReplay, " Record ": golden.ModeRecord, "refresh": golden.ModeRefresh, "LIVE": golden.ModeLive} {
		m, err := golden.ParseMode(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, m, s)
	}
	_, err := golden.ParseMode("update")
	assert.EqualError(t, err, `golden: unknown mode "update": want replay, record, refresh or live`)
	// An EVALKIT_MODE that is no mode is an error quoting at most 40 bytes
	// of it (a 128 KiB variable made a 128 KiB error), never a mode.
	for _, bad := range []string{"recrod", "re cord", "record,refresh", "1", "true", "replay\x00", "\u212Aive", strings.Repeat("x", 128<<10)} {
		_, err := golden.ParseMode(bad)
		require.Error(t, err, "%.40q", bad)
		assert.Contains(t, err.Error(), "golden: unknown mode ")
		assert.Less(t, len(err.Error()), 150, "%.40q", bad)
	}
}
