package golden

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit"
)

// streamSamples reads the real recorded streams of testdata/api_streams:
// each reply's stream and its API.
func streamSamples(t testing.TB) (streams []string, apis []string) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "api_streams", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded streams: %v", err)
	}
	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Interactions []struct {
				Request  struct{ URI string }
				Response struct{ Stream string }
			}
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		for _, in := range c.Interactions {
			uri, _, _ := strings.Cut(in.Request.URI, "?")
			streams = append(streams, in.Response.Stream)
			apis = append(apis, modelAPI(uri))
		}
	}
	return streams, apis
}

// FuzzAssembleStream feeds the stream assembly real recorded streams
// shuffled (swaps of events), cut (at any byte) and with arbitrary bytes
// added, under every API's assembly: it never panics, an error says
// something, and what it assembles decodes (or is refused) without a
// panic.
func FuzzAssembleStream(f *testing.F) {
	streams, apis := streamSamples(f)
	for i := range streams {
		f.Add(uint64(i), uint8(0), uint32(0), uint8(0), []byte(nil))
		f.Add(uint64(i), uint8(3), uint32(len(streams[i])/2), uint8(1), []byte("data: {\"type\":\"error\"}\n\n"))
	}
	f.Fuzz(func(t *testing.T, seed uint64, swaps uint8, cut uint32, apiPick uint8, extra []byte) {
		k := int(seed % uint64(len(streams)))
		rng := rand.New(rand.NewPCG(seed, uint64(swaps)))
		evs := splitEvents([]byte(streams[k]), func(s string) string { return s })
		for range int(swaps) % 8 {
			i, j := rng.IntN(len(evs)), rng.IntN(len(evs))
			evs[i], evs[j] = evs[j], evs[i]
		}
		var b strings.Builder
		for _, ev := range evs {
			b.Write(ev.bytes())
		}
		data := []byte(b.String())
		if cut > 0 {
			data = data[:int(cut)%(len(data)+1)]
		}
		data = append(data, extra...)
		api := apis[k]
		if apiPick%4 != 0 {
			api = []string{apiChat, apiMessages, apiResponses}[apiPick%3]
		}
		body, err := assembleStream(api, splitEvents(data, func(s string) string { return s }))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("assembled a body that is not JSON: %s", body)
		}
		evalkit.Decode(body) // must not panic
	})
}

// Every recorded stream assembles whole, under its own API's assembly.
func TestAssembleRecordedStreams(t *testing.T) {
	streams, apis := streamSamples(t)
	for i, s := range streams {
		body, err := assembleStream(apis[i], splitEvents([]byte(s), func(s string) string { return s }))
		if err != nil {
			t.Fatalf("stream %d (%s): %v", i, apis[i], err)
		}
		if _, err := evalkit.Decode(body); err != nil {
			t.Fatalf("stream %d (%s) assembles into a body that does not decode: %v", i, apis[i], err)
		}
	}
}
