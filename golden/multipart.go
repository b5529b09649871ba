package golden

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/secret"
)

// FormPart is one part of a multipart request body (Content-Type
// multipart/form-data, as an audio transcription or a file upload sends;
// multipart/related, as a resumable upload's metadata and media do), as a
// recording keeps it and keys it: never by the boundary, which a client
// draws at random for every request, so an upload recorded once replays.
type FormPart struct {
	// Name is the part's form field name ("file", "model"), "" for a part
	// without one (multipart/related).
	Name string `json:"name,omitempty"`
	// Filename is the uploaded file's name, without its directories.
	Filename string `json:"filename,omitempty"`
	// ContentType is the part's own Content-Type, when it has one.
	ContentType string `json:"content_type,omitempty"`
	// Value is a field's text (a part without a file name, UTF-8, up to
	// maxFormValue bytes), credentials redacted: "whisper-1", "en".
	Value string `json:"value,omitempty"`
	// SHA256 is the hex SHA-256 of a file's content (or of a field that is
	// long or not text), and Size its length in bytes: a different file
	// keys differently, and its bytes are not written into the recording.
	SHA256 string `json:"sha256,omitempty"`
	Size   int    `json:"size,omitempty"`
}

// maxFormValue bounds a form field kept as text: a longer one is kept as
// its digest, as a file is.
const maxFormValue = 4096

// parseMultipart reads a multipart body into its parts, as a recording
// keeps them: sorted by name (parts of one name, and parts without a name,
// keep their order), a credential field's value ("api_key", ...:
// secret.Field) redacted, text passed through clean. ok is false when
// contentType is not multipart with a boundary, or body does not read as
// one: the body is then kept as it is.
func parseMultipart(contentType string, body []byte, clean func(string) string) (parts []FormPart, ok bool) {
	return parseMultipartAt(contentType, body, clean, 0)
}

// maxMultipartDepth bounds how deep parts holding multipart bodies of
// their own are read; deeper ones are keyed by their bytes.
const maxMultipartDepth = 4

func parseMultipartAt(contentType string, body []byte, clean func(string) string, depth int) (parts []FormPart, ok bool) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || !strings.HasPrefix(mt, "multipart/") || params["boundary"] == "" {
		return nil, false
	}
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		p, err := r.NextRawPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, false
		}
		fp := FormPart{Name: p.FormName(), Filename: p.FileName(), ContentType: p.Header.Get("Content-Type")}
		nested := depth < maxMultipartDepth && isMultipart(fp.ContentType)
		// The part's first bytes, which are all of a field's; a file's
		// rest is streamed through its digest, never copied: the body is
		// in memory already.
		limit := int64(maxFormValue + 1)
		if nested {
			limit = int64(len(body))
		}
		content, err := io.ReadAll(io.LimitReader(p, limit))
		if err != nil {
			return nil, false
		}
		var inner []FormPart
		if nested {
			inner, _ = parseMultipartAt(fp.ContentType, content, clean, depth+1)
		}
		switch {
		case fp.Name != "" && secret.Field(fp.Name) && len(content) > 0:
			fp.Value = secret.Redacted
			if _, err := io.Copy(io.Discard, p); err != nil {
				return nil, false
			}
		case inner != nil:
			// A multipart body of its own (multipart/mixed files, say),
			// under a boundary drawn at random too: its digest is of its
			// parts as they key, and its type is kept without the boundary.
			sum := sha256.Sum256(mustCanonical(multipartTree(inner, nil)))
			fp.SHA256, fp.Size = hex.EncodeToString(sum[:]), len(content)
			fp.ContentType = withoutBoundary(fp.ContentType)
		case fp.Filename == "" && len(content) <= maxFormValue && utf8.Valid(content):
			fp.Value = clean(string(content))
		default:
			h := sha256.New()
			h.Write(content)
			n, err := io.Copy(h, p)
			if err != nil {
				return nil, false
			}
			fp.SHA256, fp.Size = hex.EncodeToString(h.Sum(nil)), len(content)+int(n)
		}
		fp.Name, fp.Filename, fp.ContentType = clean(fp.Name), clean(fp.Filename), clean(fp.ContentType)
		parts = append(parts, fp)
		p.Close()
	}
	if len(parts) == 0 {
		return nil, false
	}
	slices.SortStableFunc(parts, func(a, b FormPart) int { return strings.Compare(a.Name, b.Name) })
	return parts, true
}

// isMultipart reports whether contentType is multipart with a boundary.
func isMultipart(contentType string) bool {
	mt, params, err := mime.ParseMediaType(contentType)
	return err == nil && strings.HasPrefix(mt, "multipart/") && params["boundary"] != ""
}

// withoutBoundary is a media type without its boundary parameter.
func withoutBoundary(contentType string) string {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return contentType
	}
	delete(params, "boundary")
	return mime.FormatMediaType(mt, params)
}

// multipartTree is what a multipart body keys by: each part's name, file
// name, content type and value or digest, credential fields and fields
// ignore names (a path of one field name) left out.
func multipartTree(parts []FormPart, ignore [][]string) []any {
	out := make([]any, 0, len(parts))
	for _, p := range parts {
		if p.Name != "" && (secret.Field(p.Name) || slices.ContainsFunc(ignore, func(path []string) bool { return len(path) == 1 && path[0] == p.Name })) {
			continue
		}
		m := map[string]any{"name": p.Name}
		if p.Filename != "" {
			m["filename"] = p.Filename
		}
		if p.ContentType != "" {
			m["content_type"] = p.ContentType
		}
		if p.SHA256 != "" {
			m["sha256"] = p.SHA256
		} else {
			m["value"] = p.Value
		}
		out = append(out, m)
	}
	return out
}
