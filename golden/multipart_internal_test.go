package golden

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"runtime"
	"strings"
	"testing"
)

// formBody writes parts (name, filename, content type, content) as a
// multipart body under a boundary mime/multipart draws at random, and
// returns it with its Content-Type.
func formBody(t *testing.T, kind string, parts ...[4]string) ([]byte, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		disp := "form-data"
		if p[0] != "" {
			disp += fmt.Sprintf(`; name=%q`, p[0])
		}
		if p[1] != "" {
			disp += fmt.Sprintf(`; filename=%q`, p[1])
		}
		h.Set("Content-Disposition", disp)
		if p[2] != "" {
			h.Set("Content-Type", p[2])
		}
		pw, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		pw.Write([]byte(p[3]))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), "multipart/" + kind + "; boundary=" + w.Boundary()
}

// bodyKey is the key of a POST with body and its Content-Type.
func bodyKey(t *testing.T, body []byte, contentType string) string {
	t.Helper()
	parts, ok := parseMultipart(contentType, body, func(s string) string { return s })
	if !ok {
		return "raw:" + string(body)
	}
	tree, err := keyTree(HTTPRequest{Method: "POST", Path: "/v1/files", Multipart: parts}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return treeKey(tree)
}

// The multipart keys of hostile bodies: a part holding a multipart body of
// its own (its inner boundary drawn at random too) keys by its parts, not
// by its bytes; parts of one name keep their order; the boundary's text
// inside a part's content, a body whose boundary is not the one its
// Content-Type names, and a body that is not multipart at all are read as
// what they are.
func TestMultipartHostileKeys(t *testing.T) {
	// The inner part's Content-Type carries its boundary, as a client
	// writes it.
	nested := func(second string) [4]string {
		inner, ct := formBody(t, "mixed", [4]string{"", "a.txt", "text/plain", "first file"}, [4]string{"", "b.txt", "text/plain", second})
		return [4]string{"files", "", ct, string(inner)}
	}
	a1, ct1 := formBody(t, "form-data", [4]string{"purpose", "", "", "batch"}, nested("second file"))
	a2, ct2 := formBody(t, "form-data", [4]string{"purpose", "", "", "batch"}, nested("second file"))
	if bodyKey(t, a1, ct1) != bodyKey(t, a2, ct2) {
		t.Error("a nested multipart part keys by its random inner boundary: the upload never replays")
	}
	a3, ct3 := formBody(t, "form-data", [4]string{"purpose", "", "", "batch"}, nested("another file"))
	if bodyKey(t, a1, ct1) == bodyKey(t, a3, ct3) {
		t.Error("another file inside a nested multipart part keys alike")
	}

	x, ctx := formBody(t, "form-data", [4]string{"tag", "", "", "a"}, [4]string{"tag", "", "", "b"})
	y, cty := formBody(t, "form-data", [4]string{"tag", "", "", "b"}, [4]string{"tag", "", "", "a"})
	if bodyKey(t, x, ctx) == bodyKey(t, y, cty) {
		t.Error("parts of one name in another order key alike: the server reads them in order")
	}

	// The boundary's text inside a part, not at a line's start.
	b, ct := formBody(t, "form-data", [4]string{"note", "", "", "x"})
	boundary := ct[strings.Index(ct, "boundary=")+len("boundary="):]
	c, ctc := formBody(t, "form-data", [4]string{"note", "", "", "see --" + boundary + " here"})
	if parts, ok := parseMultipart(ctc, c, func(s string) string { return s }); !ok || len(parts) != 1 || parts[0].Value != "see --"+boundary+" here" {
		t.Errorf("the boundary's text inside a part: %+v %v", parts, ok)
	}
	// A Content-Type naming another boundary than the body's, or none.
	for _, bad := range []string{"multipart/form-data; boundary=other", "multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=\"" + strings.Repeat("x", 71) + "\"", "text/plain"} {
		if _, ok := parseMultipart(bad, b, func(s string) string { return s }); ok {
			t.Errorf("%s: read as multipart", bad)
		}
	}
	// Not multipart at all, labelled multipart.
	for _, body := range []string{"", "{\"a\": 1}", "--" + boundary + "\r\n", "--" + boundary + "--\r\n", "--" + boundary + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end"} {
		if parts, ok := parseMultipart(ct, []byte(body), func(s string) string { return s }); ok {
			t.Errorf("%q: read as parts %+v", body, parts)
		}
	}
}

// A large upload is keyed by streaming its file through SHA-256: parsing a
// 32 MiB file part allocated 64 MiB more (io.ReadAll's doubling copies of
// a body already in memory), which a recording run of a model's file
// upload paid for every request.
func TestMultipartLargeFileMemory(t *testing.T) {
	file := bytes.Repeat([]byte("0123456789abcdef"), 2<<20) // 32 MiB
	body, ct := formBody(t, "form-data", [4]string{"purpose", "", "", "batch"}, [4]string{"file", "big.bin", "application/octet-stream", string(file)})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	parts, ok := parseMultipart(ct, body, func(s string) string { return s })
	runtime.ReadMemStats(&after)
	if !ok || len(parts) != 2 || parts[0].Size != len(file) {
		t.Fatalf("parts %+v, %v", parts, ok)
	}
	sum := sha256.Sum256(file)
	if parts[0].SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("the file's digest is %s, want %x", parts[0].SHA256, sum)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("parsing a 32 MiB upload allocated %d MiB", got>>20)
	}
}
