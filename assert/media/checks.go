package media

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// ErrNoMedia is returned (wrapped) by a media check when the scope holds
// no media part of its kind: nothing to judge is neither a pass nor a
// failure.
var ErrNoMedia = errors.New("no media")

// part is one media part the checks read, with where it is.
type part struct {
	label string // "messages[3] part 1"
	p     evalkit.Part
}

// mediaParts returns the parts of kind in the assistant messages of the
// scope (Session, the default: every assistant message; Turn: the last
// one), as PromptKit's media handlers read the assistant's parts. A part
// without inline bytes is an error: what it is cannot be read from a URL
// or a file id without fetching it, and fetching is not a check's job.
func mediaParts(check string, tr *evalkit.Transcript, s assert.Scope, kind string) ([]part, error) {
	if tr == nil {
		return nil, fmt.Errorf("%s: %w: the transcript is nil", check, assert.ErrNoOutput)
	}
	last := -1
	for i := len(tr.Messages) - 1; i >= 0; i-- {
		if tr.Messages[i].Role == evalkit.RoleAssistant {
			last = i
			break
		}
	}
	if last < 0 {
		return nil, fmt.Errorf("%s: %w: the transcript has no assistant message", check, assert.ErrNoOutput)
	}
	var out []part
	for i, m := range tr.Messages {
		if m.Role != evalkit.RoleAssistant || (s == assert.Turn && i != last) {
			continue
		}
		for k, p := range m.Parts {
			if p.Type != kind {
				continue
			}
			label := fmt.Sprintf("messages[%d] part %d", i, k+1)
			if len(p.Data) == 0 {
				where := "no data"
				switch {
				case p.URL != "":
					where = "only a URL"
				case p.FileID != "":
					where = "only a file id"
				}
				return nil, fmt.Errorf("%s: %s has %s: its %s cannot be read from its bytes", check, label, where, kind)
			}
			out = append(out, part{label: label, p: p})
		}
	}
	if len(out) == 0 {
		where := "the assistant messages"
		if s == assert.Turn {
			where = fmt.Sprintf("the last assistant message (messages[%d])", last)
		}
		return nil, fmt.Errorf("%s: %w: no %s part in %s", check, ErrNoMedia, kind, where)
	}
	return out, nil
}

// probed is a part and what its bytes say; bad is why they could not be
// read, a failure of the output (a damaged or mislabelled file).
type probed struct {
	part
	info Info
	bad  string
}

func probeAll(parts []part, kind string) []probed {
	out := make([]probed, len(parts))
	for i, p := range parts {
		info, err := Probe(p.p.Data)
		out[i] = probed{part: p, info: info}
		switch {
		case err != nil:
			out[i].bad = err.Error()
		case info.Kind != kind:
			out[i].bad = fmt.Sprintf("the bytes are %s %s, not %s %s", info.Format, info.Kind, article(kind), kind)
		}
	}
	return out
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an"
	}
	return "a"
}

// verdict turns the problems found into a Result: Score is the fraction
// of parts without a problem.
func verdict(kind string, parts []probed, problems []string, ok string) assert.Result {
	bad := 0
	var details []assert.Detail
	for _, p := range problems {
		if p == "" {
			continue
		}
		bad++
		if len(details) < 10 {
			details = append(details, assert.Detail{Label: "problem", Text: p})
		}
	}
	if bad > 10 {
		details = append(details, assert.Detail{Label: "problem", Text: fmt.Sprintf("… and %d more", bad-10)})
	}
	score := float64(len(parts)-bad) / float64(len(parts))
	if bad == 0 {
		return assert.Result{Passed: true, Score: 1, Summary: ok}
	}
	return assert.Result{Score: score, Summary: fmt.Sprintf("%d of %s fail", bad, plural(len(parts), kind)), Details: details}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// normalFormat reads a format name as a user may write it: "JPG",
// "image/jpeg" and "jpeg" are one.
func normalFormat(f string) string {
	f = strings.ToLower(strings.TrimSpace(f))
	if i := strings.IndexByte(f, '/'); i >= 0 {
		f = f[i+1:]
	}
	switch f {
	case "jpg":
		return "jpeg"
	case "tif":
		return "tiff"
	case "mpeg", "mpga":
		return "mp3"
	case "wave", "x-wav", "vnd.wave":
		return "wav"
	case "x-flac":
		return "flac"
	case "quicktime":
		return "mov"
	case "x-m4a", "aac":
		return "m4a"
	}
	return f
}

func readFormats(r *reader) ([]string, error) {
	f, ok, err := r.strs("formats")
	if err != nil {
		return nil, err
	}
	if !ok {
		if err := r.missing("formats"); err != nil {
			return nil, err
		}
		return nil, r.err("formats", "required: want a list of formats, such as [\"png\", \"jpeg\"]")
	}
	return f, nil
}

func checkFormats(check string, formats []string) error {
	if len(formats) == 0 {
		return &assert.ParamError{Check: check, Param: "formats", Msg: "empty list: give at least one format"}
	}
	for i, f := range formats {
		if strings.TrimSpace(f) == "" {
			return &assert.ParamError{Check: check, Param: "formats", Msg: fmt.Sprintf("item %d is empty", i)}
		}
	}
	return nil
}

func formatCheck(check, kind string, formats []string, s assert.Scope, tr *evalkit.Transcript) (assert.Result, error) {
	if err := checkFormats(check, formats); err != nil {
		return assert.Result{}, err
	}
	parts, err := mediaParts(check, tr, orSession(s), kind)
	if err != nil {
		return assert.Result{}, err
	}
	allowed := map[string]bool{}
	for _, f := range formats {
		allowed[normalFormat(f)] = true
	}
	ps := probeAll(parts, kind)
	problems := make([]string, len(ps))
	var found []string
	for i, p := range ps {
		if p.bad != "" {
			problems[i] = p.label + ": " + p.bad
			continue
		}
		found = append(found, p.info.Format)
		if !allowed[p.info.Format] {
			problems[i] = fmt.Sprintf("%s is %s, want %s", p.label, p.info.Format, strings.Join(formats, " or "))
		}
	}
	noun := kind
	if kind == KindAudio {
		noun = "audio clip"
	}
	return verdict(noun, ps, problems, fmt.Sprintf("%s in allowed formats: %s", plural(len(ps), noun), strings.Join(found, ", "))), nil
}

// ImageFormat passes when every image part of the assistant's messages is,
// by its bytes, one of Formats ("png", "jpeg" or "jpg", "gif", "webp",
// "bmp", "tiff"; MIME types such as "image/png" read the same). A
// declared MIME type is not trusted. An image whose bytes cannot be read,
// or are not an image, fails. Score is the fraction of images that pass.
// Scope defaults to Session (every assistant message); Turn reads the last.
//
//	1 of 2 images fail
//	problem: messages[1] part 2 is gif, want png or jpeg
//
// Errors: no formats, an empty one (*assert.ParamError); no image part
// (ErrNoMedia); an image part with no inline bytes (a URL only).
//
// Registry type "image_format", params: formats, scope. As PromptKit's
// image_format, which reads the declared MIME type instead.
type ImageFormat struct {
	Formats []string
	Scope   assert.Scope
}

// Check implements assert.Check.
func (c ImageFormat) Check(_ context.Context, tr *evalkit.Transcript) (assert.Result, error) {
	return formatCheck("image_format", KindImage, c.Formats, c.Scope, tr)
}

// Describe implements assert.Describer.
func (c ImageFormat) Describe() string {
	return "every image is " + strings.Join(c.Formats, " or ") + scopeWords(c.Scope)
}

// AudioFormat passes when every audio part is, by its bytes, one of
// Formats ("wav", "mp3", "ogg", "flac", "m4a"; "audio/mpeg", "wave" and
// such read the same). Everything else is as ImageFormat.
//
// Registry type "audio_format", params: formats, scope. As PromptKit's
// audio_format.
type AudioFormat struct {
	Formats []string
	Scope   assert.Scope
}

// Check implements assert.Check.
func (c AudioFormat) Check(_ context.Context, tr *evalkit.Transcript) (assert.Result, error) {
	return formatCheck("audio_format", KindAudio, c.Formats, c.Scope, tr)
}

// Describe implements assert.Describer.
func (c AudioFormat) Describe() string {
	return "every audio clip is " + strings.Join(c.Formats, " or ") + scopeWords(c.Scope)
}

func scopeWords(s assert.Scope) string {
	if s == assert.Turn {
		return " in the last assistant message"
	}
	return ""
}

func orSession(s assert.Scope) assert.Scope {
	if s == assert.DefaultScope {
		return assert.Session
	}
	return s
}

// intRange is an inclusive range of pixels; nil ends are open.
type intRange struct {
	name     string
	min, max *int
}

func (b intRange) problem(got int) string {
	switch {
	case b.min != nil && got < *b.min:
		return fmt.Sprintf("%s %d px, want at least %d", b.name, got, *b.min)
	case b.max != nil && got > *b.max:
		return fmt.Sprintf("%s %d px, want at most %d", b.name, got, *b.max)
	}
	return ""
}

func (b intRange) words() string {
	switch {
	case b.min != nil && b.max != nil && *b.min == *b.max:
		return fmt.Sprintf("%s %d px", b.name, *b.min)
	case b.min != nil && b.max != nil:
		return fmt.Sprintf("%s %d-%d px", b.name, *b.min, *b.max)
	case b.min != nil:
		return fmt.Sprintf("%s >= %d px", b.name, *b.min)
	case b.max != nil:
		return fmt.Sprintf("%s <= %d px", b.name, *b.max)
	}
	return ""
}

func validRanges(check string, rs ...intRange) error {
	set := false
	for _, r := range rs {
		for _, v := range []struct {
			end string
			n   *int
		}{{"min_", r.min}, {"max_", r.max}} {
			if v.n != nil && *v.n < 0 {
				return &assert.ParamError{Check: check, Param: v.end + r.name, Msg: fmt.Sprintf("want a whole number of pixels >= 0, got %d", *v.n)}
			}
		}
		if r.min != nil && r.max != nil && *r.min > *r.max {
			return &assert.ParamError{Check: check, Param: "min_" + r.name, Msg: fmt.Sprintf("%d is more than max_%s %d", *r.min, r.name, *r.max)}
		}
		set = set || r.min != nil || r.max != nil
	}
	if !set {
		return &assert.ParamError{Check: check, Param: "min_width", Msg: "give at least one bound: without one every size passes"}
	}
	return nil
}

// ImageDimensions passes when every image part's dimensions, read from its
// bytes, are within the bounds, in pixels, inclusive: MinWidth, MaxWidth,
// MinHeight, MaxHeight; Width and Height ask for an exact size (PromptKit's
// width and height), and may not be given with a bound on the same side.
// The dimensions the source reported (Part.Width, Part.Height) are not
// trusted. Score is the fraction of images that pass.
//
//	1 of 1 image fail
//	problem: messages[1] part 1: width 64 px, want at least 512
//
// Errors: no bound, a negative one, a minimum above its maximum, an exact
// size with a bound on the same side (*assert.ParamError); no image part
// (ErrNoMedia); an image part without inline bytes.
//
// Registry type "image_dimensions", params: min_width, max_width,
// min_height, max_height, width, height, scope. As PromptKit's
// image_dimensions.
type ImageDimensions struct {
	MinWidth, MaxWidth, MinHeight, MaxHeight *int
	Width, Height                            *int
	Scope                                    assert.Scope
}

func (c ImageDimensions) ranges() (intRange, intRange, error) {
	const check = "image_dimensions"
	w := intRange{"width", c.MinWidth, c.MaxWidth}
	h := intRange{"height", c.MinHeight, c.MaxHeight}
	if c.Width != nil {
		if w.min != nil || w.max != nil {
			return w, h, &assert.ParamError{Check: check, Param: "width", Msg: "an exact width cannot be given with min_width or max_width"}
		}
		w.min, w.max = c.Width, c.Width
	}
	if c.Height != nil {
		if h.min != nil || h.max != nil {
			return w, h, &assert.ParamError{Check: check, Param: "height", Msg: "an exact height cannot be given with min_height or max_height"}
		}
		h.min, h.max = c.Height, c.Height
	}
	return w, h, validRanges(check, w, h)
}

// Check implements assert.Check.
func (c ImageDimensions) Check(_ context.Context, tr *evalkit.Transcript) (assert.Result, error) {
	const check = "image_dimensions"
	w, h, err := c.ranges()
	if err != nil {
		return assert.Result{}, err
	}
	parts, err := mediaParts(check, tr, orSession(c.Scope), KindImage)
	if err != nil {
		return assert.Result{}, err
	}
	return sizeVerdict(KindImage, probeAll(parts, KindImage), w, h, nil), nil
}

func sizeVerdict(kind string, ps []probed, w, h intRange, presets []string) assert.Result {
	problems := make([]string, len(ps))
	var sizes []string
	for i, p := range ps {
		if p.bad != "" {
			problems[i] = p.label + ": " + p.bad
			continue
		}
		sizes = append(sizes, fmt.Sprintf("%dx%d", p.info.Width, p.info.Height))
		var why []string
		for _, x := range []string{w.problem(p.info.Width), h.problem(p.info.Height)} {
			if x != "" {
				why = append(why, x)
			}
		}
		if len(presets) > 0 && !matchesPreset(p.info.Width, p.info.Height, presets) {
			why = append(why, fmt.Sprintf("%dx%d is none of %s", p.info.Width, p.info.Height, strings.Join(presets, ", ")))
		}
		if len(why) > 0 {
			problems[i] = p.label + ": " + strings.Join(why, "; ")
		}
	}
	return verdict(kind, ps, problems, fmt.Sprintf("%s within bounds: %s", plural(len(ps), kind), strings.Join(sizes, ", ")))
}

// Describe implements assert.Describer.
func (c ImageDimensions) Describe() string {
	w, h, _ := c.ranges()
	return "every image has " + joinNonEmpty(w.words(), h.words()) + scopeWords(c.Scope)
}

func joinNonEmpty(ss ...string) string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return "any size"
	}
	return strings.Join(out, " and ")
}

// Resolution presets of VideoResolution: the number of lines of the
// frame's shorter side.
var presets = map[string]int{
	"480p": 480, "sd": 480, "720p": 720, "hd": 720, "1080p": 1080, "fhd": 1080, "full_hd": 1080,
	"1440p": 1440, "qhd": 1440, "2160p": 2160, "4k": 2160, "uhd": 2160, "4320p": 4320, "8k": 4320,
}

func matchesPreset(w, h int, names []string) bool {
	short := min(w, h)
	for _, n := range names {
		if presets[strings.ToLower(n)] == short {
			return true
		}
	}
	return false
}

// VideoResolution passes when every video part's frame size, read from its
// bytes (an MP4 or MOV file's first video track), is within the bounds in
// pixels (MinWidth, MaxWidth, MinHeight, MaxHeight, inclusive) and, when
// Presets are given, is one of them: a preset names the lines of the
// frame's shorter side ("480p"/"sd", "720p"/"hd", "1080p"/"fhd",
// "1440p"/"qhd", "2160p"/"4k"/"uhd", "4320p"/"8k"), so a portrait 1080x1920
// video is 1080p. A video whose size cannot be read (WebM, for now) fails.
// Score is the fraction of videos that pass.
//
// Errors: no bound and no preset, an unknown preset, a negative bound or a
// minimum above its maximum (*assert.ParamError); no video part
// (ErrNoMedia); a video part without inline bytes.
//
// Registry type "video_resolution", params: min_width, max_width,
// min_height, max_height, presets, scope. As PromptKit's video_resolution.
type VideoResolution struct {
	MinWidth, MaxWidth, MinHeight, MaxHeight *int
	Presets                                  []string
	Scope                                    assert.Scope
}

func (c VideoResolution) validate() (intRange, intRange, error) {
	const check = "video_resolution"
	w := intRange{"width", c.MinWidth, c.MaxWidth}
	h := intRange{"height", c.MinHeight, c.MaxHeight}
	for i, p := range c.Presets {
		if _, ok := presets[strings.ToLower(p)]; !ok {
			return w, h, &assert.ParamError{Check: check, Param: "presets", Msg: fmt.Sprintf("item %d %q is not a preset (known: 480p, 720p, 1080p, 1440p, 2160p, 4320p, sd, hd, fhd, full_hd, qhd, 4k, uhd, 8k)", i, p)}
		}
	}
	if len(c.Presets) > 0 && c.MinWidth == nil && c.MaxWidth == nil && c.MinHeight == nil && c.MaxHeight == nil {
		return w, h, nil
	}
	return w, h, validRanges(check, w, h)
}

// Check implements assert.Check.
func (c VideoResolution) Check(_ context.Context, tr *evalkit.Transcript) (assert.Result, error) {
	const check = "video_resolution"
	w, h, err := c.validate()
	if err != nil {
		return assert.Result{}, err
	}
	parts, err := mediaParts(check, tr, orSession(c.Scope), KindVideo)
	if err != nil {
		return assert.Result{}, err
	}
	ps := probeAll(parts, KindVideo)
	for i, p := range ps {
		if p.bad == "" && (p.info.Width == 0 || p.info.Height == 0) {
			ps[i].bad = fmt.Sprintf("the frame size of %s %s video cannot be read", article(p.info.Format), p.info.Format)
		}
	}
	return sizeVerdict(KindVideo, ps, w, h, c.Presets), nil
}

// Describe implements assert.Describer.
func (c VideoResolution) Describe() string {
	w, h, _ := c.validate()
	d := "every video has " + joinNonEmpty(w.words(), h.words())
	if len(c.Presets) > 0 {
		d = "every video is " + strings.Join(c.Presets, " or ")
		if b := joinNonEmpty(w.words(), h.words()); b != "any size" {
			d += " with " + b
		}
	}
	return d + scopeWords(c.Scope)
}

// durationCheck is what AudioDuration and VideoDuration share.
type durationCheck struct {
	check, kind string
	min, max    *float64
	scope       assert.Scope
}

func (c durationCheck) validate() error {
	switch {
	case c.min == nil && c.max == nil:
		return &assert.ParamError{Check: c.check, Param: "min_seconds", Msg: "give min_seconds, max_seconds or both: without one every duration passes"}
	case c.min != nil && (*c.min < 0 || math.IsNaN(*c.min) || math.IsInf(*c.min, 0)):
		return &assert.ParamError{Check: c.check, Param: "min_seconds", Msg: fmt.Sprintf("want a finite number of seconds >= 0, got %v", *c.min)}
	case c.max != nil && (*c.max < 0 || math.IsNaN(*c.max) || math.IsInf(*c.max, 0)):
		return &assert.ParamError{Check: c.check, Param: "max_seconds", Msg: fmt.Sprintf("want a finite number of seconds >= 0, got %v", *c.max)}
	case c.min != nil && c.max != nil && *c.min > *c.max:
		return &assert.ParamError{Check: c.check, Param: "min_seconds", Msg: fmt.Sprintf("%v is more than max_seconds %v", *c.min, *c.max)}
	}
	return nil
}

func secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s" }

func fsecs(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) + " s" }

func (c durationCheck) run(tr *evalkit.Transcript) (assert.Result, error) {
	if err := c.validate(); err != nil {
		return assert.Result{}, err
	}
	parts, err := mediaParts(c.check, tr, orSession(c.scope), c.kind)
	if err != nil {
		return assert.Result{}, err
	}
	ps := probeAll(parts, c.kind)
	problems := make([]string, len(ps))
	var found []string
	for i, p := range ps {
		switch {
		case p.bad != "":
			problems[i] = p.label + ": " + p.bad
			continue
		case !p.info.HasDuration:
			return assert.Result{}, fmt.Errorf("%s: %s: the duration of %s %s cannot be read yet", c.check, p.label, formatName(p.info), c.kind)
		}
		d := p.info.Duration.Seconds()
		found = append(found, secs(p.info.Duration))
		switch {
		case c.min != nil && d < *c.min:
			problems[i] = fmt.Sprintf("%s: %s, want at least %s", p.label, secs(p.info.Duration), fsecs(*c.min))
		case c.max != nil && d > *c.max:
			problems[i] = fmt.Sprintf("%s: %s, want at most %s", p.label, secs(p.info.Duration), fsecs(*c.max))
		}
	}
	noun := c.kind + " clip"
	if c.kind == KindVideo {
		noun = "video"
	}
	return verdict(noun, ps, problems, fmt.Sprintf("%s within bounds: %s", plural(len(ps), noun), strings.Join(found, ", "))), nil
}

func formatName(i Info) string {
	if i.Codec != "" {
		return i.Format + " (" + i.Codec + ")"
	}
	return i.Format
}

func (c durationCheck) words() string {
	switch {
	case c.min != nil && c.max != nil:
		return fmt.Sprintf("lasts %s to %s", fsecs(*c.min), fsecs(*c.max))
	case c.min != nil:
		return "lasts at least " + fsecs(*c.min)
	case c.max != nil:
		return "lasts at most " + fsecs(*c.max)
	}
	return "lasts any time"
}

// AudioDuration passes when every audio part lasts at least MinSeconds and
// at most MaxSeconds (either may be nil; inclusive), read from its bytes:
// WAV, MP3 (every frame summed, so VBR files are right), Ogg Vorbis and
// M4A. The duration the source reported (Part.DurationMS) is not trusted.
// A clip whose bytes cannot be read fails. Score is the fraction of clips
// that pass.
//
//	1 of 1 audio clip fail
//	problem: messages[1] part 1: 0.5 s, want at least 1 s
//
// Errors: no bound, a negative one, a minimum above the maximum
// (*assert.ParamError); no audio part (ErrNoMedia); a part without inline
// bytes; a clip whose format gives no duration here yet (FLAC, Ogg Opus).
//
// Registry type "audio_duration", params: min_seconds, max_seconds, scope.
// As PromptKit's audio_duration.
type AudioDuration struct {
	MinSeconds, MaxSeconds *float64
	Scope                  assert.Scope
}

func (c AudioDuration) run() durationCheck {
	return durationCheck{"audio_duration", KindAudio, c.MinSeconds, c.MaxSeconds, c.Scope}
}

// Check implements assert.Check.
func (c AudioDuration) Check(_ context.Context, tr *evalkit.Transcript) (assert.Result, error) {
	return c.run().run(tr)
}

// Describe implements assert.Describer.
func (c AudioDuration) Describe() string {
	return "every audio clip " + c.run().words() + scopeWords(c.Scope)
}

// VideoDuration passes when every video part lasts at least MinSeconds and
// at most MaxSeconds, read from its bytes (an MP4 or MOV file's movie
// header). Everything else is as AudioDuration; a WebM video's duration
// cannot be read yet (an error).
//
// Registry type "video_duration", params: min_seconds, max_seconds, scope.
// As PromptKit's video_duration.
type VideoDuration struct {
	MinSeconds, MaxSeconds *float64
	Scope                  assert.Scope
}

func (c VideoDuration) run() durationCheck {
	return durationCheck{"video_duration", KindVideo, c.MinSeconds, c.MaxSeconds, c.Scope}
}

// Check implements assert.Check.
func (c VideoDuration) Check(_ context.Context, tr *evalkit.Transcript) (assert.Result, error) {
	return c.run().run(tr)
}

// Describe implements assert.Describer.
func (c VideoDuration) Describe() string {
	return "every video " + c.run().words() + scopeWords(c.Scope)
}
