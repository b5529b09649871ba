package media

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // GIF headers for image.DecodeConfig
	_ "image/jpeg" // JPEG headers
	_ "image/png"  // PNG headers
	"io"
	"math"
	"time"

	mp4 "github.com/abema/go-mp4"
	"github.com/go-audio/wav"
	"github.com/jfreymuth/oggvorbis"
	"github.com/tcolgate/mp3"
	_ "golang.org/x/image/bmp"  // BMP headers
	_ "golang.org/x/image/tiff" // TIFF headers
	_ "golang.org/x/image/webp" // WebP headers
)

// Kinds of media (Info.Kind), as evalkit.Part.Type names them.
const (
	KindImage = "image"
	KindAudio = "audio"
	KindVideo = "video"
)

// Info is what Probe reads from a media file's bytes.
type Info struct {
	// Kind is KindImage, KindAudio or KindVideo.
	Kind string
	// Format is the container or image format: "png", "jpeg", "gif",
	// "webp", "bmp", "tiff"; "wav", "mp3", "ogg", "flac", "m4a"; "mp4",
	// "mov", "webm".
	Format string
	// Codec is the audio codec inside an Ogg stream ("vorbis", "opus"),
	// when known; empty otherwise.
	Codec string
	// Width and Height are an image's or a video's dimensions in pixels
	// (a video's first video track, as its track header gives them).
	Width, Height int
	// Duration is an audio or video file's length; HasDuration reports
	// whether it could be read (a FLAC or Ogg Opus file's, a WebM file's
	// cannot yet).
	Duration    time.Duration
	HasDuration bool
}

// ErrUnknownFormat is returned (wrapped) by Probe for bytes that are no
// media format it knows.
var ErrUnknownFormat = errors.New("unknown media format")

// Probe identifies media from its bytes and reads its dimensions or
// duration, never trusting a declared MIME type or reported size. Image
// headers are read with the standard library's image.DecodeConfig (PNG,
// JPEG, GIF) and golang.org/x/image (WebP, BMP, TIFF); WAV durations with
// github.com/go-audio/wav, MP3 durations by summing the frames
// github.com/tcolgate/mp3 reads (right for VBR files too), Ogg Vorbis
// durations with github.com/jfreymuth/oggvorbis, and MP4, MOV and M4A
// durations and track sizes with github.com/abema/go-mp4. Only the
// container's magic bytes are matched here, to pick the library.
//
// Errors: bytes of no known format (ErrUnknownFormat), and a file of a
// known format that its library cannot read (cut off, corrupt), with the
// library's message.
func Probe(data []byte) (Info, error) {
	if len(data) == 0 {
		return Info{}, fmt.Errorf("%w: no bytes", ErrUnknownFormat)
	}
	if cfg, format, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		return Info{Kind: KindImage, Format: format, Width: cfg.Width, Height: cfg.Height}, nil
	} else if format := imageMagic(data); format != "" {
		return Info{}, fmt.Errorf("a %s image whose header cannot be read: %v", format, err)
	}
	switch {
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WAVE":
		return probeWAV(data)
	case len(data) >= 4 && string(data[:4]) == "OggS":
		return probeOgg(data)
	case len(data) >= 4 && string(data[:4]) == "fLaC":
		return Info{Kind: KindAudio, Format: "flac"}, nil
	case len(data) >= 12 && string(data[4:8]) == "ftyp":
		return probeMP4(data)
	case len(data) >= 4 && bytes.Equal(data[:4], []byte{0x1A, 0x45, 0xDF, 0xA3}):
		return Info{Kind: KindVideo, Format: "webm"}, nil
	case len(data) >= 3 && string(data[:3]) == "ID3", len(data) >= 2 && data[0] == 0xFF && data[1]&0xE0 == 0xE0:
		return probeMP3(data)
	}
	return Info{}, fmt.Errorf("%w: the bytes start % x", ErrUnknownFormat, data[:min(len(data), 8)])
}

// imageMagic names an image format by its signature, so that a damaged
// image is reported as one rather than as unknown bytes.
func imageMagic(data []byte) string {
	for _, m := range []struct{ sig, name string }{
		{"\x89PNG\r\n\x1a\n", "png"}, {"\xff\xd8\xff", "jpeg"}, {"GIF8", "gif"}, {"BM", "bmp"}, {"II*\x00", "tiff"}, {"MM\x00*", "tiff"},
	} {
		if bytes.HasPrefix(data, []byte(m.sig)) {
			return m.name
		}
	}
	if len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP" {
		return "webp"
	}
	return ""
}

func probeWAV(data []byte) (Info, error) {
	d := wav.NewDecoder(bytes.NewReader(data))
	if !d.IsValidFile() {
		return Info{}, fmt.Errorf("a WAV file that cannot be read: %v", errOr(d.Err(), "invalid header"))
	}
	// The length of the data chunk over the byte rate: go-audio's own
	// Duration divides the whole RIFF size, headers included, and reads a
	// parse error as zero.
	if err := d.FwdToPCM(); err != nil || d.Err() != nil {
		return Info{}, fmt.Errorf("a WAV file without readable audio data: %v", errOr(err, errOr(d.Err(), "no data chunk")))
	}
	if d.AvgBytesPerSec == 0 {
		return Info{}, fmt.Errorf("a WAV file with a byte rate of 0")
	}
	if d.PCMSize > len(data) {
		return Info{}, fmt.Errorf("a WAV file cut off: its data chunk claims %d bytes, the file has %d", d.PCMSize, len(data))
	}
	dur := time.Duration(math.Round(float64(d.PCMSize) / float64(d.AvgBytesPerSec) * float64(time.Second)))
	return Info{Kind: KindAudio, Format: "wav", Duration: dur, HasDuration: true}, nil
}

func probeMP3(data []byte) (Info, error) {
	d := mp3.NewDecoder(bytes.NewReader(data))
	var f mp3.Frame
	var total time.Duration
	frames, skipped := 0, 0
	for {
		err := d.Decode(&f, &skipped)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) && frames > 0 {
			break
		}
		if err != nil {
			if frames == 0 {
				return Info{}, fmt.Errorf("%w: no MPEG audio frame: %v", ErrUnknownFormat, err)
			}
			return Info{}, fmt.Errorf("an MP3 file cut or damaged after %d frames: %v", frames, err)
		}
		frames++
		total += f.Duration()
	}
	if frames == 0 {
		return Info{}, fmt.Errorf("%w: no MPEG audio frame", ErrUnknownFormat)
	}
	return Info{Kind: KindAudio, Format: "mp3", Duration: total, HasDuration: true}, nil
}

func probeOgg(data []byte) (Info, error) {
	head := data[:min(len(data), 512)]
	switch {
	case bytes.Contains(head, []byte("\x01vorbis")):
		samples, format, err := oggvorbis.GetLength(bytes.NewReader(data))
		if err != nil {
			return Info{}, fmt.Errorf("an Ogg Vorbis file that cannot be read: %v", err)
		}
		if format.SampleRate <= 0 {
			return Info{}, fmt.Errorf("an Ogg Vorbis file with sample rate %d", format.SampleRate)
		}
		dur := time.Duration(math.Round(float64(samples) / float64(format.SampleRate) * float64(time.Second)))
		return Info{Kind: KindAudio, Format: "ogg", Codec: "vorbis", Duration: dur, HasDuration: true}, nil
	case bytes.Contains(head, []byte("OpusHead")):
		return Info{Kind: KindAudio, Format: "ogg", Codec: "opus"}, nil
	}
	return Info{Kind: KindAudio, Format: "ogg"}, nil
}

func probeMP4(data []byte) (Info, error) {
	r := bytes.NewReader(data)
	p, err := mp4.Probe(r)
	if err != nil {
		return Info{}, fmt.Errorf("an MP4 file that cannot be read: %v", err)
	}
	if len(p.Tracks) == 0 {
		return Info{}, fmt.Errorf("an MP4 file without tracks (cut off before its movie box?)")
	}
	format := "mp4"
	switch string(p.MajorBrand[:]) {
	case "qt  ":
		format = "mov"
	case "M4A ", "M4B ", "M4P ":
		format = "m4a"
	}
	info := Info{Kind: KindAudio, Format: format}
	if p.Timescale > 0 && p.Duration > 0 {
		info.Duration = time.Duration(math.Round(float64(p.Duration) / float64(p.Timescale) * float64(time.Second)))
		info.HasDuration = true
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return Info{}, err
	}
	boxes, err := mp4.ExtractBoxWithPayload(r, nil, mp4.BoxPath{mp4.BoxTypeMoov(), mp4.BoxTypeTrak(), mp4.BoxTypeTkhd()})
	if err != nil {
		return Info{}, fmt.Errorf("an MP4 file whose track headers cannot be read: %v", err)
	}
	for _, b := range boxes {
		tkhd, ok := b.Payload.(*mp4.Tkhd)
		if !ok {
			continue
		}
		if w, h := int(tkhd.GetWidthInt()), int(tkhd.GetHeightInt()); w > 0 && h > 0 {
			info.Kind, info.Width, info.Height = KindVideo, w, h
			if info.Format == "m4a" {
				info.Format = "mp4"
			}
			break
		}
	}
	if info.Kind == KindAudio && format == "mp4" {
		info.Format = "m4a" // an MP4 file holding only audio
	}
	return info, nil
}

func errOr(err error, text string) string {
	if err != nil {
		return err.Error()
	}
	return text
}
