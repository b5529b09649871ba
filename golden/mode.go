package golden

import (
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Mode says what a Recorder does with its recording. The modes are
// go-vcr v4's, named for what they do to a judge verdict.
type Mode int

const (
	// ModeReplay answers from the recording only, and never calls the live
	// judge: a request that is not recorded is an error wrapping
	// ErrNotRecorded. It writes nothing. The default, so that nothing in a
	// default go test reaches the network.
	ModeReplay Mode = iota
	// ModeRecord answers recorded requests from the recording and asks the
	// live judge the others, adding their verdicts; Save writes the
	// recording when something was added, and keeps every entry.
	ModeRecord
	// ModeRefresh asks the live judge every request once per Recorder,
	// even a recorded one; Save writes the recording with exactly the
	// entries asked for, so entries no request used are dropped.
	ModeRefresh
	// ModeLive asks the live judge every request and never reads or writes
	// a recording.
	ModeLive
)

// String returns "replay", "record", "refresh" or "live".
func (m Mode) String() string {
	switch m {
	case ModeReplay:
		return "replay"
	case ModeRecord:
		return "record"
	case ModeRefresh:
		return "refresh"
	case ModeLive:
		return "live"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode reads a mode as EVALKIT_MODE spells it: "replay", "record",
// "refresh" or "live", in any case and with surrounding space ignored; ""
// is ModeReplay. Anything else is an error naming the modes.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "replay":
		return ModeReplay, nil
	case "record":
		return ModeRecord, nil
	case "refresh":
		return ModeRefresh, nil
	case "live":
		return ModeLive, nil
	}
	return ModeReplay, fmt.Errorf("golden: unknown mode %s: want replay, record, refresh or live", textnorm.Quote(s, 40))
}

// Origin says where a verdict came from (see Recorder.JudgeOrigin).
type Origin int

const (
	// OriginLive: the live judge answered, and nothing was recorded
	// (ModeLive).
	OriginLive Origin = iota
	// OriginReplayed: the verdict was read from the recording.
	OriginReplayed
	// OriginRecorded: the live judge answered, and its verdict was added
	// to the recording (ModeRecord, ModeRefresh).
	OriginRecorded
)

// String returns "live", "replayed" or "recorded".
func (o Origin) String() string {
	switch o {
	case OriginLive:
		return "live"
	case OriginReplayed:
		return "replayed"
	case OriginRecorded:
		return "recorded"
	}
	return fmt.Sprintf("Origin(%d)", int(o))
}
