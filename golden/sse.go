package golden

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/secret"
)

// Design: a model streams its answer in pieces, one JSON-escaped "delta"
// per event, and a key it writes may be cut anywhere between two events
// ("sk-proj-Ab3d" in one, "Ef6h…" in the next). Redacting event by event
// lets it through, whole or in part. The text as a whole is what the
// client assembles: the decoded strings each event holds at one place in
// its JSON (choices.0.delta.content, delta.text, the arguments of a tool
// call), joined in order. sseRedactor keeps one secret.Stream per such
// place (its "channel"), and replaces each string with its part of the
// redacted whole: a secret is its label in the event where it starts and
// nothing in the events after. Data that is not JSON, and events kept
// raw, are channels of their own.
//
// A Transport uses two. The client gets each event once the text after
// it settles it (secret.Stream: its channels' text up to their last white
// space), as it will replay; if the live stream pauses for StreamIdle,
// what is held is passed on then, so a client waiting for an event is
// never stuck (a key cut by such a pause may then reach the client in
// part, as the live API sent it). The recording is made when the stream
// ends, from all its events together, so it holds no part of a key
// whatever the cuts and pauses.

// sseRedactor redacts the events of one live stream.
type sseRedactor struct {
	hook    func(string) string // the user's WithRedact, or nil
	chans   map[string]*secret.Stream
	pending []sseEvent
}

// sseEvent is an event received, not yet released.
type sseEvent struct {
	kind int    // one of the event kinds below
	name string // its "event:" name
	body string // the JSON data, the data text, or the whole raw event
	segs []sseSeg
}

// The kinds of event, as a recording keeps them (see Event).
const (
	eventJSON = iota
	eventText
	eventRaw
	eventBytes
	eventAsIs // raw, holding no text to redact
)

// sseSeg is where one of an event's strings lies in its channel; a nil
// channel is a credential field's value, replaced whole.
type sseSeg struct {
	ch       *secret.Stream
	from, to int
}

func newSSERedactor(hook func(string) string) *sseRedactor {
	return &sseRedactor{hook: hook, chans: map[string]*secret.Stream{}}
}

// add takes a whole event and returns the events that can be released,
// redacted, in order: with now, every event at once (the text after it is
// not waited for), else those whose text is settled (secret.Holdback).
func (r *sseRedactor) add(raw []byte, now bool) []Event {
	r.pending = append(r.pending, r.parse(raw))
	return r.release(now)
}

// finish returns every event held back: the stream has ended, or
// pauses.
func (r *sseRedactor) finish() []Event { return r.release(true) }

// held reports whether events are held back.
func (r *sseRedactor) held() bool { return len(r.pending) > 0 }

func (r *sseRedactor) channel(name string) *secret.Stream {
	ch := r.chans[name]
	if ch == nil {
		ch = &secret.Stream{}
		r.chans[name] = ch
	}
	return ch
}

// text adds s to a channel and returns its segment.
func (r *sseRedactor) text(channel, s string) sseSeg {
	ch := r.channel(channel)
	from := ch.Len()
	ch.WriteString(s)
	return sseSeg{ch: ch, from: from, to: ch.Len()}
}

// parse reads an event as a recording keeps it, and adds its text to
// the channels.
func (r *sseRedactor) parse(raw []byte) sseEvent {
	if !utf8.Valid(raw) {
		return sseEvent{kind: eventBytes, body: string(raw), segs: []sseSeg{r.text("bytes", string(raw))}}
	}
	text, ok := strings.CutSuffix(string(raw), "\n\n")
	if ok && !strings.ContainsAny(text, "\r") {
		lines := strings.Split(text, "\n")
		var name string
		if n, isName := strings.CutPrefix(lines[0], "event: "); isName && len(lines) == 2 && n != "" {
			name, lines = n, lines[1:]
		}
		if data, isData := strings.CutPrefix(lines[0], "data: "); isData && len(lines) == 1 {
			if json.Valid([]byte(data)) && isCompact(data) {
				ev := sseEvent{kind: eventJSON, name: name, body: data}
				_, err := rewriteJSONPath([]byte(data), func(path, field, s string) string {
					if field != "" && secret.Field(field) && len(s) >= secret.MinSecret {
						ev.segs = append(ev.segs, sseSeg{})
					} else {
						ev.segs = append(ev.segs, r.text("json:"+path, s))
					}
					return s
				})
				if err == nil {
					return ev
				}
			}
			if !json.Valid([]byte(data)) {
				if data == "" && name == "" {
					return sseEvent{kind: eventAsIs, body: string(raw)}
				}
				return sseEvent{kind: eventText, name: name, body: data, segs: []sseSeg{r.text("text", data)}}
			}
		}
	}
	return sseEvent{kind: eventRaw, body: string(raw), segs: []sseSeg{r.text("raw", string(raw))}}
}

// release settles every channel and returns the events at the head of
// the queue whose text is settled, built redacted.
func (r *sseRedactor) release(final bool) []Event {
	settled := make(map[*secret.Stream]int, len(r.chans))
	for _, ch := range r.chans {
		settled[ch] = ch.Settle(final)
	}
	var out []Event
	n := 0
	for _, ev := range r.pending {
		ready := true
		for _, sg := range ev.segs {
			if sg.ch != nil && sg.to > settled[sg.ch] {
				ready = false
				break
			}
		}
		if !ready {
			break
		}
		out = append(out, r.build(ev))
		n++
	}
	r.pending = r.pending[n:]
	// Forget the text no held event needs.
	keep := make(map[*secret.Stream]int, len(r.chans))
	for _, ev := range r.pending {
		for _, sg := range ev.segs {
			if sg.ch != nil {
				if k, ok := keep[sg.ch]; !ok || sg.from < k {
					keep[sg.ch] = sg.from
				}
			}
		}
	}
	for _, ch := range r.chans {
		if k, ok := keep[ch]; ok {
			ch.Discard(k)
		} else {
			ch.Discard(settled[ch])
		}
	}
	return out
}

// clean is the user's hook, after the built-in redaction.
func (r *sseRedactor) clean(s string) string {
	if r.hook != nil {
		return r.hook(s)
	}
	return s
}

// build makes the recorded event of ev, each of its strings its part of
// its channel's redacted text.
func (r *sseRedactor) build(ev sseEvent) Event {
	seg := func(sg sseSeg) string {
		if sg.ch == nil {
			return secret.Label("credential")
		}
		return r.clean(sg.ch.Text(sg.from, sg.to))
	}
	name := r.clean(secret.Clean(ev.name))
	switch ev.kind {
	case eventJSON:
		i := 0
		data, err := rewriteJSONPath([]byte(ev.body), func(_, _, _ string) string {
			s := seg(ev.segs[i])
			i++
			return s
		})
		if err == nil {
			return Event{Event: name, Data: data}
		}
		return Event{Raw: r.clean(secret.Clean(ev.body))} // not reached: it parsed before
	case eventText:
		return Event{Event: name, DataText: seg(ev.segs[0])}
	case eventBytes:
		return Event{RawBase64: []byte(seg(ev.segs[0]))}
	case eventAsIs:
		return Event{Raw: ev.body}
	}
	return Event{Raw: seg(ev.segs[0])}
}
