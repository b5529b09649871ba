package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/inputs"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/judgeset"
	"github.com/evalkit-go/evalkit/stats"
)

const auditUsage = `usage: evalkit golden audit [flags] [recording ...]

Asks the live judge again a seeded sample of the verdicts committed in
judge recordings (*.judge.json; with none named, every one in a testdata
directory under this one) and reports judge drift: the verdicts that
flipped, with both reasonings; the flip rate with its Wilson 95% interval;
the score drift on the normalized [0,1] scale; and whether the provider now
names another model version than the one recorded.

The judge asked is the one each entry's recorded identity names (provider,
model, settings, prompt version): built as judgeset builds it, with the
provider's key variable (OPENAI_API_KEY, ANTHROPIC_API_KEY), or found in a
judge set (-judges) by that identity. An entry whose recording holds an
excerpt of its request (a long answer; EVALKIT_RECORD_WHOLE=1 go test
records requests whole), or whose identity no judge has, cannot be asked
again and is listed as not auditable.

It never changes a recording, except with -update: then the audited entries
whose verdict changed are written as EVALKIT_MODE=refresh writes them, and
nothing else in the file changes.

Exit status: 0 when no more verdicts flipped than -max-flips, 1 when more
did, a judge call failed, the budget or -timeout ran out or nothing could
be audited, 2 for a bad command line.

flags:
`

// audit is `evalkit golden audit`.
func audit(args []string, stdout, stderr io.Writer) int {
	fl := flags("audit", stderr)
	fl.Usage = func() {
		fmt.Fprint(stderr, auditUsage)
		fl.PrintDefaults()
	}
	var o auditOptions
	fl.IntVar(&o.n, "n", 20, "audit `N` entries (the sample's size)")
	fl.Float64Var(&o.fraction, "fraction", 0, "audit this `share` of the auditable entries, in (0,1], instead of -n")
	fl.Uint64Var(&o.seed, "seed", 1, "the sample's `seed`: the same seed audits the same entries")
	fl.StringVar(&o.judges, "judges", "", "a judge set `FILE` (YAML, as judgeset.Load reads) whose judges answer the entries of their identity")
	fl.Var(baseURLs{&o.baseURLs}, "base-url", "send the judges of a provider to `[PROVIDER=]URL` (a gateway, a fake server); without PROVIDER=, every provider's (repeatable)")
	calls, cost, err := budgetFromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "evalkit golden audit:", err)
		return 2
	}
	fl.Int64Var(&o.maxCalls, "max-calls", calls, "the most HTTP calls to judges, retries included; -1: no limit (default $EVALKIT_MAX_JUDGE_CALLS)")
	fl.Float64Var(&o.maxCost, "max-cost", cost, "the most US dollars the judges may spend; -1: no limit (default $EVALKIT_MAX_COST_USD)")
	fl.Float64Var(&o.passScore, "pass-score", 0.5, "a verdict with a score and no pass/fail or label passes at this `score` or more, in [0,1]")
	fl.IntVar(&o.maxFlips, "max-flips", 0, "exit 1 when more than `N` verdicts flipped")
	fl.DurationVar(&o.timeout, "timeout", 30*time.Minute, "stop asking after this `long`: the entries not answered by then could not be audited (0: no limit)")
	fl.BoolVar(&o.update, "update", false, "write the new verdicts of the audited entries that changed")
	mdOut := fl.String("md", "", "also write the audit as Markdown to `FILE` (\"-\": standard output)")
	htmlOut := fl.String("html", "", "also write the audit as an HTML page to `FILE`")
	if err := fl.Parse(args); err != nil {
		return parseExit(err)
	}
	switch {
	case o.n < 1:
		fmt.Fprintf(stderr, "evalkit golden audit: -n %d: want at least 1\n", o.n)
		return 2
	case o.fraction != 0 && !(o.fraction > 0 && o.fraction <= 1):
		fmt.Fprintf(stderr, "evalkit golden audit: -fraction %v: want a share in (0,1], such as 0.1\n", o.fraction)
		return 2
	case o.timeout < 0:
		fmt.Fprintf(stderr, "evalkit golden audit: -timeout %v: want a duration of 0 or more, such as 30m\n", o.timeout)
		return 2
	case !(o.passScore >= 0 && o.passScore <= 1):
		fmt.Fprintf(stderr, "evalkit golden audit: -pass-score %v: want a score in [0,1]\n", o.passScore)
		return 2
	}
	paths, err := recordings(fl.Args())
	if err != nil {
		fmt.Fprintln(stderr, "evalkit golden audit:", err)
		return 1
	}
	paths = slices.DeleteFunc(paths, isHTTP)
	r, err := runAudit(context.Background(), paths, o)
	if err != nil {
		fmt.Fprintln(stderr, "evalkit golden audit:", err)
		return 1
	}
	if err := emit(stdout, "", []byte(r.text())); err != nil {
		fmt.Fprintln(stderr, "evalkit golden audit:", err)
		return 1
	}
	if *mdOut != "" {
		if err := emit(stdout, *mdOut, []byte(r.markdown())); err != nil {
			fmt.Fprintln(stderr, "evalkit golden audit:", err)
			return 1
		}
	}
	if *htmlOut != "" {
		page, err := r.html()
		if err == nil {
			err = emit(stdout, *htmlOut, page)
		}
		if err != nil {
			fmt.Fprintln(stderr, "evalkit golden audit:", err)
			return 1
		}
	}
	if len(r.Failures) > 0 {
		fmt.Fprintf(stderr, "evalkit golden audit: %s\n", strings.Join(r.Failures, "; "))
		return 1
	}
	return 0
}

type auditOptions struct {
	n         int
	fraction  float64
	seed      uint64
	judges    string
	baseURLs  map[string]string // provider ("" for all) → base URL
	maxCalls  int64
	maxCost   float64
	passScore float64
	maxFlips  int
	update    bool
	timeout   time.Duration
}

// budgetFromEnv reads the judge budget's variables, as evaltest does:
// -1 for an unset one.
func budgetFromEnv() (calls int64, usd float64, err error) {
	calls, usd = -1, -1
	if s := strings.TrimSpace(os.Getenv("EVALKIT_MAX_JUDGE_CALLS")); s != "" {
		if calls, err = strconv.ParseInt(s, 10, 64); err != nil || calls < 0 {
			return 0, 0, fmt.Errorf("EVALKIT_MAX_JUDGE_CALLS=%q: want a whole number >= 0", s)
		}
	}
	if s := strings.TrimSpace(os.Getenv("EVALKIT_MAX_COST_USD")); s != "" {
		if usd, err = strconv.ParseFloat(s, 64); err != nil || !(usd >= 0) || math.IsInf(usd, 0) {
			return 0, 0, fmt.Errorf("EVALKIT_MAX_COST_USD=%q: want a number of US dollars >= 0", s)
		}
	}
	return calls, usd, nil
}

// baseURLs is the -base-url flag.
type baseURLs struct{ m *map[string]string }

func (b baseURLs) String() string {
	if b.m == nil {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(mapKeys(*b.m)) {
		parts = append(parts, k+"="+(*b.m)[k])
	}
	return strings.Join(parts, ",")
}

func (b baseURLs) Set(s string) error {
	provider, url := "", s
	if p, u, ok := strings.Cut(s, "="); ok && !strings.Contains(p, "/") {
		provider, url = p, u
	}
	if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return fmt.Errorf("%q: want [PROVIDER=]URL, the URL http:// or https://", s)
	}
	if *b.m == nil {
		*b.m = map[string]string{}
	}
	(*b.m)[provider] = url
	return nil
}

// auditRow is one audited entry.
type auditRow struct {
	Path, Key      string
	Criteria       string
	Recorded, Live evalkit.Verdict
	Err            error
	Flipped        bool
	Was, Now       string // the outcomes compared: "pass", "fail", `label "A"`
	Diff           float64
	Scored         bool // both verdicts have a score: Diff is theirs
}

// auditReport is what an audit found.
type auditReport struct {
	Recordings, Entries, Auditable int
	Seed                           uint64
	NotAuditable                   map[string]int // why → entries
	Rows                           []auditRow
	Asked, Flips, Errors, Scored   int
	Rate, Lo, Hi                   float64
	MeanDiff, MaxDiff              float64
	Models                         map[[2]string]int // recorded model → live model, for the verdicts that name both
	Calls                          int64
	CostUSD                        float64
	Updated                        []string // recording: entries rewritten
	Failures                       []string
}

// candidate is an entry that can be asked again.
type candidate struct {
	path  string
	entry golden.Entry
	req   evalkit.JudgeRequest
	judge evalkit.Judge
}

func runAudit(ctx context.Context, paths []string, o auditOptions) (*auditReport, error) {
	finder, err := newJudgeFinder(o)
	if err != nil {
		return nil, err
	}
	r := &auditReport{Recordings: len(paths), Seed: o.seed, NotAuditable: map[string]int{}, Models: map[[2]string]int{}}
	var cands []candidate
	for _, path := range paths {
		f, err := golden.Load(path)
		if err != nil {
			return nil, err
		}
		for _, e := range f.Entries {
			r.Entries++
			req, err := e.Rebuild()
			if err != nil {
				r.NotAuditable["the recording holds an excerpt of the request (a long text was cut; record with EVALKIT_RECORD_WHOLE=1 to audit it)"]++
				continue
			}
			j, err := finder.find(e, req)
			if err != nil {
				r.NotAuditable[err.Error()]++
				continue
			}
			cands = append(cands, candidate{path: path, entry: e, req: req, judge: j})
		}
	}
	r.Auditable = len(cands)
	if len(cands) == 0 {
		r.Failures = append(r.Failures, fmt.Sprintf("nothing to audit: none of the %d entries can be asked again", r.Entries))
		return r, nil
	}
	size := o.n
	if o.fraction > 0 {
		size = int(math.Ceil(o.fraction * float64(len(cands))))
	}
	rng := rand.New(rand.NewPCG(o.seed, o.seed))
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	sample := cands[:min(size, len(cands))]
	slices.SortFunc(sample, func(a, b candidate) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return strings.Compare(a.entry.Key, b.entry.Key)
	})
	meter := &auditMeter{maxCalls: o.maxCalls, maxUSD: o.maxCost}
	ctx = judgehttp.WithMeter(ctx, meter)
	if o.timeout > 0 {
		// A judge that stalls is retried, each attempt for minutes: twenty
		// entries could hold a scheduled CI job for hours.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, o.timeout, fmt.Errorf("the audit's -timeout %v ran out", o.timeout))
		defer cancel()
	}
	for len(sample) > 0 {
		path := sample[0].path
		n := 1
		for n < len(sample) && sample[n].path == path {
			n++
		}
		if err := r.auditFile(ctx, path, sample[:n], o, meter); err != nil {
			return nil, err
		}
		sample = sample[n:]
	}
	r.Calls, r.CostUSD = meter.calls, meter.usd
	r.summarize(o)
	return r, nil
}

// auditFile asks again the sampled entries of one recording, through a
// golden.Recorder in ModeRefresh over a copy of it, so each new verdict is
// recorded exactly as a refresh records it; with -update, the copy's
// entries replace the recording's, and nothing else changes.
func (r *auditReport) auditFile(ctx context.Context, path string, cands []candidate, o auditOptions, meter *auditMeter) error {
	data, err := inputs.ReadFile(path, inputs.Recording) // as golden read it: a regular file, bounded
	if err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	dir, err := os.MkdirTemp("", "evalkit-audit-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	scratch := filepath.Join(dir, filepath.Base(path))
	if err := writeOutput(scratch, data); err != nil {
		return err
	}
	var rec *golden.Recorder
	type asker struct {
		judge evalkit.Judge
		name  string
	}
	recs := map[asker]*golden.Recorder{}
	for _, c := range cands {
		row := auditRow{Path: path, Key: c.entry.Key, Criteria: c.entry.Request.Criteria, Recorded: c.entry.Verdict}
		if meter.over != "" {
			row.Err = fmt.Errorf("not asked: %s", meter.over)
			r.Rows = append(r.Rows, row)
			continue
		}
		if ctx.Err() != nil {
			row.Err = fmt.Errorf("not asked: %w", context.Cause(ctx))
			r.Rows = append(r.Rows, row)
			continue
		}
		// The judge under the name the entry was recorded with, so the
		// entry's summary is written as it was.
		a := asker{c.judge, c.entry.Request.Judge}
		jr := recs[a]
		live := asRecorded(c.judge, a.name)
		switch {
		case jr != nil:
		case rec == nil:
			rec, err = golden.New(scratch, live, golden.WithMode(golden.ModeRefresh))
			jr = rec
		default:
			jr, err = rec.For(live)
		}
		if err != nil {
			return err
		}
		recs[a] = jr
		row.Live, _, row.Err = jr.JudgeOrigin(ctx, c.req)
		if row.Err != nil && ctx.Err() != nil {
			row.Err = fmt.Errorf("%w (%v)", row.Err, context.Cause(ctx))
		}
		r.Rows = append(r.Rows, row)
	}
	if rec == nil || !o.update {
		return nil
	}
	if err := rec.Save(); err != nil {
		return err
	}
	fresh, err := golden.Load(scratch)
	if err != nil {
		return err
	}
	byKey := map[string]golden.Entry{}
	for _, e := range fresh.Entries {
		byKey[e.Key] = e
	}
	changed := 0
	// Read, changed and written under the recording's lock: a record run
	// saving meanwhile waits, and keeps its new entries.
	err = golden.UpdateFile(path, func(orig *golden.File) (bool, error) {
		for i, e := range orig.Entries {
			if n, ok := byKey[e.Key]; ok && !sameEntry(e, n) {
				orig.Entries[i] = n
				changed++
			}
		}
		return changed > 0, nil
	})
	if err != nil || changed == 0 {
		return err
	}
	r.Updated = append(r.Updated, fmt.Sprintf("%s: %d %s rewritten", filepath.ToSlash(path), changed, plural(changed, "entry", "entries")))
	return nil
}

// asRecorded is j under the judge-set name an entry was recorded with
// ("strict/cheap"; "" for a judge given directly): its verdicts, its
// identity, and that name.
func asRecorded(j evalkit.Judge, name string) evalkit.Judge {
	idr := j.(evalkit.Identifier) // find returns only judges that key as recorded
	if name == "" {
		return bareJudge{j, idr}
	}
	n, variant, _ := strings.Cut(name, "/")
	return namedJudge{bareJudge{j, idr}, n, variant}
}

type bareJudge struct {
	j  evalkit.Judge
	id evalkit.Identifier
}

func (b bareJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return b.j.Judge(ctx, req)
}

func (b bareJudge) Identity() evalkit.Identity { return b.id.Identity() }

type namedJudge struct {
	bareJudge
	name, variant string
}

func (n namedJudge) JudgeName() (string, string) { return n.name, n.variant }

func sameEntry(a, b golden.Entry) bool {
	x, errX := json.Marshal(a)
	y, errY := json.Marshal(b)
	return errX == nil && errY == nil && bytes.Equal(x, y)
}

// summarize computes the figures from the rows.
func (r *auditReport) summarize(o auditOptions) {
	sum := 0.0
	for i := range r.Rows {
		row := &r.Rows[i]
		if row.Err != nil {
			r.Errors++
			continue
		}
		r.Asked++
		row.Was, row.Now, row.Flipped = flipped(row.Recorded, row.Live, o.passScore)
		if row.Flipped {
			r.Flips++
		}
		if row.Recorded.Scored && row.Live.Scored {
			row.Scored, row.Diff = true, math.Abs(row.Live.Score-row.Recorded.Score)
			r.Scored++
			sum += row.Diff
			r.MaxDiff = math.Max(r.MaxDiff, row.Diff)
		}
		if a, b := row.Recorded.Model, row.Live.Model; a != "" && b != "" {
			r.Models[[2]string{a, b}]++
		}
	}
	r.Rate, r.Lo, r.Hi = math.NaN(), math.NaN(), math.NaN()
	if r.Asked > 0 {
		r.Rate = float64(r.Flips) / float64(r.Asked)
		r.Lo, r.Hi, _ = stats.Wilson(r.Flips, r.Asked, 0.95)
	}
	r.MeanDiff = math.NaN()
	if r.Scored > 0 {
		r.MeanDiff = sum / float64(r.Scored)
	}
	if r.Flips > o.maxFlips {
		r.Failures = append(r.Failures, fmt.Sprintf("%d %s flipped, more than -max-flips %d", r.Flips, plural(r.Flips, "verdict", "verdicts"), o.maxFlips))
	}
	if r.Errors > 0 {
		r.Failures = append(r.Failures, fmt.Sprintf("%d of %d sampled %s could not be audited", r.Errors, len(r.Rows), plural(len(r.Rows), "entry", "entries")))
	}
}

// flipped compares two verdicts of one request by what decides a check:
// the judge's pass/fail when both have one, else their labels, else their
// scores against passScore. Verdicts with nothing in common to compare
// count as flipped: the judge no longer answers in the recorded shape.
func flipped(was, now evalkit.Verdict, passScore float64) (string, string, bool) {
	switch {
	case was.Passed != nil && now.Passed != nil:
		return passFail(*was.Passed), passFail(*now.Passed), *was.Passed != *now.Passed
	case was.Label != "" && now.Label != "":
		return "label " + strconv.Quote(was.Label), "label " + strconv.Quote(now.Label), was.Label != now.Label
	case was.Scored && now.Scored:
		a, b := passFail(was.Score >= passScore), passFail(now.Score >= passScore)
		return a + fmt.Sprintf(" (score %.2f)", was.Score), b + fmt.Sprintf(" (score %.2f)", now.Score), a != b
	}
	return shape(was), shape(now), true
}

func passFail(b bool) string {
	if b {
		return "pass"
	}
	return "fail"
}

func shape(v evalkit.Verdict) string {
	var parts []string
	if v.Passed != nil {
		parts = append(parts, passFail(*v.Passed))
	}
	if v.Label != "" {
		parts = append(parts, "label "+strconv.Quote(v.Label))
	}
	if v.Scored {
		parts = append(parts, fmt.Sprintf("score %.2f", v.Score))
	}
	if len(parts) == 0 {
		return "no pass/fail, label or score"
	}
	return strings.Join(parts, ", ")
}

// auditMeter is the audit's judge budget: it refuses the HTTP attempt
// past -max-calls, and every attempt after the reply that passed -max-cost
// (or whose cost its judge could not price, under a cost limit).
type auditMeter struct {
	maxCalls int64
	maxUSD   float64
	calls    int64
	usd      float64
	over     string
}

func (m *auditMeter) Attempt(client string, n int) error {
	if m.over == "" && m.maxCalls >= 0 && m.calls >= m.maxCalls {
		m.over = fmt.Sprintf("the budget of %d judge %s is spent (-max-calls)", m.maxCalls, plural(int(m.maxCalls), "call", "calls"))
	}
	if m.over != "" {
		return errors.New(m.over)
	}
	m.calls++
	return nil
}

func (m *auditMeter) Spend(c judgehttp.Cost) {
	m.usd += c.USD
	switch {
	case m.over != "" || m.maxUSD < 0:
	case !c.Priced:
		m.over = fmt.Sprintf("%s has no price for model %q, so -max-cost %s cannot be kept", c.Client, c.Model, num(m.maxUSD))
	case m.usd > m.maxUSD:
		m.over = fmt.Sprintf("the budget of $%s is spent (-max-cost)", num(m.maxUSD))
	}
}

// judgeFinder finds the live judge of an entry's identity.
type judgeFinder struct {
	opts  []judgeset.Option
	set   []evalkit.Judge // the judges and variants of -judges
	built map[string]evalkit.Judge
	fails map[string]error
}

func newJudgeFinder(o auditOptions) (*judgeFinder, error) {
	f := &judgeFinder{built: map[string]evalkit.Judge{}, fails: map[string]error{}}
	for provider, url := range o.baseURLs {
		if provider != "" {
			f.opts = append(f.opts, judgeset.WithBaseURL(provider, url))
			continue
		}
		for _, p := range []string{"openai", "anthropic"} {
			if _, own := o.baseURLs[p]; !own {
				u := url
				if p == "openai" && !strings.HasSuffix(strings.TrimSuffix(u, "/"), "/v1") {
					u = strings.TrimSuffix(u, "/") + "/v1" // OpenAI's paths sit under /v1
				}
				f.opts = append(f.opts, judgeset.WithBaseURL(p, u))
			}
		}
	}
	if o.judges == "" {
		return f, nil
	}
	set, err := judgeset.Load(o.judges, f.opts...)
	if err != nil {
		return nil, err
	}
	for _, name := range set.Names() {
		for _, variant := range append([]string{""}, set.Variants(name)...) {
			j, err := set.Lookup(name, variant)
			if err != nil {
				return nil, err
			}
			f.set = append(f.set, j)
		}
	}
	return f, nil
}

// find returns the judge that keys req as the entry was keyed: one of
// -judges, or, without it, the judge judgeset builds from the recorded
// identity.
func (f *judgeFinder) find(e golden.Entry, req evalkit.JudgeRequest) (evalkit.Judge, error) {
	id := e.Judge
	if f.set != nil {
		for _, j := range f.set {
			if keysAs(j, req, e.Key) {
				return j, nil
			}
		}
		return nil, fmt.Errorf("no judge of -judges has the recorded identity %s", identityText(id))
	}
	idKey, _ := json.Marshal(id)
	if j, ok := f.built[string(idKey)]; ok {
		return j, nil
	}
	if err, ok := f.fails[string(idKey)]; ok {
		return nil, err
	}
	j, err := f.build(id)
	if err == nil && !keysAs(j, req, e.Key) {
		err = fmt.Errorf("the judge built for %s keys its requests otherwise (a setting this evalkit sends differently): give -judges", identityText(id))
	}
	if err != nil {
		f.fails[string(idKey)] = err
		return nil, err
	}
	f.built[string(idKey)] = j
	return j, nil
}

// build makes the judge of a recorded identity, as a judge set would.
func (f *judgeFinder) build(id evalkit.Identity) (evalkit.Judge, error) {
	settings := judgeset.Settings{}
	for k, v := range id.Settings {
		settings[k] = plainNumber(v)
	}
	name := auditJudgeName(id)
	set, err := judgeset.New([]judgeset.Spec{{Name: name, Provider: id.Provider, Model: id.Model, PromptVersion: id.PromptVersion, Settings: settings}}, f.opts...)
	if err != nil {
		return nil, fmt.Errorf("no judge can be built for the recorded identity %s: %s", identityText(id), strings.TrimPrefix(strings.ReplaceAll(err.Error(), "\n", "; "), "judgeset: "))
	}
	return set.Lookup(name, "")
}

// auditJudgeName names the judge built for a recorded identity after its
// provider and model ("openai.gpt-4.1-mini"), in the letters a judge set's
// names take, so its errors say which judge ("judge openai.gpt-4.1-mini
// needs an API key in $OPENAI_API_KEY") rather than a placeholder.
func auditJudgeName(id evalkit.Identity) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
			return r
		}
		return '-'
	}, strings.Trim(id.Provider+"."+id.Model, "."))
	if name == "" || !(name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z' || name[0] >= '0' && name[0] <= '9') {
		return "recorded"
	}
	return name
}

// plainNumber turns the json.Number a recording decodes into the int64 or
// float64 a judge set's settings take.
func plainNumber(v any) any {
	n, ok := v.(json.Number)
	if !ok {
		return v
	}
	if i, err := n.Int64(); err == nil {
		return i
	}
	f, _ := n.Float64()
	return f
}

func keysAs(j evalkit.Judge, req evalkit.JudgeRequest, key string) bool {
	idr, ok := j.(evalkit.Identifier)
	if !ok {
		return false
	}
	k, err := golden.Key(idr.Identity(), req)
	return err == nil && k == key
}

func identityText(id evalkit.Identity) string {
	s := judgeName(id)
	if id.PromptVersion != "" {
		s += " (prompt " + id.PromptVersion + ")"
	}
	return strings.TrimSpace(s)
}
