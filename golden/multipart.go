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
		content, err := io.ReadAll(p)
		if err != nil {
			return nil, false
		}
		fp := FormPart{Name: p.FormName(), Filename: p.FileName(), ContentType: p.Header.Get("Content-Type")}
		switch {
		case fp.Name != "" && secret.Field(fp.Name) && len(content) > 0:
			fp.Value = secret.Redacted
		case fp.Filename == "" && utf8.Valid(content) && len(content) <= maxFormValue:
			fp.Value = clean(string(content))
		default:
			sum := sha256.Sum256(content)
			fp.SHA256, fp.Size = hex.EncodeToString(sum[:]), len(content)
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
