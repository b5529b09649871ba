package golden

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/evalkit-go/evalkit/internal/inputs"
)

// contentCodings returns the codings a Content-Encoding header lists, in
// the order they were applied, identity left out, lower case. A coding
// this package cannot undo (br, zstd, compress, ...) is an error: a body
// it cannot read is a body it cannot redact, so it is never recorded.
func contentCodings(h http.Header) ([]string, error) {
	var out []string
	for _, v := range h.Values("Content-Encoding") {
		for _, c := range strings.Split(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			switch c {
			case "", "identity":
			case "gzip", "x-gzip", "deflate":
				out = append(out, c)
			default:
				return nil, fmt.Errorf("Content-Encoding %q, which a recording cannot decode to redact: ask for gzip, deflate or identity (Accept-Encoding)", c)
			}
		}
	}
	return out, nil
}

// decodeBody undoes codings (see contentCodings) on a whole body, to at
// most the limit of a recording (EVALKIT_MAX_RECORDING_BYTES) decoded.
func decodeBody(codings []string, data []byte) ([]byte, error) {
	for i := len(codings) - 1; i >= 0; i-- {
		r, err := decoder(codings[i], bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("decoding its %s Content-Encoding: %w", codings[i], err)
		}
		// Decoded, a body is bounded as a recording is: a few kilobytes
		// of gzip can stand for gigabytes.
		limit, err := inputs.Recording.Value()
		if err != nil {
			return nil, err
		}
		out, err := io.ReadAll(io.LimitReader(r, limit+1))
		if err != nil {
			return nil, fmt.Errorf("decoding its %s Content-Encoding: %w", codings[i], err)
		}
		if int64(len(out)) > limit {
			return nil, fmt.Errorf("decoding its %s Content-Encoding: past %s decoded, the limit of a recording (%s raises it)", codings[i], inputs.Size(limit), inputs.Recording.Env)
		}
		data = out
	}
	return data, nil
}

// decoder reads r decoded from one coding. "deflate" is zlib's format, as
// HTTP defines it; a raw deflate stream, which some servers send, reads
// too.
func decoder(coding string, r io.Reader) (io.Reader, error) {
	if coding == "deflate" {
		br := bufio.NewReader(r)
		head, err := br.Peek(2)
		if err == nil && head[0]&0x0f == 8 && (uint(head[0])<<8|uint(head[1]))%31 == 0 {
			return zlib.NewReader(br)
		}
		return flate.NewReader(br), nil
	}
	return gzip.NewReader(r)
}

// decodedStream is a streamed body read decoded from its codings; the
// decoders are made on the first Read, so a stream that has sent nothing
// yet does not block the response.
type decodedStream struct {
	src     io.ReadCloser
	codings []string
	r       io.Reader
}

func (d *decodedStream) Read(p []byte) (int, error) {
	if d.r == nil {
		r := io.Reader(d.src)
		for i := len(d.codings) - 1; i >= 0; i-- {
			dr, err := decoder(d.codings[i], r)
			if err != nil {
				return 0, fmt.Errorf("decoding its %s Content-Encoding: %w", d.codings[i], err)
			}
			r = dr
		}
		d.r = r
	}
	return d.r.Read(p)
}

func (d *decodedStream) Close() error { return d.src.Close() }
