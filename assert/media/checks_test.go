package media_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/assert/media"
)

// reply is a transcript whose assistant answers with the named testdata
// files as parts of kind; an earlier answer carries earlier's.
func reply(t *testing.T, kind string, files ...string) *evalkit.Transcript {
	t.Helper()
	m := evalkit.Message{Role: evalkit.RoleAssistant, Content: "Here you go."}
	for _, f := range files {
		m.Parts = append(m.Parts, evalkit.Part{Type: kind, Data: read(t, f)})
	}
	return &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "make it"}, m}}
}

// withEarlier puts an earlier answer with files before tr's last one.
func withEarlier(t *testing.T, tr *evalkit.Transcript, kind string, files ...string) *evalkit.Transcript {
	t.Helper()
	early := reply(t, kind, files...)
	tr.Messages = append(early.Messages, tr.Messages...)
	return tr
}

type outcome string

const (
	PASS  outcome = "PASS"
	FAIL  outcome = "FAIL"
	ERROR outcome = "ERROR"
)

type mediaCase struct {
	name    string
	tr      *evalkit.Transcript
	check   string
	params  map[string]any
	want    outcome
	summary string // the exact Summary, or the error text for ERROR
	details []assert.Detail
	param   string
	is      error
}

func runMedia(t *testing.T, cases []mediaCase) {
	t.Helper()
	reg := media.NewRegistry()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := reg.Eval(context.Background(), tc.check, tc.tr, tc.params)
			got := PASS
			switch {
			case err != nil:
				got = ERROR
			case !res.Passed:
				got = FAIL
			}
			require.Equal(t, tc.want, got, "result %+v, error %v", res, err)
			if tc.summary != "" {
				if err != nil {
					testify.Equal(t, tc.summary, err.Error())
				} else {
					testify.Equal(t, tc.summary, res.Summary)
				}
			}
			if tc.details != nil {
				testify.Equal(t, tc.details, res.Details)
			}
			if tc.param != "" {
				var pe *assert.ParamError
				require.True(t, errors.As(err, &pe), "want a *ParamError, got %v", err)
				testify.Equal(t, tc.param, pe.Param)
			}
			if tc.is != nil {
				testify.ErrorIs(t, err, tc.is)
			}
		})
	}
}

func TestImageFormat(t *testing.T) {
	lying := reply(t, "image", "blue_64x48.jpg")
	lying.Messages[1].Parts[0].MIMEType = "image/png"
	urlOnly := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Parts: []evalkit.Part{{Type: "image", URL: "https://example.com/a.png"}}}}}
	runMedia(t, []mediaCase{
		{name: "allowed", tr: reply(t, "image", "red_64x48.png", "blue_64x48.jpg"), check: "image_format", params: map[string]any{"formats": []any{"png", "JPG"}}, want: PASS,
			summary: "2 images in allowed formats: png, jpeg"},
		{name: "mime types as formats", tr: reply(t, "image", "white_40x30.webp"), check: "image_format", params: map[string]any{"formats": []any{"image/webp"}}, want: PASS},
		{name: "one not allowed", tr: reply(t, "image", "red_64x48.png", "green_32x32.gif"), check: "image_format", params: map[string]any{"formats": []any{"png", "jpeg"}}, want: FAIL,
			summary: "1 of 2 images fail", details: []assert.Detail{{Label: "problem", Text: "messages[1] part 2 is gif, want png or jpeg"}}},
		{name: "the bytes decide, not the MIME type", tr: lying, check: "image_format", params: map[string]any{"formats": []any{"png"}}, want: FAIL},
		{name: "damaged image fails", tr: func() *evalkit.Transcript {
			tr := reply(t, "image", "red_64x48.png")
			tr.Messages[1].Parts[0].Data = tr.Messages[1].Parts[0].Data[:20]
			return tr
		}(), check: "image_format", params: map[string]any{"formats": []any{"png"}}, want: FAIL},
		{name: "audio bytes in an image part fail", tr: reply(t, "image", "tone_1500ms.wav"), check: "image_format", params: map[string]any{"formats": []any{"png"}}, want: FAIL,
			details: []assert.Detail{{Label: "problem", Text: "messages[1] part 1: the bytes are wav audio, not an image"}}},
		{name: "session reads earlier answers", tr: withEarlier(t, reply(t, "image", "red_64x48.png"), "image", "black_16x8.bmp"), check: "image_format", params: map[string]any{"formats": []any{"png"}}, want: FAIL},
		{name: "turn reads the last answer", tr: withEarlier(t, reply(t, "image", "red_64x48.png"), "image", "black_16x8.bmp"), check: "image_format", params: map[string]any{"formats": []any{"png"}, "scope": "turn"}, want: PASS},
		{name: "no image", tr: reply(t, "audio", "tone_1500ms.wav"), check: "image_format", params: map[string]any{"formats": []any{"png"}}, want: ERROR, is: media.ErrNoMedia,
			summary: "image_format: no media: no image part in the assistant messages"},
		{name: "a URL only", tr: urlOnly, check: "image_format", params: map[string]any{"formats": []any{"png"}}, want: ERROR,
			summary: "image_format: messages[0] part 1 has only a URL: its image cannot be read from its bytes"},
		{name: "no formats", tr: reply(t, "image", "red_64x48.png"), check: "image_format", params: map[string]any{}, want: ERROR, param: "formats"},
		{name: "empty formats", tr: reply(t, "image", "red_64x48.png"), check: "image_format", params: map[string]any{"formats": []any{}}, want: ERROR, param: "formats"},
		{name: "misspelt", tr: reply(t, "image", "red_64x48.png"), check: "image_format", params: map[string]any{"formats": []any{"png"}, "scpe": "turn"}, want: ERROR, param: "scpe"},
	})
}

func TestImageDimensions(t *testing.T) {
	runMedia(t, []mediaCase{
		{name: "within", tr: reply(t, "image", "red_64x48.png", "white_40x30.webp"), check: "image_dimensions", params: map[string]any{"min_width": 32, "max_height": 48}, want: PASS,
			summary: "2 images within bounds: 64x48, 40x30"},
		{name: "exact size", tr: reply(t, "image", "gray_16x8.tiff"), check: "image_dimensions", params: map[string]any{"width": 16, "height": 8}, want: PASS},
		{name: "too small", tr: reply(t, "image", "black_16x8.bmp"), check: "image_dimensions", params: map[string]any{"min_width": 512, "min_height": 4}, want: FAIL,
			details: []assert.Detail{{Label: "problem", Text: "messages[1] part 1: width 16 px, want at least 512"}}},
		{name: "reported size is not trusted", tr: func() *evalkit.Transcript {
			tr := reply(t, "image", "black_16x8.bmp")
			tr.Messages[1].Parts[0].Width, tr.Messages[1].Parts[0].Height = 1024, 1024
			return tr
		}(), check: "image_dimensions", params: map[string]any{"min_width": 512}, want: FAIL},
		{name: "turn scope", tr: withEarlier(t, reply(t, "image", "red_64x48.png"), "image", "black_16x8.bmp"), check: "image_dimensions", params: map[string]any{"min_width": 64, "scope": "turn"}, want: PASS},
		{name: "no bound", tr: reply(t, "image", "red_64x48.png"), check: "image_dimensions", params: map[string]any{}, want: ERROR, param: "min_width"},
		{name: "exact and a bound", tr: reply(t, "image", "red_64x48.png"), check: "image_dimensions", params: map[string]any{"width": 5, "max_width": 6}, want: ERROR, param: "width"},
		{name: "min above max", tr: reply(t, "image", "red_64x48.png"), check: "image_dimensions", params: map[string]any{"min_height": 9, "max_height": 8}, want: ERROR, param: "min_height"},
		{name: "fractional pixels", tr: reply(t, "image", "red_64x48.png"), check: "image_dimensions", params: map[string]any{"min_width": 1.5}, want: ERROR, param: "min_width"},
		{name: "no image", tr: reply(t, "video", "clip_320x240_2s.mp4"), check: "image_dimensions", params: map[string]any{"min_width": 1}, want: ERROR, is: media.ErrNoMedia},
	})
}

func TestAudioFormat(t *testing.T) {
	runMedia(t, []mediaCase{
		{name: "allowed", tr: reply(t, "audio", "tone_1500ms.wav", "tone_2s.mp3", "tone_2500ms.ogg", "tone_1s.flac", "tone_3s.m4a"), check: "audio_format",
			params: map[string]any{"formats": []any{"wav", "audio/mpeg", "ogg", "flac", "m4a"}}, want: PASS, summary: "5 audio clips in allowed formats: wav, mp3, ogg, flac, m4a"},
		{name: "not allowed", tr: reply(t, "audio", "tone_2s.mp3"), check: "audio_format", params: map[string]any{"formats": []any{"wav"}}, want: FAIL,
			details: []assert.Detail{{Label: "problem", Text: "messages[1] part 1 is mp3, want wav"}}},
		{name: "video bytes in an audio part", tr: reply(t, "audio", "clip_320x240_2s.mp4"), check: "audio_format", params: map[string]any{"formats": []any{"mp4"}}, want: FAIL},
		{name: "no audio", tr: reply(t, "image", "red_64x48.png"), check: "audio_format", params: map[string]any{"formats": []any{"wav"}}, want: ERROR, is: media.ErrNoMedia},
		{name: "empty format", tr: reply(t, "audio", "tone_2s.mp3"), check: "audio_format", params: map[string]any{"formats": []any{""}}, want: ERROR, param: "formats"},
	})
}

func TestAudioDuration(t *testing.T) {
	runMedia(t, []mediaCase{
		{name: "within", tr: reply(t, "audio", "tone_1500ms.wav", "tone_2500ms.ogg", "tone_3s.m4a"), check: "audio_duration", params: map[string]any{"min_seconds": 1, "max_seconds": 3.1}, want: PASS},
		{name: "mp3 frames summed", tr: reply(t, "audio", "tone_2s.mp3"), check: "audio_duration", params: map[string]any{"min_seconds": 1.9, "max_seconds": 2.2}, want: PASS},
		{name: "too short", tr: reply(t, "audio", "tone_1500ms.wav"), check: "audio_duration", params: map[string]any{"min_seconds": 2}, want: FAIL,
			summary: "1 of 1 audio clip fail", details: []assert.Detail{{Label: "problem", Text: "messages[1] part 1: 1.5 s, want at least 2 s"}}},
		{name: "too long", tr: reply(t, "audio", "tone_2500ms.ogg"), check: "audio_duration", params: map[string]any{"max_seconds": 1}, want: FAIL},
		{name: "reported duration is not trusted", tr: func() *evalkit.Transcript {
			tr := reply(t, "audio", "tone_1500ms.wav")
			tr.Messages[1].Parts[0].DurationMS = 10_000
			return tr
		}(), check: "audio_duration", params: map[string]any{"min_seconds": 5}, want: FAIL},
		{name: "flac duration not readable", tr: reply(t, "audio", "tone_1s.flac"), check: "audio_duration", params: map[string]any{"max_seconds": 5}, want: ERROR,
			summary: "audio_duration: messages[1] part 1: the duration of flac audio cannot be read yet"},
		{name: "opus duration not readable", tr: reply(t, "audio", "tone_1s.opus.ogg"), check: "audio_duration", params: map[string]any{"max_seconds": 5}, want: ERROR},
		{name: "no bound", tr: reply(t, "audio", "tone_2s.mp3"), check: "audio_duration", params: map[string]any{}, want: ERROR, param: "min_seconds"},
		{name: "negative", tr: reply(t, "audio", "tone_2s.mp3"), check: "audio_duration", params: map[string]any{"max_seconds": -1}, want: ERROR, param: "max_seconds"},
		{name: "min above max", tr: reply(t, "audio", "tone_2s.mp3"), check: "audio_duration", params: map[string]any{"min_seconds": 3, "max_seconds": 2}, want: ERROR, param: "min_seconds"},
		{name: "no assistant message", tr: &evalkit.Transcript{}, check: "audio_duration", params: map[string]any{"max_seconds": 1}, want: ERROR, is: assert.ErrNoOutput},
	})
}

func TestVideoDuration(t *testing.T) {
	runMedia(t, []mediaCase{
		{name: "within", tr: reply(t, "video", "clip_320x240_2s.mp4", "clip_180x320_1s.mov"), check: "video_duration", params: map[string]any{"min_seconds": 0.5, "max_seconds": 2}, want: PASS,
			summary: "2 videos within bounds: 2 s, 1 s"},
		{name: "too short", tr: reply(t, "video", "clip_180x320_1s.mov"), check: "video_duration", params: map[string]any{"min_seconds": 1.5}, want: FAIL},
		{name: "webm not readable", tr: reply(t, "video", "clip_160x120_1s.webm"), check: "video_duration", params: map[string]any{"max_seconds": 5}, want: ERROR},
		{name: "turn scope", tr: withEarlier(t, reply(t, "video", "clip_180x320_1s.mov"), "video", "clip_320x240_2s.mp4"), check: "video_duration", params: map[string]any{"max_seconds": 1.5, "scope": "turn"}, want: PASS},
		{name: "no video", tr: reply(t, "audio", "tone_3s.m4a"), check: "video_duration", params: map[string]any{"max_seconds": 5}, want: ERROR, is: media.ErrNoMedia},
		{name: "bad scope", tr: reply(t, "video", "clip_180x320_1s.mov"), check: "video_duration", params: map[string]any{"max_seconds": 5, "scope": "all"}, want: ERROR, param: "scope"},
	})
}

func TestVideoResolution(t *testing.T) {
	runMedia(t, []mediaCase{
		{name: "bounds", tr: reply(t, "video", "clip_320x240_2s.mp4"), check: "video_resolution", params: map[string]any{"min_width": 320, "max_height": 240}, want: PASS,
			summary: "1 video within bounds: 320x240"},
		{name: "preset by the short side", tr: reply(t, "video", "clip_180x320_1s.mov"), check: "video_resolution", params: map[string]any{"presets": []any{"720p"}}, want: FAIL,
			details: []assert.Detail{{Label: "problem", Text: "messages[1] part 1: 180x320 is none of 720p"}}},
		{name: "too small", tr: reply(t, "video", "clip_320x240_2s.mp4"), check: "video_resolution", params: map[string]any{"min_height": 720}, want: FAIL},
		{name: "webm size not readable fails", tr: reply(t, "video", "clip_160x120_1s.webm"), check: "video_resolution", params: map[string]any{"min_width": 1}, want: FAIL},
		{name: "unknown preset", tr: reply(t, "video", "clip_320x240_2s.mp4"), check: "video_resolution", params: map[string]any{"presets": []any{"1080i"}}, want: ERROR, param: "presets"},
		{name: "nothing asked", tr: reply(t, "video", "clip_320x240_2s.mp4"), check: "video_resolution", params: map[string]any{}, want: ERROR, param: "min_width"},
	})
}

// minimal are valid params for every media type; the walk below gives
// each the kinds of bad parameter every built-in type is tested with.
var minimal = map[string]map[string]any{
	"image_format":     {"formats": []any{"png"}},
	"image_dimensions": {"min_width": 1},
	"audio_format":     {"formats": []any{"wav"}},
	"audio_duration":   {"max_seconds": 10},
	"video_duration":   {"max_seconds": 10},
	"video_resolution": {"presets": []any{"720p"}},
}

func TestValidateEveryMediaType(t *testing.T) {
	reg := media.NewRegistry()
	require.ElementsMatch(t, media.Names, slices.Collect(maps.Keys(minimal)))
	testify.True(t, slices.IsSorted(media.Names))
	for _, name := range media.Names {
		params := minimal[name]
		t.Run(name, func(t *testing.T) {
			require.NoError(t, reg.Validate(name, params))
			c, err := reg.Build(name, params)
			require.NoError(t, err)
			d, ok := c.(assert.Describer)
			require.True(t, ok, "%T has no Describe", c)
			testify.NotEmpty(t, d.Describe())

			var pe *assert.ParamError
			err = reg.Validate(name, with(params, "bogus_param", 1))
			require.True(t, errors.As(err, &pe), "%v", err)
			testify.Equal(t, "bogus_param", pe.Param)
			for k, v := range params {
				typo := k[:len(k)/2] + k[len(k)/2+1:]
				misspelt := with(params, typo, v)
				delete(misspelt, k)
				err := reg.Validate(name, misspelt)
				require.True(t, errors.As(err, &pe), "%s: %v", typo, err)
				testify.Equal(t, typo, pe.Param, "%v", err)
				err = reg.Validate(name, with(params, k, make(chan int)))
				require.True(t, errors.As(err, &pe), "%s: a channel: %v", k, err)
				testify.Equal(t, k, pe.Param, "%v", err)
			}
		})
	}
	testify.Error(t, media.Register(reg), "registering twice")
	_, err := assert.Eval(context.Background(), "image_format", reply(t, "image", "red_64x48.png"), minimal["image_format"])
	testify.ErrorIs(t, err, assert.ErrUnknownCheck, "the built-in registry has no media checks")
}

func with(m map[string]any, k string, v any) map[string]any {
	out := maps.Clone(m)
	out[k] = v
	return out
}

func ExampleProbe() {
	data, err := os.ReadFile("testdata/clip_320x240_2s.mp4")
	if err != nil {
		panic(err)
	}
	info, err := media.Probe(data)
	fmt.Println(info.Kind, info.Format, info.Width, info.Height, info.Duration, err)
	// Output: video mp4 320 240 2s <nil>
}
