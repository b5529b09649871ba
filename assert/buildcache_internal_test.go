package assert

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/benchdata"
)

func builtLen(r *Registry) int {
	t := r.table()
	t.built.mu.Lock()
	defer t.built.mu.Unlock()
	return t.built.n
}

func builtTranscript() *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: `{"id": 3, "status": "refunded"}`}}}
}

func TestBuiltCacheHitAndMiss(t *testing.T) {
	ctx := context.Background()
	tr := builtTranscript()
	r := NewRegistry()
	params := map[string]any{"patterns": []any{"refunded"}}
	first, err := r.Eval(ctx, "contains", tr, params)
	require.NoError(t, err)
	require.Equal(t, 1, builtLen(r))
	c1, ok := r.table().built.get(mustHash(t, "contains", params), builtID{checkType: "contains"}, params)
	require.True(t, ok, "the check is cached")

	again, err := r.Eval(ctx, "contains", tr, map[string]any{"patterns": []any{"refunded"}})
	require.NoError(t, err)
	assert.Equal(t, first, again)
	assert.Equal(t, 1, builtLen(r), "equal params, another map: a hit")
	c2, _ := r.table().built.get(mustHash(t, "contains", params), builtID{checkType: "contains"}, params)
	assert.Equal(t, c1, c2)

	// A changed param, another type of the same value, an alias: misses.
	res, err := r.Eval(ctx, "contains", tr, map[string]any{"patterns": []any{"shipped"}})
	require.NoError(t, err)
	assert.False(t, res.Passed)
	assert.Equal(t, 2, builtLen(r))
	_, err = r.Eval(ctx, "content_includes", tr, params)
	require.NoError(t, err)
	assert.Equal(t, 3, builtLen(r), "an alias is its own entry (its scope and messages may differ)")
	for _, want := range []any{3, 3.0, int64(3), json.Number("3")} {
		res, err := r.Eval(ctx, "json_path", tr, map[string]any{"expression": "id", "expected": want})
		require.NoError(t, err)
		assert.True(t, res.Passed, "%T", want)
	}
	assert.Equal(t, 7, builtLen(r), "3, 3.0, int64(3) and json.Number(\"3\") are four entries")
}

func mustHash(t *testing.T, checkType string, params map[string]any) uint64 {
	t.Helper()
	h, ok := builtKey(checkType, params)
	require.True(t, ok)
	return h
}

// TestBuiltCacheParamsMutated: params edited in place after an Eval are
// judged as they are now, never by the check built from what they were.
func TestBuiltCacheParamsMutated(t *testing.T) {
	ctx := context.Background()
	tr := builtTranscript()
	r := NewRegistry()

	patterns := []any{"refunded"}
	params := map[string]any{"patterns": patterns}
	res, err := r.Eval(ctx, "contains", tr, params)
	require.NoError(t, err)
	require.True(t, res.Passed)
	patterns[0] = "shipped"
	res, err = r.Eval(ctx, "contains", tr, params)
	require.NoError(t, err)
	assert.False(t, res.Passed, "the edited pattern is the one checked")
	patterns[0] = "refunded"
	res, err = r.Eval(ctx, "contains", tr, params)
	require.NoError(t, err)
	assert.True(t, res.Passed, "and back")

	schema := map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "integer"}}}
	sp := map[string]any{"schema": schema}
	res, err = r.Eval(ctx, "json_schema", tr, sp)
	require.NoError(t, err)
	require.True(t, res.Passed)
	schema["properties"].(map[string]any)["id"].(map[string]any)["type"] = "string"
	res, err = r.Eval(ctx, "json_schema", tr, sp)
	require.NoError(t, err)
	assert.False(t, res.Passed, "a nested edit of the schema is seen")
	want, err := r.Build("json_schema", sp)
	require.NoError(t, err)
	wantRes, err := want.Check(ctx, tr)
	require.NoError(t, err)
	assert.Equal(t, wantRes, res, "the same result as a check built now")

	// A param that becomes invalid is Build's error, every time.
	sp["schema"] = map[string]any{"type": 7}
	_, err1 := r.Eval(ctx, "json_schema", tr, sp)
	_, err2 := r.Eval(ctx, "json_schema", tr, sp)
	_, want2 := r.Build("json_schema", sp)
	require.Error(t, err1)
	assert.Equal(t, want2.Error(), err1.Error())
	assert.Equal(t, want2.Error(), err2.Error())
}

// TestBuiltCacheCustomType: a type added with Register is built by its
// function on every Eval.
func TestBuiltCacheCustomType(t *testing.T) {
	ctx := context.Background()
	tr := builtTranscript()
	r := NewRegistry()
	builds := 0
	require.NoError(t, r.Register("always", func(params map[string]any) (Check, error) {
		builds++
		n := builds
		return CheckFunc(func(context.Context, *evalkit.Transcript) (Result, error) {
			return Result{Passed: true, Score: 1, Summary: fmt.Sprintf("build %d", n)}, nil
		}), nil
	}))
	for i := 1; i <= 3; i++ {
		res, err := r.Eval(ctx, "always", tr, map[string]any{"x": 1})
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("build %d", i), res.Summary)
	}
	assert.Equal(t, 0, builtLen(r))

	// A registry derived from r shares its types and its cache.
	d := r.WithJudge(nil)
	_, err := d.Eval(ctx, "contains", tr, map[string]any{"patterns": "refunded"})
	require.NoError(t, err)
	_, err = r.Eval(ctx, "contains", tr, map[string]any{"patterns": "refunded"})
	require.NoError(t, err)
	assert.Equal(t, 1, builtLen(r))
}

func TestBuiltCacheNotCached(t *testing.T) {
	ctx := context.Background()
	tr := builtTranscript()
	r := NewRegistry()
	// Values the hasher does not know, YAML's maps (Build converts
	// them) and a value holding itself are built every time, as before.
	type wrapped struct{ S string }
	self := []any{"refunded", nil}
	self[1] = self
	for _, c := range []struct {
		checkType string
		params    map[string]any
	}{
		{"json_path", map[string]any{"expression": "status", "expected": wrapped{"refunded"}}},
		{"contains", map[string]any{"patterns": self}},
		{"contains", map[string]any{"patterns": []any{map[any]any{"a": "b"}}}},
		{"contains", map[string]any{"patterns": []string{"refunded"}, "case_sensitive": map[any]any{}}},
	} {
		got, gotErr := r.Eval(ctx, c.checkType, tr, c.params)
		var want Result
		built, wantErr := r.Build(c.checkType, c.params)
		if wantErr == nil {
			want, wantErr = built.Check(ctx, tr)
		}
		assert.Equal(t, want, got)
		assert.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr))
	}
	assert.Equal(t, 0, builtLen(r))

	// nil and empty lists are kept apart.
	assert.False(t, equalParamValue([]any(nil), []any{}))
	assert.False(t, equalParamValue(map[string]any(nil), map[string]any{}))
	assert.False(t, equalParamValue([]string(nil), []string{}))
	assert.True(t, equalParamValue(copyParamValue([]string{}), []string{}))
	assert.False(t, equalParamValue(0.0, negZero()), "-0 is not 0")
}

func negZero() float64 { z := 0.0; return -z }

func TestBuiltCacheBounded(t *testing.T) {
	ctx := context.Background()
	tr := builtTranscript()
	r := NewRegistry()
	for i := range maxBuiltChecks + 50 {
		_, err := r.Eval(ctx, "contains", tr, map[string]any{"patterns": fmt.Sprint(i)})
		require.NoError(t, err)
	}
	assert.LessOrEqual(t, builtLen(r), maxBuiltChecks)
	n := 0
	for _, es := range r.table().built.m {
		n += len(es)
	}
	assert.Equal(t, builtLen(r), n)
}

// TestBuiltCacheConcurrent runs Eval from many goroutines on one registry,
// each with its own params (some equal, some edited as it goes), for
// go test -race.
func TestBuiltCacheConcurrent(t *testing.T) {
	ctx := context.Background()
	tr := builtTranscript()
	r := NewRegistry()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			patterns := []any{"refunded"}
			params := map[string]any{"patterns": patterns}
			for i := range 200 {
				want := true
				if (g+i)%3 == 0 {
					patterns[0] = fmt.Sprintf("absent %d", i%5)
					want = false
				} else {
					patterns[0] = "refunded"
				}
				res, err := r.Eval(ctx, "contains", tr, params)
				if err != nil || res.Passed != want {
					t.Errorf("goroutine %d, %d: passed %v, want %v (%v)", g, i, res.Passed, want, err)
					return
				}
				res, err = Eval(ctx, "json_path", tr, map[string]any{"expression": "id", "expected": i % 4})
				if err != nil || res.Passed != (i%4 == 3) {
					t.Errorf("goroutine %d, %d: json_path passed %v (%v)", g, i, res.Passed, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestBuiltCacheIdentitySlots: more params maps than identity slots,
// evaluated in turn: each map is found by its identity right after its
// Eval, and a slot taken by another map never answers for the one it
// held (the hint is confirmed by content), before or after maps are
// edited in place.
func TestBuiltCacheIdentitySlots(t *testing.T) {
	ctx := context.Background()
	tr := builtTranscript()
	r := NewRegistry()
	maps := make([]map[string]any, 3*maxBuiltChecks)
	for i := range maps {
		maps[i] = map[string]any{"patterns": []any{fmt.Sprint("p", i)}}
	}
	b := &r.table().built
	lookup := func(m map[string]any) (Check, bool) { return b.byID(builtID{"contains", identity(m)}, m) }
	for round := range 2 {
		for i, m := range maps {
			_, err := r.Eval(ctx, "contains", tr, m)
			require.NoError(t, err)
			c, ok := lookup(m)
			require.True(t, ok, "round %d: map %d is found by its identity after its Eval", round, i)
			assert.Equal(t, Contains{Patterns: []string{fmt.Sprint("p", i)}}, c)
		}
		hits := 0
		for i, m := range maps {
			if c, ok := lookup(m); ok {
				hits++
				assert.Equal(t, Contains{Patterns: []string{fmt.Sprint("p", i)}}, c, "map %d", i)
			}
		}
		assert.LessOrEqual(t, hits, maxBuiltChecks)
		for i, m := range maps { // edited in place: the slots hold what they were built from
			m["patterns"].([]any)[0] = fmt.Sprint("q", i)
			_, ok := lookup(m)
			assert.False(t, ok, "map %d edited: no check is found by its identity", i)
			m["patterns"].([]any)[0] = fmt.Sprint("p", i)
		}
	}
}

// TestBuiltToolArgsPrepared: tool_args through Eval (its expected calls
// normalized once, when the cache builds it) gives on every real τ-bench
// run, passing and failing, the result and the diff that the check built
// from the same params gives, on the first Eval (a miss), on later ones
// (hits) and from several goroutines at once (go test -race); params
// edited in place are judged as they are now.
func TestBuiltToolArgsPrepared(t *testing.T) {
	ctx := context.Background()
	runs, err := benchdata.CorpusRuns()
	require.NoError(t, err)
	r := NewRegistry()
	failing := 0
	for i := range runs {
		run := &runs[i]
		var params map[string]any
		for _, s := range run.Checks() {
			if s.Type == "tool_args" {
				params = s.Params
			}
		}
		require.NotNil(t, params)
		built, err := r.Build("tool_args", params)
		require.NoError(t, err)
		want, err := built.Check(ctx, run.Transcript)
		require.NoError(t, err)
		if !want.Passed {
			failing++
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 3 {
					got, err := r.Eval(ctx, "tool_args", run.Transcript, params)
					if assert.NoError(t, err) {
						assert.Equal(t, want.Summary, got.Summary, run.Name)
						assert.Equal(t, want.Details, got.Details, run.Name)
						assert.Equal(t, want.DiffText(), got.DiffText(), run.Name)
						assert.Equal(t, want.Passed, got.Passed, run.Name)
					}
				}
			}()
		}
		wg.Wait()
		c, ok := r.table().built.byID(builtID{"tool_args", identity(params)}, params)
		require.True(t, ok, run.Name)
		assert.IsType(t, preparedToolArgs{}, c)
	}
	assert.NotZero(t, failing, "the corpus has failing tool_args runs")

	// Edited in place: an expected argument changed makes the check fail.
	tr := runs[0].Transcript
	params := runs[0].Checks()[8].Params
	res, err := r.Eval(ctx, "tool_args", tr, params)
	require.NoError(t, err)
	calls := params["calls"].([]any)
	args := calls[0].(map[string]any)["expected_args"].(map[string]any)
	for k := range args {
		args[k] = "edited in place"
	}
	edited, err := r.Eval(ctx, "tool_args", tr, params)
	require.NoError(t, err)
	assert.False(t, edited.Passed, "the edited arguments are checked")
	assert.NotEqual(t, res.Summary, edited.Summary)
}
