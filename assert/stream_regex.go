package assert

import (
	"bytes"
	"regexp/syntax"
	"unicode/utf8"
)

// What RE2 allows on a stream, soundly. Go's regexp (RE2) has no partial
// or resumable match: FindIndex needs the whole text, and re-running it on
// each longer prefix costs the square of the text. Scanning only a window
// of recent text is sound only for patterns of bounded length, and "^",
// "$" and \b read the text's edges, which a window moves. So a stream
// check runs the pattern's own RE2 program — parsed and compiled by
// regexp/syntax exactly as regexp.Compile does — in a small Pike VM of its
// own that keeps its threads between chunks: every character is read once,
// and memory is bounded by the program's size, whatever the pattern
// (unbounded repetition, alternation, anchors and boundaries included).
//
// Each position's zero-width assertions (^, $, \b, \B, (?m) line anchors)
// depend on the characters on both sides, so the VM closes a position only
// when the character after it has arrived, or at the end of the stream: a
// match is confirmed one character late, never wrongly, and a pattern
// anchored with $ or \z can only match at the end. What is reported is the
// first match to complete and, among those, the one starting first; a batch
// regexp reports the leftmost match, which may complete later. Both agree on
// whether the text matches, which is what the check decides.

// regexStream is an incremental RE2 matcher: a Pike VM over a compiled
// regexp/syntax program, fed characters with their stream positions.
type regexStream struct {
	prog    *syntax.Prog
	prefix  []byte // a literal every match begins with, to skip ahead to
	cur     threadSet
	arrived []thread // threads at the current position, awaiting its closure
	stack   []uint32
	prev    rune // the character before the current position; -1 at the start
}

type thread struct {
	pc    uint32
	start StreamPos
}

// threadSet is a sparse set of threads by program counter.
type threadSet struct {
	sparse []uint32
	dense  []thread
}

func (s *threadSet) has(pc uint32) bool {
	j := s.sparse[pc]
	return int(j) < len(s.dense) && s.dense[j].pc == pc
}

func (s *threadSet) insert(t thread) {
	s.sparse[t.pc] = uint32(len(s.dense))
	s.dense = append(s.dense, t)
}

type vmMatch struct{ start, end StreamPos }

// newRegexStream compiles pattern as regexp.Compile does; an invalid one is
// a *ParamError on param.
func newRegexStream(check, param, pattern string) (*regexStream, error) {
	if _, err := compileRegex(check, param, pattern); err != nil {
		return nil, err // the same error as the batch check's
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, paramErr(check, param, "invalid regular expression: %v", err)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, paramErr(check, param, "invalid regular expression: %v", err)
	}
	v := &regexStream{prog: prog, prev: -1}
	v.cur.sparse = make([]uint32, len(prog.Inst))
	if p, _ := prog.Prefix(); p != "" {
		v.prefix = []byte(p)
	}
	return v, nil
}

// feed runs the program over buf's bytes (whole characters, but at the end
// of the stream), their positions read from buf's spans. With atEOF it
// also closes the end position, end. It returns the first match to
// complete.
func (v *regexStream) feed(buf *spanBuf, atEOF bool, end StreamPos) (vmMatch, bool) {
	b := buf.b
	k := 0
	for i := 0; i < len(b); {
		if len(v.arrived) == 0 && v.prefix != nil {
			// No thread is alive: a match must start with the prefix.
			j := bytes.Index(b[i:], v.prefix)
			skip := i + j
			if j < 0 {
				skip = max(i, len(b)-len(v.prefix)+1)
				for skip > i && skip < len(b) && !utf8.RuneStart(b[skip]) {
					skip--
				}
			}
			if skip > i {
				v.prev, _ = utf8.DecodeLastRune(b[:skip])
				i = skip
				continue
			}
		}
		for k+1 < len(buf.spans) && buf.spans[k+1].at <= i {
			k++
		}
		sp := buf.spans[k]
		if !sp.unit {
			sp.raw += i - sp.at
		}
		r, w := utf8.DecodeRune(b[i:])
		if m, ok := v.step(r, sp.pos()); ok {
			return m, true
		}
		i += w
	}
	if atEOF {
		return v.closure(syntax.EmptyOpContext(v.prev, -1), end)
	}
	return vmMatch{}, false
}

// step closes the position before r (at pos), then moves the threads over r.
func (v *regexStream) step(r rune, pos StreamPos) (vmMatch, bool) {
	if m, ok := v.closure(syntax.EmptyOpContext(v.prev, r), pos); ok {
		return m, true
	}
	v.arrived = v.arrived[:0]
	for _, t := range v.cur.dense {
		inst := &v.prog.Inst[t.pc]
		var ok bool
		switch inst.Op {
		case syntax.InstRune:
			ok = inst.MatchRune(r)
		case syntax.InstRune1:
			ok = r == inst.Rune[0]
		case syntax.InstRuneAny:
			ok = true
		case syntax.InstRuneAnyNotNL:
			ok = r != '\n'
		}
		if ok {
			v.arrived = append(v.arrived, thread{inst.Out, t.start})
		}
	}
	v.prev = r
	return vmMatch{}, false
}

// closure follows the empty transitions from the arrived threads, then
// from a new thread starting at pos, under the assertions flags holds.
// Earlier threads come first, so a program counter reached twice keeps the
// earlier start. Reaching Match returns the match ending at pos.
func (v *regexStream) closure(flags syntax.EmptyOp, pos StreamPos) (vmMatch, bool) {
	v.cur.dense = v.cur.dense[:0]
	for _, t := range v.arrived {
		if m, ok := v.add(t, flags, pos); ok {
			return m, true
		}
	}
	return v.add(thread{uint32(v.prog.Start), pos}, flags, pos)
}

func (v *regexStream) add(t thread, flags syntax.EmptyOp, pos StreamPos) (vmMatch, bool) {
	v.stack = append(v.stack[:0], t.pc)
	for len(v.stack) > 0 {
		pc := v.stack[len(v.stack)-1]
		v.stack = v.stack[:len(v.stack)-1]
		if v.cur.has(pc) {
			continue
		}
		v.cur.insert(thread{pc, t.start})
		inst := &v.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			v.stack = append(v.stack, inst.Arg, inst.Out) // Out first: it has priority
		case syntax.InstCapture, syntax.InstNop:
			v.stack = append(v.stack, inst.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.Arg)&^flags == 0 {
				v.stack = append(v.stack, inst.Out)
			}
		case syntax.InstMatch:
			return vmMatch{start: t.start, end: pos}, true
		}
		// Rune instructions stay in cur, to step over the next character.
	}
	return vmMatch{}, false
}
