// Package media holds the media checks — image_format, image_dimensions,
// audio_format, audio_duration, video_duration and video_resolution, as
// PromptKit names them — and Probe, which they share: every one reads the
// media's bytes, never a declared MIME type or a reported size.
//
//	reg := media.NewRegistry() // assert.NewRegistry() plus the media checks
//	res, err := reg.Eval(ctx, "image_dimensions", tr, map[string]any{"min_width": 512})
//
// or, with a registry of one's own, media.Register(reg), and in a test
// evaltest.New(t, evaltest.WithRegistry(reg)).Expect(tr).Eval("audio_duration",
// map[string]any{"max_seconds": 30}).
//
// The checks live apart from package assert so that only users who check
// media build their decoders: this package brings nine modules
// (golang.org/x/image, go-audio/wav with riff and audio, tcolgate/mp3,
// jfreymuth/oggvorbis with vorbis, abema/go-mp4 with google/uuid) to
// assert's six. Nothing registers itself: Register adds the checks to a
// registry its caller owns.
//
// The checks read the media parts (evalkit.Part, by Type: "image",
// "audio", "video") of the assistant's messages: every assistant message
// with Session scope (the default), the last one with Turn. Three
// outcomes, as everywhere in evalkit: a part whose bytes are damaged, of
// another kind or format, or out of bounds fails; no media part of the
// kind (ErrNoMedia), a part known only by URL or file id, and a format
// whose duration cannot be read yet (FLAC, Ogg Opus, WebM) are errors,
// never passes.
package media
