package media

import (
	"errors"

	"github.com/evalkit-go/evalkit/assert"
)

// Names are the check types Register adds, sorted: PromptKit's media
// handler names.
var Names = []string{"audio_duration", "audio_format", "image_dimensions", "image_format", "video_duration", "video_resolution"}

// Register adds the media checks to r, a registry its caller made with
// assert.NewRegistry (registries made from it with WithJudge or
// WithEmbedder share them). It fails if r has any of the names already.
// The built-in registry behind assert.Eval does not have them: a user who
// does not check media does not build the decoders.
//
//	reg := assert.NewRegistry()
//	if err := media.Register(reg); err != nil { ... }
//	et := evaltest.New(t, evaltest.WithRegistry(reg))
func Register(r *assert.Registry) error {
	var errs []error
	for _, name := range Names {
		errs = append(errs, r.Register(name, builders[name]))
	}
	return errors.Join(errs...)
}

// NewRegistry returns assert.NewRegistry() with the media checks added.
func NewRegistry() *assert.Registry {
	r := assert.NewRegistry()
	if err := Register(r); err != nil {
		panic("media: " + err.Error()) // a new registry has none of the names
	}
	return r
}

var builders = map[string]func(map[string]any) (assert.Check, error){
	"image_format": func(m map[string]any) (assert.Check, error) {
		r := newReader("image_format", m)
		f, err := readFormats(r)
		if err != nil {
			return nil, err
		}
		c := ImageFormat{Formats: f}
		return finish(r, &c.Scope, func() error { return checkFormats("image_format", f) }, func() assert.Check { return c })
	},
	"audio_format": func(m map[string]any) (assert.Check, error) {
		r := newReader("audio_format", m)
		f, err := readFormats(r)
		if err != nil {
			return nil, err
		}
		c := AudioFormat{Formats: f}
		return finish(r, &c.Scope, func() error { return checkFormats("audio_format", f) }, func() assert.Check { return c })
	},
	"image_dimensions": func(m map[string]any) (assert.Check, error) {
		r := newReader("image_dimensions", m)
		var c ImageDimensions
		for _, b := range []struct {
			name string
			dst  **int
		}{{"min_width", &c.MinWidth}, {"max_width", &c.MaxWidth}, {"min_height", &c.MinHeight}, {"max_height", &c.MaxHeight}, {"width", &c.Width}, {"height", &c.Height}} {
			v, err := r.pixels(b.name)
			if err != nil {
				return nil, err
			}
			*b.dst = v
		}
		return finish(r, &c.Scope, func() error { _, _, err := c.ranges(); return err }, func() assert.Check { return c })
	},
	"video_resolution": func(m map[string]any) (assert.Check, error) {
		r := newReader("video_resolution", m)
		var c VideoResolution
		for _, b := range []struct {
			name string
			dst  **int
		}{{"min_width", &c.MinWidth}, {"max_width", &c.MaxWidth}, {"min_height", &c.MinHeight}, {"max_height", &c.MaxHeight}} {
			v, err := r.pixels(b.name)
			if err != nil {
				return nil, err
			}
			*b.dst = v
		}
		p, _, err := r.strs("presets")
		if err != nil {
			return nil, err
		}
		c.Presets = p
		return finish(r, &c.Scope, func() error { _, _, err := c.validate(); return err }, func() assert.Check { return c })
	},
	"audio_duration": func(m map[string]any) (assert.Check, error) {
		r := newReader("audio_duration", m)
		var c AudioDuration
		if err := readSeconds(r, &c.MinSeconds, &c.MaxSeconds); err != nil {
			return nil, err
		}
		return finish(r, &c.Scope, func() error { return c.run().validate() }, func() assert.Check { return c })
	},
	"video_duration": func(m map[string]any) (assert.Check, error) {
		r := newReader("video_duration", m)
		var c VideoDuration
		if err := readSeconds(r, &c.MinSeconds, &c.MaxSeconds); err != nil {
			return nil, err
		}
		return finish(r, &c.Scope, func() error { return c.run().validate() }, func() assert.Check { return c })
	},
}

func readSeconds(r *reader, lo, hi **float64) error {
	var err error
	if *lo, err = r.num("min_seconds"); err != nil {
		return err
	}
	*hi, err = r.num("max_seconds")
	return err
}

// finish reads the scope into *scope, reports unknown parameters, then
// validates and returns the check that build makes.
func finish(r *reader, scope *assert.Scope, validate func() error, build func() assert.Check) (assert.Check, error) {
	s, err := r.scope()
	if err != nil {
		return nil, err
	}
	*scope = s
	if err := r.done(); err != nil {
		return nil, err
	}
	if err := validate(); err != nil {
		return nil, err
	}
	return build(), nil
}
