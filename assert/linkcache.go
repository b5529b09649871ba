package assert

import (
	"sync"

	"github.com/evalkit-go/evalkit"
)

// Link once: the tool checks of one transcript (tools_called, tool_args,
// tool_call_sequence, no_tool_errors, ...) share its calls linked to their
// results, through a small process-wide cache, instead of each linking
// them again (Transcript.ToolCalls, Turn.ToolCalls, OrphanResults).
//
// Why it is correct: the Transcript holds nothing (DESIGN.md: views are
// methods, never stored copies), and a user may build a transcript by hand
// and change its messages between two checks. So an entry keeps, beside
// the linked calls, what linking read of every message (whether it is the
// assistant's, a tool's or another's; each call's id, name, arguments and
// message; each tool message's call id, name, content, parts and
// is_error), and is used only when the messages still hold exactly those: strings compare by value (in constant time when unchanged),
// slices by identity (a view shares a message's Parts and a call's Args,
// as Transcript.ToolCalls does, so a change made in place shows in both).
// Anything else links again. The shared calls and results are read, never
// written, by the checks; no check returns them to its caller.
//
// Memory: at most maxLinkedEntries transcripts (or turns) and
// maxLinkedMessages messages in all; a longer one is linked and not kept.
// Eviction is first in, first out. Safe for concurrent use.
const (
	maxLinkedEntries  = 8
	maxLinkedMessages = 1 << 17
)

// linkKey finds an entry: the messages' first element, their number, and
// the index of the first in the transcript (for MessageIndex).
type linkKey struct {
	first     *evalkit.Message
	n, offset int
}

// linkEntry is one list of messages with its calls linked.
type linkEntry struct {
	key   linkKey
	calls []evalkit.ToolCall // read only
	roles []byte             // each message's role as linking reads it: 'a'ssistant, 't'ool or '-'
	tools []toolSnap         // the tool messages, in order

	orphansOnce sync.Once
	orphans     []evalkit.ToolResult // read only, made on first use
}

// toolSnap is what linking read of a tool message.
type toolSnap struct {
	toolCallID, name, content string
	parts                     []evalkit.Part
	isError                   bool
	index                     int // in the messages
}

var linkCache struct {
	sync.Mutex
	entries []*linkEntry
	msgs    int
}

// linked returns msgs's calls linked to their results, as
// Turn{Start: offset, Messages: msgs}.ToolCalls would, from the cache when
// the messages are unchanged. The entry must not be modified.
func linked(msgs []evalkit.Message, offset int) *linkEntry {
	if len(msgs) == 0 {
		return &linkEntry{}
	}
	key := linkKey{&msgs[0], len(msgs), offset}
	linkCache.Lock()
	var hit *linkEntry
	for _, e := range linkCache.entries {
		if e.key == key {
			hit = e
			break
		}
	}
	linkCache.Unlock()
	if hit != nil && hit.holds(msgs) {
		return hit
	}
	e := newLinkEntry(msgs, offset)
	if len(msgs) > maxLinkedMessages {
		return e
	}
	linkCache.Lock()
	defer linkCache.Unlock()
	for i, old := range linkCache.entries {
		if old.key == key { // stale: replace it
			linkCache.entries[i] = e
			return e
		}
	}
	for len(linkCache.entries) > 0 && (len(linkCache.entries) >= maxLinkedEntries || linkCache.msgs+len(msgs) > maxLinkedMessages) {
		linkCache.msgs -= len(linkCache.entries[0].roles)
		linkCache.entries[0] = nil
		linkCache.entries = linkCache.entries[1:]
	}
	linkCache.entries = append(linkCache.entries, e)
	linkCache.msgs += len(msgs)
	return e
}

func newLinkEntry(msgs []evalkit.Message, offset int) *linkEntry {
	e := &linkEntry{key: linkKey{&msgs[0], len(msgs), offset}, roles: make([]byte, len(msgs))}
	e.calls = evalkit.Turn{Start: offset, Messages: msgs}.ToolCalls()
	e.calls = e.calls[:len(e.calls):len(e.calls)] // an append by a reader copies
	n := 0
	for k := range msgs {
		if msgs[k].Role == evalkit.RoleTool {
			n++
		}
	}
	e.tools = make([]toolSnap, 0, n)
	for k := range msgs {
		switch m := &msgs[k]; m.Role {
		case evalkit.RoleAssistant:
			e.roles[k] = 'a'
		case evalkit.RoleTool:
			e.roles[k] = 't'
			e.tools = append(e.tools, toolSnap{toolCallID: m.ToolCallID, name: m.Name, content: m.Content,
				parts: m.Parts, isError: m.IsError, index: k})
		default:
			e.roles[k] = '-'
		}
	}
	return e
}

// holds reports whether msgs are still what e was linked from: the same
// roles (as linking tells them apart), the same calls on the assistant
// messages, the same tool messages.
func (e *linkEntry) holds(msgs []evalkit.Message) bool {
	if len(msgs) != len(e.roles) {
		return false
	}
	c, t := 0, 0
	for k := range msgs {
		switch m := &msgs[k]; m.Role {
		case evalkit.RoleAssistant:
			if e.roles[k] != 'a' || c+len(m.ToolCalls) > len(e.calls) {
				return false
			}
			for j := range m.ToolCalls {
				mc, vc := &m.ToolCalls[j], &e.calls[c]
				if mc.ID != vc.ID || mc.Name != vc.Name || !sameSlice(mc.Args, vc.Args) || vc.MessageIndex != e.key.offset+k {
					return false
				}
				c++
			}
		case evalkit.RoleTool:
			if e.roles[k] != 't' {
				return false
			}
			s := &e.tools[t]
			if m.ToolCallID != s.toolCallID || m.Name != s.name || m.IsError != s.isError ||
				m.Content != s.content || !sameSlice(m.Parts, s.parts) {
				return false
			}
			t++
		default:
			if e.roles[k] != '-' {
				return false
			}
		}
	}
	return c == len(e.calls) && t == len(e.tools)
}

// sameSlice reports whether a and b are the same slice: the same elements
// in memory, the same length and capacity (nil and empty differ).
func sameSlice[T any](a, b []T) bool {
	if len(a) != len(b) || cap(a) != cap(b) || (a == nil) != (b == nil) {
		return false
	}
	return cap(a) == 0 || &a[:1][0] == &b[:1][0]
}

// orphanResults is the entry's OrphanResults: its tool messages that no
// call's result is, each as its own ToolResult (its name its own), made
// once.
func (e *linkEntry) orphanResults() []evalkit.ToolResult {
	e.orphansOnce.Do(func() {
		answered := make(map[int]bool, len(e.calls))
		for _, c := range e.calls {
			if c.Result != nil {
				answered[c.Result.MessageIndex] = true
			}
		}
		for _, s := range e.tools {
			if i := e.key.offset + s.index; !answered[i] {
				e.orphans = append(e.orphans, evalkit.ToolResult{CallID: s.toolCallID, Name: s.name,
					Content: s.content, Parts: s.parts, IsError: s.isError, MessageIndex: i})
			}
		}
	})
	return e.orphans
}
